#pragma once

#include "filters/filter_spec.h"
#include "gpu/executor.h"
#include "gpu/tile_planner.h"
#include "gpu/timing_record.h"

#include <opencv2/core/mat.hpp>

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::gpu {

/// One worker of a multi-device run: a GPU (several slots may share one, as virtual devices)
/// or the CPU path.
struct DeviceSlot {
    int gpu = -1;                 ///< CUDA device id; -1 runs tiles on the CPU path
    std::size_t memoryLimit = 0;  ///< bytes this slot may hold at once; 0: 80 % of free memory (CPU: no limit)
    double speed = 1.0;           ///< relative throughput (measured calibration), used to seed band plans

    bool isCpu() const { return gpu < 0; }
    /// "GPU 1" or "CPU".
    std::string name() const;
    bool operator==(const DeviceSlot&) const = default;
};

/// Test hook, called on the slot's thread before each phase of each tile (and for the CPU path
/// before its Host phase); whatever it throws is handled as if that phase had failed there.
using FaultHook = std::function<void(int slot, int tile, Phase phase)>;

struct StreamedOptions {
    std::vector<DeviceSlot> deviceSlots;  ///< at least one
    Method method = Method::Auto;
    TensorCores tensorCores = TensorCores::Auto;
    std::optional<TileSize> tileSize;    ///< empty: chosen by the planner from the budgets
    int streamsPerGpu = 3;               ///< tiles in flight per GPU slot (upload, kernels, download overlap)
    int tilesPerSlot = 6;                ///< auto tile size aims at this many tiles per slot
    FaultHook fault;                     ///< test hook; empty in normal runs
    const std::atomic<bool>* cancel = nullptr;  ///< checked between tiles
};

/// What one slot did in a run.
struct SlotReport {
    DeviceSlot slot;
    int tiles = 0;          ///< tiles it completed
    double busyMs = 0.0;    ///< sum of its phases
    std::string failure;    ///< why it stopped taking tiles; empty when it did not fail
};

/// What a multi-device run did: per-tile timing records on one clock, what failed and what
/// was done about it.
struct MultiRunReport {
    std::vector<TimingRecord> records;
    std::vector<SlotReport> slotReports;
    std::vector<std::string> events;  ///< faults and recoveries, in the order they happened
    std::vector<Tile> tiles;          ///< every tile of the run by index (TimingRecord::tile), splits added at the end
    std::vector<bool> computed;       ///< per tile: its output was computed (false for a tile split in two)
    std::string plan;                 ///< TilePlan::describe() of the initial plan
    std::vector<std::string> methods; ///< Plan::describe() of each step, from the first GPU tile
    std::vector<Method> stepMethods;  ///< the method of each step, from the same tile
    int retries = 0;                  ///< tiles handed back and run again
    int cpuFallbackTiles = 0;         ///< tiles the CPU ran because no device was left
    double wallMs = 0.0;
    bool cancelled = false;
};

/// Runs chains over host images in tiles shared by every slot through one queue (a faster slot
/// takes more): the streamed mode, for batch runs and images larger than the GPUs. GPU slots
/// stage tiles through pinned buffers (or copy straight from and to the images when they are
/// pinned) with streamsPerGpu tiles in flight, and keep their streams and buffers from one run
/// to the next. A slot that fails gives its tiles back (split in half after an out-of-memory)
/// and, after any other error, takes no more in that run; when no slot is left the CPU path
/// finishes. Device failures never throw: they end up in the report's events. One run at a time.
class StreamedExecutor {
public:
    /// Throws std::invalid_argument when options has no slots or fewer than one stream per GPU.
    explicit StreamedExecutor(StreamedOptions options);
    ~StreamedExecutor();
    StreamedExecutor(const StreamedExecutor&) = delete;
    StreamedExecutor& operator=(const StreamedExecutor&) = delete;

    /// The chain over src into dst (reallocated unless it already has src's size and the chain's
    /// output type; pass a pinned dst to skip output staging). Returns false when cancelled
    /// (dst then holds a partial result). Throws std::invalid_argument for an unsupported image
    /// or when no tile fits the budgets.
    bool run(const cv::Mat& src, cv::Mat& dst, const filters::FilterChain& chain, MultiRunReport* report = nullptr);

    const StreamedOptions& options() const;
    /// Replaces the options; slots' streams and buffers are kept where the slot is unchanged.
    void setOptions(StreamedOptions options);

private:
    struct State;
    std::unique_ptr<State> state_;
};

/// One run with a temporary executor: the result, or an empty Mat when cancelled.
cv::Mat runStreamed(const cv::Mat& src, const filters::FilterChain& chain, const StreamedOptions& options,
                    MultiRunReport* report = nullptr);

/// The OpenCV type of the chain's output for an input of cvType.
int chainOutputType(const filters::FilterChain& chain, int cvType);

}  // namespace tessera::gpu
