// SPDX-License-Identifier: Apache-2.0
#include "app/io/path_text.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::app {
namespace {

using nlohmann::json;

// Names that are not UTF-8, and UTF-8 names that look like escapes.
const std::vector<std::string> kAwkward = {
    "caf\xe9.png",       // Latin-1
    "\xc0\xaf",          // overlong '/'
    "\xe0\x80\xaf",      // overlong '/' in three bytes
    "\xf0\x80\x80\xaf",  // overlong in four bytes
    "\xed\xa0\x80",      // a UTF-16 surrogate (U+D800) encoded as UTF-8
    "\xed\xbf\xbf.tif",  // the last surrogate
    "\xf4\x90\x80\x80",  // past U+10FFFF
    "\xf5\x80\x80\x80",
    "\xe2\x82",  // a sequence cut short
    "\xe2\x82"
    "a",
    "\x80\xbf",  // lone continuation bytes
    "\xfe\xff",
    "caf\\xe9.png",  // the text "\xe9", which is UTF-8
    "100%.png",
    "%E9.png",  // looks like a percent form, is a plain name
    "%",
    "%%25",
    "\xe9%E9\\xE9",
    std::string("a\0b", 3),
    "caf\xc3\xa9.png",   // UTF-8 é
    "\xf0\x9f\x98\x80",  // U+1F600
    "\xef\xbf\xbd",      // U+FFFD itself
    "",
};

TEST(PathText, WellFormedUtf8IsRecognisedStrictly)
{
    EXPECT_TRUE(isUtf8(""));
    EXPECT_TRUE(isUtf8("plain/name.png"));
    EXPECT_TRUE(isUtf8("caf\xc3\xa9"));
    EXPECT_TRUE(isUtf8("\xed\x9f\xbf"));      // U+D7FF, just below the surrogates
    EXPECT_TRUE(isUtf8("\xee\x80\x80"));      // U+E000, just above them
    EXPECT_TRUE(isUtf8("\xf4\x8f\xbf\xbf"));  // U+10FFFF
    EXPECT_TRUE(isUtf8("\xe0\xa0\x80"));      // U+0800, the shortest three-byte form
    EXPECT_TRUE(isUtf8("\xf0\x90\x80\x80"));  // U+10000
    for (const char* bad : {"caf\xe9", "\xc0\xaf", "\xc1\xbf", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xf0\x8f\xbf\xbf",
                            "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\xe2\x82", "\x80", "\xff"}) {
        EXPECT_FALSE(isUtf8(bad)) << json(utf8Text(bad)).dump();
    }
}

TEST(PathText, TextReplacesEachStrayByteAndKeepsTheRest)
{
    EXPECT_EQ(utf8Text("caf\xe9.png"), "caf\xef\xbf\xbd.png");
    EXPECT_EQ(utf8Text("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    EXPECT_EQ(utf8Text("caf\xc3\xa9"), "caf\xc3\xa9");
    EXPECT_EQ(utf8Text("\xe2\x82"
                       "a"),
              "\xef\xbf\xbd\xef\xbf\xbd"
              "a");
}

TEST(PathText, PercentFormEscapesOnlyStrayBytesAndPercent)
{
    EXPECT_EQ(percentEncodeName("caf\xe9.png"), "caf%E9.png");
    EXPECT_EQ(percentEncodeName("100%.png"), "100%25.png");
    EXPECT_EQ(percentEncodeName("caf\\xe9.png"), "caf\\xe9.png");
    EXPECT_EQ(percentEncodeName("caf\xc3\xa9 \xe9"), "caf\xc3\xa9 %E9");
    EXPECT_EQ(percentEncodeName("\xed\xa0\x80"), "%ED%A0%80");
    EXPECT_EQ(percentDecodeName("caf%e9.png"), "caf\xe9.png");
    for (const char* bad : {"%", "%E", "a%G0", "%0", "x%%"}) {
        EXPECT_THROW(percentDecodeName(bad), std::invalid_argument) << bad;
    }
}

TEST(PathText, AwkwardNamesRoundTrip)
{
    for (const std::string& name : kAwkward) {
        const std::string encoded = percentEncodeName(name);
        EXPECT_TRUE(isUtf8(encoded)) << encoded;
        EXPECT_EQ(percentDecodeName(encoded), name) << encoded;
        EXPECT_TRUE(isUtf8(utf8Text(name)));
    }
}

TEST(PathText, RandomBytesRoundTripThroughJsonText)
{
    const std::uint32_t seed = std::random_device{}();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    // Bytes drawn mostly from the lead and continuation ranges, so that near-valid sequences are common.
    const std::string alphabet = std::string("a/%\\x.E9", 8) + "\x80\xa0\xbf\xc0\xc2\xdf\xe0\xed\xef\xf0\xf4\xf5\xff";
    std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
    std::uniform_int_distribution<int> anyByte(0, 255);
    std::uniform_int_distribution<int> length(0, 24);
    for (int n = 0; n < 3000; ++n) {
        std::string name;
        for (int i = length(rng); i > 0; --i) {
            name += n % 2 == 0 ? alphabet[pick(rng)] : static_cast<char>(anyByte(rng));
        }
        // isUtf8 agrees with the JSON library's own strict check.
        bool strictDumps = true;
        try {
            (void)json(name).dump();
        } catch (const json::exception&) {
            strictDumps = false;
        }
        ASSERT_EQ(isUtf8(name), strictDumps) << percentEncodeName(name);

        json object = json::object();
        putPath(object, "input", name);
        EXPECT_EQ(object.contains("input_bytes"), !isUtf8(name));
        const json back = json::parse(jsonText(object, 2));
        ASSERT_EQ(pathFrom(back, "input"), name) << jsonText(object);
        nlohmann::ordered_json ordered = nlohmann::ordered_json::object();
        putPath(ordered, "output", name);
        ASSERT_EQ(pathFrom(nlohmann::ordered_json::parse(jsonText(ordered)), "output"), name);
    }
}

TEST(PathText, ValidNamesAreWrittenAsTheyAre)
{
    json object = json::object();
    putPath(object, "input", "%E9\\xe9 caf\xc3\xa9.png");
    EXPECT_EQ(object.dump(), R"({"input":"%E9\\xe9 caf)"
                             "\xc3\xa9"
                             R"(.png"})");
    EXPECT_EQ(pathFrom(object, "input"), "%E9\\xe9 caf\xc3\xa9.png");
    putPath(object, "input", "caf\xe9");
    EXPECT_EQ(object.dump(), R"({"input":"caf)"
                             "\xef\xbf\xbd"
                             R"(","input_bytes":"caf%E9"})");
    putPath(object, "input", "plain");  // the byte form of the earlier value goes
    EXPECT_EQ(object.dump(), R"({"input":"plain"})");
}

