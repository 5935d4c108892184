// SPDX-License-Identifier: Apache-2.0
#include "gpu/exec/streamed/streamed_executor.h"

#include "values/errors.h"
#include "values/log.h"
#include "tessera/gpu/values.h"
#include "gpu/exec/chain_runner.h"
#include "tessera/gpu/device_info.h"
#include "tessera/gpu/pixel_format.h"
#include "tessera/gpu/resources.h"
#include "gpu/exec/streamed/slot_worker.h"
#include "gpu/exec/streamed/tile_worker.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

namespace tessera::gpu {

namespace {

// Device bytes one GPU lane needs for an input crop besides the input itself: the chain
// runner's buffers, as a line through the costs of a small and a full-size crop (planning asks
// for thousands of sizes; the buffers grow with the pixel count, the workspace nearly so), with
// an eighth more for what the line misses.
WorkspaceFn gpuWorkspace(const DeviceInfo& device, const filters::FilterChain& chain, PixelFormat format, Method method,
                         TensorCores tensor, int width, int height)
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

void checkOptions(const RunOptions& options)
{
    if (options.deviceSlots.empty()) {
        throw InvalidInput("streamed run: no device slots");
    }
    if (options.streamsPerGpu < 1) {
        throw InvalidInput("streamed run: streamsPerGpu must be at least 1");
    }
}

bool anyGpu(const RunOptions& options)
{
    return std::any_of(options.deviceSlots.begin(), options.deviceSlots.end(),
                       [](const DeviceSlot& s) { return !s.isCpu(); });
}

/// The tile request of a run: every usable slot as a planner device with its budget, the
/// devices the GPU slots run on, and why the others cannot be used.
struct SlotSetup {
    TileRequest request;
    std::vector<const DeviceInfo*> infos;  // per slot; null for the CPU and unusable slots
    std::vector<std::string> unusable;     // per slot; empty when usable
};

/// A slot's memory limit under the run's budget (0 when neither sets one).
std::size_t slotLimit(const DeviceSlot& slot, std::uint64_t runBudget, int slotsOnDevice)
{
    if (runBudget == 0) {
        return slot.memoryLimit;
    }
    const auto share = static_cast<std::size_t>(runBudget / static_cast<std::uint64_t>(std::max(1, slotsOnDevice)));
    const std::size_t limit = std::max<std::size_t>(share, 1);
    return slot.memoryLimit > 0 ? std::min(slot.memoryLimit, limit) : limit;
}

SlotSetup setUpSlots(const RunOptions& options, const RunControl& control, const DeviceSnapshot& snapshot,
                     const cv::Mat& src, const filters::FilterChain& chain, int outType)
{
    const PixelFormat format = pixelFormatFromCvType(src.type());
    SlotSetup setup;
    TileRequest& rq = setup.request;
    rq.width = src.cols;
    rq.height = src.rows;
    rq.halo = chain.halo();
    rq.edges = edgeModes(chain);
    rq.pixelBytes = {format.bytesPerPixel(), 0, 0};
    rq.tileSize = options.tileSize;
    rq.tilesPerDevice = std::max(1, options.tilesPerSlot);
    rq.minAutoTilePixels = std::int64_t{1} << 18;

    std::map<DeviceId, int> slotsPerGpu;
    for (const auto& s : options.deviceSlots) {
        ++slotsPerGpu[s.gpu];  // the CPU's slots share the run's budget as a GPU's do
    }
    const WorkspaceFn cpuWorkspace = linearWorkspace(format.bytesPerPixel() + CV_ELEM_SIZE(outType) * 2, 0);
    if (!rq.tileSize && options.deviceSlots.size() == 1 && options.deviceSlots.front().isCpu()) {
        // The CPU path alone threads inside each filter: cutting the image would only add halo
        // work, and one tile gives the untiled result bit for bit. Only a budget too small for
        // the whole image cuts it.
        const std::size_t limit = slotLimit(options.deviceSlots.front(), control.memoryBudget, 1);
        const std::size_t whole =
            static_cast<std::size_t>(src.total()) * format.bytesPerPixel() + cpuWorkspace(src.cols, src.rows);
        if (limit == 0 || whole <= limit) {
            rq.tileSize = TileSize{src.cols, src.rows};
        }
    }
    const std::size_t n = options.deviceSlots.size();
    setup.infos.assign(n, nullptr);
    setup.unusable.assign(n, {});
    for (std::size_t i = 0; i < n; ++i) {
        const DeviceSlot& s = options.deviceSlots[i];
        PlannerDevice d;
        d.slot = SlotIndex{i};
        d.speed = s.speed > 0.0 ? s.speed : 1.0;
        const std::size_t limit = slotLimit(s, control.memoryBudget, slotsPerGpu[s.gpu]);
        if (s.isCpu()) {
            d.budgetBytes = limit > 0 ? limit : std::numeric_limits<std::size_t>::max() / 4;
            d.workspace = cpuWorkspace;
            rq.devices.push_back(std::move(d));
            continue;
        }
        const auto found = std::find_if(snapshot.devices.begin(), snapshot.devices.end(),
                                        [&](const DeviceInfo& info) { return info.id == s.gpu; });
        if (found == snapshot.devices.end()) {
            setup.unusable[i] =
                describe(s.gpu) + " does not exist" + (snapshot.hasGpu() ? "" : " (" + snapshot.reason + ")");
            continue;
        }
        std::size_t budget = limit;  // the run's (a lease's) or the slot's own
        if (budget == 0) {           // neither: the executor's own rule
            try {
                budget =
                    static_cast<std::size_t>(0.8 * static_cast<double>(freeDeviceMemory(s.gpu)) / slotsPerGpu[s.gpu]);
            } catch (const std::exception& e) {
                setup.unusable[i] = describe(s.gpu) + ": " + e.what();
                continue;
            }
        }
        setup.infos[i] = &*found;
        d.budgetBytes = budget / static_cast<std::size_t>(options.streamsPerGpu);
        d.workspace = gpuWorkspace(*found, chain, format, options.method, options.tensorCores, src.cols, src.rows);
        rq.devices.push_back(std::move(d));
    }
    if (rq.devices.empty()) {  // every slot names a missing GPU: the CPU path does the whole job
        PlannerDevice cpu;
        cpu.slot = SlotIndex{0};  // the only entry of the list
        cpu.budgetBytes = std::numeric_limits<std::size_t>::max() / 4;
        rq.devices.push_back(cpu);
    }
    return setup;
}

/// Tiles that no slot could finish, computed on the CPU path; returns how many.
int finishOnCpu(const StreamedRun& run, const std::vector<TileQueue::Item>& left)
{
    TileQueue& queue = run.queue;
    if (!left.empty()) {
        queue.addEvent(std::to_string(left.size()) + (left.size() == 1 ? " tile" : " tiles") +
                       " left with no device to run them: computed on the CPU path");
    }
    for (const auto& item : left) {
        const double begin = queue.nowUs();
        computeTileOnCpu(run, item.tile);
        queue.addRecords({hostRecord(DeviceId::cpu(), 0, item.index, item.tile, "cpu fallback", begin, queue.nowUs(),
                                     static_cast<std::uint64_t>(item.tile.in.area()) * run.src.elemSize())});
        queue.complete(item.index);
    }
    return static_cast<int>(left.size());
}

/// The slots that failed or could not be used, and the first reason; `to` is left empty.
FallbackRecord failedSlots(const std::vector<SlotReport>& slots)
{
    FallbackRecord record;
    for (const auto& s : slots) {
        if (!s.failure.empty()) {
            if (std::find(record.from.begin(), record.from.end(), s.slot.gpu) == record.from.end()) {
                record.from.push_back(s.slot.gpu);
            }
            if (record.reason.empty()) {
                record.reason = s.failure;
            }
        }
    }
    return record;
}

/// The run failed under a policy that allows no stand-in for what `record` lost.
[[noreturn]] void refuse(FallbackRecord record, const std::string& why, RunReport& report)
{
    std::string text = record.happened() ? record.describe() + "; " + why : why;
    values::logIf(values::LogCategory::Fallback, [&] { return text; });
    report.events.push_back(text);
    report.fellBack = std::move(record);
    throw DeviceFailed(text, std::move(report));
}

void collect(const TileQueue& queue, const std::vector<std::vector<Plan>>& plans, RunReport& report)
{
    report.cancelled = queue.cancelled();
    report.wallMs = queue.nowUs() / 1000.0;
    report.records = queue.records();
    std::sort(report.records.begin(), report.records.end(),
              [](const TimingRecord& a, const TimingRecord& b) { return a.beginUs < b.beginUs; });
    report.events = queue.events();
    report.retries = queue.retries();
    report.tiles = queue.tiles();
    report.computed = queue.computed();
    for (const auto& slotPlans : plans) {
        if (!slotPlans.empty()) {
            for (const auto& p : slotPlans) {
                report.methods.push_back(p.describe());
                report.stepMethods.push_back(p.method);
            }
            break;
        }
    }
    if (report.cpuFallbackTiles > 0) {
        report.fallback = std::to_string(report.cpuFallbackTiles) +
                          (report.cpuFallbackTiles == 1 ? " tile" : " tiles") +
                          " computed on the CPU path after the GPUs failed";
    }
}

/// Runs every usable slot on its worker thread (a lone CPU slot on the caller's) until the
/// queue is empty; plans collects each GPU slot's plans. Rethrows what a slot threw, after
/// every worker is done.
void runSlots(const StreamedRun& run, const SlotSetup& setup, RunReport& report, std::vector<std::vector<Plan>>& plans,
              std::vector<std::unique_ptr<SlotWorker>>& workers, std::vector<GpuLanesPtr>& lanes)
{
    const RunOptions& options = run.options;
    const std::size_t n = options.deviceSlots.size();
    // One CPU slot alone has no one to share the queue with: it runs on the caller's thread,
    // which would only wait for a worker (a small image's run would pay more for the hand-off
    // than for its filter).
    const bool onCaller = n == 1 && options.deviceSlots[0].isCpu() && setup.unusable[0].empty();
    if (onCaller) {
        runCpuSlot(run, SlotIndex{0}, report.slotReports[0]);
    }
    // Every thread exists before the first job is posted, so a thread that cannot start leaves
    // no job behind pointing into this frame.
    for (std::size_t i = 0; i < n && !onCaller; ++i) {
        if (setup.unusable[i].empty() && !workers[i]) {
            workers[i] = std::make_unique<SlotWorker>();
        }
    }
    std::vector<SlotWorker*> busy;
    for (std::size_t i = 0; i < n && !onCaller; ++i) {
        SlotReport& slotReport = report.slotReports[i];
        if (!setup.unusable[i].empty()) {
            continue;
        }
        SlotWorker* worker = workers[i].get();
        const SlotIndex slot{i};
        if (options.deviceSlots[i].isCpu()) {
            worker->post([&run, slot, &slotReport] { runCpuSlot(run, slot, slotReport); });
        } else {
            worker->post([&run, i, slot, &slotReport, &setup, &plans, &lanes] {
                runGpuSlot(run, slot, *setup.infos[i], slotReport, &plans[i], lanes[i]);
            });
        }
        busy.push_back(worker);
    }
    // The slot functions never throw; were one to, every worker is still waited for first.
    std::exception_ptr error;
    for (SlotWorker* worker : busy) {
        try {
            worker->wait();
        } catch (...) {
            error = error ? error : std::current_exception();
        }
    }
    if (error) {
        std::rethrow_exception(error);
    }
}

/// What the policy makes of the failed slots and of the tiles no slot took: refused (throws),
/// or finished on the CPU; the report gets the fallback and every slot's plans.
void settleFallback(const StreamedRun& run, TileQueue& queue, std::vector<std::vector<Plan>>& plans, RunReport& report)
{
    const RunOptions& options = run.options;
    FallbackRecord fell = failedSlots(report.slotReports);
    if (fell.happened()) {
        for (const auto& s : report.slotReports) {
            if (s.failure.empty() && s.tiles > 0 &&
                std::find(fell.to.begin(), fell.to.end(), s.slot.gpu) == fell.to.end()) {
                fell.to.push_back(s.slot.gpu);
            }
        }
    }
    std::vector<TileQueue::Item> left;
    if (!queue.cancelled()) {
        left = queue.drain();
    }
    const FallbackStep step = decideFallback(options.fallback, fell.happened(), true, static_cast<int>(left.size()));
    if (step.action == FallbackStep::Action::Refuse) {
        collect(queue, plans, report);
        refuse(fell, step.why, report);
    }
    if (step.action == FallbackStep::Action::CpuTakes) {
        report.cpuFallbackTiles = finishOnCpu(run, left);
    }
    if (report.cpuFallbackTiles > 0) {
        if (std::find(fell.to.begin(), fell.to.end(), DeviceId::cpu()) == fell.to.end()) {
            fell.to.push_back(DeviceId::cpu());
        }
        fell.tiles = report.cpuFallbackTiles;
    }
    if (fell.happened()) {
        values::logIf(values::LogCategory::Fallback, [&] { return fell.describe(); });
    }
    report.fellBack = std::move(fell);
    collect(queue, plans, report);
}

}  // namespace

struct StreamedExecutor::State {
    RunOptions options;
    std::vector<GpuLanesPtr> lanes;  // per slot
    // Per slot, made at the slot's first run; after lanes, so that the threads are joined first.
    std::vector<std::unique_ptr<SlotWorker>> workers;
};

StreamedExecutor::StreamedExecutor(RunOptions options) : state_(std::make_unique<State>())
{
    setOptions(std::move(options));
}

StreamedExecutor::~StreamedExecutor() = default;

const RunOptions& StreamedExecutor::options() const
{
    return state_->options;
}

void StreamedExecutor::setOptions(RunOptions options)
{
    checkOptions(options);
    const std::size_t n = options.deviceSlots.size();
    std::vector<GpuLanesPtr> lanes(n);
    std::vector<std::unique_ptr<SlotWorker>> workers(n);
    for (std::size_t i = 0; i < n && i < state_->lanes.size(); ++i) {
        if (i < state_->options.deviceSlots.size() &&
            state_->options.deviceSlots[i].gpu == options.deviceSlots[i].gpu) {
            lanes[i] = std::move(state_->lanes[i]);
            workers[i] = std::move(state_->workers[i]);
        }
    }
    state_->workers = std::move(workers);  // the threads of slots that changed are joined here
    state_->lanes = std::move(lanes);
    state_->options = std::move(options);
}

bool StreamedExecutor::run(const cv::Mat& src, cv::Mat& dst, const filters::FilterChain& chain,
                           const RunControl& control, RunReport& report)
{
    const RunOptions& options = state_->options;
    report = RunReport{};
    report.placement = Placement::Streamed;
    report.policy = options.fallback;
    if (chain.steps.empty()) {
        src.copyTo(dst);
        return true;
    }
    const int outType = chainOutputType(chain, src.type());
    const bool gpus = anyGpu(options);
    // The process's snapshot (read once, see enumerateDevices); the setup points into this copy,
    // which lives until the run is over.
    const DeviceSnapshot snapshot = gpus ? enumerateDevices() : DeviceSnapshot{};
    const SlotSetup setup = setUpSlots(options, control, snapshot, src, chain, outType);
    report.slotReports.resize(options.deviceSlots.size());
    for (std::size_t i = 0; i < options.deviceSlots.size(); ++i) {
        report.slotReports[i].slot = options.deviceSlots[i];
        report.slotReports[i].failure = setup.unusable[i];
    }
    // A slot that cannot be used is a failure before the first tile: the policy decides now.
    const bool noneUsable =
        std::all_of(setup.unusable.begin(), setup.unusable.end(), [](const std::string& u) { return !u.empty(); });
    if (const FallbackRecord lost = failedSlots(report.slotReports); lost.happened()) {
        // Tiles not yet handed out can go to any usable slot; the policy says whether they may.
        const FallbackStep step = decideFallback(options.fallback, true, !noneUsable, 0);
        if (step.action == FallbackStep::Action::Refuse) {
            refuse(lost, step.why, report);
        }
    }
    const TilePlan plan = planTiles(setup.request);
    report.plan = plan.describe();

    dst.create(src.rows, src.cols, outType);
    TileQueue queue(plan.tiles, setup.request, control.cancel != nullptr ? control.cancel : options.cancel);
    for (std::size_t i = 0; i < setup.unusable.size(); ++i) {
        if (!setup.unusable[i].empty()) {
            queue.addEvent("slot " + std::to_string(i) + " not used: " + setup.unusable[i]);
        }
    }
    const StreamedRun run{src,
                          dst,
                          chain,
                          options,
                          queue,
                          gpus && isPinnedHost(src.data),
                          gpus && isPinnedHost(dst.data),
                          gpus ? sourceValuesFor(src, chain) : SourceValues{}};

    std::vector<std::vector<Plan>> plans(options.deviceSlots.size());
    runSlots(run, setup, report, plans, state_->workers, state_->lanes);
    settleFallback(run, queue, plans, report);
    return !report.cancelled;
}

}  // namespace tessera::gpu
