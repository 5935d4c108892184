// SPDX-License-Identifier: Apache-2.0
// File names that are not UTF-8 (Latin-1 names from old archives and SMB shares) through every
// JSON and CSV file the command line writes, and back.
#include "app/batch/batch_manifest.h"
#include "app/io/path_text.h"
#include "batch_test_data.h"

#include <QCryptographicHash>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace tessera::app {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::cli;
using test::CliRun;

class NonUtf8Names : public ::testing::Test {
protected:
    void SetUp() override
    {
        fs::create_directories(in_);
        std::mt19937 rng(std::random_device{}());
        writeImage(latin1_, test::randomImage(rng, 7, 9, CV_8UC3));
        writeImage((in_ / "plain.png").string(), test::randomImage(rng, 5, 6, CV_8UC1));
    }
    static std::string sha256Of(const std::string& bytes)
    {
        return QCryptographicHash::hash(QByteArray::fromStdString(bytes), QCryptographicHash::Sha256)
            .toHex()
            .toStdString();
    }
    // The entry of a report's "files" whose exact input is path.
    static json entryFor(const json& report, const std::string& path)
    {
        for (const json& file : report.at("files")) {
            if (pathFrom(file, "input") == path) {
                return file;
            }
        }
        ADD_FAILURE() << "no entry for " << percentEncodeName(path) << " in " << report.dump(1);
        return json::object();
    }

    test::TempFolder dir_{"names"};
    fs::path in_ = dir_.path() / "in";
    std::string latin1_ = (in_ / "caf\xe9 100%.png").string();  // "café 100%.png" in Latin-1
    std::string out_ = dir_.file("out-\xe9t\xe9");              // "out-été"
    std::string outImage_ = out_ + "/caf\xe9 100%-box.png";
};

TEST_F(NonUtf8Names, BatchReportCsvAndManifestKeepTheExactBytes)
{
    const CliRun r = cli(dir_, "batch " + test::quoted(in_.string()) + " -o " + test::quoted(out_) +
                                   " --filter box --device cpu --manifest --report " +
                                   test::quoted(dir_.file("r.json")) + " --csv " + test::quoted(dir_.file("r.csv")));
    ASSERT_EQ(r.code, 0) << r.err;
    ASSERT_TRUE(fs::exists(outImage_));

    const json report = json::parse(test::readBytes(dir_.file("r.json")));
    EXPECT_EQ(pathFrom(report, "output_folder"), out_);
    EXPECT_EQ(report["output_folder_bytes"], percentEncodeName(out_));
    const json entry = entryFor(report, latin1_);
    EXPECT_EQ(entry.value("status", ""), "ok");
    EXPECT_EQ(entry["input"], utf8Text(latin1_));
    EXPECT_EQ(pathFrom(entry, "output"), outImage_);
    const json plain = entryFor(report, (in_ / "plain.png").string());
    EXPECT_FALSE(plain.contains("input_bytes")) << "a UTF-8 name is written as it is, alone";

    // The CSV carries names byte for byte, as the file system has them.
    const std::string csv = test::readBytes(dir_.file("r.csv"));
    EXPECT_NE(csv.find("\n" + latin1_ + ",ok,"), std::string::npos) << csv;
    EXPECT_NE(csv.find(outImage_), std::string::npos) << csv;

    const json manifest = json::parse(test::readBytes(manifestPath(outImage_)));
    EXPECT_EQ(pathFrom(manifest, "input"), latin1_);
    EXPECT_EQ(pathFrom(manifest, "output"), outImage_);
    EXPECT_EQ(manifest["input_sha256"], sha256Of(test::readBytes(latin1_)));
}

TEST_F(NonUtf8Names, AFailedFileIsReportedWithItsNameAndReason)
{
    const std::string broken = (in_ / "br\xf6ken.png").string();  // "bröken.png" in Latin-1
    test::writeBytes(broken, "not a png");
    const CliRun r = cli(dir_, "batch " + test::quoted(in_.string()) + " -o " + test::quoted(out_) +
                                   " --filter box --device cpu --report " + test::quoted(dir_.file("r.json")));
    EXPECT_EQ(r.code, 1) << r.err;
    const json report = json::parse(test::readBytes(dir_.file("r.json")));
    const json entry = entryFor(report, broken);
    EXPECT_EQ(entry.value("status", ""), "failed");
    // The message names the file as well as text can; the exact name is in "input_bytes".
    EXPECT_NE(entry.value("error", "").find(utf8Text(broken)), std::string::npos) << entry.dump();
}

TEST_F(NonUtf8Names, MergedReportKeepsTheExactBytes)
{
    ASSERT_EQ(cli(dir_, "batch " + test::quoted(in_.string()) + " -o " + test::quoted(out_) +
                            " --filter box --device cpu --report " + test::quoted(dir_.file("r\xe9.json")))
                  .code,
              0);
    const CliRun r = cli(dir_, "batch-report merge -o " + test::quoted(dir_.file("m.json")) + " " +
                                   test::quoted(dir_.file("r\xe9.json")));
    ASSERT_EQ(r.code, 0) << r.err;
    const json merged = json::parse(test::readBytes(dir_.file("m.json")));
    EXPECT_EQ(pathFrom(entryFor(merged, latin1_), "output"), outImage_);
    EXPECT_EQ(pathFrom(merged, "output_folder"), out_);
    EXPECT_EQ(pathFrom(merged.at("merged_from").at(0), "report"), dir_.file("r\xe9.json"));

    // A byte form that is no percent form is refused, and the message says which field.
    json report = json::parse(test::readBytes(dir_.file("r\xe9.json")));
    for (json& file : report["files"]) {
        if (file.contains("input_bytes")) {
            file["input_bytes"] = "caf%E";
        }
    }
    test::writeBytes(dir_.file("bad.json"), report.dump());
    const CliRun bad = cli(dir_, "batch-report merge -o " + test::quoted(dir_.file("m2.json")) + " " +
                                     test::quoted(dir_.file("bad.json")));
    EXPECT_EQ(bad.code, 1);
    EXPECT_NE(bad.err.find("\"input_bytes\" is not a percent-encoded name"), std::string::npos) << bad.err;
    EXPECT_FALSE(fs::exists(dir_.file("m2.json")));
}

TEST_F(NonUtf8Names, ApplyJsonAndTraceKeepTheExactBytes)
{
    const std::string output = dir_.file("\xe9t\xe9.png");
    const std::string trace = dir_.file("trace-\xe9.json");
    const CliRun r = cli(dir_, "apply " + test::quoted(latin1_) + " -o " + test::quoted(output) +
                                   " --filter box --device cpu" + " --json --trace " + test::quoted(trace));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(output));
    EXPECT_TRUE(fs::exists(trace)) << "the trace goes to the file named, not to a re-encoded name";
    const json doc = json::parse(r.out);
    EXPECT_EQ(pathFrom(doc, "input"), latin1_);
    EXPECT_EQ(pathFrom(doc, "output"), output);
    EXPECT_EQ(pathFrom(doc, "trace"), trace);
}

TEST_F(NonUtf8Names, HashesAFileWithSuchAName)
{
    EXPECT_EQ(sha256File(latin1_), sha256Of(test::readBytes(latin1_)));
}

}  // namespace
}  // namespace tessera::app
