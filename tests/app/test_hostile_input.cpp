// SPDX-License-Identifier: Apache-2.0
// What the attack run of issue 19 found in names, folders and files given to tessera-cli: long
// legal names, the output folder however spelt, files a batch cannot read.
#include "app/batch/batch_inputs.h"
#include "app/batch/batch_report.h"
#include "app/io/image_io.h"
#include "batch_test_data.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace tessera::test {
namespace {

std::vector<std::string> hiddenIn(const fs::path& folder)
{
    std::vector<std::string> names;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (name.front() == '.') {
            names.push_back(name);
        }
    }
    return names;
}

void smallImage(const std::string& path, std::uint32_t seed = 1)
{
    std::mt19937 rng(seed);
    app::writeImage(path, randomImage(rng, 7, 9, CV_8UC3));
}

class LongName : public ::testing::TestWithParam<std::size_t> {};

TEST_P(LongName, AnOutputNameUpTo255BytesIsWritten)
{
    const std::size_t bytes = GetParam();
    TempFolder dir("long-name");
    const std::string input = dir.file("in.png");
    smallImage(input);
    const std::string name = std::string(bytes - 4, 'n') + ".png";
    const CliRun r = cli(dir, "apply " + quoted(input) + " -o " + quoted(dir.file(name)) + " --kernel 1");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir.path() / name));
    EXPECT_TRUE(hiddenIn(dir.path()).empty());
}

TEST_P(LongName, AReportNameUpTo255BytesIsWritten)
{
    const std::size_t bytes = GetParam();
    TempFolder dir("long-report");
    const std::string name = std::string(bytes - 5, 'r') + ".json";
    app::saveTextFile(dir.file(name), "{}\n");
    EXPECT_EQ(readBytes(dir.path() / name), "{}\n");
    EXPECT_TRUE(hiddenIn(dir.path()).empty());
}

INSTANTIATE_TEST_SUITE_P(Bytes, LongName,
                         ::testing::Values(std::size_t{243}, std::size_t{244}, std::size_t{250}, std::size_t{255}));

/// The run's report, parsed.
nlohmann::json report(const std::string& path)
{
    return nlohmann::json::parse(readBytes(path));
}

/// rin/ with two images, a sub-folder with one, and the output folder as `out` inside it.
struct RecursiveTree {
    explicit RecursiveTree(const TempFolder& dir)
    {
        fs::create_directories(dir.path() / "rin" / "sub");
        smallImage(dir.file("rin/a.png"), 1);
        smallImage(dir.file("rin/b.png"), 2);
        smallImage(dir.file("rin/sub/c.png"), 3);
    }
};

class OwnOutputFolder : public ::testing::TestWithParam<std::string> {};

TEST_P(OwnOutputFolder, ARecursiveRerunRecognisesItHoweverSpelt)
{
    TempFolder dir("own-output");
    RecursiveTree tree(dir);
    fs::create_directory(dir.path() / "rin" / "out");
    fs::create_directory_symlink(dir.path() / "rin" / "out", dir.path() / "link");
    const std::string output = GetParam() == "link" ? dir.file("link") : dir.file(GetParam());
    for (int run = 0; run < 2; ++run) {
        const std::string rep = dir.file("report" + std::to_string(run) + ".json");
        const CliRun r = cli(dir, "batch " + quoted(dir.file("rin")) + " --recursive -o " + quoted(output) +
                                      " --filter box --report " + quoted(rep));
        ASSERT_EQ(r.code, 0) << "run " << run << ": " << r.err;
        const auto doc = report(rep);
        EXPECT_EQ(doc["total"], 3) << "run " << run << ": an earlier output was taken as an input\n" << doc.dump(1);
        EXPECT_EQ(doc["ok"], run == 0 ? 3 : 0);
        EXPECT_EQ(doc["skipped"], run == 0 ? 0 : 3);
    }
}

INSTANTIATE_TEST_SUITE_P(Spellings, OwnOutputFolder, ::testing::Values("rin/out/", "rin/out", "rin/./out//", "link"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                             std::string name;
                             for (char c : p.param) {
                                 name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                             }
                             return name + "_" + std::to_string(p.index);
                         });

