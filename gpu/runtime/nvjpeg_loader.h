// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to gpu/: nvJPEG opened at run time (dlopen), never linked, so that every program
// starts where it is missing (the build machines' toolkits ship no nvjpeg.h at all) and only
// GPU JPEG decoding goes away there. The few types, values and functions Tessera calls are
// declared here in a namespace of their own, after NVIDIA's nvJPEG C API of CUDA 12 and 13.
//
// Where each value was checked (all agree):
//  - nvjpeg.h of CUDA 12.6 (NVJPEG_VER 12.3.3), as vendored in the public repository
//    zspace/system.cuda-12.6, include/nvjpeg.h: every enum value, nvjpegImage_t, the handle
//    typedefs and the signatures below, NVJPEG_BACKEND_DEFAULT = 0 and
//    NVJPEG_FLAGS_UPSAMPLING_WITH_INTERPOLATION = 1<<5 included;
//  - docs.rs nvjpeg-sys 0.1.0 (bindgen output of nvjpeg.h 11.9): NVJPEG_OUTPUT_Y = 2,
//    the status codes 0 to 9, NVJPEG_MAX_COMPONENT = 4,
//    libraryPropertyType MAJOR_VERSION = 0, MINOR_VERSION = 1, PATCH_LEVEL = 2;
//  - docs.nvidia.com/cuda/nvjpeg (Thread Safety): a nvjpegJpegState_t per thread, the handle
//    may be shared; (2.2.1) NVJPEG_BACKEND_HARDWARE = 3, baseline single-scan streams only,
//    batched calls only; (2.3.3.2, 2.3.3.3) nvjpegDecodeBatchedInitialize and
//    nvjpegDecodeBatched, asynchronous on the stream given.

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::gpu::nvjpeg {

/// nvjpegStatus_t.
enum nvjpegStatus_t : int {
    NVJPEG_STATUS_SUCCESS = 0,
    NVJPEG_STATUS_NOT_INITIALIZED = 1,
    NVJPEG_STATUS_INVALID_PARAMETER = 2,
    NVJPEG_STATUS_BAD_JPEG = 3,
    NVJPEG_STATUS_JPEG_NOT_SUPPORTED = 4,
    NVJPEG_STATUS_ALLOCATOR_FAILURE = 5,
    NVJPEG_STATUS_EXECUTION_FAILED = 6,
    NVJPEG_STATUS_ARCH_MISMATCH = 7,
    NVJPEG_STATUS_INTERNAL_ERROR = 8,
    NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED = 9,
    NVJPEG_STATUS_INCOMPLETE_BITSTREAM = 10,
};

/// nvjpegChromaSubsampling_t.
enum nvjpegChromaSubsampling_t : int {
    NVJPEG_CSS_444 = 0,
    NVJPEG_CSS_422 = 1,
    NVJPEG_CSS_420 = 2,
    NVJPEG_CSS_440 = 3,
    NVJPEG_CSS_411 = 4,
    NVJPEG_CSS_410 = 5,
    NVJPEG_CSS_GRAY = 6,
    NVJPEG_CSS_410V = 7,
    NVJPEG_CSS_UNKNOWN = -1,
};

/// nvjpegOutputFormat_t: the two Tessera asks for (interleaved BGR for colour, the luma plane
/// for grey, both written to channel[0]).
enum nvjpegOutputFormat_t : int {
    NVJPEG_OUTPUT_Y = 2,
    NVJPEG_OUTPUT_BGRI = 6,
};

/// nvjpegBackend_t: the two Tessera asks for. The hardware backend drives the JPEG decode
/// engines of A100, H100 and H200 class GPUs and is reached only through the batched calls.
enum nvjpegBackend_t : int {
    NVJPEG_BACKEND_DEFAULT = 0,
    NVJPEG_BACKEND_HARDWARE = 3,
};

/// nvJPEG's flag for nvjpegCreateEx that upsamples subsampled chroma by interpolation (as
/// libjpeg-turbo's "fancy" upsampling does) rather than by repeating samples (CUDA 12 headers).
inline constexpr unsigned NVJPEG_FLAGS_UPSAMPLING_WITH_INTERPOLATION = 1U << 5;

/// libraryPropertyType (library_types.h), as nvjpegGetProperty takes it.
enum libraryPropertyType : int {
    MAJOR_VERSION = 0,
    MINOR_VERSION = 1,
    PATCH_LEVEL = 2,
};

inline constexpr int NVJPEG_MAX_COMPONENT = 4;

/// nvjpegImage_t: one pointer and one pitch per plane; interleaved output uses plane 0 only.
struct nvjpegImage_t {
    unsigned char* channel[NVJPEG_MAX_COMPONENT];
    std::size_t pitch[NVJPEG_MAX_COMPONENT];
};

struct nvjpegHandle;
using nvjpegHandle_t = nvjpegHandle*;
struct nvjpegJpegState;
using nvjpegJpegState_t = nvjpegJpegState*;
/// cudaStream_t, kept opaque here (a pointer either way).
using cudaStream_t = void*;

/// The entry points' types, after nvjpeg.h's prototypes.
using nvjpegGetProperty_fn = nvjpegStatus_t (*)(libraryPropertyType type, int* value);
using nvjpegCreateSimple_fn = nvjpegStatus_t (*)(nvjpegHandle_t* handle);
/// The allocators are passed as null (nvJPEG's own cudaMalloc and cudaHostAlloc), so kept opaque.
using nvjpegCreateEx_fn = nvjpegStatus_t (*)(nvjpegBackend_t backend, void* devAllocator, void* pinnedAllocator,
                                             unsigned int flags, nvjpegHandle_t* handle);
using nvjpegDestroy_fn = nvjpegStatus_t (*)(nvjpegHandle_t handle);
using nvjpegJpegStateCreate_fn = nvjpegStatus_t (*)(nvjpegHandle_t handle, nvjpegJpegState_t* state);
using nvjpegJpegStateDestroy_fn = nvjpegStatus_t (*)(nvjpegJpegState_t state);
using nvjpegGetImageInfo_fn = nvjpegStatus_t (*)(nvjpegHandle_t handle, const unsigned char* data, std::size_t length,
                                                 int* nComponents, nvjpegChromaSubsampling_t* subsampling, int* widths,
                                                 int* heights);
using nvjpegDecode_fn = nvjpegStatus_t (*)(nvjpegHandle_t handle, nvjpegJpegState_t state, const unsigned char* data,
                                           std::size_t length, nvjpegOutputFormat_t format, nvjpegImage_t* destination,
                                           cudaStream_t stream);
/// max_cpu_threads is no longer read by nvJPEG 12 and 13 (1 is passed).
using nvjpegDecodeBatchedInitialize_fn = nvjpegStatus_t (*)(nvjpegHandle_t handle, nvjpegJpegState_t state,
                                                            int batchSize, int maxCpuThreads,
                                                            nvjpegOutputFormat_t format);
using nvjpegDecodeBatched_fn = nvjpegStatus_t (*)(nvjpegHandle_t handle, nvjpegJpegState_t state,
                                                  const unsigned char* const* data, const std::size_t* lengths,
                                                  nvjpegImage_t* destinations, cudaStream_t stream);

/// "NVJPEG_STATUS_BAD_JPEG" and so on; "nvJPEG status N" for a value the API does not list.
std::string statusName(int status);

}  // namespace tessera::gpu::nvjpeg

