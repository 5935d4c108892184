// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QImage>
#include <QString>
#include <QVector>

namespace tessera::ui {

/// One target's row of a device comparison, as the dialog shows it.
struct CompareRow {
    QString key;       ///< "gpu:0", "gpus:0,1", "cpu"
    QString label;     ///< "GPU 0 (NVIDIA H200)"
    int gpuCount = 0;  ///< 0 for the CPU
    double minMs = 0.0;
    double medianMs = 0.0;
    double maxMs = 0.0;
    double mpixS = 0.0;       ///< at the median run
    double mpixMin = 0.0;     ///< at the slowest run
    double mpixMax = 0.0;     ///< at the fastest run
    double speedup = 0.0;     ///< 0: no baseline
    double efficiency = 0.0;  ///< 0: not applicable (CPU)
    double maxError = 0.0;
    double psnr = 0.0;  ///< infinity: equal to the CPU path
    QString error;      ///< why there are no numbers; empty when there are
    QImage heatMap;     ///< |target - CPU path|, may be null (loaded results)
};

/// A kernel method's achieved rate on one device.
struct RooflineMark {
    QString method;
    double intensity = 0.0;  ///< flops per byte
    double gflops = 0.0;
};

/// One device's roofline: its calibrated ceilings and where its kernels landed.
struct RooflineDevice {
    QString name;               ///< "GPU 0", "CPU"
    double bandwidthGBs = 0.0;  ///< 0: not calibrated (no ceiling drawn)
    double peakGflops = 0.0;
    QVector<RooflineMark> marks;
};

/// A whole comparison for display: rows in run order and the roofline of each device.
struct CompareResults {
    QString title;  ///< e.g. "this machine: 4096 x 4096 u8x4, 15x15 separable"
    QVector<CompareRow> rows;
    QVector<RooflineDevice> roofline;
    bool cancelled = false;

    bool isEmpty() const { return rows.isEmpty(); }
};

/// A target the user may tick before a run.
struct CompareTargetOption {
    QString key;
    QString label;
    bool checked = true;
};

}  // namespace tessera::ui
