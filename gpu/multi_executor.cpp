#include "gpu/multi_executor.h"

#include "filters/cpu_executor.h"
#include "gpu/chain_runner.h"
#include "gpu/cuda_error.h"
#include "gpu/device_info.h"
#include "gpu/pixel_format.h"
#include "gpu/resources.h"
#include "gpu/tile_worker.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <stdexcept>
#include <thread>

namespace tessera::gpu {

std::string DeviceSlot::name() const
{
    return isCpu() ? std::string("CPU") : "GPU " + std::to_string(gpu);
}

int chainOutputType(const filters::FilterChain& chain, int cvType)
{
    int depth = CV_MAT_DEPTH(cvType);
    for (const auto& spec : chain.steps) {
        depth = filters::resolveOutputDepth(spec.depth, depth);
    }
    return CV_MAKETYPE(depth, CV_MAT_CN(cvType));
}

void gatherTileInput(const cv::Mat& src, const Tile& tile, void* out, std::size_t pitch)
{
    const std::size_t bpp = src.elemSize();
    auto* base = static_cast<unsigned char*>(out);
    const auto copyRect = [&](const Rect& source, int destX, int destY) {
        const std::size_t rowBytes = static_cast<std::size_t>(source.width) * bpp;
        for (int r = 0; r < source.height; ++r) {
            std::memcpy(base + static_cast<std::size_t>(destY + r) * pitch + static_cast<std::size_t>(destX) * bpp,
                        src.ptr(source.y + r) + static_cast<std::size_t>(source.x) * bpp, rowBytes);
        }
    };
    if (!tile.periodic) {
        copyRect(tile.in, 0, 0);
        return;
    }
    for (const auto& piece : periodicPieces(tile.in, src.cols, src.rows)) {
        copyRect(piece.source, piece.destX, piece.destY);
    }
}

cv::Mat tileInput(const cv::Mat& src, const Tile& tile)
{
    if (!tile.periodic) {
        return src(cv::Rect(tile.in.x, tile.in.y, tile.in.width, tile.in.height));
    }
    cv::Mat in(tile.in.height, tile.in.width, src.type());
    gatherTileInput(src, tile, in.data, in.step);
    return in;
}

void computeTileOnCpu(const StreamedRun& run, const Tile& tile)
{
    const cv::Mat out = filters::applyCpu(tileInput(run.src, tile), run.chain);
    out(cv::Rect(tile.out.x - tile.in.x, tile.out.y - tile.in.y, tile.out.width, tile.out.height))
        .copyTo(run.dst(cv::Rect(tile.out.x, tile.out.y, tile.out.width, tile.out.height)));
}

namespace {

std::string rectText(const Rect& r)
{
    return std::to_string(r.width) + " x " + std::to_string(r.height) + " at (" + std::to_string(r.x) + ", " +
           std::to_string(r.y) + ")";
}

TimingRecord hostRecord(int device, int stream, int tile, const Tile& t, std::string label, double begin, double end,
                        std::uint64_t bytes)
{
    return TimingRecord{device, stream, tile, Phase::Host, std::move(label), begin, end, bytes,
                        t.out.x,  t.out.y, t.out.width, t.out.height};
}

}  // namespace

void runCpuSlot(const StreamedRun& run, int slot, SlotReport& report)
{
    TileQueue& queue = run.queue;
    int misfits = 0;
    while (auto item = queue.pop(true)) {
        const double begin = queue.nowUs();
        try {
            if (run.options.fault) {
                run.options.fault(slot, item->index, Phase::Host);
            }
            computeTileOnCpu(run, item->tile);
            const double end = queue.nowUs();
            const std::uint64_t bytes = static_cast<std::uint64_t>(item->tile.in.area()) * run.src.elemSize() +
                                        static_cast<std::uint64_t>(item->tile.out.area()) * run.dst.elemSize();
            queue.addRecords({hostRecord(-1, slot, item->index, item->tile, "cpu", begin, end, bytes)});
            report.busyMs += (end - begin) / 1000.0;
            ++report.tiles;
            queue.complete(item->index);
        } catch (const OutOfDeviceMemory& e) {
            queue.handBack(item->index, true);
            queue.addEvent("CPU slot " + std::to_string(slot) + ": tile " + rectText(item->tile.out) +
                           " did not fit (" + e.what() + "); split in two and handed back");
            if (++misfits > 32) {
                report.failure = "too many tiles did not fit";
                return;
            }
        } catch (const std::bad_alloc&) {
            queue.handBack(item->index, true);
            queue.addEvent("CPU slot " + std::to_string(slot) + ": out of host memory for tile " +
                           rectText(item->tile.out) + "; split in two and handed back");
            if (++misfits > 32) {
                report.failure = "out of host memory";
                return;
            }
        } catch (const std::exception& e) {
            queue.handBack(item->index, false);
            report.failure = e.what();
            queue.addEvent("CPU slot " + std::to_string(slot) + " failed at tile " + rectText(item->tile.out) +
                           ": " + e.what() + "; the tile was handed back and the slot takes no more");
            return;
        }
    }
}

namespace {

// Device bytes one GPU lane needs for an input crop besides the input itself: the chain
// runner's buffers, as a line through the costs of a small and a full-size crop (planning asks
// for thousands of sizes; the buffers grow with the pixel count, the workspace nearly so), with
// an eighth more for what the line misses.
WorkspaceFn gpuWorkspace(const DeviceInfo& device, const filters::FilterChain& chain, PixelFormat format,
                         Method method, TensorCores tensor, int width, int height)
{
    ChainRunner runner(device);
    runner.setTensorCores(tensor);
    const int sw = std::min(width, 64);
    const int sh = std::min(height, 64);
    const double small = static_cast<double>(runner.bytesFor(chain, format, sw, sh, method));
    const double large = static_cast<double>(runner.bytesFor(chain, format, width, height, method));
    const double smallPx = static_cast<double>(sw) * sh;
    const double largePx = static_cast<double>(width) * height;
    const double perPixel = largePx > smallPx ? std::max(0.0, (large - small) / (largePx - smallPx)) : small / smallPx;
    const double fixed = std::max(0.0, small - perPixel * smallPx);
    return linearWorkspace(static_cast<std::size_t>(std::ceil(perPixel * 1.125)),
                           static_cast<std::size_t>(fixed * 1.125) + (std::size_t{1} << 20));
}

}  // namespace

namespace {

void checkOptions(const StreamedOptions& options)
{
    if (options.deviceSlots.empty()) {
        throw std::invalid_argument("streamed run: no device slots");
    }
    if (options.streamsPerGpu < 1) {
        throw std::invalid_argument("streamed run: streamsPerGpu must be at least 1");
    }
}

}  // namespace

struct StreamedExecutor::State {
    StreamedOptions options;
    std::optional<DeviceSnapshot> snapshot;
    std::vector<GpuLanesPtr> lanes;  // per slot
};

StreamedExecutor::StreamedExecutor(StreamedOptions options) : state_(std::make_unique<State>())
{
    setOptions(std::move(options));
}

StreamedExecutor::~StreamedExecutor() = default;

const StreamedOptions& StreamedExecutor::options() const
{
    return state_->options;
}

void StreamedExecutor::setOptions(StreamedOptions options)
{
    checkOptions(options);
    std::vector<GpuLanesPtr> lanes(options.deviceSlots.size());
    for (std::size_t i = 0; i < options.deviceSlots.size() && i < state_->lanes.size(); ++i) {
        if (i < state_->options.deviceSlots.size() && state_->options.deviceSlots[i].gpu == options.deviceSlots[i].gpu) {
            lanes[i] = std::move(state_->lanes[i]);
        }
    }
    state_->lanes = std::move(lanes);
    state_->options = std::move(options);
}

cv::Mat runStreamed(const cv::Mat& src, const filters::FilterChain& chain, const StreamedOptions& options,
                    MultiRunReport* report)
{
    StreamedExecutor executor(options);
    cv::Mat dst;
    if (!executor.run(src, dst, chain, report)) {
        return {};
    }
    return dst;
}

bool StreamedExecutor::run(const cv::Mat& src, cv::Mat& dst, const filters::FilterChain& chain,
                           MultiRunReport* report)
{
    const StreamedOptions& options = state_->options;
    if (src.empty()) {
        throw std::invalid_argument("streamed run: the image is empty");
    }
    if (!dst.empty() && dst.data == src.data) {
        throw std::invalid_argument("streamed run: the result cannot overwrite its input");
    }
    const PixelFormat format = pixelFormatFromCvType(src.type());
    MultiRunReport local;
    if (chain.steps.empty()) {
        if (report != nullptr) {
            *report = local;
        }
        src.copyTo(dst);
        return true;
    }
    const int outType = chainOutputType(chain, src.type());

    bool anyGpu = false;
    for (const auto& s : options.deviceSlots) {
        anyGpu = anyGpu || !s.isCpu();
    }
    if (anyGpu && !state_->snapshot) {
        state_->snapshot = enumerateDevices();  // device properties are slow to read: once per executor
    }
    const DeviceSnapshot snapshot = anyGpu ? *state_->snapshot : DeviceSnapshot{};
    std::map<int, int> slotsPerGpu;
    for (const auto& s : options.deviceSlots) {
        if (!s.isCpu()) {
            ++slotsPerGpu[s.gpu];
        }
    }

    TileRequest rq;
    rq.width = src.cols;
    rq.height = src.rows;
    rq.halo = chain.halo();
    rq.edges = edgeModes(chain);
    rq.pixelBytes = {format.bytesPerPixel(), 0, 0};
    rq.tileSize = options.tileSize;
    rq.tilesPerDevice = std::max(1, options.tilesPerSlot);
    rq.minAutoTilePixels = std::int64_t{1} << 18;

    std::vector<const DeviceInfo*> infos(options.deviceSlots.size(), nullptr);
    std::vector<std::string> unusable(options.deviceSlots.size());
    for (std::size_t i = 0; i < options.deviceSlots.size(); ++i) {
        const DeviceSlot& s = options.deviceSlots[i];
        PlannerDevice d;
        d.id = static_cast<int>(i);
        d.speed = s.speed > 0.0 ? s.speed : 1.0;
        if (s.isCpu()) {
            d.budgetBytes = s.memoryLimit > 0 ? s.memoryLimit : std::numeric_limits<std::size_t>::max() / 4;
            d.workspace = linearWorkspace(format.bytesPerPixel() + CV_ELEM_SIZE(outType) * 2, 0);
            rq.devices.push_back(std::move(d));
            continue;
        }
        const auto found = std::find_if(snapshot.devices.begin(), snapshot.devices.end(),
                                        [&](const DeviceInfo& info) { return info.id == s.gpu; });
        if (found == snapshot.devices.end()) {
            unusable[i] = "GPU " + std::to_string(s.gpu) + " does not exist" +
                          (snapshot.hasGpu() ? "" : " (" + snapshot.reason + ")");
            continue;
        }
        infos[i] = &*found;
        std::size_t budget = s.memoryLimit;
        if (budget == 0) {
            try {
                budget = static_cast<std::size_t>(0.8 * static_cast<double>(freeDeviceMemory(s.gpu)) /
                                                  slotsPerGpu[s.gpu]);
            } catch (const std::exception& e) {
                unusable[i] = std::string("GPU ") + std::to_string(s.gpu) + ": " + e.what();
                infos[i] = nullptr;
                continue;
            }
        }
        d.budgetBytes = budget / static_cast<std::size_t>(options.streamsPerGpu);
        d.workspace = gpuWorkspace(*found, chain, format, options.method, options.tensorCores, src.cols, src.rows);
        rq.devices.push_back(std::move(d));
    }
    const bool noneUsable = rq.devices.empty();
    if (noneUsable) {  // every slot names a missing GPU: the CPU path does the whole job
        PlannerDevice cpu;
        cpu.id = -1;
        cpu.budgetBytes = std::numeric_limits<std::size_t>::max() / 4;
        rq.devices.push_back(cpu);
    }
    const TilePlan plan = planTiles(rq);
    local.plan = plan.describe();

    dst.create(src.rows, src.cols, outType);
    TileQueue queue(plan.tiles, rq, options.cancel);
    for (std::size_t i = 0; i < unusable.size(); ++i) {
        if (!unusable[i].empty()) {
            queue.addEvent("slot " + std::to_string(i) + " not used: " + unusable[i]);
        }
    }
    StreamedRun run{src, dst, chain, options, queue, anyGpu && isPinnedHost(src.data),
                    anyGpu && isPinnedHost(dst.data)};

    local.slotReports.resize(options.deviceSlots.size());
    std::vector<std::vector<Plan>> methods(options.deviceSlots.size());
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < options.deviceSlots.size(); ++i) {
        local.slotReports[i].slot = options.deviceSlots[i];
        if (!unusable[i].empty()) {
            local.slotReports[i].failure = unusable[i];
            continue;
        }
        const int slot = static_cast<int>(i);
        if (options.deviceSlots[i].isCpu()) {
            threads.emplace_back([&run, slot, &local] { runCpuSlot(run, slot, local.slotReports[slot]); });
        } else {
            threads.emplace_back([&run, slot, &local, &infos, &methods, this] {
                runGpuSlot(run, slot, *infos[slot], local.slotReports[slot], &methods[slot], state_->lanes[slot]);
            });
        }
    }
    for (auto& t : threads) {
        t.join();
    }