TEST(UnsupportedInputs, ABatchSaysWhichFilesInAFolderItSkippedAndWhy)
{
    TempFolder dir("unsupported");
    fs::create_directory(dir.path() / "in");
    smallImage(dir.file("in/a.png"));
    writeBytes(dir.path() / "in" / "b.gif", "GIF89a\x01\x00\x01\x00\x00\x00\x00;");
    writeBytes(dir.path() / "in" / "c.jp2", std::string("\x00\x00\x00\x0cjP  \r\n\x87\n", 12));
    writeBytes(dir.path() / "in" / "README", "notes");
    const std::string rep = dir.file("report.json");
    const CliRun r = cli(dir, "batch " + quoted(dir.file("in")) + " -o " + quoted(dir.file("out")) +
                                  " --filter box --report " + quoted(rep));
    EXPECT_EQ(r.code, 0) << r.err;
    for (const std::string name : {"b.gif", "c.jp2", "README"}) {
        const std::string line = "skipped: " + dir.file("in/" + name) + ": not read: ";
        EXPECT_NE(r.err.find(line), std::string::npos) << name << "\n" << r.err;
    }
    EXPECT_NE(r.err.find("'.gif' is not a format Tessera reads"), std::string::npos) << r.err;
    const auto doc = report(rep);
    EXPECT_EQ(doc["ok"], 1);
    EXPECT_EQ(doc["skipped"], 3);
    int reasons = 0;
    for (const auto& f : doc["files"]) {
        if (f["status"] == "skipped") {
            reasons += f["error"].get<std::string>().find("not read") != std::string::npos;
        }
    }
    EXPECT_EQ(reasons, 3) << doc.dump(1);
}

