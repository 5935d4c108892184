// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: cuFFT opened at run time (dlopen) rather than linked, so that every program
// starts where the toolkit's cuFFT is missing and only the FFT method goes away there.
// <cufft.h> serves for its types and declarations; nothing links against libcufft.

#include <cufft.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::gpu::detail {

// Every cuFFT function gpu/ calls: the members of CufftApi and the symbols looked up.
#define TESSERA_CUFFT_FUNCTIONS(X)                                                                                     \
    X(cufftGetVersion)                                                                                                 \
    X(cufftCreate)                                                                                                     \
    X(cufftDestroy)                                                                                                    \
    X(cufftSetAutoAllocation)                                                                                          \
    X(cufftEstimateMany)                                                                                               \
    X(cufftMakePlanMany64)                                                                                             \
    X(cufftSetStream)                                                                                                  \
    X(cufftSetWorkArea)                                                                                                \
    X(cufftExecR2C)                                                                                                    \
    X(cufftExecC2R)

/// The resolved entry points, typed after <cufft.h>'s declarations; all set or all null.
struct CufftApi {
#define TESSERA_CUFFT_MEMBER(name) decltype(&::name) name = nullptr;
    TESSERA_CUFFT_FUNCTIONS(TESSERA_CUFFT_MEMBER)
#undef TESSERA_CUFFT_MEMBER
};

/// The symbol names CufftApi holds, in its member order.
#define TESSERA_CUFFT_NAME(name) std::string_view(#name),
inline constexpr std::array kCufftFunctionNames{TESSERA_CUFFT_FUNCTIONS(TESSERA_CUFFT_NAME)};
#undef TESSERA_CUFFT_NAME

/// The environment variable naming cuFFT's full path; when set it is the only place tried.
inline constexpr const char* kCufftLibraryVariable = "TESSERA_CUFFT_LIBRARY";

/// The file the headers Tessera was built with belong to, e.g. "libcufft.so.12" (CUDA 13).
/// Never throws (beyond bad_alloc).
std::string cufftSoname();

/// Where to look for cuFFT.
struct CufftSearch {
    std::string override;                 ///< a full path; when not empty, the only one tried
    std::vector<std::string> candidates;  ///< names or paths handed to dlopen, in order
};

/// The process's search: $TESSERA_CUFFT_LIBRARY alone when set; otherwise the soname through
/// the dynamic loader's own search (LD_LIBRARY_PATH, ld.so cache), then in $CUDA_HOME/lib64,
/// $CUDA_PATH/lib64 and the toolkit's default folders. Reads the environment; never throws.
CufftSearch defaultCufftSearch();

/// One attempt at opening cuFFT, made in the constructor: the first candidate that opens,
/// has every function of CufftApi and reports the major version built against wins. Never
/// throws (beyond bad_alloc); a failure is kept as text. Closes the library when destroyed.
class CufftLibrary {
public:
    explicit CufftLibrary(const CufftSearch& search);
    ~CufftLibrary();
    CufftLibrary(const CufftLibrary&) = delete;
    CufftLibrary& operator=(const CufftLibrary&) = delete;

    bool available() const { return handle_ != nullptr; }
    /// Every member set when available(), every one null otherwise.
    const CufftApi& api() const { return api_; }
    /// cufftGetVersion's answer, e.g. 12000; 0 when unavailable.
    int version() const { return version_; }
    /// The file that was loaded; empty when unavailable.
    const std::string& path() const { return path_; }
    /// Why the FFT method is unavailable, naming every place tried; empty when available.
    const std::string& error() const { return error_; }
    /// One line for device listings: "FFT method: cuFFT 12.0.0 (/path/libcufft.so.12)", or error().
    std::string describe() const;

private:
    void* handle_ = nullptr;
    CufftApi api_;
    int version_ = 0;
    std::string path_;
    std::string error_;
};

/// The process's cuFFT, searched for on the first call (thread-safe, once) with
/// defaultCufftSearch() and kept open until exit.
const CufftLibrary& cufftLibrary();

/// cufftLibrary().api() when cuFFT is available; throws NotSupported carrying error() otherwise.
const CufftApi& cufftApi();

}  // namespace tessera::gpu::detail
