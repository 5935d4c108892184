// SPDX-License-Identifier: Apache-2.0
#pragma once

// Inside gpu/: the per-slot workers of runStreamed and the host-side tile helpers they share.

#include "tessera/gpu/device_info.h"
#include "tessera/gpu/executor.h"
#include "gpu/exec/streamed/streamed_executor.h"
#include "gpu/exec/streamed/tile_queue.h"

#include <opencv2/core/mat.hpp>

#include <memory>

namespace tessera::gpu {

/// What every worker of one streamed run reads and writes.
struct StreamedRun {
    const cv::Mat& src;
    cv::Mat& dst;
    const filters::FilterChain& chain;
    const RunOptions& options;
    TileQueue& queue;
    bool srcPinned = false;  ///< upload straight from src
    bool dstPinned = false;  ///< download straight into dst
    SourceValues values;     ///< sourceValuesFor(src, chain): what the planner knows of src
};

/// Writes the tile's input (its `in` rectangle, gathered by the periodic rule where it leaves
/// the image) into rows of `pitch` bytes at `out`.
void gatherTileInput(const cv::Mat& src, const Tile& tile, void* out, std::size_t pitch);

/// The tile's input as a Mat of its own.
cv::Mat tileInput(const cv::Mat& src, const Tile& tile);

/// A Host-phase record of a tile.
TimingRecord hostRecord(DeviceId device, int stream, int tile, const Tile& t, std::string label, double begin,
                        double end, std::uint64_t bytes);

/// Computes one tile on the CPU path into run.dst. Throws what the CPU path throws.
void computeTileOnCpu(const StreamedRun& run, const Tile& tile);

/// The resident placement's CPU slot (and its fallback): `region` of the chain's result over
/// src into dst, in one call of the CPU path. Throws what the CPU path throws.
void computeRegionOnCpu(const cv::Mat& src, const filters::FilterChain& chain, const cv::Rect& region, cv::Mat& dst);

/// Takes tiles until none are left, computing them on the CPU path. Never throws.
void runCpuSlot(const StreamedRun& run, SlotIndex slot, SlotReport& report);

/// A GPU slot's streams and buffers, kept from one run to the next.
struct GpuLanes;
struct GpuLanesDeleter {
    void operator()(GpuLanes* lanes) const;
};
using GpuLanesPtr = std::unique_ptr<GpuLanes, GpuLanesDeleter>;

/// Takes tiles until none are left (or the device fails), computing them on `device` with
/// options.streamsPerGpu tiles in flight, on `lanes` (made when empty, dropped after a failure).
/// Never throws: failures are handed back and reported.
void runGpuSlot(const StreamedRun& run, SlotIndex slot, const DeviceInfo& device, SlotReport& report,
                std::vector<Plan>* plans, GpuLanesPtr& lanes);

}  // namespace tessera::gpu