    if (!queue.cancelled()) {
        // Tiles that no slot could finish: the CPU path completes the job.
        const auto left = queue.drain();
        if (!left.empty()) {
            queue.addEvent(std::to_string(left.size()) + (left.size() == 1 ? " tile" : " tiles") +
                           " left with no device to run them: computed on the CPU path");
        }
        for (const auto& item : left) {
            const double begin = queue.nowUs();
            computeTileOnCpu(run, item.tile);
            queue.addRecords({hostRecord(-1, 0, item.index, item.tile, "cpu fallback", begin, queue.nowUs(),
                                         static_cast<std::uint64_t>(item.tile.in.area()) * src.elemSize())});
            queue.complete(item.index);
            ++local.cpuFallbackTiles;
        }
    }

    local.cancelled = queue.cancelled();
    local.wallMs = queue.nowUs() / 1000.0;
    local.records = queue.records();
    std::sort(local.records.begin(), local.records.end(),
              [](const TimingRecord& a, const TimingRecord& b) { return a.beginUs < b.beginUs; });
    local.events = queue.events();
    local.retries = queue.retries();
    local.tiles = queue.tiles();
    local.computed = queue.computed();
    for (const auto& plans : methods) {
        if (!plans.empty()) {
            for (const auto& p : plans) {
                local.methods.push_back(p.describe());
                local.stepMethods.push_back(p.method);
            }
            break;
        }
    }
    const bool cancelled = queue.cancelled();
    if (report != nullptr) {
        *report = std::move(local);
    }
    return !cancelled;
}

}  // namespace tessera::gpu