TEST(UnsupportedInputs, AFolderWithNoImageIsRefusedSayingWhatItHolds)
{
    TempFolder dir("only-gif");
    fs::create_directory(dir.path() / "in");
    writeBytes(dir.path() / "in" / "b.gif", "GIF89a");
    const CliRun r = cli(dir, "batch " + quoted(dir.file("in")) + " -o " + quoted(dir.file("out")) + " --filter box");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("b.gif"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tessera::test

namespace tessera::test {
namespace {

TEST(UnsupportedInputs, ExpandingAFolderListsItsOtherFilesAsSkippedNotHiddenOnes)
{
    TempFolder dir("expand-skipped");
    for (const char* name : {"a.png", "notes.txt", ".hidden.txt", "anim.GIF"}) {
        writeBytes(dir.path() / name, "x");
    }
    fs::create_directory(dir.path() / "sub");
    const auto inputs = app::expandInputs({dir.path().string()}, false);
    ASSERT_EQ(inputs.size(), 3u);
    EXPECT_EQ(fs::path(inputs[0].path).filename(), "a.png");
    EXPECT_TRUE(inputs[0].skipped.empty());
    EXPECT_EQ(fs::path(inputs[1].path).filename(), "anim.GIF");
    EXPECT_NE(inputs[1].skipped.find("'.GIF' is not a format Tessera reads"), std::string::npos) << inputs[1].skipped;
    EXPECT_EQ(fs::path(inputs[2].path).filename(), "notes.txt");
    EXPECT_FALSE(inputs[2].skipped.empty());
}

}  // namespace
}  // namespace tessera::test

namespace tessera::test {
namespace {

/// An uncompressed little-endian TIFF, 8 bits a sample, `samples` per pixel, the ones past the
/// first `colour` marked as extra samples (2: unassociated alpha, 0: unspecified).
std::string tiffWith(int samples, int colour, int extraKind, int width = 7, int height = 5)
{
    std::string out("II*\0\0\0\0\0", 8);
    auto put16 = [](std::string& s, std::uint32_t v) {
        s += static_cast<char>(v & 0xFF);
        s += static_cast<char>(v >> 8);
    };
    auto put32 = [&](std::string& s, std::uint32_t v) {
        put16(s, v & 0xFFFF);
        put16(s, v >> 16);
    };
    const std::uint32_t dataOffset = 8;
    const std::uint32_t dataBytes = static_cast<std::uint32_t>(width * height * samples);
    for (std::uint32_t i = 0; i < dataBytes; ++i) {
        out += static_cast<char>((i * 37) & 0xFF);
    }
    const std::uint32_t bitsOffset = static_cast<std::uint32_t>(out.size());
    for (int i = 0; i < samples; ++i) {
        put16(out, 8);
    }
    const std::uint32_t extraOffset = static_cast<std::uint32_t>(out.size());
    const int extras = samples - colour;
    for (int i = 0; i < extras; ++i) {
        put16(out, static_cast<std::uint32_t>(extraKind));
    }
    if (out.size() % 2 != 0) {
        out += '\0';
    }
    const std::uint32_t ifd = static_cast<std::uint32_t>(out.size());
    out[4] = static_cast<char>(ifd & 0xFF);
    out[5] = static_cast<char>((ifd >> 8) & 0xFF);
    out[6] = static_cast<char>((ifd >> 16) & 0xFF);
    out[7] = static_cast<char>(ifd >> 24);
    struct Entry {
        std::uint32_t tag, type, count, value;
        bool inlineShorts;
    };
    std::vector<Entry> entries{
        {256, 3, 1, static_cast<std::uint32_t>(width), true},
        {257, 3, 1, static_cast<std::uint32_t>(height), true},
        {258, 3, static_cast<std::uint32_t>(samples), samples <= 2 ? 0x00080008u : bitsOffset, samples <= 2},
        {259, 3, 1, 1, true},
        {262, 3, 1, colour == 3 ? 2u : 1u, true},
        {273, 4, 1, dataOffset, false},
        {277, 3, 1, static_cast<std::uint32_t>(samples), true},
        {278, 3, 1, static_cast<std::uint32_t>(height), true},
        {279, 4, 1, dataBytes, false},
        {284, 3, 1, 1, true},
    };
    if (extras > 0) {
        entries.push_back({338, 3, static_cast<std::uint32_t>(extras),
                           extras <= 2 ? (static_cast<std::uint32_t>(extraKind) |
                                          (extras == 2 ? static_cast<std::uint32_t>(extraKind) << 16 : 0u))
                                       : extraOffset,
                           extras <= 2});
    }
    put16(out, static_cast<std::uint32_t>(entries.size()));
    for (const Entry& e : entries) {
        put16(out, e.tag);
        put16(out, e.type);
        put32(out, e.count);
        put32(out, e.value);  // little-endian: a SHORT sits in the first two bytes
    }
    put32(out, 0);
    return out;
}

TEST(HostileTiff, AGreyAlphaTiffIsReadWithItsAlphaNotAsGrey)
{
    // Once refused because the decoder dropped the alpha without a word; libtiff's own reader
    // keeps it, so the image arrives as grey + alpha (held as BGRA), never as plain grey.
    TempFolder dir("tiff-ga");
    const std::string path = dir.file("ga.tif");
    writeBytes(path, tiffWith(2, 1, 2));
    const cv::Mat img = app::readImage(path);
    ASSERT_EQ(img.channels(), 4);
    std::vector<cv::Mat> planes;
    cv::split(img, planes);
    EXPECT_EQ(cv::norm(planes[0], planes[1], cv::NORM_INF), 0.0);
    EXPECT_EQ(cv::norm(planes[0], planes[2], cv::NORM_INF), 0.0);
    const CliRun r = cli(dir, "apply " + quoted(path) + " -o " + quoted(dir.file("out.png")) + " --kernel 1");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(app::readImage(dir.file("out.png")).channels(), 4);
}

TEST(HostileTiff, FiveAndEightChannelTiffsAreAnUnsupportedChannelCountNotCorrupt)
{
    TempFolder dir("tiff-many");
    for (int samples : {5, 8}) {
        const std::string path = dir.file("c" + std::to_string(samples) + ".tif");
        writeBytes(path, tiffWith(samples, 3, 0));
        try {
            app::readImage(path);
            FAIL() << samples << " channels were read";
        } catch (const app::ImageError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("unsupported channel count"), std::string::npos) << what;
            EXPECT_NE(what.find(std::to_string(samples) + " channels"), std::string::npos) << what;
            EXPECT_EQ(what.find("corrupt"), std::string::npos) << what;
        }
    }
}

TEST(HostileTiff, OrdinaryTiffsStillRead)
{
    TempFolder dir("tiff-ok");
    for (int samples : {1, 3}) {
        const std::string path = dir.file("t" + std::to_string(samples) + ".tif");
        writeBytes(path, tiffWith(samples, samples, 0));
        const cv::Mat img = app::readImage(path);
        EXPECT_EQ(img.channels(), samples);
        EXPECT_EQ(img.cols, 7);
    }
}

// ---- Options and filter files ----

TEST(EndOfOptions, ApplyTakesAnInputThatStartsWithADash)
{
    TempFolder dir("dashdash");
    smallImage(dir.file("-in.png"));
    const CliRun r = cli(dir, "apply -o " + quoted(dir.file("out.png")) + " --kernel 1 -- -in.png",
                         "cd " + quoted(dir.path().string()) + " && ");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir.file("out.png")));
}

TEST(EndOfOptions, BatchTakesInputsThatStartWithADash)
{
    TempFolder dir("dashdash-batch");
    smallImage(dir.file("-a.png"), 1);
    smallImage(dir.file("--b.png"), 2);
    const CliRun r =
        cli(dir, "batch -o out --kernel 1 -- -a.png --b.png", "cd " + quoted(dir.path().string()) + " && ");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir.file("out/-a-custom.png"))) << r.out << r.err;
    EXPECT_TRUE(fs::exists(dir.file("out/--b-custom.png"))) << r.out << r.err;
}

