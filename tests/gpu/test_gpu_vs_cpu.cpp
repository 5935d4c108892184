// SPDX-License-Identifier: Apache-2.0
// Every GPU method against the CPU path (filters::applyCpu, i.e. cv::filter2D semantics) over a
// covering grid. The full cross product (3 depths x 3 channel counts x 5 borders x 11 kernel
// sizes x 4 image sizes x 3 methods) is far too slow, so each method runs:
//   - a format grid: every depth x channels x border for kernel sizes 3, 5, 7, 8, 15 on the odd
//     image sizes 17x13 and 333x197 (450 cases);
//   - a kernel-size grid: every kernel size 1..63 and some larger than the image (19x19, 33x21,
//     65x65, 9x199, 201x201) on 1x1, 17x13 and 333x197, each with every depth x channels,
//     shape (square / wide / tall) and border rotating (324 cases);
//   - 1920x1080 once per depth x channels (9 cases), kernel shape and border rotating; kernels
//     above 15 taps per side compare a sample of rows with a double-precision reference
//     computed here, and the whole f32 output is scanned for poison.
// The FFT method's two variants also run the grids alone (forced with makePlanForVariant): the
// row-spectrum kernel on the points with at most 64 taps per side, cuFFT on all of them.
// Within each grid the anchor (centred or random), scale/offset, constant border value, row
// pitch (tight or padded) and, for Separable, the kernel family (Gaussian, box, random rank 1)
// rotate with the case index. Inputs and weights are random and fresh each run; the seed is in
// every failure message.
//
// The method grids and the walking kernels; the other paths are in test_gpu_vs_cpu_paths.cpp, the
// fixture and grids in gpu_vs_cpu_fixture.h.

#include "gpu_vs_cpu_fixture.h"

#include "gpu/kernels/fft/fft_rows.h"