TEST(PathText, MalformedByteFormsAreRefusedByName)
{
    const auto message = [](const json& object) {
        try {
            (void)pathFrom(object, "input");
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message(json::object()).find("\"input\" is missing"), std::string::npos);
    EXPECT_NE(message(json{{"input", 3}}).find("\"input\""), std::string::npos);
    EXPECT_NE(message(json{{"input", "caf\xef\xbf\xbd"}, {"input_bytes", 7}}).find("\"input_bytes\" is not a string"),
              std::string::npos);
    EXPECT_NE(message(json{{"input", "caf\xef\xbf\xbd"}, {"input_bytes", "caf%G9"}}).find("not a percent-encoded"),
              std::string::npos);
    EXPECT_NE(message(json{{"input", "renamed.png"}, {"input_bytes", "caf%E9"}}).find("does not match"),
              std::string::npos);
}

TEST(PathText, JsonTextNeverFailsOnAMessageNamingSuchAFile)
{
    const json doc{{"error", "caf\xe9.png: cannot decode"}};
    EXPECT_THROW((void)doc.dump(), json::exception);
    EXPECT_EQ(jsonText(doc), R"({"error":"caf)"
                             "\xef\xbf\xbd"
                             R"(.png: cannot decode"})");
}

}  // namespace
}  // namespace tessera::app
