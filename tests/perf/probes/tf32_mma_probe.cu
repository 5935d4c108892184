// SPDX-License-Identifier: Apache-2.0
// Probe for the TF32 tensor-core routes of the separable float walk, on sm_90a:
//   1. checks one wgmma m64n8k8 (A in registers, B in shared memory without swizzle) against
//      the host, with the descriptor's leading offset taken as the step between core matrices
//      along K, so that the layout a kernel would use is settled by the machine;
//   2. times TF32 products per SM: mma.sync m16n8k8 and wgmma m64nNk8 (N = 8, 16, 32), each in
//      chains like the walk's (one accumulator takes several products in a row) and with many
//      accumulators in flight; and, for scale, mma.sync m16n8k16 in fp16 and bf16.
// Build: nvcc -O3 -std=c++17 -gencode arch=compute_90a,code=sm_90a tf32_mma_probe.cu
// Prints one JSON line per measurement.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                                                       \
    do {                                                                                                               \
        cudaError_t e_ = (x);                                                                                          \
        if (e_ != cudaSuccess) {                                                                                       \
            std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                            \
            std::exit(1);                                                                                              \
        }                                                                                                              \
    } while (0)

__device__ __forceinline__ std::uint64_t descriptor(const void* smem, unsigned lbo, unsigned sbo)
{
    const auto a = static_cast<std::uint64_t>(__cvta_generic_to_shared(smem));
    return ((a >> 4) & 0x3FFF) | (static_cast<std::uint64_t>((lbo >> 4) & 0x3FFF) << 16) |
           (static_cast<std::uint64_t>((sbo >> 4) & 0x3FFF) << 32);
}

__device__ __forceinline__ void fence()
{
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void commit()
{
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void waitGroups()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

/// d (64 x 8 per warpgroup, 4 per thread) = a x B (+ d when accumulate).
__device__ __forceinline__ void wgmma8(float (&d)[4], const std::uint32_t (&a)[4], std::uint64_t b, int accumulate)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, p, 1, 1;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(accumulate));
}

__device__ __forceinline__ void wgmma16(float (&d)[8], const std::uint32_t (&a)[4], std::uint64_t b)
{
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, "
        "%12, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b));
}

__device__ __forceinline__ void wgmma32(float (&d)[16], const std::uint32_t (&a)[4], std::uint64_t b)
{
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n32k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, "
        "%13, %14, %15}, {%16, %17, %18, %19}, %20, 1, 1, 1;\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
          "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b));
}

__device__ __forceinline__ void mmaSync(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2])
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/// d += A x B with fp16 (or bf16) inputs, m16n8k16: 2048 multiply-adds a warp.
template <bool BF16>
__device__ __forceinline__ void mmaSync16(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2])
{
    if constexpr (BF16) {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    } else {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
}

// ---- 1. layout check ----------------------------------------------------------------------------

/// A: 64 x 8 row-major, B: 8 x 8 (k, n) row-major, D: 64 x 8. B goes to shared memory as two
/// core matrices of 8 rows (n) x 4 k each (16 bytes a row), the second 128 bytes after the first.
__global__ void layoutCheck(const float* A, const float* B, float* D, unsigned lbo, unsigned sbo)
{
    __shared__ alignas(128) float b[64];
    const int t = threadIdx.x;
    if (t < 64) {
        const int k = t / 8;
        const int n = t % 8;
        b[(k / 4) * 32 + n * 4 + (k % 4)] = B[k * 8 + n];
    }
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    const int warp = t / 32;
    const int g = (t % 32) / 4;
    const int q = t % 4;
    const int row = 16 * warp + g;
    std::uint32_t a[4] = {__float_as_uint(A[row * 8 + q]), __float_as_uint(A[(row + 8) * 8 + q]),
                          __float_as_uint(A[row * 8 + q + 4]), __float_as_uint(A[(row + 8) * 8 + q + 4])};
    float d[4] = {0, 0, 0, 0};
    fence();
    wgmma8(d, a, descriptor(b, lbo, sbo), 0);
    commit();
    waitGroups<0>();
    D[row * 8 + 2 * q] = d[0];
    D[row * 8 + 2 * q + 1] = d[1];
    D[(row + 8) * 8 + 2 * q] = d[2];
    D[(row + 8) * 8 + 2 * q + 1] = d[3];
}

// ---- 2. throughput ------------------------------------------------------------------------------

constexpr int kChain = 15;  // products into one accumulator in a row: 5 tap blocks x 3 TF32 parts

enum class Input { Tf32, F16, Bf16 };

/// Each warp: ACC accumulators, each taking kChain mma.sync in a row, per round; `out` keeps
/// the work alive. TF32 operands are arbitrary bits; fp16 and bf16 ones are 1.0 (small exact
/// values, so no infinities slow anything).
template <Input IN, int ACC>
__global__ void mmaSyncRate(int rounds, float* out)
{
    const std::uint32_t one = IN == Input::Bf16 ? 0x3F803F80u : 0x3C003C00u;
    std::uint32_t a[4] = {one, one, one, one};
    std::uint32_t b[2] = {one, one};
    if constexpr (IN == Input::Tf32) {
        for (int k = 0; k < 4; ++k) {
            a[k] = threadIdx.x + static_cast<unsigned>(k);
        }
        b[0] = threadIdx.x * 3u;
        b[1] = threadIdx.x * 5u;
    }
    float d[ACC][4] = {};
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
        for (int c = 0; c < kChain; ++c) {
#pragma unroll
            for (int i = 0; i < ACC; ++i) {
                if constexpr (IN == Input::Tf32) {
                    mmaSync(d[i], a, b);
                } else {
                    mmaSync16<IN == Input::Bf16>(d[i], a, b);
                }
            }
        }
    }
    float s = 0;
#pragma unroll
    for (int i = 0; i < ACC; ++i) {
        s += d[i][0] + d[i][1] + d[i][2] + d[i][3];
    }
    if (s == 12345.0f) {
        out[0] = s;
    }
}

