// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/io/image_io.h"
#include "filters/filter_spec.h"
#include "values/device_id.h"
#include "values/method.h"
#include "values/run_report.h"
#include "values/geometry.h"

#include <opencv2/core/mat.hpp>

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace tessera::app {

/// One file through a chain, as a front end asks for it.
struct ApplyRequest {
    std::string input;   ///< a path, or "-" for standardInput
    std::string output;  ///< a path, or "-" for standardOutput
    std::string trace;   ///< a Chrome trace of the run's timing records; empty: none
    filters::FilterChain chain;
    std::string device = "auto";  ///< a device selection, as --device takes it
    values::Method method = values::Method::Auto;
    std::size_t gpuMemoryLimit = 0;  ///< bytes per GPU; 0: the device's own budget
    std::optional<values::TileSize> tile;
    bool stripMetadata = false;
    codec::EncodeOptions encode;             ///< the output format's quality or compression
    std::string format;                      ///< the output format (png, jpg, ...); empty: the output's extension
    std::istream* standardInput = nullptr;   ///< what input "-" reads (its format from its bytes)
    std::ostream* standardOutput = nullptr;  ///< where output "-" goes, encoded as format
};

/// The name a request's "-" stands for in messages and reports.
inline constexpr const char* kStandardInputName = "standard input";
inline constexpr const char* kStandardOutputName = "standard output";

/// What the run did.
struct ApplyResult {
    cv::Size size;   ///< the input's pixels (upright)
    int typeIn = 0;  ///< the input's and the output's OpenCV types
    int typeOut = 0;
    std::vector<values::DeviceId> gpus;  ///< empty: the CPU ran it
    std::string ranOn = "cpu";           ///< "cpu", "gpu:0", "gpu:0,1"
    std::string note;                    ///< a device note, what fell back, the pipeline's events
    values::RunReport report;            ///< the pipeline's own report
    ImageMetadata metadata;              ///< read from the input
    MetadataReport kept;                 ///< what the output holds of it
    double readMs = 0;
    double runMs = 0;
    double writeMs = 0;
};

/// One file from its path to its output: the devices resolved from the selection, the image
/// read (EXIF orientation applied), the chain run on the GPUs in tiles (or the CPU slot), the
/// output written to a temporary name, synced and renamed, then the trace.
class ApplyRun {
public:
    /// Resolves the devices against the machine's. Throws std::invalid_argument for a selection
    /// that does not resolve and NotSupported (a std::invalid_argument) for a method no GPU
    /// here can run.
    explicit ApplyRun(ApplyRequest request);

    const std::vector<values::DeviceId>& gpus() const { return gpus_; }

    /// Reads, runs and writes. Throws what reading and writing throw (naming the file, or the
    /// standard stream of "-"), and std::runtime_error naming the input when the chain cannot
    /// run on it.
    ApplyResult run();

    /// For a front end that holds the image and has computed the chain's result itself (the
    /// window, from its preview engine): writes result as this run's output under the same rules
    /// as run() (never over the input, metadata kept unless stripped, a temporary name synced
    /// and renamed) and the trace of report's records. source is the image the result was made
    /// from, metadata what was read with it. Throws what writing throws, naming the file.
    ApplyResult write(const cv::Mat& source, const cv::Mat& result, const ImageMetadata& metadata,
                      const values::RunReport& report = {});

private:
    /// Writes dst and the trace; fills typeOut and kept.
    void writeOutputs(const cv::Mat& dst, ApplyResult& result) const;

    ApplyRequest request_;
    std::vector<values::DeviceId> gpus_;
    std::string note_;
};

}  // namespace tessera::app
