// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_inputs.h"
#include "app/batch/batch_naming.h"
#include "app/batch/batch_plan.h"
#include "app/batch/batch_report.h"
#include "batch_test_data.h"
#include "filters/factories.h"

#include <gtest/gtest.h>

namespace tessera::app {
namespace {

using test::TempFolder;
namespace fs = std::filesystem;

TEST(BatchNaming, FillsEveryField)
{
    const NameFields fields{"photo", "JPG", "gaussian+box", 7, 120, "2024-05-31"};
    EXPECT_EQ(expandNameTemplate("{stem}-{filter}-{index}-{date}.{ext}", fields),
              "photo-gaussian+box-007-2024-05-31.JPG");
    EXPECT_EQ(expandNameTemplate("{index}", {"a", "png", "f", 3, 9, ""}), "3");
    EXPECT_EQ(expandNameTemplate("{filter}", {"a", "png", "my filter/x", 1, 1, ""}), "my_filter_x");
}

TEST(BatchNaming, RefusesBadTemplates)
{
    EXPECT_THROW(checkNameTemplate("{stem"), std::invalid_argument);
    EXPECT_THROW(checkNameTemplate("stem}"), std::invalid_argument);
    EXPECT_THROW(checkNameTemplate("{name}"), std::invalid_argument);
    EXPECT_THROW(checkNameTemplate("sub/{stem}"), std::invalid_argument);
    EXPECT_THROW(checkNameTemplate(""), std::invalid_argument);
    EXPECT_NO_THROW(checkNameTemplate("{stem}-{filter}"));
}

TEST(BatchNaming, FilterLabelJoinsIds)
{
    EXPECT_EQ(filterLabel({{filters::makeGaussian(1.0), filters::makeBox(3)}}), "gaussian+box");
    EXPECT_EQ(filterLabel({}), "none");
}

TEST(BatchNaming, OutputNameUsesFormatOrInputExtension)
{
    BatchJob job;
    job.chain = {{filters::makeBox(3)}};
    EXPECT_EQ(outputNameFor(job, "/x/a.tiff", 1, 1, "d"), "a-box.tiff");
    job.format = ".PNG";
    job.nameTemplate = "{stem}_{ext}_{index}";
    EXPECT_EQ(outputNameFor(job, "/x/a.tiff", 2, 10, "d"), "a_tiff_02.png");
}

class BatchInputs : public ::testing::Test {
protected:
    void SetUp() override
    {
        for (const char* name :
             {"b.png", "a.JPG", "notes.txt", ".hidden.png", "sub/c.tif", "sub/deeper/d.bmp", "out/old.png"}) {
            fs::create_directories((dir_.path() / name).parent_path());
            test::writeBytes(dir_.path() / name, "x");
        }
    }
    std::vector<std::string> paths(const std::vector<BatchInput>& inputs) const
    {
        std::vector<std::string> out;
        for (const BatchInput& in : inputs) {
            if (!in.skipped.empty()) {
                continue;  // files that are not images (notes.txt): test_hostile_input.cpp
            }
            out.push_back(in.error.empty() ? fs::relative(in.path, dir_.path()).string() : "error:" + in.error);
        }
        return out;
    }
    TempFolder dir_{"inputs"};
};

TEST_F(BatchInputs, FolderTakesImagesSortedNotHiddenNorOthers)
{
    EXPECT_EQ(paths(expandInputs({dir_.path().string()}, false)), (std::vector<std::string>{"a.JPG", "b.png"}));
}

TEST_F(BatchInputs, RecursiveDescendsButNotIntoTheOutputFolder)
{
    EXPECT_EQ(paths(expandInputs({dir_.path().string()}, true, dir_.file("out"))),
              (std::vector<std::string>{"a.JPG", "b.png", "sub/c.tif", "sub/deeper/d.bmp"}));
}

TEST_F(BatchInputs, GlobsFilesAndMissingOnes)
{
    const auto inputs = expandInputs(
        {dir_.file("*.png"), dir_.file("sub/c.tif"), dir_.file("b.png"), dir_.file("missing.png"), dir_.file("*.gif")},
        false);
    ASSERT_EQ(inputs.size(), 4u);
    EXPECT_EQ(paths(inputs)[0], "b.png");
    EXPECT_EQ(paths(inputs)[1], "sub/c.tif");
    EXPECT_NE(inputs[2].error.find("missing.png: file not found"), std::string::npos);
    EXPECT_NE(inputs[3].error.find("no file matches"), std::string::npos);
}

TEST(BatchReport, CsvQuotesWhatNeedsIt)
{
    FileResult r;
    r.input = "/a/b,c.png";
    r.status = FileStatus::Failed;
    r.error = "said \"no\"";
    EXPECT_EQ(resultsCsv({r}), "file,status,device,decoder,milliseconds,output,error\r\n"
                               "\"/a/b,c.png\",failed,,,0.000,,\"said \"\"no\"\"\"\r\n");
    r.status = FileStatus::Ok;
    r.error.clear();
    r.device = "GPU 0";
    r.decoder = "libjpeg-turbo (nvJPEG (GPU 0): progressive, 4:4:0)";
    EXPECT_EQ(resultsCsv({r}),
              "file,status,device,decoder,milliseconds,output,error\r\n"
              "\"/a/b,c.png\",ok,GPU 0,\"libjpeg-turbo (nvJPEG (GPU 0): progressive, 4:4:0)\",0.000,,\r\n");
}

}  // namespace
}  // namespace tessera::app
