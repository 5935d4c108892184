// SPDX-License-Identifier: Apache-2.0
#include "filters/cpu_executor.h"
#include "tessera/gpu/cuda_error.h"
#include "gpu/exec/streamed/tile_worker.h"

#include <opencv2/core.hpp>

#include <cstring>
#include <new>

namespace tessera::gpu {

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

void computeRegionOnCpu(const cv::Mat& src, const filters::FilterChain& chain, const cv::Rect& region, cv::Mat& dst)
{
    const bool whole = region == cv::Rect(0, 0, src.cols, src.rows);
    dst = whole ? filters::applyCpu(src, chain) : filters::applyCpuRegion(src, chain, region);
}

TimingRecord hostRecord(DeviceId device, int stream, int tile, const Tile& t, std::string label, double begin,
                        double end, std::uint64_t bytes)
{
    return TimingRecord{device, stream, tile,    Phase::Host, std::move(label), begin,
                        end,    bytes,  t.out.x, t.out.y,     t.out.width,      t.out.height};
}

void runCpuSlot(const StreamedRun& run, SlotIndex slot, SlotReport& report)
{
    TileQueue& queue = run.queue;
    const std::string name = "CPU slot " + std::to_string(slot.value());
    int misfits = 0;
    // A tile too large for memory is split and handed back; after many, the slot gives up.
    const auto misfit = [&](const TileQueue::Item& item, const std::string& why, const char* failure) {
        queue.handBack(item.index, true);
        queue.addEvent(name + ": " + why + " for tile " + toText(item.tile.out) + "; split in two and handed back");
        if (++misfits > 32) {
            report.failure = failure;
            return false;
        }
        return true;
    };
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
            queue.addRecords({hostRecord(DeviceId::cpu(), static_cast<int>(slot.value()), item->index, item->tile,
                                         "cpu", begin, end, bytes)});
            report.busyMs += (end - begin) / 1000.0;
            ++report.tiles;
            queue.complete(item->index);
        } catch (const OutOfDeviceMemory& e) {
            if (!misfit(*item, std::string("out of memory (") + e.what() + ")", "too many tiles did not fit")) {
                return;
            }
        } catch (const std::bad_alloc&) {
            if (!misfit(*item, "out of host memory", "out of host memory")) {
                return;
            }
        } catch (const std::exception& e) {
            queue.handBack(item->index, false);
            report.failure = e.what();
            queue.addEvent(name + " failed at tile " + toText(item->tile.out) + ": " + e.what() +
                           "; the tile was handed back and the slot takes no more");
            return;
        }
    }
}

}  // namespace tessera::gpu
