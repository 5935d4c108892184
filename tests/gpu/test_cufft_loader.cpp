// SPDX-License-Identifier: Apache-2.0
// The run-time loader of cuFFT, each case with a loader object of its own (the process-wide
// one is not touched here): what it finds, what it says when it finds nothing, and where it
// looks. No GPU needed; the case that loads the real library skips where the toolkit has none.

#include "gpu/runtime/cufft_loader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <unistd.h>

namespace tessera::gpu::detail {
namespace {

const std::string kToolkitCufft = "/usr/local/cuda/lib64/" + cufftSoname();

/// Sets an environment variable for the scope and puts the old value back.
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

/// Counts the members of api that are set.
std::size_t resolvedCount(const CufftApi& api)
{
    std::size_t n = 0;
#define TESSERA_COUNT(name) n += api.name != nullptr ? 1 : 0;
    TESSERA_CUFFT_FUNCTIONS(TESSERA_COUNT)
#undef TESSERA_COUNT
    return n;
}

TEST(CufftLoader, SonameFollowsTheHeaders)
{
    EXPECT_EQ(cufftSoname(), "libcufft.so." + std::to_string(CUFFT_VER_MAJOR));
#if CUFFT_VER_MAJOR == 12
    EXPECT_EQ(cufftSoname(), "libcufft.so.12") << "CUDA 13's cuFFT";
#endif
}

TEST(CufftLoader, AMissingOverrideIsTheAnswerAndNamesThePath)
{
    CufftSearch search;
    search.override = "/nonexistent/" + cufftSoname();
    // The real library among the candidates must not be tried when an override is given.
    search.candidates = {cufftSoname(), kToolkitCufft};
    const CufftLibrary lib(search);
    EXPECT_FALSE(lib.available());
    EXPECT_EQ(lib.version(), 0);
    EXPECT_TRUE(lib.path().empty());
    EXPECT_EQ(resolvedCount(lib.api()), 0U);
    const std::string& e = lib.error();
    EXPECT_EQ(e.rfind("FFT method unavailable: " + cufftSoname() + " not found (tried /nonexistent/", 0), 0U) << e;
    EXPECT_TRUE(contains(e, "/nonexistent/" + cufftSoname() + " (from TESSERA_CUFFT_LIBRARY)")) << e;
    EXPECT_FALSE(contains(e, kToolkitCufft)) << e;
    EXPECT_TRUE(contains(e, "install the CUDA toolkit's cuFFT or set TESSERA_CUFFT_LIBRARY")) << e;
    EXPECT_EQ(lib.describe(), e);
}

TEST(CufftLoader, TheToolkitsLibraryResolvesEveryFunction)
{
    if (!std::filesystem::exists(kToolkitCufft)) {
        GTEST_SKIP() << kToolkitCufft << " is not installed here";
    }
    CufftSearch search;
    search.override = kToolkitCufft;
    const CufftLibrary lib(search);
    ASSERT_TRUE(lib.available()) << lib.error();
    EXPECT_TRUE(lib.error().empty());
    EXPECT_EQ(resolvedCount(lib.api()), kCufftFunctionNames.size());
    EXPECT_EQ(lib.version() / 1000, CUFFT_VER_MAJOR);
    EXPECT_EQ(std::filesystem::canonical(lib.path()), std::filesystem::canonical(kToolkitCufft));
    EXPECT_EQ(lib.describe().rfind("FFT method: cuFFT " + std::to_string(CUFFT_VER_MAJOR) + ".", 0), 0U)
        << lib.describe();
    // A call through the table (one that needs no driver: the estimates do).
    int version = 0;
    EXPECT_EQ(lib.api().cufftGetVersion(&version), CUFFT_SUCCESS);
    EXPECT_EQ(version, lib.version());
}

TEST(CufftLoader, TwoLoadersOfTheSameFileAreIndependent)
{
    if (!std::filesystem::exists(kToolkitCufft)) {
        GTEST_SKIP() << kToolkitCufft << " is not installed here";
    }
    CufftSearch search;
    search.override = kToolkitCufft;
    std::optional<CufftLibrary> first(std::in_place, search);
    const CufftLibrary second(search);
    first.reset();  // closes one reference; the other keeps the library open
    ASSERT_TRUE(second.available());
    int version = 0;
    EXPECT_EQ(second.api().cufftGetVersion(&version), CUFFT_SUCCESS);
    EXPECT_EQ(version, second.version());
}

TEST(CufftLoader, NothingFoundListsEveryPlaceTried)
{
    CufftSearch search;
    search.candidates = {"libtessera-no-such-cufft.so.12", "/nonexistent/a/" + cufftSoname(),
                         "/nonexistent/b/" + cufftSoname()};
    const CufftLibrary lib(search);
    ASSERT_FALSE(lib.available());
    const std::string& e = lib.error();
    EXPECT_TRUE(contains(e, " not found (tried libtessera-no-such-cufft.so.12 on the library search path; "
                            "/nonexistent/a/" +
                                cufftSoname() + "; /nonexistent/b/" + cufftSoname() + ")"))
        << e;
}

TEST(CufftLoader, AFileThatIsNotCufftIsPassedOverWithItsReason)
{
    const auto dir = std::filesystem::temp_directory_path() / ("tessera-cufft-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto text = dir / cufftSoname();
    std::ofstream(text) << "not a shared object\n";
    CufftSearch search;
    // A text file, then a real library without cuFFT's symbols (libm is everywhere).
    search.candidates = {text.string(), "libm.so.6"};
    const CufftLibrary lib(search);
    std::filesystem::remove_all(dir);
    ASSERT_FALSE(lib.available());
    const std::string& e = lib.error();
    EXPECT_TRUE(contains(e, cufftSoname() + " not usable (tried " + text.string() + ": ")) << e;
    EXPECT_TRUE(contains(e, "libm.so.6 on the library search path: it has no cufftGetVersion")) << e;
}

TEST(CufftLoader, TheDefaultSearchTriesTheOverrideAloneOrTheKnownPlacesInOrder)
{
    {
        const ScopedEnv set("TESSERA_CUFFT_LIBRARY", "/opt/x/libcufft.so.12");
        EXPECT_EQ(defaultCufftSearch().override, "/opt/x/libcufft.so.12");
    }
    const ScopedEnv unset("TESSERA_CUFFT_LIBRARY", nullptr);
    const ScopedEnv home("CUDA_HOME", "/opt/cuda-home/");
    const ScopedEnv path("CUDA_PATH", "/usr/local/cuda");
    const CufftSearch s = defaultCufftSearch();
    EXPECT_TRUE(s.override.empty());
    const std::string name = cufftSoname();
    ASSERT_GE(s.candidates.size(), 4U);
    EXPECT_EQ(s.candidates[0], name) << "the loader's own search comes first";
    EXPECT_EQ(s.candidates[1], "/opt/cuda-home/lib64/" + name);
    EXPECT_EQ(s.candidates[2], "/usr/local/cuda/lib64/" + name);
    EXPECT_EQ(s.candidates.size(), 4U) << "$CUDA_PATH/lib64 is /usr/local/cuda/lib64: tried once";
    EXPECT_TRUE(contains(s.candidates[3], "/usr/local/cuda/targets/")) << s.candidates[3];
}

TEST(CufftLoader, AnEmptyOverrideCountsAsUnset)
{
    const ScopedEnv empty("TESSERA_CUFFT_LIBRARY", "");
    const CufftSearch s = defaultCufftSearch();
    EXPECT_TRUE(s.override.empty());
    EXPECT_FALSE(s.candidates.empty());
}

}  // namespace
}  // namespace tessera::gpu::detail
