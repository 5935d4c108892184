// SPDX-License-Identifier: Apache-2.0
// The RAII owners of CUDA handles and the typed errors. The runtime is queried directly (the
// current device) only to observe what the wrappers did.

#include "gpu_test_util.h"

#include "gpu/runtime/cuda_check.cuh"
#include "tessera/gpu/cuda_error.h"
#include "values/errors.h"

#include <cuda_runtime.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace tessera::gpu {
namespace {

using test::GpuTest;

static_assert(!std::is_copy_constructible_v<Stream> && std::is_nothrow_move_constructible_v<Stream>);
static_assert(!std::is_copy_constructible_v<Event> && std::is_nothrow_move_constructible_v<Event>);
static_assert(!std::is_copy_constructible_v<RawDeviceBuffer> && std::is_nothrow_move_assignable_v<RawDeviceBuffer>);
static_assert(!std::is_copy_constructible_v<RawPinnedBuffer> && std::is_nothrow_move_assignable_v<RawPinnedBuffer>);
static_assert(!std::is_copy_constructible_v<ScopedDevice> && !std::is_move_constructible_v<ScopedDevice>);
static_assert(std::is_base_of_v<CudaError, OutOfDeviceMemory>);
// A device is named by a DeviceId; a bare int (a count, an index) does not compile in its place.
static_assert(!std::is_constructible_v<Stream, int> && !std::is_constructible_v<Event, int> &&
              !std::is_constructible_v<RawDeviceBuffer, std::size_t, int> &&
              !std::is_constructible_v<ScopedDevice, int> && !std::is_constructible_v<StreamView, void*, int>);
static_assert(std::is_trivially_copyable_v<StreamView> && std::is_convertible_v<const Stream&, StreamView>);
static_assert(!std::is_convertible_v<StreamView, const Stream&>, "a view never becomes an owner");
static_assert(std::is_base_of_v<std::invalid_argument, InvalidInput> &&
              std::is_base_of_v<std::invalid_argument, NotSupported> &&
              std::is_base_of_v<std::logic_error, PreconditionError> &&
              !std::is_base_of_v<std::invalid_argument, PreconditionError>);

DeviceId currentDevice()
{
    int d = -1;
    EXPECT_EQ(cudaGetDevice(&d), cudaSuccess);
    return DeviceId{d};
}

/// Bytes of a device buffer, after the stream's work.
std::vector<std::uint8_t> contents(const RawDeviceBuffer& b, const Stream& s)
{
    std::vector<std::uint8_t> host(b.bytes());
    copy2DAsync(host.data(), host.size(), b.data(), host.size(), host.size(), 1, s);
    s.synchronize();
    return host;
}

bool allBytes(const std::vector<std::uint8_t>& v, std::uint8_t value)
{
    for (std::uint8_t b : v) {
        if (b != value) {
            return false;
        }
    }
    return true;
}

// The check destructors make: no device needed, only the runtime's error names.
TEST(CudaAssert, DebugBuildsStopOnAFailedCallInADestructor)
{
    // Success, and a runtime already unloading at exit, pass in every build.
    detail::assertCudaSuccess(cudaSuccess, "cudaFree(p)", __FILE__, __LINE__);
    detail::assertCudaSuccess(cudaErrorCudartUnloading, "cudaFree(p)", __FILE__, __LINE__);
#ifdef NDEBUG
    GTEST_SKIP() << "release build: destructors drop CUDA errors";
#else
    EXPECT_DEATH(TESSERA_ASSERT_CUDA_SUCCESS(cudaErrorInvalidValue),
                 "cudaErrorInvalidValue failed at .*test_gpu_resources");
#endif
}

class GpuResources : public GpuTest {};

TEST_F(GpuResources, StreamMoves)
{
    Stream a(device_.id);
    void* const h = a.handle();
    ASSERT_NE(h, nullptr);
    Stream b(std::move(a));
    EXPECT_EQ(b.handle(), h);
    EXPECT_EQ(b.device(), device_.id);
    EXPECT_EQ(a.handle(), nullptr);  // NOLINT(bugprone-use-after-move): the moved-from state is the point

    Stream c(device_.id);
    c = std::move(b);  // releases c's own stream
    EXPECT_EQ(c.handle(), h);
    RawDeviceBuffer buf(1 << 20, device_.id);
    buf.fillAsync(0x3C, c);
    EXPECT_TRUE(allBytes(contents(buf, c), 0x3C));
}

TEST_F(GpuResources, StreamViewSeesTheStreamWithoutOwningIt)
{
    Stream owned(device_.id);
    const StreamView view = owned;
    EXPECT_EQ(view.handle(), owned.handle());
    EXPECT_EQ(view.device(), device_.id);
    {
        const StreamView copy = view;  // copies and goes away; the stream must stay usable
        EXPECT_EQ(copy.handle(), owned.handle());
    }
    RawDeviceBuffer buf(4096, device_.id);
    buf.fillAsync(0x42, view);
    EXPECT_TRUE(allBytes(contents(buf, owned), 0x42));

    // A stream the caller owns: the legacy default stream of the device.
    const StreamView legacy(nullptr, device_.id);
    buf.fillAsync(0x24, legacy);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_TRUE(allBytes(contents(buf, owned), 0x24));
}

TEST_F(GpuResources, BuffersFreeOnTheirOwnDevice)
{
    // Freed while another device is current (when there is one), the buffer must switch to its
    // own device and back; the current device is left as it was.
    const DeviceId other = currentDevice();
    {
        RawDeviceBuffer buf(1 << 16, device_.id);
        ASSERT_EQ(currentDevice(), other);
    }
    EXPECT_EQ(currentDevice(), other);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_F(GpuResources, EventsMoveAndTime)
{
    Event start(device_.id);
    Event stop(device_.id);
    RawDeviceBuffer big(std::size_t{256} << 20, device_.id);
    start.record(stream());
    big.fillAsync(0x11, stream());
    stop.record(stream());
    stop.synchronize();
    const float ms = stop.elapsedSince(start);
    EXPECT_GE(ms, 0.0f);

    void* const h = stop.handle();
    Event moved(std::move(stop));
    EXPECT_EQ(moved.handle(), h);
    EXPECT_EQ(stop.handle(), nullptr);  // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(moved.elapsedSince(start), ms);
    Event assigned(device_.id);
    assigned = std::move(moved);
    EXPECT_EQ(assigned.handle(), h);
    EXPECT_GE(assigned.elapsedSince(start), 0.0f);
}

TEST_F(GpuResources, DeviceBuffersMove)
{
    RawDeviceBuffer empty;
    EXPECT_EQ(empty.data(), nullptr);
    EXPECT_EQ(empty.bytes(), 0u);
    RawDeviceBuffer zero(0, device_.id);
    EXPECT_EQ(zero.data(), nullptr);
    zero.fillAsync(0, stream());  // nothing to do, must not fail

    RawDeviceBuffer a(4096, device_.id);
    void* const p = a.data();
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(a.device(), device_.id);
    a.fillAsync(0x5A, stream());
    RawDeviceBuffer b(std::move(a));
    EXPECT_EQ(b.data(), p);
    EXPECT_EQ(b.bytes(), 4096u);
    EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move)
    EXPECT_EQ(a.bytes(), 0u);      // NOLINT(bugprone-use-after-move)

    RawDeviceBuffer c(1 << 16, device_.id);
    c = std::move(b);  // frees c's first allocation
    EXPECT_EQ(c.data(), p);
    EXPECT_EQ(c.bytes(), 4096u);
    EXPECT_TRUE(allBytes(contents(c, stream()), 0x5A)) << "the memory must survive the moves";

    DeviceBuffer<float> typed(100, device_.id);
    EXPECT_EQ(typed.size(), 100u);
    EXPECT_EQ(typed.bytes(), 400u);
    EXPECT_EQ(typed.device(), device_.id);
    EXPECT_EQ(static_cast<void*>(typed.data()), typed.raw().data());
}

TEST_F(GpuResources, PinnedBuffersMove)
{
    RawPinnedBuffer a(4096);
    ASSERT_NE(a.data(), nullptr);
    std::memset(a.data(), 0x77, a.bytes());
    void* const p = a.data();
    RawPinnedBuffer b(std::move(a));
    EXPECT_EQ(b.data(), p);
    EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move)
    RawPinnedBuffer c(16);
    c = std::move(b);
    EXPECT_EQ(c.data(), p);
    EXPECT_EQ(c.bytes(), 4096u);
    EXPECT_EQ(static_cast<const std::uint8_t*>(c.data())[4095], 0x77);

