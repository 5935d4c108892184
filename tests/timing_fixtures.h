// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "values/device_info.h"
#include "values/timing_record.h"

#include <algorithm>
#include <string>
#include <vector>

namespace tessera::test {

/// A made-up run of a float RGBA image (4096 x 4096 by default) in a grid of 4 x 4 tiles over
/// four GPUs (one band of four tiles each) with two streams each: every tile is uploaded,
/// filtered and downloaded on its stream, the streams of a GPU overlap, and a CPU thread stages
/// the input before and the output after. Durations vary a little from tile to tile, as real
/// ones do; they stay those of 1024 x 1024 tiles whatever the image size.
inline std::vector<values::TimingRecord> fakeFourGpuRun(int imageWidth = 4096, int imageHeight = 4096)
{
    constexpr int kTile = 1024;
    constexpr std::uint64_t kTileBytes = std::uint64_t{kTile} * kTile * 16;  // float x 4
    std::vector<values::TimingRecord> records;
    values::TimingRecord stage;
    stage.device = values::DeviceId::cpu();
    stage.stream = 0;
    stage.phase = values::Phase::Host;
    stage.label = "stage input";
    stage.beginUs = 0.0;
    stage.endUs = 180.0;
    stage.bytes = kTileBytes * 16;
    stage.width = imageWidth;
    stage.height = imageHeight;
    records.push_back(stage);
    double lastEnd = 0.0;
    for (int tile = 0; tile < 16; ++tile) {
        const int device = tile / 4;  // each GPU computes one band of four tiles
        const int stream = tile % 2;
        const int round = (tile % 4) / 2;  // each stream runs two tiles, one after the other
        const double jitter = ((tile * 37) % 11) * 3.5;
        const double start = 180.0 + round * 900.0 + stream * 310.0 + device * 12.0;
        const struct {
            values::Phase phase;
            const char* label;
            double us;
            std::uint64_t bytes;
        } steps[] = {
            {values::Phase::Upload, "tile input", 330.0 + jitter, kTileBytes},
            {values::Phase::Kernel, tile % 5 == 0 ? "direct" : "separable", 140.0 + 2.0 * jitter, 2 * kTileBytes},
            {values::Phase::Download, "tile output", 320.0 + jitter, kTileBytes},
        };
        double t = start;
        for (const auto& step : steps) {
            values::TimingRecord r;
            r.device = values::DeviceId{device};
            r.stream = stream;
            r.tile = tile;
            r.phase = step.phase;
            r.label = step.label;
            r.beginUs = t;
            r.endUs = t + step.us;
            r.bytes = step.bytes;
            // Edges by rounding, so that odd sizes are covered exactly once.
            r.x = (tile % 4) * imageWidth / 4;
            r.y = (tile / 4) * imageHeight / 4;
            r.width = (tile % 4 + 1) * imageWidth / 4 - r.x;
            r.height = (tile / 4 + 1) * imageHeight / 4 - r.y;
            records.push_back(r);
            t = r.endUs + 4.0;
        }
        lastEnd = std::max(lastEnd, t);
    }
    stage.label = "stage output";
    stage.beginUs = lastEnd + 10.0;
    stage.endUs = lastEnd + 160.0;
    records.push_back(stage);
    return records;
}

/// Four made-up H200-like GPUs named "NVIDIA H200", with a known DRAM bandwidth.
inline values::DeviceSnapshot fakeFourGpuSnapshot()
{
    values::DeviceSnapshot snapshot;
    snapshot.driverVersion = 13000;
    snapshot.runtimeVersion = 13000;
    for (int id = 0; id < 4; ++id) {
        values::DeviceInfo d;
        d.id = values::DeviceId{id};
        d.name = "NVIDIA H200";
        d.memoryClockKHz = 2619000;
        d.memoryBusWidthBits = 6144;
        snapshot.devices.push_back(d);
    }
    return snapshot;
}

}  // namespace tessera::test
