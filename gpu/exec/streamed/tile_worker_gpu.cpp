// SPDX-License-Identifier: Apache-2.0
#include "filters/cpu_executor.h"
#include "gpu/exec/chain_runner.h"
#include "tessera/gpu/cuda_error.h"
#include "gpu/runtime/nvtx_range.h"
#include "tessera/gpu/resources.h"
#include "gpu/exec/streamed/tile_worker.h"

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::gpu {

namespace {

void growDevice(RawDeviceBuffer& buffer, std::size_t bytes, DeviceId device)
{
    if (buffer.bytes() < bytes) {
        buffer = RawDeviceBuffer();
        buffer = RawDeviceBuffer(bytes, device);
    }
}

void growPinned(RawPinnedBuffer& buffer, std::size_t bytes)
{
    if (buffer.bytes() < bytes) {
        buffer = RawPinnedBuffer();
        buffer = RawPinnedBuffer(bytes);
    }
}

// One tile in flight: its stream, buffers and the events that time its phases.
struct Lane {
    Stream stream;
    ChainRunner runner;
    RawDeviceBuffer input;
    RawPinnedBuffer stageIn;
    RawPinnedBuffer stageOut;
    Event upload0;
    Event upload1;
    Event kernel1;
    Event download1;
    std::optional<TileQueue::Item> item;
    std::vector<TimingRecord> host;  // staging records of the tile in flight
    std::string label;

    Lane(const DeviceInfo& device)
        : stream(device.id), runner(device), upload0(device.id), upload1(device.id), kernel1(device.id),
          download1(device.id)
    {
    }
};

// Enqueues the copy of the tile's input to lane.input (straight from a pinned source, else
// gathered into the lane's pinned stage first, which is recorded as host work), after
// lane.upload0. lane.input must hold the tile's input.
void enqueueUpload(const StreamedRun& run, Lane& lane, const TileQueue::Item& item, DeviceId device)
{
    const Tile& t = item.tile;
    const std::string tag = "tile " + std::to_string(item.index);
    const std::size_t inBpp = run.src.elemSize();
    const std::size_t inPitch = static_cast<std::size_t>(t.in.width) * inBpp;
    if (run.srcPinned) {
        NvtxRange range(tag + " upload");
        lane.upload0.record(lane.stream);
        const auto pieces =
            t.periodic ? periodicPieces(t.in, run.src.cols, run.src.rows) : std::vector<CopyPiece>{{t.in, 0, 0}};
        for (const auto& p : pieces) {
            copy2DAsync(static_cast<char*>(lane.input.data()) + static_cast<std::size_t>(p.destY) * inPitch +
                            static_cast<std::size_t>(p.destX) * inBpp,
                        inPitch, run.src.ptr(p.source.y) + static_cast<std::size_t>(p.source.x) * inBpp, run.src.step,
                        static_cast<std::size_t>(p.source.width) * inBpp, static_cast<std::size_t>(p.source.height),
                        lane.stream);
        }
        return;
    }
    const std::size_t inBytes = inPitch * static_cast<std::size_t>(t.in.height);
    growPinned(lane.stageIn, inBytes);
    const double b = run.queue.nowUs();
    {
        NvtxRange range(tag + " stage input");
        gatherTileInput(run.src, t, lane.stageIn.data(), inPitch);
    }
    lane.host.push_back({device, 0, item.index, Phase::Host, "stage input", b, run.queue.nowUs(), inBytes, t.out.x,
                         t.out.y, t.out.width, t.out.height});
    NvtxRange range(tag + " upload");
    lane.upload0.record(lane.stream);
    copy2DAsync(lane.input.data(), inPitch, lane.stageIn.data(), inPitch, inPitch,
                static_cast<std::size_t>(t.in.height), lane.stream);
}

// Enqueues the copy of the tile's own output rows from `out` (the chain's output over the
// tile's input) into the destination, or into the lane's pinned stage when it is not pinned.
void enqueueDownload(const StreamedRun& run, Lane& lane, const TileQueue::Item& item, const DeviceImage& out)
{
    const Tile& t = item.tile;
    const std::size_t outBpp = run.dst.elemSize();
    const char* first = static_cast<const char*>(out.data) + static_cast<std::size_t>(t.out.y - t.in.y) * out.pitch +
                        static_cast<std::size_t>(t.out.x - t.in.x) * outBpp;
    const std::size_t rowBytes = static_cast<std::size_t>(t.out.width) * outBpp;
    NvtxRange range("tile " + std::to_string(item.index) + " download");
    if (run.dstPinned) {
        copy2DAsync(run.dst.ptr(t.out.y) + static_cast<std::size_t>(t.out.x) * outBpp, run.dst.step, first, out.pitch,
                    rowBytes, static_cast<std::size_t>(t.out.height), lane.stream);
        return;
    }
    growPinned(lane.stageOut, rowBytes * static_cast<std::size_t>(t.out.height));
    copy2DAsync(lane.stageOut.data(), rowBytes, first, out.pitch, rowBytes, static_cast<std::size_t>(t.out.height),
                lane.stream);
}

// Copies a downloaded tile from the lane's pinned stage into the destination image.
void storeOutput(const StreamedRun& run, const Lane& lane, const TileQueue::Item& item)
{
    const Tile& t = item.tile;
    NvtxRange range("tile " + std::to_string(item.index) + " store output");
    const std::size_t rowBytes = static_cast<std::size_t>(t.out.width) * run.dst.elemSize();
    const auto* from = static_cast<const unsigned char*>(lane.stageOut.data());
    for (int r = 0; r < t.out.height; ++r) {
        std::memcpy(run.dst.ptr(t.out.y + r) + static_cast<std::size_t>(t.out.x) * run.dst.elemSize(),
                    from + static_cast<std::size_t>(r) * rowBytes, rowBytes);
    }
}

}  // namespace

struct GpuLanes {
    DeviceId device;
    std::vector<std::unique_ptr<Lane>> lanes;
    std::unique_ptr<Event> reference;
};

void GpuLanesDeleter::operator()(GpuLanes* lanes) const
{
    delete lanes;
}

namespace {

class GpuSlotWorker {
public:
    GpuSlotWorker(const StreamedRun& run, SlotIndex slot, const DeviceInfo& device, SlotReport& report,
                  std::vector<Plan>* methods, GpuLanesPtr& kept)
        : run_(run), slot_(slot), device_(device), report_(report), methods_(methods), kept_(kept)
    {
    }

    void operator()()
    {
        try {
            ScopedDevice on(device_.id);
            const auto wanted = static_cast<std::size_t>(run_.options.streamsPerGpu);
            if (!kept_ || kept_->device != device_.id || kept_->lanes.size() != wanted) {
                kept_.reset(new GpuLanes);
                kept_->device = device_.id;
                for (std::size_t k = 0; k < wanted; ++k) {
                    kept_->lanes.push_back(std::make_unique<Lane>(device_));
                }
                kept_->reference = std::make_unique<Event>(device_.id);
            }
            for (auto& lane : kept_->lanes) {
                lane->runner.setTensorCores(run_.options.tensorCores);
                lane->runner.setSourceValues(run_.values);
                lane->item.reset();
            }
            // One reference point ties this device's event times to the run's host clock.
            kept_->reference->record(kept_->lanes.front()->stream);
            kept_->reference->synchronize();
            referenceUs_ = run_.queue.nowUs();
        } catch (const std::exception& e) {
            kept_.reset();
            report_.failure = std::string("could not start: ") + e.what();
            run_.queue.addEvent(device_name() + " " + report_.failure + "; it takes no tiles");
            clearLastError();
            return;
        }
        loop();
    }

private:
    void loop()
    {
        auto& lanes_ = kept_->lanes;
        const std::size_t n = lanes_.size();
        for (std::size_t k = 0;; k = (k + 1) % n) {
            Lane& lane = *lanes_[k];
            if (lane.item && !finish(lane)) {
                return;
            }
            bool othersBusy = false;
            for (const auto& l : lanes_) {
                othersBusy = othersBusy || l->item.has_value();
            }
            auto item = run_.queue.pop(!othersBusy);
            if (!item) {
                if (!othersBusy) {
                    return;
                }
                continue;
            }
            if (!launch(lane, *item)) {
                return;
            }
        }
    }

    void hook(int tile, Phase phase) const
    {
        if (run_.options.fault) {
            run_.options.fault(slot_, tile, phase);
        }
    }

    // Enqueues upload, kernels and download of one tile on the lane. False when the slot failed.
    bool launch(Lane& lane, const TileQueue::Item& item)
    {
        const Tile& t = item.tile;
        const std::string tag = "tile " + std::to_string(item.index);
        try {
            lane.host.clear();
            const std::size_t inPitch = static_cast<std::size_t>(t.in.width) * run_.src.elemSize();
            const std::size_t inBytes = inPitch * static_cast<std::size_t>(t.in.height);
            hook(item.index, Phase::Upload);
            growDevice(lane.input, inBytes, device_.id);
            enqueueUpload(run_, lane, item, device_.id);
            lane.upload1.record(lane.stream);

            hook(item.index, Phase::Kernel);
            const DeviceImage in{lane.input.data(), inPitch, t.in.width, t.in.height,
                                 pixelFormatFromCvType(run_.src.type())};
            std::vector<Plan> plans;
            DeviceImage out;
            {
                NvtxRange range(tag + " kernels");
                out = lane.runner.run(run_.chain, in, run_.options.method, lane.stream, &plans,
                                      RowSpan{t.out.y - t.in.y, t.out.height});
            }
            lane.kernel1.record(lane.stream);
            lane.label.clear();
            for (const auto& p : plans) {
                lane.label += (lane.label.empty() ? "" : ", ") + toString(p.method);
            }
            if (methods_ != nullptr && methods_->empty()) {
                *methods_ = plans;
            }

            hook(item.index, Phase::Download);
            enqueueDownload(run_, lane, item, out);
            lane.download1.record(lane.stream);
            lane.item = item;
            return true;
        } catch (const OutOfDeviceMemory& e) {
            run_.queue.handBack(item.index, true);
            run_.queue.addEvent(device_name() + ": tile " + toText(t.out) + " did not fit (" + e.what() +
                                "); split in two and handed back");
            clearLastError();
            if (++misfits_ > 32) {
                fail("too many tiles did not fit in its memory", nullptr);
                return false;
            }
            return true;
        } catch (const std::exception& e) {
            fail(e.what(), &item);
            return false;
        }
    }

    // Waits for the lane's tile, finishes its output on the host and records its phases.
    bool finish(Lane& lane)
    {
        const TileQueue::Item item = *lane.item;
        const Tile& t = item.tile;
        try {
            lane.download1.synchronize();
            const std::size_t inBytes = static_cast<std::size_t>(t.in.area()) * run_.src.elemSize();
            const std::size_t outBytes = static_cast<std::size_t>(t.out.area()) * run_.dst.elemSize();
            const int stream = laneIndex(lane);
            const auto at = [&](const Event& e) {
                return referenceUs_ + 1000.0 * static_cast<double>(e.elapsedSince(*kept_->reference));
            };
            std::vector<TimingRecord> records = lane.host;
            for (auto& r : records) {
                r.stream = stream;
            }
            const auto record = [&](Phase phase, std::string label, double b, double e, std::uint64_t bytes) {
                records.push_back({device_.id, stream, item.index, phase, std::move(label), b, e, bytes, t.out.x,
                                   t.out.y, t.out.width, t.out.height});
            };
            record(Phase::Upload, "upload", at(lane.upload0), at(lane.upload1), inBytes);
            record(Phase::Kernel, lane.label, at(lane.upload1), at(lane.kernel1),
                   static_cast<std::uint64_t>(t.in.area()) * (run_.src.elemSize() + run_.dst.elemSize()));
            record(Phase::Download, "download", at(lane.kernel1), at(lane.download1), outBytes);
            if (!run_.dstPinned) {
                const double b = run_.queue.nowUs();
                storeOutput(run_, lane, item);
                record(Phase::Host, "store output", b, run_.queue.nowUs(), outBytes);
            }
            for (const auto& r : records) {
                report_.busyMs += r.durationUs() / 1000.0;
            }
            run_.queue.addRecords(records);
            lane.item.reset();
            ++report_.tiles;
            run_.queue.complete(item.index);
            return true;
        } catch (const std::exception& e) {
            fail(e.what(), nullptr);
            return false;
        }
    }

    int laneIndex(const Lane& lane) const
    {
        for (std::size_t k = 0; k < kept_->lanes.size(); ++k) {
            if (kept_->lanes[k].get() == &lane) {
                return static_cast<int>(k);
            }
        }
        return 0;
    }

    std::string device_name() const { return describe(device_.id) + " (slot " + std::to_string(slot_.value()) + ")"; }

    // The device is not to be trusted any more: every tile it holds goes back to the queue.
    void fail(const std::string& why, const TileQueue::Item* current)
    {
        int back = 0;
        if (current != nullptr) {
            run_.queue.handBack(current->index, false);
            ++back;
        }
        if (kept_) {
            for (auto& lane : kept_->lanes) {
                if (lane->item) {
                    run_.queue.handBack(lane->item->index, false);
                    lane->item.reset();
                    ++back;
                }
            }
        }
        clearLastError();
        failed_ = true;
        report_.failure = why;
        run_.queue.addEvent(device_name() + " failed: " + why + "; " + std::to_string(back) +
                            (back == 1 ? " tile" : " tiles") + " handed back, it takes no more");
    }

    const StreamedRun& run_;
    SlotIndex slot_;
    const DeviceInfo& device_;
    SlotReport& report_;
    std::vector<Plan>* methods_;
    GpuLanesPtr& kept_;
    double referenceUs_ = 0.0;

public:
    bool failed_ = false;

private:
    int misfits_ = 0;
};

}  // namespace

void runGpuSlot(const StreamedRun& run, SlotIndex slot, const DeviceInfo& device, SlotReport& report,
                std::vector<Plan>* methods, GpuLanesPtr& lanes)
{
    try {
        GpuSlotWorker worker(run, slot, device, report, methods, lanes);
        worker();
        if (worker.failed_) {
            lanes.reset();  // a failed device starts from scratch next time
            clearLastError();
        }
    } catch (const std::exception& e) {
        lanes.reset();
        report.failure = e.what();
        run.queue.addEvent(describe(device.id) + " (slot " + std::to_string(slot.value()) + ") stopped: " + e.what());
    }
}

}  // namespace tessera::gpu