/// Each warpgroup: ACC accumulators of 64 x N, kChain wgmma each per round, then one wait.
template <int N, int ACC>
__global__ void wgmmaRate(int rounds, float* out)
{
    __shared__ alignas(128) float b[8 * 32];
    for (int i = threadIdx.x; i < 8 * 32; i += blockDim.x) {
        b[i] = 0.001f * static_cast<float>(i % 7);
    }
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    const std::uint64_t desc = descriptor(b, 128, 256);
    std::uint32_t a[4] = {threadIdx.x, threadIdx.x + 1, threadIdx.x + 2, threadIdx.x + 3};
    float d[ACC][N / 2] = {};
    for (int r = 0; r < rounds; ++r) {
        fence();
#pragma unroll
        for (int c = 0; c < kChain; ++c) {
#pragma unroll
            for (int i = 0; i < ACC; ++i) {
                if constexpr (N == 8) {
                    wgmma8(d[i], a, desc, 1);
                } else if constexpr (N == 16) {
                    wgmma16(d[i], a, desc);
                } else {
                    wgmma32(d[i], a, desc);
                }
            }
        }
        commit();
        waitGroups<0>();
    }
    float s = 0;
#pragma unroll
    for (int i = 0; i < ACC; ++i) {
#pragma unroll
        for (int j = 0; j < N / 2; ++j) {
            s += d[i][j];
        }
    }
    if (s == 12345.0f) {
        out[0] = s;
    }
}

template <class Kernel>
double timeKernel(Kernel kernel, int blocks, int threads, int rounds, float* out)
{
    cudaEvent_t start;
    cudaEvent_t stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    kernel<<<blocks, threads>>>(rounds, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(start));
    kernel<<<blocks, threads>>>(rounds, out);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms;
}

/// 1. The wgmma operand layout, read two ways: one must reproduce the reference exactly.
void probeLayout()
{
    std::vector<float> A(64 * 8), B(64), ref(64 * 8, 0.0f);
    for (int i = 0; i < 64 * 8; ++i) {
        A[static_cast<std::size_t>(i)] = static_cast<float>((i * 7) % 13 - 6) / 8.0f;
    }
    for (int i = 0; i < 64; ++i) {
        B[static_cast<std::size_t>(i)] = static_cast<float>((i * 5) % 11 - 5) / 4.0f;
    }
    for (int m = 0; m < 64; ++m) {
        for (int n = 0; n < 8; ++n) {
            for (int k = 0; k < 8; ++k) {
                ref[static_cast<std::size_t>(m * 8 + n)] +=
                    A[static_cast<std::size_t>(m * 8 + k)] * B[static_cast<std::size_t>(k * 8 + n)];
            }
        }
    }
    float *dA, *dB, *dD;
    CHECK(cudaMalloc(&dA, A.size() * 4));
    CHECK(cudaMalloc(&dB, B.size() * 4));
    CHECK(cudaMalloc(&dD, ref.size() * 4));
    CHECK(cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice));
    // LBO is the step between core matrices along K (the 128-byte one here). The other reading
    // (256, 128) reads past the 256-byte operand and faults, which ends the process; it is left out.
    const unsigned readings[1][2] = {{128, 256}};
    for (const auto& r : readings) {
        CHECK(cudaMemset(dD, 0xFF, ref.size() * 4));
        layoutCheck<<<1, 128>>>(dA, dB, dD, r[0], r[1]);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        std::vector<float> D(ref.size());
        CHECK(cudaMemcpy(D.data(), dD, D.size() * 4, cudaMemcpyDeviceToHost));
        double worst = 0;
        for (std::size_t i = 0; i < D.size(); ++i) {
            worst = std::fmax(worst, std::fabs(static_cast<double>(D[i]) - ref[i]));
            if (std::isnan(D[i])) {
                worst = INFINITY;
            }
        }
        std::printf("{\"probe\":\"layout\",\"lbo\":%u,\"sbo\":%u,\"max_abs_err\":%g,\"exact\":%s}\n", r[0], r[1], worst,
                    worst == 0 ? "true" : "false");
    }
}

