// SPDX-License-Identifier: Apache-2.0
#include "gpu/runtime/cufft_loader.h"

#include "values/device_info.h"
#include "values/errors.h"
#include "tessera/gpu/values.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace tessera::gpu::detail {

namespace {

/// What dlopen says for a file that is not there; such attempts are listed without it.
constexpr std::string_view kNoSuchFile = "No such file or directory";

/// The toolkit's default folders for its target libraries, after the generic lib64.
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

/// dlerror()'s text without the leading "<file>: " it repeats; "unknown error" when it has none.
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

/// One candidate that did not do, and why.
struct Attempt {
    std::string what;
    std::string why;
};

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
    return "FFT method unavailable: " + cufftSoname() + (allMissing ? " not found" : " not usable") + " (tried " +
           tried + "); install the CUDA toolkit's cuFFT or set " + kCufftLibraryVariable + " to its full path";
}

}  // namespace

std::string cufftSoname()
{
    return "libcufft.so." + std::to_string(CUFFT_VER_MAJOR);
}

CufftSearch defaultCufftSearch()
{
    CufftSearch search;
    search.override = environment(kCufftLibraryVariable);
    const std::string name = cufftSoname();
    search.candidates.push_back(name);
    for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
        std::string root = environment(variable);
        while (root.size() > 1 && root.back() == '/') {
            root.pop_back();
        }
        if (!root.empty()) {
            search.candidates.push_back(root + "/lib64/" + name);
        }
    }
    search.candidates.push_back("/usr/local/cuda/lib64/" + name);
    search.candidates.push_back(std::string(kTargetLibDir) + "/" + name);
    // $CUDA_HOME is often /usr/local/cuda itself: try each file once.
    std::vector<std::string> unique;
    for (auto& c : search.candidates) {
        if (std::find(unique.begin(), unique.end(), c) == unique.end()) {
            unique.push_back(std::move(c));
        }
    }
    search.candidates = std::move(unique);
    return search;
}

CufftLibrary::CufftLibrary(const CufftSearch& search)
{
    std::vector<std::pair<std::string, std::string>> tries;  // file for dlopen, its description
    if (!search.override.empty()) {
        tries.emplace_back(search.override, search.override + " (from " + kCufftLibraryVariable + ")");
    } else {
        for (const std::string& c : search.candidates) {
            const bool bare = c.find('/') == std::string::npos;
            tries.emplace_back(c, bare ? c + " on the library search path" : c);
        }
    }

    std::vector<Attempt> failed;
    for (const auto& [file, what] : tries) {
        dlerror();
        // RTLD_NODELETE: a closed cuFFT stays mapped. Unloading it would buy nothing (the
        // process loads it again on the next plan) and would strand what its static initialisers
        // allocated (its own C++ runtime's exception pool), which leak checkers then report.
        void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
        if (handle == nullptr) {
            failed.push_back({what, lastDlError(file)});
            continue;
        }
        CufftApi api;
        std::string missing;
#define TESSERA_CUFFT_RESOLVE(name)                                                                                    \
    api.name = reinterpret_cast<decltype(api.name)>(dlsym(handle, #name));                                             \
    if (api.name == nullptr && missing.empty()) {                                                                      \
        missing = #name;                                                                                               \
    }
        TESSERA_CUFFT_FUNCTIONS(TESSERA_CUFFT_RESOLVE)
#undef TESSERA_CUFFT_RESOLVE
        int version = 0;
        std::string why;
        if (!missing.empty()) {
            why = "it has no " + missing;
        } else if (api.cufftGetVersion(&version) != CUFFT_SUCCESS) {
            why = "cufftGetVersion failed";
        } else if (version / 1000 != CUFFT_VER_MAJOR) {
            why = "it is cuFFT " + formatCufftVersion(version) + ", Tessera was built for cuFFT " +
                  std::to_string(CUFFT_VER_MAJOR) + ".x";
        }
        if (!why.empty()) {
            dlclose(handle);
            failed.push_back({what, why});
            continue;
        }
        handle_ = handle;
        api_ = api;
        version_ = version;
        Dl_info info{};
        path_ = dladdr(reinterpret_cast<void*>(api.cufftCreate), &info) != 0 && info.dli_fname != nullptr
                    ? info.dli_fname
                    : file;
        return;
    }
    error_ = failureText(failed);
}

CufftLibrary::~CufftLibrary()
{
    if (handle_ != nullptr) {
        dlclose(handle_);
    }
}

std::string CufftLibrary::describe() const
{
    if (!available()) {
        return error_;
    }
    return "FFT method: cuFFT " + formatCufftVersion(version_) + " (" + path_ + ")";
}

const CufftLibrary& cufftLibrary()
{
    // Opened once, on first use, and never closed: plans may outlive static destruction order.
    static const CufftLibrary* const library = new CufftLibrary(defaultCufftSearch());
    return *library;
}

const CufftApi& cufftApi()
{
    const CufftLibrary& library = cufftLibrary();
    if (!library.available()) {
        throw NotSupported(library.error());
    }
    return library.api();
}

}  // namespace tessera::gpu::detail
