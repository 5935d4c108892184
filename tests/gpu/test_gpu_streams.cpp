// SPDX-License-Identifier: Apache-2.0
// Work on two streams of one device at the same time must give exactly the bytes that the same
// work gives one stream after the other: plans are shared values and every run has its own
// images and workspace.

#include "gpu_test_util.h"

#include <cuda_runtime.h>
#include <opencv2/core.hpp>

#include <cstring>

namespace tessera::gpu {
namespace {

using filters::FilterSpec;
using test::GpuTest;

/// One run's inputs and outputs on the device: an uploaded source, a destination and a
/// workspace of its own.
struct Job {
    Plan plan;
    test::DeviceMatrix in;
    test::DeviceMatrix out;
    RawDeviceBuffer workspace;

    Job(const Plan& p, const cv::Mat& src, const Stream& stream)
        : plan(p), in(test::allocateImage(p.width, p.height, p.input, p.device, true)),
          out(test::allocateImage(p.width, p.height, p.output, p.device, true)), workspace(p.workspaceBytes, p.device)
    {
        in.buffer.fillAsync(0xFF, stream);
        test::upload(in, src, stream);
        stream.synchronize();
    }

    /// Poisons the destination and the workspace, then queues the run; does not wait.
    void enqueue(StreamView stream)
    {
        out.buffer.fillAsync(test::kPoison, stream);
        workspace.fillAsync(0x7F, stream);
        run(plan, in.image, out.image, workspace.data(), stream);
    }

    cv::Mat result(const Stream& stream)
    {
        auto raw = test::downloadRaw(out, stream);
        EXPECT_EQ(test::guardDamage(raw, out, test::kPoison), "") << plan.describe();
        return test::imageFromRaw(raw, out);
    }
};

/// Byte-for-byte equality (NaN patterns included).
::testing::AssertionResult identical(const cv::Mat& a, const cv::Mat& b)
{
    if (a.size() != b.size() || a.type() != b.type()) {
        return ::testing::AssertionFailure() << "size or type differs";
    }
    const std::size_t rowBytes = static_cast<std::size_t>(a.cols) * a.elemSize();
    for (int y = 0; y < a.rows; ++y) {
        if (std::memcmp(a.ptr(y), b.ptr(y), rowBytes) != 0) {
            for (std::size_t i = 0; i < rowBytes; ++i) {
                if (a.ptr(y)[i] != b.ptr(y)[i]) {
                    return ::testing::AssertionFailure() << "first difference in row " << y << ", byte " << i
                                                         << " (pixel " << i / a.elemSize() << ")";
                }
            }
        }
    }
    return ::testing::AssertionSuccess();
}

class GpuStreams : public GpuTest {
protected:
    Plan plan(const FilterSpec& spec, PixelFormat format, Method method = Method::Auto) const
    {
        return makePlan(spec, format, kWidth, kHeight, device_, method);
    }

    cv::Mat image(PixelFormat format, std::uint64_t index) const
    {
        auto rng = test::caseRng(seed_, 80, index);
        return test::randomImage(kHeight, kWidth, format, rng);
    }

    /// Runs a and b one after the other, then both at once (a few times, interleaved) and
    /// checks that the concurrent results equal the sequential ones.
    void expectConcurrentMatchesSequential(Job& a, Job& b)
    {
        Stream s1(device_.id);
        Stream s2(device_.id);
        a.enqueue(s1);
        s1.synchronize();
        b.enqueue(s2);
        s2.synchronize();
        const cv::Mat refA = a.result(s1);
        const cv::Mat refB = b.result(s2);
        EXPECT_EQ(test::firstNonFinite(refA), "");
        EXPECT_EQ(test::firstNonFinite(refB), "");

        for (int round = 0; round < 3; ++round) {
            SCOPED_TRACE("round " + std::to_string(round));
            a.enqueue(s1);
            b.enqueue(s2);
            s1.synchronize();
            s2.synchronize();
            EXPECT_TRUE(identical(a.result(s1), refA)) << a.plan.describe();
            EXPECT_TRUE(identical(b.result(s2), refB)) << b.plan.describe();
        }
    }