/// 2. The product rates of each form at the rated clock.
void probeRates(int sms, int clockKhz, float* out)
{
    // 2. rates: blocks x threads chosen to fill every SM with several warpgroups.
    const int rounds = 2000;
    // The field "tf32_macs_per_sm_per_clock_at_rated" counts multiply-adds of the form's own
    // inputs: fp16 or bf16 ones on the m16n8k16 lines.
    auto report = [&](const char* name, int n, int acc, double ms, int blocks, int threads, double macsPerInstr,
                      double instrPerRound) {
        const double units = static_cast<double>(blocks) * threads / (macsPerInstr == 1024.0 ? 32.0 : 128.0);
        const double macs = units * rounds * instrPerRound * macsPerInstr;
        const double perSmPerClk = macs / (ms * 1e-3) / sms / (clockKhz * 1e3);
        std::printf("{\"probe\":\"rate\",\"form\":\"%s\",\"n\":%d,\"accumulators\":%d,\"blocks\":%d,\"threads\":%d,"
                    "\"ms\":%.4f,\"tf32_macs_per_sm_per_clock_at_rated\":%.1f,\"rated_clock_mhz\":%d}\n",
                    name, n, acc, blocks, threads, ms, perSmPerClk, clockKhz / 1000);
    };
    for (int warpsPerSm : {8, 16}) {
        const int blocks = sms * warpsPerSm / 8;
        double ms = timeKernel(mmaSyncRate<Input::Tf32, 1>, blocks, 256, rounds, out);
        report("mma.sync m16n8k8", 8, 1, ms, blocks, 256, 1024.0, kChain * 1.0);
        ms = timeKernel(mmaSyncRate<Input::Tf32, 4>, blocks, 256, rounds, out);
        report("mma.sync m16n8k8", 8, 4, ms, blocks, 256, 1024.0, kChain * 4.0);
        ms = timeKernel(mmaSyncRate<Input::Tf32, 8>, blocks, 256, rounds, out);
        report("mma.sync m16n8k8", 8, 8, ms, blocks, 256, 1024.0, kChain * 8.0);
        ms = timeKernel(mmaSyncRate<Input::F16, 4>, blocks, 256, rounds, out);
        report("mma.sync m16n8k16 f16", 8, 4, ms, blocks, 256, 1024.0, kChain * 4.0 * 2.0);
        ms = timeKernel(mmaSyncRate<Input::Bf16, 4>, blocks, 256, rounds, out);
        report("mma.sync m16n8k16 bf16", 8, 4, ms, blocks, 256, 1024.0, kChain * 4.0 * 2.0);
        ms = timeKernel(wgmmaRate<8, 1>, blocks, 256, rounds, out);
        report("wgmma m64n8k8", 8, 1, ms, blocks, 256, 4096.0, kChain * 1.0);
        ms = timeKernel(wgmmaRate<8, 4>, blocks, 256, rounds, out);
        report("wgmma m64n8k8", 8, 4, ms, blocks, 256, 4096.0, kChain * 4.0);
        ms = timeKernel(wgmmaRate<8, 8>, blocks, 256, rounds, out);
        report("wgmma m64n8k8", 8, 8, ms, blocks, 256, 4096.0, kChain * 8.0);
        ms = timeKernel(wgmmaRate<16, 4>, blocks, 256, rounds, out);
        report("wgmma m64n16k8", 16, 4, ms, blocks, 256, 8192.0, kChain * 4.0);
        ms = timeKernel(wgmmaRate<32, 4>, blocks, 256, rounds, out);
        report("wgmma m64n32k8", 32, 4, ms, blocks, 256, 16384.0, kChain * 4.0);
    }
}

int main()
{
    int sms = 0;
    int clockKhz = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaDeviceGetAttribute(&clockKhz, cudaDevAttrClockRate, 0));
    // Values exact in TF32 (small integers / 8), so the layout's sums are exact.
    probeLayout();
    float* out = nullptr;
    CHECK(cudaMalloc(&out, 4));
    probeRates(sms, clockKhz, out);
    return 0;
}
