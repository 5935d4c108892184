// SPDX-License-Identifier: Apache-2.0
// NPP peer for tessera-bench: the same cases with nppiFilterBorder* (2D) and
// nppiFilterRowBorder* + nppiFilterColumnBorder* (separable), image resident on the GPU, timed
// with CUDA events on one stream. NPP offers only the replicate border for these functions and
// convolves (flipped taps); neither changes the timing. Prints one JSON object per line in
// tessera-bench's schema with method "npp".
//
// Build (on the GPU machine): nvcc -O3 -arch=sm_90 npp_peer.cu -lnppif -lnppc -o npp_peer
// Run: ./npp_peer [--size N|WxH] [--runs N] [--warmup N] [--cases LIST]

#include <cuda_runtime.h>
#include <npp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

#define CHECK_CUDA(expr)                                                                                               \
    do {                                                                                                               \
        cudaError_t e_ = (expr);                                                                                       \
        if (e_ != cudaSuccess) {                                                                                       \
            std::fprintf(stderr, "npp_peer: %s failed: %s\n", #expr, cudaGetErrorString(e_));                          \
            std::exit(1);                                                                                              \
        }                                                                                                              \
    } while (0)

struct Case {
    const char* name;
    const char* format;
    bool rgba8;
    int size;
    bool gaussian;
};

const Case kCases[] = {
    {"f32c1-custom3", "f32c1", false, 3, false},   {"f32c1-custom15", "f32c1", false, 15, false},
    {"f32c1-custom31", "f32c1", false, 31, false}, {"rgba8-custom3", "rgba8", true, 3, false},
    {"rgba8-custom15", "rgba8", true, 15, false},  {"rgba8-custom31", "rgba8", true, 31, false},
    {"rgba8-gaussian31", "rgba8", true, 31, true}, {"f32c1-gaussian31", "f32c1", false, 31, true},
};

bool caseSelected(const Case& c, const std::vector<std::string>& want)
{
    for (const auto& w : want) {
        const bool small = !c.gaussian && c.size <= 3;
        if (w == "all" || w == c.name || w == c.format || (w == "separable" && c.gaussian) ||
            (w == "custom" && !c.gaussian) || (w == "small" && small) || (w == "large" && !c.gaussian && !small)) {
            return true;
        }
    }
    return false;
}

std::vector<float> gaussianTaps(int n, double sigma)
{
    std::vector<float> t(static_cast<std::size_t>(n));
    double sum = 0.0;
    for (int i = 0; i < n; ++i) {
        const double x = i - (n - 1) / 2.0;
        sum += (t[static_cast<std::size_t>(i)] = static_cast<float>(std::exp(-x * x / (2 * sigma * sigma))));
    }
    for (auto& v : t) {
        v = static_cast<float>(v / sum);
    }
    return t;
}

NppStreamContext makeContext(cudaStream_t stream)
{
    NppStreamContext ctx;
    std::memset(&ctx, 0, sizeof ctx);
    int dev = 0;
    CHECK_CUDA(cudaGetDevice(&dev));
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, dev));
    ctx.hStream = stream;
    ctx.nCudaDeviceId = dev;
    ctx.nMultiProcessorCount = prop.multiProcessorCount;
    ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
    ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
    ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
    ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
    ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
    unsigned int flags = 0;
    CHECK_CUDA(cudaStreamGetFlags(stream, &flags));
    ctx.nStreamFlags = flags;
    return ctx;
}

int parsePositive(const char* s)
{
    const int v = std::atoi(s);
    if (v < 1) {
        std::fprintf(stderr, "npp_peer: expected a positive integer, got '%s'\n", s);
        std::exit(2);
    }
    return v;
}

/// The command line's choices.
struct Options {
    int width = 8192;
    int height = 8192;
    int runs = 20;
    int warmup = 3;
    std::vector<std::string> want{"all"};
};

/// "a,b,c" as its items, empty ones left out.
std::vector<std::string> splitList(const char* v)
{
    std::vector<std::string> items;
    std::string item;
    for (const char* p = v;; ++p) {
        if (*p == ',' || *p == '\0') {
            if (!item.empty()) {
                items.push_back(item);
            }
            item.clear();
            if (*p == '\0') {
                break;
            }
        } else {
            item += *p;
        }
    }
    return items;
}

/// Reads the options; exits with 2 and a usage line on a bad one.
Options parseOptions(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) {
            std::fprintf(stderr, "usage: npp_peer [--size N|WxH] [--runs N] [--warmup N] [--cases LIST]\n");
            std::exit(2);
        }
        const char* v = argv[++i];
        if (a == "--size") {
            const char* x = std::strpbrk(v, "xX");
            o.width = parsePositive(v);
            o.height = x ? parsePositive(x + 1) : o.width;
        } else if (a == "--runs") {
            o.runs = parsePositive(v);
        } else if (a == "--warmup") {
            o.warmup = std::atoi(v);
        } else if (a == "--cases") {
            o.want = splitList(v);
        } else {
            std::fprintf(stderr, "npp_peer: unknown option %s\n", a.c_str());
            std::exit(2);
        }
    }
    return o;
}

