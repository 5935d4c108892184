// SPDX-License-Identifier: Apache-2.0
#include "app/bench/bench_batch.h"

#include "app/batch/batch_devices.h"
#include "app/batch/batch_plan.h"
#include "app/batch/batch_runner.h"
#include "app/devices/device_scheduler.h"
#include "app/io/image_io.h"
#include "filters/cpu_executor.h"
#include "filters/factories.h"
#include "tessera/gpu/jpeg_decoder_gpu.h"
#include "values/device_label.h"

#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <thread>

#include <sys/resource.h>
#include <unistd.h>

namespace tessera::app::bench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

/// A photo-like picture: smooth colour gradients, a few soft shapes and sensor-like noise, so
/// that the codecs work as hard as on a photo (a flat or random image would be too easy or too
/// hard for them).
cv::Mat photoLike(int width, int height, int depth, unsigned seed)
{
    cv::Mat img(height, width, CV_32FC3);
    for (int y = 0; y < height; ++y) {
        auto* row = img.ptr<cv::Vec3f>(y);
        for (int x = 0; x < width; ++x) {
            const float u = static_cast<float>(x) / static_cast<float>(width);
            const float v = static_cast<float>(y) / static_cast<float>(height);
            row[x] = cv::Vec3f(0.2f + 0.6f * u * v, 0.3f + 0.5f * (1.0f - u) * v, 0.25f + 0.6f * u * (1.0f - v));
        }
    }
    for (int k = 0; k < 12; ++k) {
        const cv::Point centre((k * 7919 + 131) % width, (k * 104729 + 17) % height);
        cv::circle(img, centre, std::max(4, width / (6 + k)), cv::Scalar(0.1 * (k % 3), 0.08 * (k % 5), 0.12 * (k % 4)),
                   cv::FILLED, cv::LINE_AA);
    }
    cv::GaussianBlur(img, img, cv::Size(0, 0), std::max(1.0, width / 800.0));
    cv::Mat noise(img.size(), img.type());
    cv::theRNG().state = seed;
    cv::randn(noise, 0.0, 0.02);
    img += noise;
    cv::Mat out;
    const double scale = depth == CV_16U ? 65535.0 : 255.0;
    img.convertTo(out, depth, scale);
    return out;
}

/// The set's first file written by writeImage, the rest as byte copies of it.
void writeSet(const std::string& folder, const std::string& stem, const std::string& ext, const cv::Mat& img, int count,
              const codec::EncodeOptions& options)
{
    fs::create_directories(folder);
    const std::string first = folder + "/" + stem + "-000." + ext;
    writeImage(first, img, nullptr, options);
    for (int i = 1; i < count; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "-%03d.", i);
        fs::copy_file(first, folder + "/" + stem + name + ext, fs::copy_options::overwrite_existing);
    }
}

double cpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

/// Starts a new peak of resident memory (Linux: "5" into clear_refs); false where it cannot.
bool resetPeak()
{
    std::ofstream refs("/proc/self/clear_refs");
    refs << "5";
    return static_cast<bool>(refs.flush());
}

double peakMiB()
{
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
        if (line.rfind("VmHWM:", 0) == 0) {
            return std::stod(line.substr(6)) / 1024.0;
        }
    }
    return 0.0;
}