    PinnedBuffer<std::uint16_t> typed(10);
    EXPECT_EQ(typed.size(), 10u);
    typed.data()[9] = 0xBEEF;
    EXPECT_EQ(typed.data()[9], 0xBEEF);
}

TEST_F(GpuResources, AbsurdAllocationThrowsOutOfDeviceMemoryAndLaterWorkSucceeds)
{
    const std::size_t absurd = std::size_t{1} << 50;  // 1 PiB
    try {
        RawDeviceBuffer huge(absurd, device_.id);
        ADD_FAILURE() << "a 1 PiB allocation succeeded";
    } catch (const OutOfDeviceMemory& e) {
        EXPECT_NE(e.call().find("cudaMalloc"), std::string::npos) << e.call();
        EXPECT_FALSE(e.file().empty());
        EXPECT_GT(e.line(), 0);
        EXPECT_NE(std::string(e.what()).find(e.file() + ":" + std::to_string(e.line())), std::string::npos) << e.what();
    }
    EXPECT_EQ(currentDevice(), device_.id) << "a failed allocation must restore the current device";

    // The error must not stick: allocation, a fill, a copy and a filter run all still work.
    RawDeviceBuffer ok(std::size_t{64} << 20, device_.id);
    ok.fillAsync(0x42, stream());
    EXPECT_TRUE(allBytes(contents(ok, stream()), 0x42));
    auto rng = test::caseRng(seed_, 90, 0);
    const cv::Mat src = test::randomImage(13, 17, {PixelDepth::F32, 1}, rng);
    const auto spec = filters::makeBox(3);
    const Plan plan = makePlan(spec, {PixelDepth::F32, 1}, 17, 13, device_, Method::Direct);
    const auto out = test::runPoisoned(plan, src, stream(), true, 0xFF);
    EXPECT_EQ(out.damage, "");
    EXPECT_LE(test::compareImages(out.image, filters::applyCpu(src, spec), 1e-5).max, 1e-5);
}