namespace tessera::gpu::detail {

// Every nvJPEG function gpu/ calls: the members of NvjpegApi and the symbols looked up.
#define TESSERA_NVJPEG_FUNCTIONS(X)                                                                                    \
    X(nvjpegGetProperty)                                                                                               \
    X(nvjpegCreateSimple)                                                                                              \
    X(nvjpegCreateEx)                                                                                                  \
    X(nvjpegDestroy)                                                                                                   \
    X(nvjpegJpegStateCreate)                                                                                           \
    X(nvjpegJpegStateDestroy)                                                                                          \
    X(nvjpegGetImageInfo)                                                                                              \
    X(nvjpegDecode)                                                                                                    \
    X(nvjpegDecodeBatchedInitialize)                                                                                   \
    X(nvjpegDecodeBatched)

/// The resolved entry points; all set or all null.
struct NvjpegApi {
#define TESSERA_NVJPEG_MEMBER(name) ::tessera::gpu::nvjpeg::name##_fn name = nullptr;
    TESSERA_NVJPEG_FUNCTIONS(TESSERA_NVJPEG_MEMBER)
#undef TESSERA_NVJPEG_MEMBER
};

/// The symbol names NvjpegApi holds, in its member order.
#define TESSERA_NVJPEG_NAME(name) std::string_view(#name),
inline constexpr std::array kNvjpegFunctionNames{TESSERA_NVJPEG_FUNCTIONS(TESSERA_NVJPEG_NAME)};
#undef TESSERA_NVJPEG_NAME

/// The environment variable naming nvJPEG's full path; when set it is the only place tried.
inline constexpr const char* kNvjpegLibraryVariable = "TESSERA_NVJPEG_LIBRARY";

/// The files looked for, newest first: CUDA 13's then CUDA 12's.
inline constexpr std::array<const char*, 2> kNvjpegSonames{"libnvjpeg.so.13", "libnvjpeg.so.12"};

/// Where to look for nvJPEG.
struct NvjpegSearch {
    std::string override;                 ///< a full path; when not empty, the only one tried
    std::vector<std::string> candidates;  ///< names or paths handed to dlopen, in order
};

/// The process's search: $TESSERA_NVJPEG_LIBRARY alone when set; otherwise each soname through
/// the dynamic loader's own search, then in $CUDA_HOME/lib64, $CUDA_PATH/lib64 and the
/// toolkit's default folders. Reads the environment; never throws (beyond bad_alloc).
NvjpegSearch defaultNvjpegSearch();

/// One attempt at opening nvJPEG, made in the constructor: the first candidate that opens, has
/// every function of NvjpegApi and reports a major version of 12 or more wins. Never throws
/// (beyond bad_alloc); a failure is kept as text. Closes the library when destroyed.
class NvjpegLibrary {
public:
    explicit NvjpegLibrary(const NvjpegSearch& search);
    ~NvjpegLibrary();
    NvjpegLibrary(const NvjpegLibrary&) = delete;
    NvjpegLibrary& operator=(const NvjpegLibrary&) = delete;

    bool available() const { return handle_ != nullptr; }
    /// Every member set when available(), every one null otherwise.
    const NvjpegApi& api() const { return api_; }
    /// "13.0.1"; empty when unavailable.
    const std::string& version() const { return version_; }
    /// The file that was loaded; empty when unavailable.
    const std::string& path() const { return path_; }
    /// Why GPU JPEG decoding is unavailable, naming every place tried; empty when available.
    const std::string& error() const { return error_; }
    /// One line for device listings: "JPEG decoding: nvJPEG 13.0.1 (/path/libnvjpeg.so.13)", or error().
    std::string describe() const;

private:
    void* handle_ = nullptr;
    NvjpegApi api_;
    std::string version_;
    std::string path_;
    std::string error_;
};

/// The process's nvJPEG, searched for on the first call (thread-safe, once) with
/// defaultNvjpegSearch() and kept open until exit.
const NvjpegLibrary& nvjpegLibrary();

}  // namespace tessera::gpu::detail
