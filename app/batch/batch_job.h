// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/io/codec/codec.h"
#include "filters/filter_spec.h"
#include "values/device_id.h"

#include <opencv2/core/mat.hpp>

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace tessera::app {

/// What happens when an output file already exists: keep it and skip the input, write beside it
/// with a numeric suffix ("-1", "-2", ...), or replace it.
enum class OverwritePolicy { Skip, Rename, Overwrite };

/// "skip", "rename", "overwrite".
std::string toString(OverwritePolicy policy);
/// Reads toString()'s form; throws std::invalid_argument naming the text otherwise.
OverwritePolicy parseOverwritePolicy(const std::string& text);

/// How one input ended.
enum class FileStatus { Ok, Skipped, Failed, Cancelled };

/// "ok", "skipped", "failed", "cancelled".
std::string toString(FileStatus status);

/// Everything a batch run needs to know, as chosen in the dialog or on the command line.
struct BatchJob {
    std::vector<std::string> inputs;                          ///< files, folders and glob patterns, in order
    bool recursive = false;                                   ///< descend into sub-folders of folder inputs
    std::string outputDir;                                    ///< created when missing
    std::string nameTemplate = "{stem}-{filter}";             ///< the output name without its extension
    std::string format;                                       ///< output extension ("png"); empty keeps the input's
    filters::OutputDepth depth = filters::OutputDepth::Same;  ///< Same keeps the chain's depth
    filters::FilterChain chain;                               ///< run on every input; must not be empty
    std::string filterName;                                   ///< what {filter} becomes; empty: the steps' ids
    OverwritePolicy policy = OverwritePolicy::Skip;
    int jobs = 0;                 ///< files worked on at once, one thread each; 0: one per core
    int maxInFlight = 0;          ///< images held at once; 0: as many as jobs
    bool manifest = false;        ///< write a reproducibility sidecar beside each output
    bool stripMetadata = false;   ///< write no EXIF, XMP or ICC profile into the outputs
    codec::EncodeOptions encode;  ///< quality and compression of the outputs, by format
    /// GPUs that decode the JPEG inputs with nvJPEG, the files spread over them (a file nvJPEG
    /// cannot take, or every file where nvJPEG is missing, goes to libjpeg-turbo); empty: the
    /// CPU decodes them all.
    std::vector<values::DeviceId> jpegGpus;
};

/// The outcome of one input.
struct FileResult {
    int index = 0;     ///< the image's number in the expanded input list, from 1 ({index})
    int position = 0;  ///< place in the whole expanded list, from 1, non-images included;
                       ///< what shards split by and merged reports key files by
    std::string input;
    FileStatus status = FileStatus::Cancelled;
    std::string device;      ///< where it was filtered ("CPU", "GPU 0"); empty when not filtered
    double computeMs = 0.0;  ///< filtering only
    double decodeMs = 0.0;
    double encodeMs = 0.0;
    std::string output;       ///< the file written (or the one that made it skip)
    std::string error;        ///< why it failed or was skipped; names the file
    std::string metadata;     ///< what the output carries from the input ("EXIF, ICC profile", "none")
    std::string orientation;  ///< how the input was turned upright; empty when it was
    /// Which decoder read the input: "libjpeg-turbo", "nvJPEG (GPU 0)", "libjpeg-turbo (nvJPEG:
    /// <why not>)", "libpng", ...; empty when it was not read.
    std::string decoder;
};

/// A snapshot of a run for progress displays. Called on worker threads, one call at a time.
struct BatchProgress {
    int done = 0;  ///< inputs finished in any way
    int total = 0;
    std::string currentFile;               ///< the input most recently started
    double fileFraction = 0.0;             ///< how far that input is, 0..1 (by stage)
    const FileResult* finished = nullptr;  ///< the input that just finished, if this call is for one
};

/// Receives progress; must not throw and should return quickly.
using BatchProgressCallback = std::function<void(const BatchProgress&)>;

/// What the filtering step produced: the image, where it ran and how long it took.
struct ProcessOutcome {
    cv::Mat image;
    std::string device;         ///< "CPU", "GPU 0", "GPUs 0,1"
    double milliseconds = 0.0;  ///< compute time as the device measured it
    std::size_t tiles = 0;      ///< tiles the run cut the image in (its memory budget decides)
};

/// FileResult::device of a file whose chain is an identity: its pixels are copied, no device
/// runs anything.
inline constexpr const char* kIdentityDevice = "none (identity)";

/// The filtering step of a batch. Called from the batch's worker threads, several at once (the
/// runner gives each file to the processor with the fewest files on it), so it must be safe to
/// call concurrently; it may throw (the file is then marked failed with the reason) and may
/// return early with an empty image when cancel becomes true (the file is cancelled).
using BatchProcessor = std::function<ProcessOutcome(const cv::Mat& image, const filters::FilterChain& chain,
                                                    const std::atomic<bool>& cancel)>;

/// A whole run's results, in input order.
struct BatchSummary {
    std::vector<FileResult> files;
    int ok = 0;
    int skipped = 0;
    int failed = 0;
    int cancelled = 0;
    double wallMs = 0.0;
    double peakResidentMiB = 0.0;      ///< the process's peak resident memory when the run ended
    std::vector<std::string> devices;  ///< the processors' labels
    std::string note;                  ///< e.g. why the CPU ran instead of a GPU
    bool wasCancelled = false;
};

}  // namespace tessera::app