double median(std::vector<double> v)
{
    if (v.empty()) {
        return 0.0;
    }
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

std::string megapixelText(double mp)
{
    std::ostringstream text;
    text << std::setprecision(3) << mp;
    return text.str();
}

struct FileSet {
    std::string name;
    std::string folder;
    std::string ext;
    double megapixels = 0;
    int count = 0;
};

BatchLine runOnce(const FileSet& set, const std::string& outFolder, const filters::FilterChain& chain,
                  const std::vector<BatchProcessor>& processors, const std::string& label, int workers,
                  const std::vector<values::DeviceId>& jpegGpus = {})
{
    BatchLine line;
    line.images = set.name;
    line.run = label;
    line.megapixels = set.megapixels;
    line.workers = workers;
    BatchJob job;
    job.inputs = {set.folder};
    job.outputDir = outFolder;
    job.nameTemplate = "{stem}-out";
    job.format = set.ext;
    job.chain = chain;
    job.policy = OverwritePolicy::Overwrite;
    job.jobs = workers;
    job.jpegGpus = jpegGpus;  // the nvJPEG runs decode their JPEGs there
    std::atomic<bool> never{false};
    const bool peakKnown = resetPeak();
    const double cpuBefore = cpuSeconds();
    const auto start = Clock::now();
    const BatchSummary summary = runBatch(planBatch(job), job, processors, never);
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    line.files = summary.ok;
    line.wallMs = wall * 1e3;
    line.filesPerSecond = summary.ok / wall;
    line.mpPerSecond = line.filesPerSecond * set.megapixels;
    line.coresBusy = (cpuSeconds() - cpuBefore) / wall;
    line.peakMiB = peakKnown ? peakMiB() : summary.peakResidentMiB;
    std::vector<double> decode;
    std::vector<double> filter;
    std::vector<double> encode;
    for (const FileResult& r : summary.files) {
        if (r.status == FileStatus::Ok) {
            decode.push_back(r.decodeMs);
            filter.push_back(r.computeMs);
            encode.push_back(r.encodeMs);
        } else if (line.error.empty()) {
            line.error = r.error;
        }
    }
    line.decodeMs = median(decode);
    line.filterMs = median(filter);
    line.encodeMs = median(encode);
    std::error_code ec;
    fs::remove_all(outFolder, ec);
    return line;
}

/// The JPEG set (photo-like, quality 92) and the 16-bit TIFF set of twice the megapixels, written
/// under root.
std::vector<FileSet> makeFileSets(const std::string& root, const Options& options)
{
    const double mp = options.batchMegapixels;
    const int jpegWidth = std::max(16, static_cast<int>(std::lround(std::sqrt(mp * 1e6 * 4.0 / 3.0))));
    const int jpegHeight = std::max(16, jpegWidth * 3 / 4);
    const int tiffWidth = std::max(16, static_cast<int>(std::lround(std::sqrt(2 * mp * 1e6 * 3.0 / 2.0))));
    const int tiffHeight = std::max(16, tiffWidth * 2 / 3);
    std::vector<FileSet> sets;
    {
        codec::EncodeOptions jpeg;
        jpeg.jpegQuality = 92;
        const cv::Mat photo = photoLike(jpegWidth, jpegHeight, CV_8U, options.seed);
        FileSet s{"jpeg-q92-" + megapixelText(mp) + "mp", root + "/jpeg", "jpg",
                  jpegWidth * static_cast<double>(jpegHeight) / 1e6, options.batchFiles};
        writeSet(s.folder, s.name, s.ext, photo, s.count, jpeg);
        sets.push_back(s);
    }
    {
        const cv::Mat scan = photoLike(tiffWidth, tiffHeight, CV_16U, options.seed + 1);
        FileSet s{"tiff-u16-" + megapixelText(2 * mp) + "mp", root + "/tiff", "tif",
                  tiffWidth * static_cast<double>(tiffHeight) / 1e6, options.batchFiles};
        writeSet(s.folder, s.name, s.ext, scan, s.count, {});
        sets.push_back(s);
    }
    return sets;
}

/// The line's ratio and target. The CPU: each file costs its decode, filter and encode time on
/// its worker (the medians of this run), and every core kept on such work gives cores over that
/// sum. A GPU: files per second over the codec floor's, held against 0.9 (twice the floor when
/// nvJPEG decodes).
void setRatio(BatchLine& line, bool cpu, bool nvjpeg, const BatchLine& floor, int cores)
{
    if (cpu) {
        const double perFile = (line.decodeMs + line.filterMs + line.encodeMs) / 1e3;
        const double ideal = perFile > 0 ? cores / perFile : 0.0;
        line.ratio = ideal > 0 ? line.filesPerSecond / ideal : 0.0;
        line.target = 0.85;
        line.ratioOf = "cores / (decode + filter + encode per file)";
    } else {
        line.ratio = floor.filesPerSecond > 0 ? line.filesPerSecond / floor.filesPerSecond : 0.0;
        line.target = nvjpeg ? 2.0 : 0.9;
        line.ratioOf = "the codec floor";
    }
}

}  // namespace