/// A case's taps: a normalised Gaussian row for the separable cases, else random weights of
/// sum 1, seeded by the size.
std::vector<float> tapsOf(const Case& c)
{
    const int k = c.size;
    if (c.gaussian) {
        return gaussianTaps(k, k / 6.0);
    }
    std::mt19937 rng(static_cast<unsigned>(k) * 977u);
    std::uniform_real_distribution<float> dist(-0.25f, 1.0f);
    std::vector<float> taps(static_cast<std::size_t>(k) * k);
    double sum = 0.0;
    for (auto& t : taps) {
        sum += (t = dist(rng));
    }
    for (auto& t : taps) {
        t = static_cast<float>(t / sum);
    }
    return taps;
}

/// The image buffers on the GPU, the same bytes read as u8x4 or as one float per pixel, and
/// the stream NPP runs on.
struct Images {
    void* src = nullptr;
    void* dst = nullptr;
    void* tmp = nullptr;
    int step = 0;
    NppiSize size{};
    NppStreamContext ctx{};
};

/// Enqueues case c once with taps dTaps; names the NPP functions in *api.
NppStatus enqueueCase(const Case& c, const Images& im, const float* dTaps, std::string* api)
{
    const int k = c.size;
    const NppiPoint origin{0, 0};
    if (c.gaussian) {
        if (c.rgba8) {
            *api = "nppiFilterRowBorder32f_8u_C4R + nppiFilterColumnBorder32f_8u_C4R";
            NppStatus s = nppiFilterRowBorder32f_8u_C4R_Ctx(static_cast<const Npp8u*>(im.src), im.step, im.size, origin,
                                                            static_cast<Npp8u*>(im.tmp), im.step, im.size, dTaps, k,
                                                            k / 2, NPP_BORDER_REPLICATE, im.ctx);
            if (s != NPP_SUCCESS) {
                return s;
            }
            return nppiFilterColumnBorder32f_8u_C4R_Ctx(static_cast<const Npp8u*>(im.tmp), im.step, im.size, origin,
                                                        static_cast<Npp8u*>(im.dst), im.step, im.size, dTaps, k, k / 2,
                                                        NPP_BORDER_REPLICATE, im.ctx);
        }
        *api = "nppiFilterRowBorder_32f_C1R + nppiFilterColumnBorder_32f_C1R";
        NppStatus s = nppiFilterRowBorder_32f_C1R_Ctx(static_cast<const Npp32f*>(im.src), im.step, im.size, origin,
                                                      static_cast<Npp32f*>(im.tmp), im.step, im.size, dTaps, k, k / 2,
                                                      NPP_BORDER_REPLICATE, im.ctx);
        if (s != NPP_SUCCESS) {
            return s;
        }
        return nppiFilterColumnBorder_32f_C1R_Ctx(static_cast<const Npp32f*>(im.tmp), im.step, im.size, origin,
                                                  static_cast<Npp32f*>(im.dst), im.step, im.size, dTaps, k, k / 2,
                                                  NPP_BORDER_REPLICATE, im.ctx);
    }
    const NppiSize ks{k, k};
    const NppiPoint anchor{k / 2, k / 2};
    if (c.rgba8) {
        *api = "nppiFilterBorder32f_8u_C4R";
        return nppiFilterBorder32f_8u_C4R_Ctx(static_cast<const Npp8u*>(im.src), im.step, im.size, origin,
                                              static_cast<Npp8u*>(im.dst), im.step, im.size, dTaps, ks, anchor,
                                              NPP_BORDER_REPLICATE, im.ctx);
    }
    *api = "nppiFilterBorder_32f_C1R";
    return nppiFilterBorder_32f_C1R_Ctx(static_cast<const Npp32f*>(im.src), im.step, im.size, origin,
                                        static_cast<Npp32f*>(im.dst), im.step, im.size, dTaps, ks, anchor,
                                        NPP_BORDER_REPLICATE, im.ctx);
}

