// SPDX-License-Identifier: Apache-2.0
// Where an installed or a built program finds its samples, presets and manual.

#include "app/io/data_dirs.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using tessera::app::dataDirFor;
using tessera::app::imageFilesIn;

class DataDirsTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        root_ = fs::temp_directory_path() / ("tessera-data-dirs-" + std::to_string(::getpid()));
        fs::create_directories(root_ / "bin");
    }
    void TearDown() override { fs::remove_all(root_); }

    fs::path root_;
};

TEST_F(DataDirsTest, AnInstalledProgramUsesShareTesseraBesideItsBinFolder)
{
    fs::create_directories(root_ / "share" / "tessera" / "samples");
    EXPECT_EQ(dataDirFor(root_ / "bin" / "tessera", "/elsewhere"), (root_ / "share" / "tessera").lexically_normal());
}

TEST_F(DataDirsTest, AProgramWithoutShareTesseraFallsBack)
{
    EXPECT_EQ(dataDirFor(root_ / "bin" / "tessera", "/source/resources"), fs::path("/source/resources"));
    EXPECT_EQ(dataDirFor(fs::path(), "/source/resources"), fs::path("/source/resources"));
}

TEST_F(DataDirsTest, ImageFilesAreListedByExtensionInNameOrder)
{
    const fs::path dir = root_ / "samples";
    fs::create_directories(dir / "nested.png");
    for (const char* name : {"b.PNG", "a.jpg", "notes.md", "c.exr"}) {
        std::ofstream(dir / name) << "x";
    }
    const auto files = imageFilesIn(dir);
    ASSERT_EQ(files.size(), 3u);
    EXPECT_EQ(files[0].filename(), "a.jpg");
    EXPECT_EQ(files[1].filename(), "b.PNG");
    EXPECT_EQ(files[2].filename(), "c.exr");
    EXPECT_TRUE(imageFilesIn(root_ / "missing").empty());
}

TEST_F(DataDirsTest, AnInstalledProgramLooksForTheManualBesideItsData)
{
    const auto places = tessera::app::manualIndexCandidatesFor(root_ / "bin" / "tessera");
    ASSERT_EQ(places.size(), 1u);
    EXPECT_EQ(places[0], (root_ / "share" / "tessera" / "manual" / "index.html").lexically_normal());
    EXPECT_TRUE(tessera::app::manualIndexCandidatesFor(fs::path()).empty());
}

TEST_F(DataDirsTest, AProgramInABuildFolderLooksForTheBuiltManualFirst)
{
    std::ofstream(root_ / "CMakeCache.txt") << "# a build folder\n";
    const auto places = tessera::app::manualIndexCandidatesFor(root_ / "app" / "tessera");
    ASSERT_EQ(places.size(), 2u);
    EXPECT_EQ(places[0], (root_ / "docs" / "manual" / "index.html").lexically_normal());
    EXPECT_EQ(places[1], (root_ / "share" / "tessera" / "manual" / "index.html").lexically_normal());
}

TEST(DataDirs, TheBuildFolderFindsTheSourceSamples)
{
    // Test programs run from the build folder, which has no share/tessera.
    const auto samples = imageFilesIn(tessera::app::samplesDir());
    EXPECT_GE(samples.size(), 3u);
    EXPECT_TRUE(fs::is_regular_file(tessera::app::presetsDir() / "sharpen-5x5.json"));
}

}  // namespace