std::vector<BatchLine> runBatchCases(const Options& options, const std::vector<Target>& targets)
{
    // A temporary folder where TMPDIR says (as mktemp makes one), else /tmp.
    const char* tmpdir = std::getenv("TMPDIR");
    const std::string tmp = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
    std::string pattern = tmp + "/tessera-bench-batch.XXXXXX";
    const char* made = options.batchDir.empty() ? ::mkdtemp(pattern.data()) : options.batchDir.c_str();
    std::error_code made_ec;
    if (made == nullptr ||
        (!options.batchDir.empty() && !fs::create_directories(options.batchDir, made_ec) && made_ec)) {
        BatchLine failed;
        failed.images = "batch";
        failed.error =
            "cannot make the folder for the batch's files: " + (options.batchDir.empty() ? tmp : options.batchDir);
        return {failed};
    }
    const std::string root = made;
    const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));

    const std::vector<FileSet> sets = makeFileSets(root, options);

    const filters::FilterChain identity{{filters::FilterSpec{}}};
    const filters::FilterChain gaussian{{filters::makeGaussian(3.0)}};
    DeviceScheduler scheduler;
    std::vector<BatchLine> lines;
    for (const FileSet& set : sets) {
        BatchLine floor = runOnce(set, root + "/out", identity, {cpuProcessor()}, "codec floor", cores);
        floor.ratioOf = "the floor itself";
        lines.push_back(floor);
        // Each device filters with the JPEGs decoded by libjpeg-turbo; a GPU also with them
        // decoded by nvJPEG on it (the JPEG set only), once on its decode engines (where it has
        // them) and once with the engines turned off, both held against twice the floor.
        struct Run {
            std::vector<values::DeviceId> gpus;
            std::vector<values::DeviceId> jpegGpus;
            std::string label;
            bool engines = true;
        };
        std::vector<Run> runs;
        for (const Target& t : targets) {
            if (t.cpu) {
                runs.push_back({{}, {}, "CPU"});
                continue;
            }
            runs.push_back({{t.device}, {}, values::deviceLabel(t.device)});
            if (set.ext == "jpg") {
                runs.push_back({{t.device}, {t.device}, values::deviceLabel(t.device) + " + nvJPEG engines"});
                runs.push_back({{t.device}, {t.device}, values::deviceLabel(t.device) + " + nvJPEG default", false});
            }
        }
        for (const Run& r : runs) {
            BatchLine line;
            // Read when the run opens its decoders, before its threads start.
            ::setenv(gpu::kNvjpegHardwareVariable, r.engines ? "1" : "0", 1);
            try {
                line = runOnce(set, root + "/out", gaussian, makeProcessors(r.gpus, scheduler), r.label,
                               defaultWorkers(r.gpus.size()), r.jpegGpus);
            } catch (const std::exception& e) {
                line.images = set.name;
                line.run = r.label;
                line.error = e.what();
                lines.push_back(line);
                continue;
            }
            setRatio(line, r.gpus.empty(), !r.jpegGpus.empty(), floor, cores);
            lines.push_back(line);
        }
    }
    ::unsetenv(gpu::kNvjpegHardwareVariable);
    std::error_code ec;
    if (options.batchDir.empty()) {
        fs::remove_all(root, ec);
    }
    return lines;
}

nlohmann::ordered_json toJson(const BatchLine& l)
{
    nlohmann::ordered_json j;
    j["case"] = "batch";
    j["images"] = l.images;
    j["run"] = l.run;
    j["files"] = l.files;
    j["workers"] = l.workers;
    j["megapixels"] = l.megapixels;
    j["wall_ms"] = l.wallMs;
    j["files_per_s"] = l.filesPerSecond;
    j["mp_per_s"] = l.mpPerSecond;
    j["cores_busy"] = l.coresBusy;
    j["peak_mib"] = l.peakMiB;
    j["decode_ms"] = l.decodeMs;
    j["filter_ms"] = l.filterMs;
    j["encode_ms"] = l.encodeMs;
    if (l.target > 0) {
        j["ratio"] = l.ratio;
        j["target"] = l.target;
        j["ratio_of"] = l.ratioOf;
    }
    if (!l.error.empty()) {
        j["error"] = l.error;
    }
    return j;
}

std::string formatBatchTable(const std::vector<BatchLine>& lines)
{
    std::ostringstream out;
    out << std::fixed;
    out << "images             run                     files  files/s    MP/s   cores busy  peak MiB  "
           "decode/filter/encode ms  ratio\n";
    for (const BatchLine& l : lines) {
        out << std::left << std::setw(19) << l.images << std::setw(24) << l.run << std::right << std::setw(5) << l.files
            << std::setw(9) << std::setprecision(2) << l.filesPerSecond << std::setw(8) << std::setprecision(1)
            << l.mpPerSecond << std::setw(13) << std::setprecision(2) << l.coresBusy << std::setw(10)
            << std::setprecision(0) << l.peakMiB << "   " << std::setprecision(1) << std::setw(6) << l.decodeMs << " /"
            << std::setw(6) << l.filterMs << " /" << std::setw(6) << l.encodeMs;
        if (l.target > 0) {
            out << "   " << std::setprecision(2) << l.ratio << (l.ratio >= l.target ? " (target " : " (BELOW target ")
                << l.target << ")";
        }
        if (!l.error.empty()) {
            out << "   error: " << l.error;
        }
        out << "\n";
    }
    return out.str();
}

}  // namespace tessera::app::bench
