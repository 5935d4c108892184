// SPDX-License-Identifier: Apache-2.0
// ApplyRun is the one object behind tessera-cli apply and the window's File > Export: run()
// reads, computes and writes; write() takes a result a front end computed itself and writes it
// under the same rules. These tests hold the two ways to the same output and the same refusals.

#include "app/apply/apply_run.h"
#include "app/io/image_io.h"
#include "app/io/image_metadata.h"
#include "filters/factories.h"
#include "tests/app/fake_icc.h"

#include <gtest/gtest.h>

#include <opencv2/core.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

using tessera::app::ApplyRequest;
using tessera::app::ApplyRun;
using tessera::app::ImageError;
using tessera::app::ImageMetadata;

std::string bytesOf(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class ApplyRunTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir_ = fs::temp_directory_path() / ("tessera_apply_run_" + std::to_string(::getpid()));
        fs::create_directories(dir_);
        cv::Mat img(48, 64, CV_8UC3);
        cv::randu(img, cv::Scalar::all(0), cv::Scalar::all(256));
        metadata_.icc = tessera::test::fakeIccProfile();
        tessera::app::writeImage(input(), img, &metadata_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::string input() const { return (dir_ / "in.png").string(); }
    ApplyRequest request(const std::string& output) const
    {
        ApplyRequest r;
        r.input = input();
        r.output = (dir_ / output).string();
        r.chain.steps = {tessera::filters::makeBox(5, true)};
        r.device = "cpu";
        return r;
    }

    fs::path dir_;
    ImageMetadata metadata_;
};

TEST_F(ApplyRunTest, WritingAComputedResultGivesTheFileThatRunWrites)
{
    const tessera::app::ApplyResult ran = ApplyRun(request("ran.png")).run();
    EXPECT_FALSE(ran.kept.kept.icc.empty());

    // The window's way: the image and its metadata in memory, the result from its own engine.
    ImageMetadata read;
    const cv::Mat source = tessera::app::readImage(input(), {}, &read);
    const cv::Mat result = tessera::app::readImage((dir_ / "ran.png").string());
    const tessera::app::ApplyResult wrote = ApplyRun(request("wrote.png")).write(source, result, read);

    EXPECT_EQ(bytesOf(dir_ / "ran.png"), bytesOf(dir_ / "wrote.png"));
    EXPECT_EQ(wrote.kept.kept.icc, ran.kept.kept.icc);
    EXPECT_EQ(wrote.size, ran.size);
    EXPECT_EQ(wrote.typeIn, ran.typeIn);
    EXPECT_EQ(wrote.typeOut, ran.typeOut);
}

TEST_F(ApplyRunTest, WriteNeverReplacesTheFileTheImageCameFrom)
{
    const std::string before = bytesOf(input());
    ImageMetadata read;
    const cv::Mat source = tessera::app::readImage(input(), {}, &read);
    ApplyRequest r = request("unused.png");
    r.output = (dir_ / "." / "in.png").string();  // the same file, spelled another way
    EXPECT_THROW(ApplyRun(r).write(source, source, read), ImageError);
    EXPECT_EQ(bytesOf(input()), before);
}

TEST_F(ApplyRunTest, WriteLeavesMetadataOutWhenAskedTo)
{
    ImageMetadata read;
    const cv::Mat source = tessera::app::readImage(input(), {}, &read);
    ASSERT_FALSE(read.icc.empty());
    ApplyRequest r = request("stripped.png");
    r.stripMetadata = true;
    ApplyRun(r).write(source, source, read);
    EXPECT_TRUE(tessera::app::readMetadata(r.output).icc.empty());
}

}  // namespace
