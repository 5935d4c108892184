// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a run of a chain did, whichever placement ran it: plain values, no CUDA, no OpenCV.

#include "values/device_id.h"
#include "values/slot_index.h"
#include "values/method.h"
#include "values/geometry.h"
#include "values/timing_record.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace tessera::values {

/// One worker of a run: a GPU (several slots may share one, as virtual devices) or the CPU path.
struct DeviceSlot {
    DeviceId gpu;                 ///< the GPU; DeviceId::cpu() runs tiles on the CPU path
    std::size_t memoryLimit = 0;  ///< bytes this slot may hold at once; 0: 80 % of free memory (CPU: no limit)
    double speed = 1.0;           ///< relative throughput (measured calibration), used to size bands and seed plans

    bool isCpu() const { return gpu.isCpu(); }
    /// "GPU 1" or "CPU".
    std::string name() const;
    bool operator==(const DeviceSlot&) const = default;
};

/// Where the image lives while a chain runs on it.
enum class Placement {
    Resident,  ///< kept on the GPUs, one horizontal band each: repeated runs upload nothing
    Streamed,  ///< cut in tiles that stream from host memory through a queue every slot takes from
    Device,    ///< images the caller already holds on a GPU, run on the caller's stream (DeviceChain)
};

/// "resident", "streamed" or "device".
const char* toString(Placement placement);

/// What a run does when a device fails or cannot be used (RunOptions::fallback): decided once,
/// inside the pipeline, and recorded in RunReport::fellBack.
enum class Fallback {
    None,       ///< the run throws DeviceFailed (tessera/gpu/engine.h): a measurement, say, wants no stand-in
    OtherGpus,  ///< the other slots of the run take the failed slot's work; throws when none is left
    Cpu,        ///< as OtherGpus, and the CPU path computes what no slot is left to run
};

/// "none", "other-gpus" or "cpu".
const char* toString(Fallback fallback);

/// What a run does once it has lost devices.
struct FallbackStep {
    enum class Action {
        Proceed,   ///< nothing is left without a device: the slots still running take the work
        CpuTakes,  ///< the CPU path computes the work no slot is left to run
        Refuse,    ///< the run fails with DeviceFailed, saying `why`
    };
    Action action = Action::Proceed;
    std::string why;  ///< for Refuse: why the policy does not let the run go on
};

/// The one reading of RunOptions::fallback, for every placement and every moment of a run.
/// `lost`: a slot failed or could not be used; `othersCanTake`: a slot still running can take
/// its work (streamed tiles can move, resident bands cannot); `orphaned`: pieces of work (tiles,
/// bands) left with no slot to run them. Never throws (beyond allocation).
FallbackStep decideFallback(Fallback policy, bool lost, bool othersCanTake, int orphaned);

/// What fell back in a run, from where to where and why; empty when nothing failed.
struct FallbackRecord {
    std::vector<DeviceId> from;  ///< the devices whose slots failed or could not be used, in slot order
    std::vector<DeviceId> to;    ///< where their work went: the slots that took it, DeviceId::cpu() for the CPU path
    int tiles = 0;               ///< tiles (resident: bands) computed elsewhere than planned
    std::string reason;          ///< the first failure, as the device reported it

    bool happened() const { return !from.empty(); }
    /// One line for a person, e.g. "GPU 1 failed (out of memory): 3 tiles on GPU 0"; empty
    /// when nothing fell back.
    std::string describe() const;
    bool operator==(const FallbackRecord&) const = default;
};

/// What one slot did in a run.
struct SlotReport {
    DeviceSlot slot;
    int tiles = 0;        ///< tiles (or bands) it completed
    double busyMs = 0.0;  ///< sum of its phases
    std::string failure;  ///< why it stopped taking work; empty when it did not fail
};

/// Everything a run did, the same shape for both placements: timing records on one clock, the
/// tiles (a resident run's tiles are the parts of its bands it computed), the plan of each step,
/// what failed and what was done about it.
struct RunReport {
    Placement placement = Placement::Streamed;
    std::vector<TimingRecord> records;
    std::vector<SlotReport> slotReports;
    std::vector<std::string> events;   ///< faults and recoveries, in the order they happened
    std::vector<Tile> tiles;           ///< every tile of the run by index (TimingRecord::tile), splits added at the end
    std::vector<bool> computed;        ///< per tile: its output was computed (false for a tile split in two)
    std::string plan;                  ///< how the image was cut (TilePlan::describe() or the bands)
    std::vector<std::string> methods;  ///< Plan::describe() of each step, from the first GPU tile or band
    std::vector<Method> stepMethods;   ///< the method of each step, from the same tile or band
    int retries = 0;                   ///< tiles handed back and run again
    int cpuFallbackTiles = 0;          ///< tiles the CPU path ran because no GPU was left (streamed)
    std::string fallback;              ///< why the CPU path computed (part of) the result; empty when it did not
    Fallback policy = Fallback::Cpu;   ///< the RunOptions::fallback the run was under
    FallbackRecord fellBack;           ///< what the policy did: from which devices to which, and why
    double wallMs = 0.0;
    bool cancelled = false;

    /// The GPUs that recorded work, ascending.
    std::vector<DeviceId> devicesUsed() const;
    /// Longest kernel record of any GPU (bands run at once, so this is the run's kernel time), ms.
    double kernelMs() const;
    /// Sum of the records of `phase`, ms.
    double totalMs(Phase phase) const;
};

/// Test hook of streamed runs, called on the slot's thread before each phase of each tile (and
/// for the CPU path before its Host phase); whatever it throws is handled as if that phase had
/// failed there.
using FaultHook = std::function<void(SlotIndex slot, int tile, Phase phase)>;

}  // namespace tessera::values