TEST_F(GpuResources, CudaErrorCarriesCallFileAndLine)
{
    const DeviceId missing{static_cast<int>(devices_.size()) + 7};
    const DeviceId before = currentDevice();
    try {
        Stream bad(missing);
        ADD_FAILURE() << "a stream on device " << missing.value() << " was created";
    } catch (const OutOfDeviceMemory& e) {
        ADD_FAILURE() << "a missing device is not an allocation failure: " << e.what();
    } catch (const CudaError& e) {
        EXPECT_NE(e.code(), 0);
        EXPECT_NE(e.call().find("cuda"), std::string::npos) << e.call();
        EXPECT_NE(e.file().find("resources"), std::string::npos) << e.file();
        EXPECT_GT(e.line(), 0);
        const std::string what = e.what();
        EXPECT_NE(what.find(e.call()), std::string::npos) << what;
        EXPECT_NE(what.find(":" + std::to_string(e.line())), std::string::npos) << what;
    }
    EXPECT_EQ(currentDevice(), before);
    Stream good(device_.id);
    good.synchronize();
}

TEST_F(GpuResources, ScopedDeviceRestoresTheDevice)
{
    ASSERT_EQ(cudaSetDevice(device_.id.value()), cudaSuccess);
    const DeviceId last = devices_.back().id;
    {
        ScopedDevice on(last);
        EXPECT_EQ(currentDevice(), last);
        {
            ScopedDevice inner(device_.id);
            EXPECT_EQ(currentDevice(), device_.id);
        }
        EXPECT_EQ(currentDevice(), last);
    }
    EXPECT_EQ(currentDevice(), device_.id);

    EXPECT_THROW(ScopedDevice bad(DeviceId{static_cast<int>(devices_.size()) + 3}), CudaError);
    EXPECT_EQ(currentDevice(), device_.id);

    // Resources made for another device leave the current device alone.
    if (devices_.size() >= 2) {
        Stream other(last);
        RawDeviceBuffer buf(1024, last);
        buf.fillAsync(1, other);
        other.synchronize();
        EXPECT_EQ(currentDevice(), device_.id);
    }
}