namespace tessera::gpu {
namespace {

using namespace vs_cpu;

constexpr int kFftRowsSide = detail::kFftRowsMaxSide;

TEST_F(GpuVsCpu, DirectFormatGrid)
{
    runGrid(Method::Direct, formatGrid(), 11);
}
TEST_F(GpuVsCpu, DirectKernelSizeGrid)
{
    runGrid(Method::Direct, kernelSizeGrid(), 12);
}
TEST_F(GpuVsCpu, DirectLargeImage)
{
    runGrid(Method::Direct, largeImageGrid(Method::Direct), 13);
}
TEST_F(GpuVsCpu, SeparableFormatGrid)
{
    runGrid(Method::Separable, formatGrid(), 21);
}
TEST_F(GpuVsCpu, SeparableKernelSizeGrid)
{
    runGrid(Method::Separable, kernelSizeGrid(), 22);
}
TEST_F(GpuVsCpu, SeparableLargeImage)
{
    runGrid(Method::Separable, largeImageGrid(Method::Separable), 23);
}

TEST_F(GpuVsCpu, TensorDirectGrid)
{
    runGrid(Method::Direct, tensorGrid(), 41, TensorCores::On);
}
TEST_F(GpuVsCpu, TensorSeparableGrid)
{
    runGrid(Method::Separable, tensorGrid(), 42, TensorCores::On);
}
TEST_F(GpuVsCpu, Tf32WalkGrid)
{
    runGrid(Method::Separable, tf32WalkGrid(), 43, TensorCores::On, KernelVariant::SeparableTf32Walk);
}
// The FMA walk, forced, over the same points as the TF32 walk: 2 to 32 taps per side, kernels
// larger than the image, odd sizes, every border, poisoned outputs.
TEST_F(GpuVsCpu, SeparableWalkGrid)
{
    runGrid(Method::Separable, tf32WalkGrid(), 44, TensorCores::Off, KernelVariant::SeparableWalk);
}

// The walking kernels (RGBA8 3x3 / 5x5 direct, f32 one-channel separable up to 32 taps on FMAs
// and on tensor cores, RGBA8 separable on tensor cores up to 33 taps) walk
// down column strips in steps and split the height into segments by the SM count: tall images
// whose height is no multiple of a step or a segment, widths no multiple of a strip, every border.
TEST_F(GpuVsCpu, WalkingKernelsOverManySteps)
{
    SCOPED_TRACE(test::seedNote(seed_));
    struct Shape {
        Method method;
        PixelFormat format;
        int kw, kh;
        int width, height;
        TensorCores tensor = TensorCores::Off;
    };
    const Shape shapes[] = {
        {Method::Direct, {PixelDepth::U8, 4}, 3, 3, 1001, 2467},
        {Method::Direct, {PixelDepth::U8, 4}, 5, 5, 257, 5003},
        {Method::Separable, {PixelDepth::F32, 1}, 31, 31, 1003, 2459},
        {Method::Separable, {PixelDepth::F32, 1}, 9, 17, 130, 4099},
        {Method::Separable, {PixelDepth::F32, 1}, 24, 5, 515, 1201},
        {Method::Separable, {PixelDepth::F32, 1}, 29, 31, 1003, 2459, TensorCores::On},
        {Method::Separable, {PixelDepth::F32, 1}, 9, 13, 259, 1201, TensorCores::On},
        {Method::Separable, {PixelDepth::U8, 4}, 31, 31, 1001, 1301, TensorCores::On},
        {Method::Separable, {PixelDepth::U8, 4}, 16, 33, 203, 1500, TensorCores::On},
        {Method::Separable, {PixelDepth::U8, 4}, 7, 2, 77, 611, TensorCores::On},
    };
    std::size_t index = 0;
    for (const Shape& sh : shapes) {
        for (const Border border : test::kBorders) {
            auto rng = test::caseRng(seed_, 51, index);
            Case c;
            c.method = sh.method;
            c.format = sh.format;
            // Reduced runs keep the height: the walk down the strips is what these cases test.
            c.width = test::reducedExtent(sh.width, 131);
            c.height = sh.height;
            c.tensor = sh.tensor;
            if (sh.tensor == TensorCores::On) {
                // Non-negative taps summing to 1 per pass keep the fp16 error bound below 0.5.
                c.spec = test::randomRank1Spec(sh.kw, sh.kh, rng);
                for (auto* taps : {&c.spec.separable->row, &c.spec.separable->column}) {
                    double sum = 0.0;
                    for (double& t : *taps) {
                        t = std::abs(t) + 0.01;
                        sum += t;
                    }
                    for (double& t : *taps) {
                        t /= sum;
                    }
                }
                std::size_t w = 0;
                for (double col : c.spec.separable->column) {
                    for (double row : c.spec.separable->row) {
                        c.spec.kernel.weights[w++] = col * row;
                    }
                }
                if (index % 2 == 0) {
                    c.spec.anchor = filters::Point{std::uniform_int_distribution<int>(0, sh.kw - 1)(rng),
                                                   std::uniform_int_distribution<int>(0, sh.kh - 1)(rng)};
                }
            } else {
                c.spec = sh.method == Method::Separable ? separableKernel(sh.kw, sh.kh, index, rng)
                                                        : test::randomDenseSpec(sh.kw, sh.kh, rng);
            }
            c.spec.border = border;
            c.spec.borderValue = test::borderValueFor(sh.format.depth, index);
            c.spec.offset = index % 2 == 0 ? 0.0 : (sh.format.depth == PixelDepth::F32 ? 0.25 : 3.5);
            c.padded = index % 2 == 1;
            c.workspaceFill = index % 2 == 0 ? 0xFF : 0x7F;
            check(c, rng, index);
            ++index;
        }
    }
}

TEST_F(GpuVsCpu, FftFormatGrid)
{
    runGrid(Method::Fft, formatGrid(), 31);
}
TEST_F(GpuVsCpu, FftKernelSizeGrid)
{
    runGrid(Method::Fft, kernelSizeGrid(), 32);
}
TEST_F(GpuVsCpu, FftLargeImage)
{
    runGrid(Method::Fft, largeImageGrid(Method::Fft), 33);
}

// Each FFT variant on its own: the method takes the row-spectrum kernel up to 64 taps per side
// and cuFFT above, so the grids above alone would leave cuFFT's small kernels unchecked.
TEST_F(GpuVsCpu, FftRowsFormatGrid)
{
    runGrid(Method::Fft, formatGrid(), 34, TensorCores::Off, KernelVariant::FftRows);
}
TEST_F(GpuVsCpu, FftRowsKernelSizeGrid)
{
    runGrid(Method::Fft, withSidesUpTo(kernelSizeGrid(), kFftRowsSide), 35, TensorCores::Off, KernelVariant::FftRows);
}
TEST_F(GpuVsCpu, FftRowsLargeImage)
{
    runGrid(Method::Fft, withSidesUpTo(largeImageGrid(Method::Fft), kFftRowsSide), 36, TensorCores::Off,
            KernelVariant::FftRows);
}
TEST_F(GpuVsCpu, FftWholeFormatGrid)
{
    runGrid(Method::Fft, formatGrid(), 37, TensorCores::Off, KernelVariant::Fft);
}
TEST_F(GpuVsCpu, FftWholeKernelSizeGrid)
{
    runGrid(Method::Fft, kernelSizeGrid(), 38, TensorCores::Off, KernelVariant::Fft);
}

}  // namespace
}  // namespace tessera::gpu
