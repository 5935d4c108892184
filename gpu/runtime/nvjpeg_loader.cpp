// SPDX-License-Identifier: Apache-2.0
#include "gpu/runtime/nvjpeg_loader.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace tessera::gpu::nvjpeg {

std::string statusName(int status)
{
    switch (status) {
    case NVJPEG_STATUS_SUCCESS: return "NVJPEG_STATUS_SUCCESS";
    case NVJPEG_STATUS_NOT_INITIALIZED: return "NVJPEG_STATUS_NOT_INITIALIZED";
    case NVJPEG_STATUS_INVALID_PARAMETER: return "NVJPEG_STATUS_INVALID_PARAMETER";
    case NVJPEG_STATUS_BAD_JPEG: return "NVJPEG_STATUS_BAD_JPEG";
    case NVJPEG_STATUS_JPEG_NOT_SUPPORTED: return "NVJPEG_STATUS_JPEG_NOT_SUPPORTED";
    case NVJPEG_STATUS_ALLOCATOR_FAILURE: return "NVJPEG_STATUS_ALLOCATOR_FAILURE";
    case NVJPEG_STATUS_EXECUTION_FAILED: return "NVJPEG_STATUS_EXECUTION_FAILED";
    case NVJPEG_STATUS_ARCH_MISMATCH: return "NVJPEG_STATUS_ARCH_MISMATCH";
    case NVJPEG_STATUS_INTERNAL_ERROR: return "NVJPEG_STATUS_INTERNAL_ERROR";
    case NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED: return "NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED";
    case NVJPEG_STATUS_INCOMPLETE_BITSTREAM: return "NVJPEG_STATUS_INCOMPLETE_BITSTREAM";
    default: return "nvJPEG status " + std::to_string(status);
    }
}

}  // namespace tessera::gpu::nvjpeg

namespace tessera::gpu::detail {

namespace {

/// What dlopen says for a file that is not there; such attempts are listed without it.
constexpr std::string_view kNoSuchFile = "No such file or directory";

#if defined(__aarch64__)
constexpr const char* kTargetLibDir = "/usr/local/cuda/targets/sbsa-linux/lib";
#else
constexpr const char* kTargetLibDir = "/usr/local/cuda/targets/x86_64-linux/lib";
#endif

std::string environment(const char* name)
{
    const char* value = std::getenv(name);
    return value != nullptr ? std::string(value) : std::string();
}

/// dlerror()'s text without the leading "<file>: " it repeats.
std::string lastDlError(const std::string& file)
{
    const char* text = dlerror();
    std::string why = text != nullptr ? text : "unknown error";
    const std::string prefix = file + ": ";
    if (why.rfind(prefix, 0) == 0) {
        why.erase(0, prefix.size());
    }
    return why;
}

struct Attempt {
    std::string what;
    std::string why;
};

std::string sonameList()
{
    std::string names;
    for (const char* n : kNvjpegSonames) {
        names += (names.empty() ? "" : " or ") + std::string(n);
    }
    return names;
}

std::string failureText(const std::vector<Attempt>& attempts)
{
    const bool allMissing = std::all_of(attempts.begin(), attempts.end(),
                                        [](const Attempt& a) { return a.why.find(kNoSuchFile) != std::string::npos; });
    std::string tried;
    for (const Attempt& a : attempts) {
        tried += tried.empty() ? "" : "; ";
        tried += a.what;
        if (a.why.find(kNoSuchFile) == std::string::npos) {
            tried += ": " + a.why;
        }
    }
    return "GPU JPEG decoding unavailable: " + sonameList() + (allMissing ? " not found" : " not usable") + " (tried " +
           tried + "); install the CUDA toolkit's nvJPEG or set " + kNvjpegLibraryVariable + " to its full path";
}

}  // namespace

NvjpegSearch defaultNvjpegSearch()
{
    NvjpegSearch search;
    search.override = environment(kNvjpegLibraryVariable);
    std::vector<std::string> roots;
    for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
        std::string root = environment(variable);
        while (root.size() > 1 && root.back() == '/') {
            root.pop_back();
        }
        if (!root.empty()) {
            roots.push_back(root + "/lib64/");
        }
    }
    roots.push_back("/usr/local/cuda/lib64/");
    roots.push_back(std::string(kTargetLibDir) + "/");
    for (const char* name : kNvjpegSonames) {
        search.candidates.emplace_back(name);
    }
    for (const std::string& root : roots) {
        for (const char* name : kNvjpegSonames) {
            const std::string file = root + name;
            if (std::find(search.candidates.begin(), search.candidates.end(), file) == search.candidates.end()) {
                search.candidates.push_back(file);
            }
        }
    }
    return search;
}

