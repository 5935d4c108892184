// SPDX-License-Identifier: Apache-2.0
// The multi-GPU executor on real devices: streamed tiles over 1, 2 and every GPU (and several
// virtual slots on one GPU) equal the untiled run bit for bit; a memory limit streams an image
// four times its size; injected faults still give the exact image; resident bands answer whole
// images and regions exactly. Direct and separable methods with tensor cores off, so that
// every tile runs the very same arithmetic as the untiled run.

#include "tessera/gpu/engine.h"

#include "tessera/gpu/cuda_error.h"
#include "gpu_test_util.h"

#include <atomic>
#include <cmath>
#include <numeric>
#include <vector>
#include <chrono>
#include <thread>
#include <map>
#include <memory>
#include <set>

namespace tessera::gpu::test {
namespace {

class MultiGpu : public GpuTest {
protected:
    // Slot sets to try: the first GPU, the first two, every GPU (without repeats).
    std::vector<std::vector<DeviceSlot>> slotSets() const
    {
        std::vector<std::vector<DeviceSlot>> sets;
        for (std::size_t n : {std::size_t{1}, std::size_t{2}, devices_.size()}) {
            if (n > devices_.size() || (!sets.empty() && sets.back().size() == n)) {
                continue;
            }
            std::vector<DeviceSlot> s;
            for (std::size_t i = 0; i < n; ++i) {
                s.push_back({devices_[i].id, 0, 1.0});
            }
            sets.push_back(s);
        }
        return sets;
    }

    cv::Mat untiled(const cv::Mat& src, const filters::FilterChain& chain, Method method,
                    TensorCores tensor = TensorCores::Off) const
    {
        RunOptions o;
        o.deviceSlots = {DeviceSlot{device_.id, 0, 1.0}};
        o.method = method;
        o.tensorCores = tensor;
        o.tileSize = TileSize{src.cols, src.rows};
        RunReport r;
        cv::Mat out = runStreamed(src, chain, o, &r);
        EXPECT_EQ(r.tiles.size(), 1u);
        EXPECT_TRUE(r.events.empty());
        return out;
    }

    /// A resident pipeline over `slots` with the method forced.
    static std::unique_ptr<Pipeline> resident(const std::vector<DeviceSlot>& slots, Method method, TensorCores tensor)
    {
        RunOptions o;
        o.placement = Placement::Resident;
        o.deviceSlots = slots;
        o.method = method;
        o.tensorCores = tensor;
        return std::make_unique<Pipeline>(o);
    }

