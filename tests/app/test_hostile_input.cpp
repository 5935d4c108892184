// What the attack run of issue 19 found in names, folders and files given to tessera-cli: long
// legal names, the output folder however spelt, files a batch cannot read.
#include "app/batch_inputs.h"
#include "app/batch_report.h"
#include "app/image_io.h"
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

INSTANTIATE_TEST_SUITE_P(Bytes, LongName, ::testing::Values(std::size_t{243}, std::size_t{244}, std::size_t{250},
                                                            std::size_t{255}));

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