TEST_F(GpuResources, Copy2DRoundTripWithPitches)
{
    // 37 pixels of f32x3 per row: 444 bytes, copied between four different pitches.
    constexpr std::size_t kRowBytes = 37 * 12;
    constexpr std::size_t kRows = 29;
    constexpr std::size_t kHostPitch = 512;
    constexpr std::size_t kDevPitchA = 768;
    constexpr std::size_t kDevPitchB = 1000;
    constexpr std::size_t kOutPitch = 600;

    RawPinnedBuffer host(kHostPitch * kRows);
    auto* h = static_cast<std::uint8_t*>(host.data());
    std::memset(h, 0xEE, host.bytes());
    auto rng = test::caseRng(seed_, 91, 0);
    for (std::size_t y = 0; y < kRows; ++y) {
        for (std::size_t x = 0; x < kRowBytes; ++x) {
            h[y * kHostPitch + x] = static_cast<std::uint8_t>(rng());
        }
    }
    RawDeviceBuffer a(kDevPitchA * kRows, device_.id);
    RawDeviceBuffer b(kDevPitchB * kRows, device_.id);
    a.fillAsync(0x11, stream());
    b.fillAsync(0x22, stream());
    std::vector<std::uint8_t> out(kOutPitch * kRows, 0x33);

    copy2DAsync(a.data(), kDevPitchA, h, kHostPitch, kRowBytes, kRows, stream());
    copy2DAsync(b.data(), kDevPitchB, a.data(), kDevPitchA, kRowBytes, kRows, stream());
    copy2DAsync(out.data(), kOutPitch, b.data(), kDevPitchB, kRowBytes, kRows, stream());
    copy2DAsync(out.data(), kOutPitch, b.data(), kDevPitchB, 0, kRows, stream());  // empty: no-op
    stream().synchronize();

    for (std::size_t y = 0; y < kRows; ++y) {
        EXPECT_EQ(std::memcmp(&out[y * kOutPitch], &h[y * kHostPitch], kRowBytes), 0) << "row " << y;
        for (std::size_t x = kRowBytes; x < kOutPitch; ++x) {
            ASSERT_EQ(out[y * kOutPitch + x], 0x33) << "host padding written, row " << y;
        }
    }
    const auto devB = contents(b, stream());
    for (std::size_t y = 0; y < kRows; ++y) {
        for (std::size_t x = kRowBytes; x < kDevPitchB; ++x) {
            ASSERT_EQ(devB[y * kDevPitchB + x], 0x22) << "device padding written, row " << y;
        }
    }
}

// The copy kernel behind the bench's floor and the calibration's copy rate: sizes around its
// rounds of four 16-byte words per thread and with a byte tail, nothing past the end written, and
// unaligned ends refused.
TEST_F(GpuResources, CopyOnDeviceCopiesEveryByteAndNoMore)
{
    constexpr std::size_t kSlack = 64;
    auto rng = test::caseRng(seed_, 92, 0);
    for (const std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17},
                                    std::size_t{4096 * 16 - 3}, std::size_t{3'000'011}, std::size_t{64} << 20}) {
        SCOPED_TRACE("bytes " + std::to_string(bytes));
        std::vector<std::uint8_t> host(bytes);
        for (auto& b : host) {
            b = static_cast<std::uint8_t>(rng());
        }
        RawDeviceBuffer from(bytes + kSlack, device_.id);
        RawDeviceBuffer to(bytes + kSlack, device_.id);
        from.fillAsync(0x5A, stream());
        to.fillAsync(0xC3, stream());
        copy2DAsync(from.data(), bytes, host.data(), bytes, bytes, 1, stream());
        copyOnDeviceAsync(to.data(), from.data(), bytes, stream());
        const auto out = contents(to, stream());
        if (bytes > 0) {
            ASSERT_EQ(std::memcmp(out.data(), host.data(), bytes), 0);
        }
        for (std::size_t i = bytes; i < out.size(); ++i) {
            ASSERT_EQ(out[i], 0xC3) << "written past the end at " << i;
        }
    }
    RawDeviceBuffer a(256, device_.id);
    RawDeviceBuffer b(256, device_.id);
    EXPECT_THROW(copyOnDeviceAsync(static_cast<char*>(b.data()) + 4, a.data(), 64, stream()), PreconditionError);
    EXPECT_THROW(copyOnDeviceAsync(b.data(), static_cast<char*>(a.data()) + 8, 64, stream()), PreconditionError);
}

}  // namespace
}  // namespace tessera::gpu