    /// The resident run of chain over src (or a region of it); a run the CPU path made in the
    /// GPUs' place fails the test, whatever its pixels.
    static cv::Mat apply(Pipeline& p, const cv::Mat& src, const filters::FilterChain& chain,
                         const cv::Rect& region = {}, RunReport* report = nullptr)
    {
        RunReport local;
        cv::Mat out;
        p.run(src, chain, out, &local, region);
        EXPECT_TRUE(local.fallback.empty()) << local.fallback;
        EXPECT_EQ(local.placement, Placement::Resident);
        if (report != nullptr) {
            *report = local;
        }
        return out;
    }
};

double diff(const cv::Mat& a, const cv::Mat& b)
{
    if (a.size() != b.size() || a.type() != b.type()) {
        return -1.0;
    }
    cv::Mat x = a.reshape(1);
    cv::Mat y = b.reshape(1);
    if (a.depth() == CV_32F) {  // NaN-aware and bit-exact: compare the bits
        return cv::norm(cv::Mat(x.rows, x.cols, CV_32S, x.data, x.step),
                        cv::Mat(y.rows, y.cols, CV_32S, y.data, y.step), cv::NORM_INF);
    }
    return cv::norm(x, y, cv::NORM_INF);
}

TEST_F(MultiGpu, TiledEqualsUntiledBitForBitOnOneTwoAndEveryGpu)
{
    SCOPED_TRACE(seedNote(seed_));
    std::size_t index = 0;
    for (const PixelDepth depth : kDepths) {
        for (const int cn : kChannels) {
            auto rng = caseRng(seed_, 61, index++);
            const PixelFormat format{depth, cn};
            const cv::Mat src = randomImage(131, 257, format, rng);
            for (std::size_t b = 0; b < std::size(kBorders); ++b) {
                for (const int k : {3, 8, 31}) {
                    filters::FilterSpec spec =
                        k == 31 ? randomRank1Spec(k, k, rng) : randomDenseSpec(k, k - 2 * (k == 8), rng);
                    spec.border = kBorders[b];
                    spec.borderValue = borderValueFor(depth, b);
                    const Method method = k == 31 ? Method::Separable : Method::Direct;
                    const filters::FilterChain chain{{spec}};
                    const cv::Mat whole = untiled(src, chain, method);
                    for (const auto& slots : slotSets()) {
                        for (const auto& ts : {std::optional<TileSize>{TileSize{257, 1}},
                                               std::optional<TileSize>{TileSize{37, 23}}, std::optional<TileSize>{}}) {
                            RunOptions o;
                            o.deviceSlots = slots;
                            o.method = method;
                            o.tensorCores = TensorCores::Off;
                            o.tileSize = ts;
                            o.tilesPerSlot = 5;
                            RunReport r;
                            const cv::Mat tiled = runStreamed(src, chain, o, &r);
                            SCOPED_TRACE(format.name() + " " + describeSpec(spec) + " on " +
                                         std::to_string(slots.size()) + " GPUs, " + r.plan);
                            ASSERT_EQ(diff(tiled, whole), 0.0);
                            ASSERT_TRUE(r.events.empty()) << r.events.front();
                        }
                    }
                }
            }
        }
    }
}

TEST_F(MultiGpu, VirtualSlotsOnOneGpuAndPinnedImagesGiveTheSameResult)
{
    SCOPED_TRACE(seedNote(seed_));
    auto rng = caseRng(seed_, 62, 0);
    const cv::Mat src = randomImage(517, 383, PixelFormat{PixelDepth::U16, 3}, rng);
    filters::FilterSpec spec = randomDenseSpec(7, 5, rng);
    spec.border = filters::Border::Wrap;
    const filters::FilterChain chain{{spec, filters::makeBox(3)}};
    const cv::Mat whole = untiled(src, chain, Method::Direct);
    RunOptions o;
    o.deviceSlots = std::vector<DeviceSlot>(3, DeviceSlot{device_.id, 0, 1.0});
    o.method = Method::Direct;
    o.tensorCores = TensorCores::Off;
    o.tileSize = TileSize{100, 64};
    RunReport r;
    EXPECT_EQ(diff(runStreamed(src, chain, o, &r), whole), 0.0);
    int busy = 0;
    for (const auto& s : r.slotReports) {
        busy += s.tiles > 0;
    }
    EXPECT_GE(busy, 2) << "tiles should spread over the virtual slots";

    // Pinned source and result: the executor copies straight from and to them.
    RawPinnedBuffer inBuffer(src.total() * src.elemSize());
    cv::Mat pinnedSrc(src.rows, src.cols, src.type(), inBuffer.data());
    src.copyTo(pinnedSrc);
    ASSERT_TRUE(isPinnedHost(pinnedSrc.data));
    o.deviceSlots = {DeviceSlot{device_.id, 0, 1.0}};
    EXPECT_EQ(diff(runStreamed(pinnedSrc, chain, o, &r), whole), 0.0);
    bool staged = false;
    for (const auto& rec : r.records) {
        staged = staged || rec.label == "stage input";
    }
    EXPECT_FALSE(staged) << "a pinned source needs no staging";
}

TEST_F(MultiGpu, AnImageFourTimesTheMemoryLimitStreamsThroughExactly)
{
    SCOPED_TRACE(seedNote(seed_));
    auto rng = caseRng(seed_, 63, 0);
    const cv::Mat src = randomImage(4096, 4096, PixelFormat{PixelDepth::U8, 4}, rng);
    const std::size_t bytes = src.total() * src.elemSize();
    filters::FilterSpec spec = randomDenseSpec(15, 15, rng);
    const filters::FilterChain chain{{spec}};
    const cv::Mat whole = untiled(src, chain, Method::Direct);
    for (const auto& slots : slotSets()) {
        RunOptions o;
        o.deviceSlots = slots;
        for (auto& s : o.deviceSlots) {
            s.memoryLimit = bytes / 4;
        }
        o.method = Method::Direct;
        o.tensorCores = TensorCores::Off;
        RunReport r;
        const cv::Mat tiled = runStreamed(src, chain, o, &r);
        SCOPED_TRACE(r.plan);
        EXPECT_EQ(diff(tiled, whole), 0.0);
        EXPECT_GT(r.tiles.size(), 8u);
        for (const auto& t : r.tiles) {
            EXPECT_LE(t.bytes, bytes / 4 / static_cast<std::size_t>(o.streamsPerGpu));
        }
    }
}

TEST_F(MultiGpu, InjectedDeviceFaultsStillGiveTheExactImageAndAreReported)
{
    SCOPED_TRACE(seedNote(seed_));
    auto rng = caseRng(seed_, 64, 0);
    const cv::Mat src = randomImage(1080, 1920, PixelFormat{PixelDepth::F32, 1}, rng);
    const filters::FilterChain chain{{randomDenseSpec(9, 9, rng)}};
    const cv::Mat whole = untiled(src, chain, Method::Direct);
    // Two slots even on a one-GPU machine: virtual slots fail independently.
    const DeviceId second = devices_.size() > 1 ? devices_[1].id : device_.id;
    std::atomic<int> oom{0};
    std::atomic<int> broken{0};
    RunOptions o;
    o.deviceSlots = {DeviceSlot{device_.id, 0, 1.0}, DeviceSlot{second, 0, 1.0}};
    o.method = Method::Direct;
    o.tensorCores = TensorCores::Off;
    o.tileSize = TileSize{1920, 60};
    o.fault = [&](SlotIndex slot, int, Phase phase) {
        if (slot == SlotIndex{0} && phase == Phase::Upload && oom.fetch_add(1) == 1) {
            throw OutOfDeviceMemory(2, "cudaMalloc(injected)", __FILE__, __LINE__, "injected out of memory");
        }
        if (slot == SlotIndex{1} && phase == Phase::Kernel && broken.fetch_add(1) == 0) {
            throw CudaError(700, "kernel(injected)", __FILE__, __LINE__, "injected device fault");
        }
        if (slot == SlotIndex{0}) {
            // However slowly slot 1 starts (under a sanitizer, say), it still gets tiles to fail on.
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    };
    RunReport r;
    const cv::Mat tiled = runStreamed(src, chain, o, &r);
    EXPECT_EQ(diff(tiled, whole), 0.0);
    EXPECT_TRUE(r.slotReports[0].failure.empty());
    EXPECT_NE(r.slotReports[1].failure.find("injected device fault"), std::string::npos);
    EXPECT_GE(r.retries, 2);
    std::string all;
    for (const auto& e : r.events) {
        all += e + "\n";
    }
    EXPECT_NE(all.find("split in two"), std::string::npos) << all;
    EXPECT_NE(all.find("takes no more"), std::string::npos) << all;
}

TEST_F(MultiGpu, RecordsHaveUploadKernelAndDownloadForEveryTile)
{
    SCOPED_TRACE(seedNote(seed_));
    auto rng = caseRng(seed_, 65, 0);
    const cv::Mat src = randomImage(1000, 1000, PixelFormat{PixelDepth::U8, 4}, rng);
    RunOptions o;
    for (const auto& d : devices_) {
        o.deviceSlots.push_back({d.id, 0, 1.0});
    }
    o.tileSize = TileSize{1000, 100};
    RunReport r;
    runStreamed(src, filters::FilterChain{{filters::makeGaussian(2.0, 9)}}, o, &r);
    std::map<int, std::set<Phase>> phases;
    for (const auto& rec : r.records) {
        EXPECT_LE(rec.beginUs, rec.endUs);
        EXPECT_GE(rec.beginUs, 0.0);
        EXPECT_LE(rec.endUs, r.wallMs * 1000.0 + 50.0);
        if (rec.phase != Phase::Host) {
            EXPECT_FALSE(rec.device.isCpu());
            phases[rec.tile].insert(rec.phase);
        }
    }
    EXPECT_EQ(phases.size(), 10u);
    for (const auto& [tile, set] : phases) {
        EXPECT_EQ(set.size(), 3u) << "tile " << tile;
    }
}

TEST_F(MultiGpu, ResidentBandsAnswerWholeImagesAndRegionsExactly)
{
    SCOPED_TRACE(seedNote(seed_));
    auto rng = caseRng(seed_, 66, 0);
    const cv::Mat src = randomImage(731, 529, PixelFormat{PixelDepth::U8, 4}, rng);
    filters::FilterSpec wrap = randomDenseSpec(5, 5, rng);
    wrap.border = filters::Border::Wrap;
    const filters::FilterChain chains[] = {
        filters::FilterChain{{randomDenseSpec(3, 3, rng)}},
        filters::FilterChain{{randomDenseSpec(31, 31, rng)}},  // more halo than stored: laid out again
        filters::FilterChain{{wrap, filters::makeBox(5)}},
        filters::FilterChain{{filters::makeBox(101)}},
    };
    for (const auto& slots : slotSets()) {
        const auto bands = resident(slots, Method::Direct, TensorCores::Off);
        for (const auto& chain : chains) {
            const cv::Mat whole = untiled(src, chain, Method::Direct);
            RunReport r;
            const cv::Mat all = apply(*bands, src, chain, {}, &r);
            EXPECT_EQ(bands->bands().size(), slots.size());
            EXPECT_EQ(diff(all, whole), 0.0) << slots.size() << " GPUs";
            EXPECT_EQ(r.tiles.size(), slots.size());
            for (const cv::Rect region : {cv::Rect(0, 0, 1, 1), cv::Rect(100, 300, 200, 150),
                                          cv::Rect(500, 700, 29, 31), cv::Rect(0, 350, 529, 40)}) {
                const cv::Mat part = apply(*bands, src, chain, region);
                EXPECT_EQ(diff(part, whole(region)), 0.0)
                    << slots.size() << " GPUs, region at " << region.x << "," << region.y;
            }
            EXPECT_GT(bands->runInPlace(src, chain), 0.0);
        }
    }
}

// Wide tensor-core kernels compute only a band's own rows (the halo rows of its view are read,
// not computed); full-width bands keep every output's summation order, so the result is the
// untiled one bit for bit, also with several bands on one GPU and with bands shorter than a tile.
TEST_F(MultiGpu, ResidentBandsOnTensorCoresMatchTheUntiledRunExactly)
{
    if (device_.ccMajor < 8) {
        GTEST_SKIP() << "tensor-core kernels need compute capability 8.0";
    }
    SCOPED_TRACE(seedNote(seed_));
    auto rng = caseRng(seed_, 67, 0);
    for (const int channels : {4, 1}) {
        // RGBA: more tiles than an H200 holds blocks at once, so blocks take several tiles each.
        const cv::Mat src = channels == 4 ? randomImage(2100, 1100, PixelFormat{PixelDepth::U8, 4}, rng)
                                          : randomImage(333, 397, PixelFormat{PixelDepth::U8, 1}, rng);
        filters::FilterSpec reflect = randomDenseSpec(31, 31, rng);
        filters::FilterSpec constant = randomDenseSpec(40, 17, rng);
        constant.border = filters::Border::Constant;
        constant.borderValue = 7.0;
        for (auto spec : {reflect, constant}) {
            // Positive taps that sum to one keep the fp16 error bound below half a step.
            for (auto& w : spec.kernel.weights) {
                w = std::abs(w);
            }
            spec.scale = 1.0 / std::accumulate(spec.kernel.weights.begin(), spec.kernel.weights.end(), 0.0);
            const filters::FilterChain chain{{spec}};
            const cv::Mat whole = untiled(src, chain, Method::Direct, TensorCores::On);
            auto sets = slotSets();
            sets.push_back(std::vector<DeviceSlot>(9, DeviceSlot{device_.id, 0, 1.0}));
            for (const auto& slots : sets) {
                const auto bands = resident(slots, Method::Direct, TensorCores::On);
                RunReport r;
                const cv::Mat all = apply(*bands, src, chain, {}, &r);
                SCOPED_TRACE(std::to_string(channels) + " channels, " + describeSpec(spec) + ", " +
                             std::to_string(slots.size()) + " bands");
                ASSERT_FALSE(r.methods.empty());
                EXPECT_EQ(diff(all, whole), 0.0);
                const cv::Rect rows(0, 150, src.cols, 61);
                EXPECT_EQ(diff(apply(*bands, src, chain, rows), whole(rows)), 0.0);
                EXPECT_GT(bands->runInPlace(src, chain), 0.0);
            }
        }
    }
}

// Both placements fill one report the same way: which device ran, the plan of every step, kernel
// records on the run's clock and tiles that cover the image; and give the same pixels.
TEST_F(MultiGpu, BothPlacementsGiveOneReport)
{
    SCOPED_TRACE(seedNote(seed_));
    auto rng = caseRng(seed_, 68, 0);
    const cv::Mat src = randomImage(411, 389, PixelFormat{PixelDepth::U8, 4}, rng);
    const filters::FilterChain chain{{randomDenseSpec(7, 7, rng), filters::makeGaussian(2.0, 13)}};
    std::vector<cv::Mat> outputs;
    for (const Placement placement : {Placement::Streamed, Placement::Resident}) {
        SCOPED_TRACE(toString(placement));
        RunOptions o;
        o.placement = placement;
        o.deviceSlots = {DeviceSlot{device_.id, 0, 1.0}};
        o.method = Method::Direct;
        o.tensorCores = TensorCores::Off;
        Pipeline pipeline(o);
        RunReport r;
        cv::Mat out;
        ASSERT_TRUE(pipeline.run(src, chain, out, &r));
        EXPECT_EQ(r.placement, placement);
        EXPECT_TRUE(r.fallback.empty()) << r.fallback;
        EXPECT_TRUE(r.events.empty());
        EXPECT_EQ(r.devicesUsed(), std::vector<DeviceId>{device_.id});
        ASSERT_EQ(r.methods.size(), chain.steps.size());
        ASSERT_EQ(r.stepMethods.size(), chain.steps.size());
        for (const Method m : r.stepMethods) {
            EXPECT_EQ(m, Method::Direct);
        }
        EXPECT_FALSE(r.plan.empty());
        EXPECT_GT(r.kernelMs(), 0.0);
        EXPECT_GT(r.wallMs, 0.0);
        ASSERT_EQ(r.tiles.size(), r.computed.size());
        std::int64_t covered = 0;
        for (std::size_t i = 0; i < r.tiles.size(); ++i) {
            covered += r.computed[i] ? r.tiles[i].out.area() : 0;
        }
        EXPECT_EQ(covered, std::int64_t{src.cols} * src.rows);
        for (const auto& rec : r.records) {
            EXPECT_EQ(DeviceId{rec.device}, device_.id);
            EXPECT_LE(rec.beginUs, rec.endUs);
        }
        outputs.push_back(out);
    }
    EXPECT_EQ(diff(outputs[0], outputs[1]), 0.0);
}

}  // namespace
}  // namespace tessera::gpu::test
