// SPDX-License-Identifier: Apache-2.0
// The run-time loader of nvJPEG, each case with a loader object of its own (the process-wide
// one is not touched): what it says when nothing is found, where it looks, and, through two
// small stand-in libraries built beside this test, that it resolves every symbol by name and
// takes a library only when all of them are there. No GPU and no nvJPEG needed.

#include "gpu/runtime/nvjpeg_loader.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <unistd.h>

namespace tessera::gpu::detail {
namespace {

class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name)
    {
        if (const char* old = std::getenv(name)) {
            old_ = old;
        }
        if (value != nullptr) {
            ::setenv(name, value, 1);
        } else {
            ::unsetenv(name);
        }
    }
    ~ScopedEnv()
    {
        if (old_) {
            ::setenv(name_, old_->c_str(), 1);
        } else {
            ::unsetenv(name_);
        }
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

std::size_t resolvedCount(const NvjpegApi& api)
{
    std::size_t n = 0;
#define TESSERA_COUNT(name) n += api.name != nullptr ? 1 : 0;
    TESSERA_NVJPEG_FUNCTIONS(TESSERA_COUNT)
#undef TESSERA_COUNT
    return n;
}

TEST(NvjpegLoader, AMissingOverrideIsTheOnlyPlaceTriedAndIsNamed)
{
    NvjpegSearch search;
    search.override = "/nonexistent/libnvjpeg.so.13";
    search.candidates = {"libnvjpeg.so.13", TESSERA_FAKE_NVJPEG};
    const NvjpegLibrary lib(search);
    EXPECT_FALSE(lib.available());
    EXPECT_TRUE(lib.version().empty());
    EXPECT_TRUE(lib.path().empty());
    EXPECT_EQ(resolvedCount(lib.api()), 0U);
    const std::string& e = lib.error();
    EXPECT_EQ(e.rfind("GPU JPEG decoding unavailable: libnvjpeg.so.13 or libnvjpeg.so.12 not found (tried "
                      "/nonexistent/libnvjpeg.so.13 (from TESSERA_NVJPEG_LIBRARY))",
                      0),
              0U)
        << e;
    EXPECT_FALSE(contains(e, TESSERA_FAKE_NVJPEG)) << "a candidate was tried despite the override: " << e;
    EXPECT_TRUE(contains(e, "install the CUDA toolkit's nvJPEG or set TESSERA_NVJPEG_LIBRARY")) << e;
    EXPECT_EQ(lib.describe(), e);
}

TEST(NvjpegLoader, NothingFoundListsEveryPlaceTriedInOrder)
{
    NvjpegSearch search;
    search.candidates = {"libtessera-no-such-nvjpeg.so.13", "/nonexistent/a/libnvjpeg.so.13",
                         "/nonexistent/b/libnvjpeg.so.12"};
    const NvjpegLibrary lib(search);
    ASSERT_FALSE(lib.available());
    EXPECT_TRUE(contains(lib.error(), " not found (tried libtessera-no-such-nvjpeg.so.13 on the library search path; "
                                      "/nonexistent/a/libnvjpeg.so.13; /nonexistent/b/libnvjpeg.so.12)"))
        << lib.error();
}

TEST(NvjpegLoader, TheDefaultSearchOnThisMachineNamesBothSonamesWhenNothingIsThere)
{
    const ScopedEnv unset("TESSERA_NVJPEG_LIBRARY", nullptr);
    const NvjpegSearch s = defaultNvjpegSearch();
    const NvjpegLibrary lib(s);
    if (lib.available()) {
        GTEST_SKIP() << "nvJPEG is installed here: " << lib.describe();
    }
    for (const std::string& c : s.candidates) {
        EXPECT_TRUE(contains(lib.error(), c)) << c << " missing from: " << lib.error();
    }
    EXPECT_TRUE(contains(lib.error(), "libnvjpeg.so.13 on the library search path; libnvjpeg.so.12 on the library "
                                      "search path"))
        << lib.error();
}

TEST(NvjpegLoader, AStandInWithEverySymbolIsTakenAndCalledThroughTheTable)
{
    NvjpegSearch search;
    search.candidates = {"/nonexistent/libnvjpeg.so.13", TESSERA_FAKE_NVJPEG};
    const NvjpegLibrary lib(search);
    ASSERT_TRUE(lib.available()) << lib.error();
    EXPECT_TRUE(lib.error().empty());
    EXPECT_EQ(resolvedCount(lib.api()), kNvjpegFunctionNames.size());
    EXPECT_EQ(lib.version(), "13.4.7");
    EXPECT_EQ(std::filesystem::canonical(lib.path()), std::filesystem::canonical(TESSERA_FAKE_NVJPEG));
    EXPECT_EQ(lib.describe(), "JPEG decoding: nvJPEG 13.4.7 (" + lib.path() + ")");
    // The calls land in the stand-in, which refuses them.
    nvjpeg::nvjpegHandle_t handle = nullptr;
    EXPECT_EQ(lib.api().nvjpegCreateSimple(&handle), nvjpeg::NVJPEG_STATUS_NOT_INITIALIZED);
    EXPECT_EQ(lib.api().nvjpegDecode(nullptr, nullptr, nullptr, 0, nvjpeg::NVJPEG_OUTPUT_BGRI, nullptr, nullptr),
              nvjpeg::NVJPEG_STATUS_NOT_INITIALIZED);
}

TEST(NvjpegLoader, AStandInWithoutOneSymbolIsRefusedWholeAndTheNextCandidateWins)
{
    NvjpegSearch search;
    search.candidates = {TESSERA_FAKE_NVJPEG_NO_DECODE};
    {
        const NvjpegLibrary lib(search);
        ASSERT_FALSE(lib.available());
        EXPECT_EQ(resolvedCount(lib.api()), 0U) << "a refused library leaves no entry point set";
        EXPECT_TRUE(contains(lib.error(), " not usable (tried " + std::string(TESSERA_FAKE_NVJPEG_NO_DECODE) +
                                              ": it has no nvjpegDecode)"))
            << lib.error();
    }
    search.candidates.push_back(TESSERA_FAKE_NVJPEG);
    const NvjpegLibrary lib(search);
    ASSERT_TRUE(lib.available()) << lib.error();
    EXPECT_EQ(std::filesystem::canonical(lib.path()), std::filesystem::canonical(TESSERA_FAKE_NVJPEG));
}

TEST(NvjpegLoader, ALibraryOfAnotherKindOrAnOldVersionIsPassedOverWithItsReason)
{
    const auto dir = std::filesystem::temp_directory_path() / ("tessera-nvjpeg-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto text = dir / "libnvjpeg.so.13";
    std::ofstream(text) << "not a shared object\n";
    NvjpegSearch search;
    search.candidates = {text.string(), "libm.so.6", TESSERA_FAKE_NVJPEG_OLD};
    const NvjpegLibrary lib(search);
    std::filesystem::remove_all(dir);
    ASSERT_FALSE(lib.available());
    const std::string& e = lib.error();
    EXPECT_TRUE(contains(e, " not usable (tried " + text.string() + ": ")) << e;
    EXPECT_TRUE(contains(e, "libm.so.6 on the library search path: it has no nvjpegGetProperty")) << e;
    EXPECT_TRUE(contains(e, "it is nvJPEG 11.x, Tessera needs 12 or later")) << e;
}

TEST(NvjpegLoader, TheDefaultSearchTriesTheOverrideAloneOrBothSonamesInEachPlace)
{
    {
        const ScopedEnv set("TESSERA_NVJPEG_LIBRARY", "/opt/x/libnvjpeg.so.13");
        EXPECT_EQ(defaultNvjpegSearch().override, "/opt/x/libnvjpeg.so.13");
    }
    const ScopedEnv unset("TESSERA_NVJPEG_LIBRARY", nullptr);
    const ScopedEnv home("CUDA_HOME", "/opt/cuda-home/");
    const ScopedEnv path("CUDA_PATH", "/usr/local/cuda");
    const NvjpegSearch s = defaultNvjpegSearch();
    EXPECT_TRUE(s.override.empty());
    ASSERT_EQ(s.candidates.size(), 8U) << "$CUDA_PATH/lib64 is /usr/local/cuda/lib64: tried once";
    EXPECT_EQ(s.candidates[0], "libnvjpeg.so.13") << "the loader's own search first, CUDA 13 before 12";
    EXPECT_EQ(s.candidates[1], "libnvjpeg.so.12");
    EXPECT_EQ(s.candidates[2], "/opt/cuda-home/lib64/libnvjpeg.so.13");
    EXPECT_EQ(s.candidates[3], "/opt/cuda-home/lib64/libnvjpeg.so.12");
    EXPECT_EQ(s.candidates[4], "/usr/local/cuda/lib64/libnvjpeg.so.13");
    EXPECT_EQ(s.candidates[5], "/usr/local/cuda/lib64/libnvjpeg.so.12");
    EXPECT_TRUE(contains(s.candidates[6], "/usr/local/cuda/targets/")) << s.candidates[6];
}

TEST(NvjpegLoader, StatusNamesFollowTheApi)
{
    EXPECT_EQ(nvjpeg::statusName(0), "NVJPEG_STATUS_SUCCESS");
    EXPECT_EQ(nvjpeg::statusName(4), "NVJPEG_STATUS_JPEG_NOT_SUPPORTED");
    EXPECT_EQ(nvjpeg::statusName(10), "NVJPEG_STATUS_INCOMPLETE_BITSTREAM");
    EXPECT_EQ(nvjpeg::statusName(42), "nvJPEG status 42");
    // The layout the decoder hands to nvjpegDecode: four pointers, then four pitches.
    static_assert(sizeof(nvjpeg::nvjpegImage_t) == 8 * sizeof(void*));
    static_assert(offsetof(nvjpeg::nvjpegImage_t, pitch) == 4 * sizeof(void*));
}

}  // namespace
}  // namespace tessera::gpu::detail