NvjpegLibrary::NvjpegLibrary(const NvjpegSearch& search)
{
    std::vector<std::pair<std::string, std::string>> tries;  // file for dlopen, its description
    if (!search.override.empty()) {
        tries.emplace_back(search.override, search.override + " (from " + kNvjpegLibraryVariable + ")");
    } else {
        for (const std::string& c : search.candidates) {
            const bool bare = c.find('/') == std::string::npos;
            tries.emplace_back(c, bare ? c + " on the library search path" : c);
        }
    }

    std::vector<Attempt> failed;
    for (const auto& [file, what] : tries) {
        dlerror();
        // RTLD_NODELETE for the reason cuFFT's loader gives: a library with static state of its
        // own gains nothing from being unmapped.
        void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
        if (handle == nullptr) {
            failed.push_back({what, lastDlError(file)});
            continue;
        }
        NvjpegApi api;
        std::string missing;
#define TESSERA_NVJPEG_RESOLVE(name)                                                                                   \
    api.name = reinterpret_cast<decltype(api.name)>(dlsym(handle, #name));                                             \
    if (api.name == nullptr && missing.empty()) {                                                                      \
        missing = #name;                                                                                               \
    }
        TESSERA_NVJPEG_FUNCTIONS(TESSERA_NVJPEG_RESOLVE)
#undef TESSERA_NVJPEG_RESOLVE
        int major = 0;
        int minor = 0;
        int patch = 0;
        std::string why;
        if (!missing.empty()) {
            why = "it has no " + missing;
        } else if (api.nvjpegGetProperty(nvjpeg::MAJOR_VERSION, &major) != nvjpeg::NVJPEG_STATUS_SUCCESS ||
                   api.nvjpegGetProperty(nvjpeg::MINOR_VERSION, &minor) != nvjpeg::NVJPEG_STATUS_SUCCESS ||
                   api.nvjpegGetProperty(nvjpeg::PATCH_LEVEL, &patch) != nvjpeg::NVJPEG_STATUS_SUCCESS) {
            why = "nvjpegGetProperty failed";
        } else if (major < 12) {
            why = "it is nvJPEG " + std::to_string(major) + ".x, Tessera needs 12 or later (CUDA 12 or 13)";
        }
        if (!why.empty()) {
            dlclose(handle);
            failed.push_back({what, why});
            continue;
        }
        handle_ = handle;
        api_ = api;
        version_ = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
        Dl_info info{};
        path_ = dladdr(reinterpret_cast<void*>(api.nvjpegDecode), &info) != 0 && info.dli_fname != nullptr
                    ? info.dli_fname
                    : file;
        return;
    }
    error_ = failureText(failed);
}

NvjpegLibrary::~NvjpegLibrary()
{
    if (handle_ != nullptr) {
        dlclose(handle_);
    }
}

std::string NvjpegLibrary::describe() const
{
    if (!available()) {
        return error_;
    }
    return "JPEG decoding: nvJPEG " + version_ + " (" + path_ + ")";
}

const NvjpegLibrary& nvjpegLibrary()
{
    // Opened once, on first use, and never closed: decoders may outlive static destruction.
    static const NvjpegLibrary* const library = new NvjpegLibrary(defaultNvjpegSearch());
    return *library;
}

}  // namespace tessera::gpu::detail