/// Prints case c's line: its times (ms, one per run) against the bytes' floor, or the NPP
/// status that stopped it.
void printCase(const Case& c, const Options& o, const char* deviceName, const std::string& api, NppStatus status,
               std::vector<double> ms, double bytes)
{
    const char* kind = c.gaussian ? "gaussian" : "custom";
    if (status != NPP_SUCCESS) {
        std::printf("{\"case\":\"%s\",\"format\":\"%s\",\"width\":%d,\"height\":%d,\"kernel\":\"%s%d\","
                    "\"method\":\"npp\",\"devices\":[0],\"error\":\"NPP status %d from %s\"}\n",
                    c.name, c.format, o.width, o.height, kind, c.size, static_cast<int>(status), api.c_str());
        return;
    }
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    const double med = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    const double io = 2.0 * bytes;
    const double floorMs = io / 4150.0e6;
    std::printf("{\"case\":\"%s\",\"format\":\"%s\",\"width\":%d,\"height\":%d,\"kernel\":\"%s%d\","
                "\"method\":\"npp\",\"chosen\":\"%s\",\"devices\":[0],\"device_name\":\"%s\","
                "\"ms_median\":%.5g,\"ms_min\":%.5g,\"ms_max\":%.5g,\"runs\":%d,\"mpix_s\":%.5g,"
                "\"bytes\":%.0f,\"gbps\":%.5g,\"floor_ms\":%.5g,\"pct_of_floor\":%.4g,\"check\":\"none\","
                "\"max_abs_err\":null,\"border\":\"replicate\"}\n",
                c.name, c.format, o.width, o.height, kind, c.size, api.c_str(), deviceName, med, ms.front(), ms.back(),
                o.runs, static_cast<double>(o.width) * o.height / med / 1e3, io, io / med / 1e6, floorMs,
                100.0 * floorMs / med);
}

/// Warms up, then times o.runs runs of case c with CUDA events on the images' stream.
void timeCase(const Case& c, const Options& o, const Images& im, const char* deviceName, double bytes)
{
    const std::vector<float> taps = tapsOf(c);
    float* dTaps = nullptr;
    CHECK_CUDA(cudaMalloc(&dTaps, taps.size() * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(dTaps, taps.data(), taps.size() * sizeof(float), cudaMemcpyHostToDevice));
    std::string api;
    NppStatus status = NPP_SUCCESS;
    for (int i = 0; i < o.warmup && status == NPP_SUCCESS; ++i) {
        status = enqueueCase(c, im, dTaps, &api);
    }
    std::vector<cudaEvent_t> ev(2 * static_cast<std::size_t>(o.runs));
    for (auto& e : ev) {
        CHECK_CUDA(cudaEventCreate(&e));
    }
    for (int i = 0; i < o.runs && status == NPP_SUCCESS; ++i) {
        CHECK_CUDA(cudaEventRecord(ev[2 * i], im.ctx.hStream));
        status = enqueueCase(c, im, dTaps, &api);
        CHECK_CUDA(cudaEventRecord(ev[2 * i + 1], im.ctx.hStream));
    }
    CHECK_CUDA(cudaStreamSynchronize(im.ctx.hStream));
    std::vector<double> ms;
    if (status == NPP_SUCCESS) {
        for (int i = 0; i < o.runs; ++i) {
            float t = 0.0f;
            CHECK_CUDA(cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]));
            ms.push_back(t);
        }
    }
    printCase(c, o, deviceName, api, status, std::move(ms), bytes);
    std::fflush(stdout);
    for (auto& e : ev) {
        CHECK_CUDA(cudaEventDestroy(e));
    }
    CHECK_CUDA(cudaFree(dTaps));
}

}  // namespace

int main(int argc, char** argv)
{
    const Options o = parseOptions(argc, argv);
    int deviceCount = 0;
    if (cudaGetDeviceCount(&deviceCount) != cudaSuccess || deviceCount == 0) {
        std::fprintf(stderr, "npp_peer: no CUDA device\n");
        return 1;
    }
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    Images im;
    im.ctx = makeContext(stream);
    const std::size_t pitch = static_cast<std::size_t>(o.width) * 4;  // 4 bytes per pixel in both formats
    const std::size_t bytes = pitch * static_cast<std::size_t>(o.height);
    im.step = static_cast<int>(pitch);
    im.size = NppiSize{o.width, o.height};
    CHECK_CUDA(cudaMalloc(&im.src, bytes));
    CHECK_CUDA(cudaMalloc(&im.dst, bytes));
    CHECK_CUDA(cudaMalloc(&im.tmp, bytes));
    {
        // Random input, the same bytes read as u8x4 or as floats in [0, 1).
        std::vector<float> host(bytes / 4);
        std::mt19937 rng(12345);
        std::uniform_real_distribution<float> dist(0.0f, 1.0f);
        for (auto& v : host) {
            v = dist(rng);
        }
        CHECK_CUDA(cudaMemcpy(im.src, host.data(), bytes, cudaMemcpyHostToDevice));
    }
    for (const Case& c : kCases) {
        if (caseSelected(c, o.want)) {
            timeCase(c, o, im, prop.name, static_cast<double>(bytes));
        }
    }
    CHECK_CUDA(cudaFree(im.src));
    CHECK_CUDA(cudaFree(im.dst));
    CHECK_CUDA(cudaFree(im.tmp));
    CHECK_CUDA(cudaStreamDestroy(stream));
    return 0;
}
