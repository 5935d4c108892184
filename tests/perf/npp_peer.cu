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

}  // namespace

int main(int argc, char** argv)
{
    int width = 8192;
    int height = 8192;
    int runs = 20;
    int warmup = 3;
    std::vector<std::string> want{"all"};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) {
            std::fprintf(stderr, "usage: npp_peer [--size N|WxH] [--runs N] [--warmup N] [--cases LIST]\n");
            return 2;
        }
        const char* v = argv[++i];
        if (a == "--size") {
            const char* x = std::strpbrk(v, "xX");
            width = parsePositive(v);
            height = x ? parsePositive(x + 1) : width;
        } else if (a == "--runs") {
            runs = parsePositive(v);
        } else if (a == "--warmup") {
            warmup = std::atoi(v);
        } else if (a == "--cases") {
            want.clear();
            std::string item;
            for (const char* p = v;; ++p) {
                if (*p == ',' || *p == '\0') {
                    if (!item.empty()) {
                        want.push_back(item);
                    }
                    item.clear();
                    if (*p == '\0') {
                        break;
                    }
                } else {
                    item += *p;
                }
            }
        } else {
            std::fprintf(stderr, "npp_peer: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    int deviceCount = 0;
    if (cudaGetDeviceCount(&deviceCount) != cudaSuccess || deviceCount == 0) {
        std::fprintf(stderr, "npp_peer: no CUDA device\n");
        return 1;
    }
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const NppStreamContext ctx = makeContext(stream);

    const std::size_t pitch = static_cast<std::size_t>(width) * 4;  // 4 bytes per pixel in both formats
    const std::size_t bytes = pitch * static_cast<std::size_t>(height);
    void* src = nullptr;
    void* dst = nullptr;
    void* tmp = nullptr;
    CHECK_CUDA(cudaMalloc(&src, bytes));
    CHECK_CUDA(cudaMalloc(&dst, bytes));
    CHECK_CUDA(cudaMalloc(&tmp, bytes));
    {
        // Random input, the same bytes read as u8x4 or as floats in [0, 1).
        std::vector<float> host(bytes / 4);
        std::mt19937 rng(12345);
        std::uniform_real_distribution<float> dist(0.0f, 1.0f);
        for (auto& v : host) {
            v = dist(rng);
        }
        CHECK_CUDA(cudaMemcpy(src, host.data(), bytes, cudaMemcpyHostToDevice));
    }
    const NppiSize size{width, height};
    const NppiPoint origin{0, 0};

    for (const Case& c : kCases) {
        if (!caseSelected(c, want)) {
            continue;
        }
        const int k = c.size;
        std::vector<float> taps;
        if (c.gaussian) {
            taps = gaussianTaps(k, k / 6.0);
        } else {
            std::mt19937 rng(static_cast<unsigned>(k) * 977u);
            std::uniform_real_distribution<float> dist(-0.25f, 1.0f);
            taps.resize(static_cast<std::size_t>(k) * k);
            double sum = 0.0;
            for (auto& t : taps) {
                sum += (t = dist(rng));
            }
            for (auto& t : taps) {
                t = static_cast<float>(t / sum);
            }
        }
        float* dTaps = nullptr;
        CHECK_CUDA(cudaMalloc(&dTaps, taps.size() * sizeof(float)));
        CHECK_CUDA(cudaMemcpy(dTaps, taps.data(), taps.size() * sizeof(float), cudaMemcpyHostToDevice));
        const int step = static_cast<int>(pitch);
        std::string api;
        auto enqueue = [&]() -> NppStatus {
            if (c.gaussian) {
                if (c.rgba8) {
                    api = "nppiFilterRowBorder32f_8u_C4R + nppiFilterColumnBorder32f_8u_C4R";
                    NppStatus s = nppiFilterRowBorder32f_8u_C4R_Ctx(static_cast<const Npp8u*>(src), step, size, origin,
                                                                    static_cast<Npp8u*>(tmp), step, size, dTaps, k,
                                                                    k / 2, NPP_BORDER_REPLICATE, ctx);
                    if (s != NPP_SUCCESS) {
                        return s;
                    }
                    return nppiFilterColumnBorder32f_8u_C4R_Ctx(static_cast<const Npp8u*>(tmp), step, size, origin,
                                                                static_cast<Npp8u*>(dst), step, size, dTaps, k, k / 2,
                                                                NPP_BORDER_REPLICATE, ctx);
                }
                api = "nppiFilterRowBorder_32f_C1R + nppiFilterColumnBorder_32f_C1R";
                NppStatus s = nppiFilterRowBorder_32f_C1R_Ctx(static_cast<const Npp32f*>(src), step, size, origin,
                                                              static_cast<Npp32f*>(tmp), step, size, dTaps, k, k / 2,
                                                              NPP_BORDER_REPLICATE, ctx);
                if (s != NPP_SUCCESS) {
                    return s;
                }
                return nppiFilterColumnBorder_32f_C1R_Ctx(static_cast<const Npp32f*>(tmp), step, size, origin,
                                                          static_cast<Npp32f*>(dst), step, size, dTaps, k, k / 2,
                                                          NPP_BORDER_REPLICATE, ctx);
            }
            const NppiSize ks{k, k};
            const NppiPoint anchor{k / 2, k / 2};
            if (c.rgba8) {
                api = "nppiFilterBorder32f_8u_C4R";
                return nppiFilterBorder32f_8u_C4R_Ctx(static_cast<const Npp8u*>(src), step, size, origin,
                                                      static_cast<Npp8u*>(dst), step, size, dTaps, ks, anchor,
                                                      NPP_BORDER_REPLICATE, ctx);
            }
            api = "nppiFilterBorder_32f_C1R";
            return nppiFilterBorder_32f_C1R_Ctx(static_cast<const Npp32f*>(src), step, size, origin,
                                                static_cast<Npp32f*>(dst), step, size, dTaps, ks, anchor,
                                                NPP_BORDER_REPLICATE, ctx);
        };
        NppStatus status = NPP_SUCCESS;
        for (int i = 0; i < warmup && status == NPP_SUCCESS; ++i) {
            status = enqueue();
        }
        std::vector<cudaEvent_t> ev(2 * static_cast<std::size_t>(runs));
        for (auto& e : ev) {
            CHECK_CUDA(cudaEventCreate(&e));
        }
        for (int i = 0; i < runs && status == NPP_SUCCESS; ++i) {
            CHECK_CUDA(cudaEventRecord(ev[2 * i], stream));
            status = enqueue();
            CHECK_CUDA(cudaEventRecord(ev[2 * i + 1], stream));
        }
        CHECK_CUDA(cudaStreamSynchronize(stream));
        if (status != NPP_SUCCESS) {
            std::printf("{\"case\":\"%s\",\"format\":\"%s\",\"width\":%d,\"height\":%d,\"kernel\":\"%s%d\","
                        "\"method\":\"npp\",\"devices\":[0],\"error\":\"NPP status %d from %s\"}\n",
                        c.name, c.format, width, height, c.gaussian ? "gaussian" : "custom", k,
                        static_cast<int>(status), api.c_str());
        } else {
            std::vector<double> ms;
            for (int i = 0; i < runs; ++i) {
                float t = 0.0f;
                CHECK_CUDA(cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]));
                ms.push_back(t);
            }
            std::vector<double> sorted = ms;
            std::sort(sorted.begin(), sorted.end());
            const std::size_t n = sorted.size();
            const double med = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
            const double io = 2.0 * static_cast<double>(bytes);
            const double floorMs = io / 4150.0e6;
            std::printf("{\"case\":\"%s\",\"format\":\"%s\",\"width\":%d,\"height\":%d,\"kernel\":\"%s%d\","
                        "\"method\":\"npp\",\"chosen\":\"%s\",\"devices\":[0],\"device_name\":\"%s\","
                        "\"ms_median\":%.5g,\"ms_min\":%.5g,\"ms_max\":%.5g,\"runs\":%d,\"mpix_s\":%.5g,"
                        "\"bytes\":%.0f,\"gbps\":%.5g,\"floor_ms\":%.5g,\"pct_of_floor\":%.4g,\"check\":\"none\","
                        "\"max_abs_err\":null,\"border\":\"replicate\"}\n",
                        c.name, c.format, width, height, c.gaussian ? "gaussian" : "custom", k, api.c_str(), prop.name,
                        med, sorted.front(), sorted.back(), runs, static_cast<double>(width) * height / med / 1e3, io,
                        io / med / 1e6, floorMs, 100.0 * floorMs / med);
        }
        std::fflush(stdout);
        for (auto& e : ev) {
            CHECK_CUDA(cudaEventDestroy(e));
        }
        CHECK_CUDA(cudaFree(dTaps));
    }
    CHECK_CUDA(cudaFree(src));
    CHECK_CUDA(cudaFree(dst));
    CHECK_CUDA(cudaFree(tmp));
    CHECK_CUDA(cudaStreamDestroy(stream));
    return 0;
}
