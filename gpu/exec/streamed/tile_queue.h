// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "gpu/plan/tile_planner.h"
#include "values/timing_record.h"
#include "tessera/gpu/values.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tessera::gpu {

/// The tiles of one multi-device run, shared by its workers: whoever is free takes the next
/// one, so a faster device takes more. Tiles handed back after a failure go to the front (split
/// in two when they did not fit), and the run is over only when every tile is complete. Also
/// collects the run's timing records and events on one clock. Thread-safe.
class TileQueue {
public:
    /// `request` is the plan's request, used to cut split tiles the way the planner does.
    TileQueue(std::vector<Tile> tiles, TileRequest request, const std::atomic<bool>* cancel);

    struct Item {
        int index = -1;
        Tile tile;
    };

    /// The next tile. With wait, blocks while the queue is empty but tiles are still held by
    /// workers (one may hand some back); returns nothing when every tile is complete or the
    /// run is cancelled. Without wait, returns nothing at once when the queue is empty.
    std::optional<Item> pop(bool wait);
    /// Marks a tile complete.
    void complete(int index);
    /// Gives a tile back for another worker. With split, it comes back as two halves (when it
    /// has more than one pixel; otherwise whole). Returns the indices it went back as.
    std::vector<int> handBack(int index, bool split);

    /// Microseconds since the queue was made: the run's clock.
    double nowUs() const;
    void addRecords(const std::vector<TimingRecord>& records);
    void addEvent(const std::string& text);

    bool cancelled() const;
    /// Tiles neither complete nor taken (after workers stop, what is left to finish elsewhere).
    std::vector<Item> drain();

    std::vector<TimingRecord> records() const;
    std::vector<std::string> events() const;
    /// Every tile ever made, by index (split tiles are added at the end).
    std::vector<Tile> tiles() const;
    /// Per tile index: computed (split tiles' originals are not: their halves are).
    std::vector<bool> computed() const;
    int retries() const;

private:
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<Tile> tiles_;
    std::vector<bool> done_;
    std::vector<bool> retired_;  ///< replaced by its halves
    std::deque<int> queue_;
    int taken_ = 0;  ///< popped, not yet complete or handed back
    int retries_ = 0;
    TileRequest request_;
    const std::atomic<bool>* cancel_;
    std::chrono::steady_clock::time_point origin_;
    std::vector<TimingRecord> records_;
    std::vector<std::string> events_;
};

}  // namespace tessera::gpu