TEST(PresetValues, ABooleanForAnIntegerParameterIsRefusedNamingFileAndParameter)
{
    TempFolder dir("preset-bool");
    smallImage(dir.file("in.png"));
    for (const std::string value : {"true", "false", "2.5"}) {
        writeBytes(dir.path() / "p.json", R"({"filters": [{"id": "box", "params": {"size": )" + value + "}}]}");
        const CliRun r = cli(dir, "apply " + quoted(dir.file("in.png")) + " -o " + quoted(dir.file("out.png")) +
                                      " --preset " + quoted(dir.file("p.json")));
        EXPECT_NE(r.code, 0) << value;
        EXPECT_NE(r.err.find(dir.file("p.json")), std::string::npos) << value << ": " << r.err;
        EXPECT_NE(r.err.find("params.size"), std::string::npos) << value << ": " << r.err;
        EXPECT_FALSE(fs::exists(dir.file("out.png"))) << value;
    }
}

TEST(PresetFile, BadContentsAreAUsageErrorAndAnUnreadableFileAFileError)
{
    TempFolder dir("bad-preset");
    smallImage(dir.file("in.png"));
    writeBytes(dir.path() / "syntax.json", "{bad");
    writeBytes(dir.path() / "unknown.json", R"({"filters": [{"id": "no-such-filter"}]})");
    writeBytes(dir.path() / "type.json", R"({"filters": [{"id": "box", "params": {"size": true}}]})");
    for (const std::string file : {"syntax.json", "unknown.json", "type.json", "missing.json"}) {
        const std::string preset = " --preset " + quoted(dir.file(file));
        const CliRun apply =
            cli(dir, "apply " + quoted(dir.file("in.png")) + " -o " + quoted(dir.file("o.png")) + preset);
        const CliRun batch =
            cli(dir, "batch " + quoted(dir.file("in.png")) + " -o " + quoted(dir.file("out")) + preset);
        const int expected = file == "missing.json" ? 1 : 2;
        EXPECT_EQ(apply.code, expected) << file << ": " << apply.err;
        EXPECT_EQ(batch.code, expected) << file << ": " << batch.err;
        EXPECT_NE(apply.err.find(dir.file(file)), std::string::npos) << apply.err;
        EXPECT_NE(batch.err.find(dir.file(file)), std::string::npos) << batch.err;
        EXPECT_FALSE(fs::exists(dir.file("o.png"))) << file;
        EXPECT_FALSE(fs::exists(dir.file("out"))) << file;
    }
}

TEST(PresetValues, AnOverflowingWeightNamesTheFileNotTheJsonLibrary)
{
    TempFolder dir("overflow");
    smallImage(dir.file("in.png"));
    writeBytes(dir.path() / "k.json", R"({"size": [1, 1], "weights": [1e999]})");
    writeBytes(dir.path() / "k.txt", "1e999\n");
    for (const std::string option : {"--preset ", "--kernel @"}) {
        for (const std::string file : {"k.json", "k.txt"}) {
            if (option == "--preset " && file == "k.txt") {
                continue;
            }
            const CliRun r = cli(dir, "apply " + quoted(dir.file("in.png")) + " -o " + quoted(dir.file("out.png")) +
                                          " " + option + dir.file(file));
            EXPECT_NE(r.code, 0) << option << file;
            EXPECT_NE(r.err.find(dir.file(file)), std::string::npos) << option << file << ": " << r.err;
            EXPECT_NE(r.err.find("1e999"), std::string::npos) << r.err;
            EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
        }
    }
}

TEST(KernelFile, BadContentsAreAUsageErrorInApplyAndBatchAlike)
{
    TempFolder dir("bad-kernel");
    smallImage(dir.file("in.png"));
    writeBytes(dir.path() / "rows.txt", "1,2;3\n");
    writeBytes(dir.path() / "big.txt", "1e999\n");
    writeBytes(dir.path() / "two.json", R"({"filters": [{"id": "box"}, {"id": "box"}]})");
    writeBytes(dir.path() / "broken.json", R"({"size": [3, 3], "weights": [1, 2]})");
    for (const std::string file : {"rows.txt", "big.txt", "two.json", "broken.json"}) {
        const std::string kernel = " --kernel @" + quoted(dir.file(file));
        const CliRun apply =
            cli(dir, "apply " + quoted(dir.file("in.png")) + " -o " + quoted(dir.file("o.png")) + kernel);
        const CliRun batch =
            cli(dir, "batch " + quoted(dir.file("in.png")) + " -o " + quoted(dir.file("out")) + kernel);
        EXPECT_EQ(apply.code, 2) << file << ": " << apply.err;
        EXPECT_EQ(batch.code, 2) << file << ": " << batch.err;
        EXPECT_NE(apply.err.find(dir.file(file)), std::string::npos) << apply.err;
        EXPECT_NE(batch.err.find(dir.file(file)), std::string::npos) << batch.err;
    }
    EXPECT_FALSE(fs::exists(dir.file("o.png")));
    EXPECT_FALSE(fs::exists(dir.file("out")));
}

}  // namespace
}  // namespace tessera::test