    static constexpr int kWidth = 1920;
    static constexpr int kHeight = 1080;
};

TEST_F(GpuStreams, CustomAndGaussianOnTwoStreams)
{
    SCOPED_TRACE(test::seedNote(seed_));
    auto rng = test::caseRng(seed_, 81, 0);
    const PixelFormat u8x3{PixelDepth::U8, 3};
    const PixelFormat f32x1{PixelDepth::F32, 1};
    Job a(plan(test::randomDenseSpec(5, 5, rng), u8x3), image(u8x3, 0), stream());
    Job b(plan(filters::makeGaussian(5.0, 31), f32x1), image(f32x1, 1), stream());
    expectConcurrentMatchesSequential(a, b);
}

TEST_F(GpuStreams, DirectAndFftOnTwoStreams)
{
    SCOPED_TRACE(test::seedNote(seed_));
    auto rng = test::caseRng(seed_, 82, 0);
    const PixelFormat u16x4{PixelDepth::U16, 4};
    const PixelFormat f32x3{PixelDepth::F32, 3};
    Job a(plan(test::randomDenseSpec(15, 15, rng), u16x4, Method::Direct), image(u16x4, 2), stream());
    Job b(plan(test::randomDenseSpec(63, 63, rng), f32x3, Method::Fft), image(f32x3, 3), stream());
    expectConcurrentMatchesSequential(a, b);
}

// One Plan, two streams, two workspaces. The first use of an FFT plan prepares its kernel
// spectrum; the stream that prepares it is held back by earlier work so that a second stream
// which does not wait for the preparation would read an unfinished spectrum.
TEST_F(GpuStreams, SamePlanOnTwoStreamsWithTwoWorkspaces)
{
    SCOPED_TRACE(test::seedNote(seed_));
    auto rng = test::caseRng(seed_, 83, 0);
    const PixelFormat f32x4{PixelDepth::F32, 4};
    Job busy(plan(test::randomDenseSpec(31, 31, rng), f32x4, Method::Direct), image(f32x4, 4), stream());

    struct Item {
        const char* what;
        FilterSpec spec;
        PixelFormat format;
        Method method;
    };
    FilterSpec widen = test::randomDenseSpec(5, 5, rng);
    widen.depth = filters::OutputDepth::U16;  // u8 -> u16 goes through an f32 intermediate in the workspace
    widen.scale = 100.0;
    const Item items[] = {
        {"fft 63x63", test::randomDenseSpec(63, 63, rng), {PixelDepth::F32, 1}, Method::Fft},
        {"fft 8x8 u8", test::randomDenseSpec(8, 8, rng), {PixelDepth::U8, 3}, Method::Fft},
        {"direct 65x65 (taps in the workspace)",
         test::randomDenseSpec(65, 65, rng),
         {PixelDepth::U8, 3},
         Method::Direct},
        {"direct u8 -> u16", widen, {PixelDepth::U8, 4}, Method::Direct},
        {"separable 31", filters::makeGaussian(5.0, 31), {PixelDepth::U16, 1}, Method::Separable},
    };
    Stream s1(device_.id);
    Stream s2(device_.id);
    std::uint64_t index = 10;
    for (const Item& item : items) {
        SCOPED_TRACE(item.what);
        for (int round = 0; round < 2; ++round) {
            SCOPED_TRACE("round " + std::to_string(round));
            const Plan shared = plan(item.spec, item.format, item.method);  // fresh: nothing prepared yet
            EXPECT_EQ(shared.method, item.method);
            Job a(shared, image(item.format, index++), stream());
            Job b(shared, image(item.format, index++), stream());

            busy.enqueue(s1);
            a.enqueue(s1);
            b.enqueue(s2);
            s2.synchronize();
            s1.synchronize();
            const cv::Mat concurrentA = a.result(s1);
            const cv::Mat concurrentB = b.result(s2);

            a.enqueue(s1);
            s1.synchronize();
            b.enqueue(s1);
            s1.synchronize();
            EXPECT_TRUE(identical(concurrentA, a.result(s1))) << shared.describe();
            EXPECT_TRUE(identical(concurrentB, b.result(s1))) << shared.describe();
            EXPECT_EQ(test::firstNonFinite(concurrentB), "");
        }
    }
}

// A stream the caller created and owns, seen through a StreamView, runs the same work as an
// owned Stream, and the view leaves it alive.
TEST_F(GpuStreams, CallerOwnedStreamGivesTheSameBytes)
{
    SCOPED_TRACE(test::seedNote(seed_));
    auto rng = test::caseRng(seed_, 84, 0);
    const PixelFormat u8x4{PixelDepth::U8, 4};
    const PixelFormat f32x1{PixelDepth::F32, 1};
    Job a(plan(test::randomDenseSpec(3, 3, rng), u8x4), image(u8x4, 4), stream());
    Job b(plan(filters::makeGaussian(3.0, 19), f32x1, Method::Separable), image(f32x1, 5), stream());
    Job c(plan(test::randomDenseSpec(31, 31, rng), f32x1, Method::Fft), image(f32x1, 6), stream());

    ASSERT_EQ(cudaSetDevice(device_.id.value()), cudaSuccess);
    cudaStream_t raw = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&raw, cudaStreamNonBlocking), cudaSuccess);
    const StreamView view(raw, device_.id);
    EXPECT_EQ(view.handle(), static_cast<void*>(raw));
    EXPECT_EQ(view.device(), device_.id);

    for (Job* job : {&a, &b, &c}) {
        SCOPED_TRACE(job->plan.describe());
        job->enqueue(stream());
        stream().synchronize();
        const cv::Mat reference = job->result(stream());
        job->enqueue(view);
        ASSERT_EQ(cudaStreamSynchronize(raw), cudaSuccess);
        EXPECT_TRUE(identical(job->result(stream()), reference));
    }
    EXPECT_EQ(cudaStreamQuery(raw), cudaSuccess) << "the view must not have destroyed the caller's stream";
    EXPECT_EQ(cudaStreamDestroy(raw), cudaSuccess);
}

}  // namespace
}  // namespace tessera::gpu
