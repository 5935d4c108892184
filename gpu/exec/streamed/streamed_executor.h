// SPDX-License-Identifier: Apache-2.0
#pragma once

// Inside gpu/: the streamed placement of a Pipeline (tessera/gpu/engine.h).

#include "filters/filter_spec.h"
#include "tessera/gpu/engine.h"

#include <opencv2/core/mat.hpp>

#include <memory>

namespace tessera::gpu {

/// Runs chains over host images in tiles shared by every slot through one queue (a faster slot
/// takes more). GPU slots stage tiles through pinned buffers (or copy straight from and to the
/// images when they are pinned) with streamsPerGpu tiles in flight, and keep their streams and
/// buffers from one run to the next. A slot that fails gives its tiles back (split in half after
/// an out-of-memory) and, after any other error, takes no more in that run; when no slot is left
/// the CPU path finishes. Device failures never throw: they end up in the report's events. One
/// run at a time. Each slot has one thread (SlotWorker), started at its first run and kept until
/// the executor is destroyed or the slot's device changes.
class StreamedExecutor {
public:
    /// Throws std::invalid_argument when options has no slots or fewer than one stream per GPU.
    explicit StreamedExecutor(RunOptions options);
    ~StreamedExecutor();
    StreamedExecutor(const StreamedExecutor&) = delete;
    StreamedExecutor& operator=(const StreamedExecutor&) = delete;

    /// The chain over src into dst (reallocated unless it already has src's size and the chain's
    /// output type). Returns false when cancelled (dst then holds a partial result). Throws
    /// std::invalid_argument for an unsupported image or when no tile fits the budgets.
    /// control.cancel, when set, is the run's cancel flag instead of options().cancel.
    bool run(const cv::Mat& src, cv::Mat& dst, const filters::FilterChain& chain, const RunControl& control,
             RunReport& report);

    const RunOptions& options() const;
    /// Replaces the options; slots' threads, streams and buffers are kept where the slot's device
    /// is unchanged (the others' threads are joined).
    void setOptions(RunOptions options);

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace tessera::gpu
