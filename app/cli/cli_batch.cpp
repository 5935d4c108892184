// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_run.h"
#include "app/batch/batch_shard.h"
#include "app/batch/input_list.h"
#include "app/batch/batch_plan.h"
#include "app/batch/batch_report.h"
#include "app/batch/batch_manifest.h"
#include "app/io/file_roles.h"
#include "files/output_file.h"
#include "app/cli/cli.h"
#include "app/cli/cli_commands.h"
#include "app/cli/cli_filter_options.h"
#include "app/cli/interrupt.h"
#include "values/batch_rate.h"
#include "app/cli/stderr_lines.h"
#include "app/version_info.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <ostream>
#include <utility>

#include <unistd.h>

namespace tessera::app {

namespace {

constexpr std::array kBatchOptions{
    OptionSpec{"--output", "-o", ValueKind::Directory},
    OptionSpec{"--template", {}, ValueKind::Text},
    OptionSpec{"--format", {}, ValueKind::Choice, "png jpg tif bmp webp exr"},
    OptionSpec{"--policy", {}, ValueKind::Choice, "skip rename overwrite"},
    OptionSpec{"--recursive", "-r"},
    OptionSpec{"--jobs", "-j", ValueKind::Text},
    OptionSpec{"--jpeg-decoder", {}, ValueKind::Choice, "cpu gpu"},
    OptionSpec{"--report", {}, ValueKind::File},
    OptionSpec{"--csv", {}, ValueKind::File},
    OptionSpec{"--files-from", {}, ValueKind::File},
    OptionSpec{"--shard", {}, ValueKind::Text},
    OptionSpec{"--manifest"},
    OptionSpec{"--strip-metadata"},
    OptionSpec{"--quality", {}, ValueKind::Text, "lossless"},
    OptionSpec{"--compression", {}, ValueKind::Text, "none lzw deflate"},
    OptionSpec{"--help", "-h"},
};

struct BatchCliOptions {
    BatchJob job;
    FilterOptions filters;
    std::string report;
    std::string csv;
    std::vector<std::pair<std::size_t, std::string>> lists;  ///< --files-from: inputs before it, the list
    std::optional<BatchShard> shard;
    bool jpegOnGpu = false;  ///< --jpeg-decoder gpu
    bool help = false;
};

void printBatchUsage(std::ostream& os)
{
    os << "Usage: tessera-cli batch INPUT... -o OUTDIR [filter options as for apply]\n"
          "         [--files-from LIST] [--shard K/N]\n"
          "         [--template T] [--format EXT] [--depth keep|u8|u16|f32]\n"
          "         [--policy skip|rename|overwrite] [--recursive] [--jobs N]\n"
          "         [--device auto|cpu|gpu|gpu:N[,M...]|all] [--report FILE.json] [--csv FILE.csv]\n"
          "         [--method M] [--gpu-memory-limit BYTES] [--tile WxH] [--manifest] [--strip-metadata]\n"
          "         [--quality Q] [--compression C]\n"
          "\n"
          "  INPUT              image files, folders and glob patterns (quote patterns); after\n"
          "                     \"--\" every argument is an input, even one starting with '-'\n"
          "  --files-from LIST  read more inputs from LIST, one a line (\"-\": standard input), taken\n"
          "                     where the option stands; blank lines are left out; at most 64 MiB\n"
          "                     and 1,000,000 lines; may be given more than once\n"
          "  --shard K/N        run only shard K of N (1 <= K <= N <= 100000): the files at\n"
          "                     positions p (from 0) of the whole list with p mod N = K-1; names,\n"
          "                     {index} and refusals are those of the whole list\n"
          "  -o, --output DIR   output folder (created when missing)\n"
          "  --template T       output name without extension (default {stem}-{filter});\n"
          "                     fields {stem} {ext} {filter} {index} {date}\n"
          "  --format EXT       output format, e.g. png or tif (default: the input's)\n"
          "  --depth D          output depth (default keep); a format that cannot hold it is refused\n"
          "  --policy P         when an output exists: skip (default), rename (adds -1, -2...) or\n"
          "                     overwrite; an output that would replace an input is always refused\n"
          "  --recursive        also read the sub-folders of folder inputs\n"
          "  --jobs N           files worked on at once, one thread each (default: one per core)\n"
          "  --jpeg-decoder D   cpu (default: libjpeg-turbo) or gpu: nvJPEG on the batch's GPUs, with\n"
          "                     libjpeg-turbo for the files it cannot read; the report names each\n"
          "  --device D         where to filter (default auto); with several GPUs each takes the\n"
          "                     next file when it is free, and images of 24 Mpixel and up are\n"
          "                     split in tiles over all of them\n"
       << kGpuOptionsHelp
       << "  --method M         GPU method (default auto)\n"
          "  --report FILE      write a JSON report of the run\n"
          "  --csv FILE         write the per-file results as CSV\n"
          "  --manifest         write OUTPUT.json beside each output: input SHA-256, every filter\n"
          "                     setting, device, versions, timings and the metadata kept\n"
          "  --strip-metadata   write no EXIF, XMP or ICC profile (by default they go from each\n"
          "                     input to its JPEG, PNG, TIFF or WebP output; photos are always\n"
          "                     turned upright from their EXIF orientation)\n"
       << kEncodeOptionsHelp
       << "  -v, --verbose      print every diagnostic (TESSERA_LOG=all) on stderr\n"
          "  -q, --quiet        no progress line, summary, skip notes or notes; failures still show\n"
          "A long option takes its value as the next argument or after '=' (--policy=rename).\n"
          "The progress line goes to standard error when that is a terminal.\n"
          "Every output is written to a temporary file and renamed; a bad file is reported and the\n"
          "batch goes on. Exit codes: 0 all files done or skipped, 1 a file failed, 2 a usage error,\n"
          "130/143 interrupted by SIGINT/SIGTERM (the report still lists every file).\n";
}

int parseJobs(const std::string& text)
{
    const double v = parseNumber("--jobs", text);
    if (v < 1 || v > 256 || v != static_cast<int>(v)) {
        throw UsageError("--jobs expects a whole number from 1 to 256, got '" + text + "'");
    }
    return static_cast<int>(v);
}

BatchCliOptions parseBatch(const std::vector<std::string>& args, Verbosity& verbosity)
{
    BatchCliOptions o;
    o.filters = readCommandLine(args, kBatchOptions, verbosity, [&o](ArgumentReader& in) {
        const std::string& a = in.current();
        const auto value = [&in]() { return in.value(); };
        if (!in.isOption()) {
            if (a == "-") {
                throw UsageError("'-' (standard input) is no input of batch: give files, folders or patterns, "
                                 "or a list of them with --files-from - (a file named '-' is ./-)");
            }
            o.job.inputs.push_back(a);
        } else if (a == "-h" || a == "--help") {
            o.help = true;
        } else if (a == "-o" || a == "--output") {
            o.job.outputDir = value();
            if (o.job.outputDir == "-") {
                throw UsageError("-o - (standard output): batch writes its outputs into a folder (a folder named "
                                 "'-' is ./-)");
            }
        } else if (a == "--template") {
            o.job.nameTemplate = value();
        } else if (a == "--format") {
            o.job.format = value();
        } else if (a == "--policy") {
            try {
                o.job.policy = parseOverwritePolicy(value());
            } catch (const std::invalid_argument& e) {
                throw UsageError(std::string("--policy: ") + e.what());
            }
        } else if (a == "--recursive" || a == "-r") {
            o.job.recursive = true;
        } else if (a == "--jobs" || a == "-j") {
            o.job.jobs = parseJobs(value());
        } else if (a == "--jpeg-decoder") {
            const std::string v = value();
            if (v != "cpu" && v != "gpu") {
                throw UsageError("--jpeg-decoder expects cpu or gpu, got '" + v + "'");
            }
            o.jpegOnGpu = v == "gpu";
        } else if (a == "--report") {
            o.report = sideFile(a, value());
        } else if (a == "--csv") {
            o.csv = sideFile(a, value());
        } else if (a == "--files-from") {
            o.lists.emplace_back(o.job.inputs.size(), value());
        } else if (a == "--shard") {
            try {
                o.shard = parseShard(value());
            } catch (const std::invalid_argument& e) {
                throw UsageError(e.what());
            }
        } else if (a == "--manifest") {
            o.job.manifest = true;
        } else if (a == "--strip-metadata") {
            o.job.stripMetadata = true;
        } else if (readEncodeOption(in, o.job.encode)) {
        } else {
            return false;
        }
        return true;
    });
    return o;
}

/// Puts the lines of every --files-from list among the command-line inputs where the option
/// stood. Throws UsageError for standard input named twice, InputListError for a bad list.
void readInputLists(BatchCliOptions& o)
{
    if (o.lists.empty()) {
        return;
    }
    std::vector<std::string> inputs;
    std::size_t taken = 0;
    bool standardInput = false;
    for (const auto& [before, list] : o.lists) {
        if (list == "-") {
            if (standardInput) {
                throw UsageError("--files-from - is given twice; standard input can be read once");
            }
            standardInput = true;
        }
        inputs.insert(inputs.end(), o.job.inputs.begin() + static_cast<long>(taken),
                      o.job.inputs.begin() + static_cast<long>(before));
        taken = before;
        std::vector<std::string> lines = readInputList(list);
        inputs.insert(inputs.end(), std::make_move_iterator(lines.begin()), std::make_move_iterator(lines.end()));
    }
    inputs.insert(inputs.end(), o.job.inputs.begin() + static_cast<long>(taken), o.job.inputs.end());
    o.job.inputs = std::move(inputs);
}

/// Refuses a batch whose side files (--report, --csv, the manifests) land on a file it reads
/// (an input, the preset, the kernel file) or on another file it writes. Throws FilesOverlap.
void refuseOverlaps(const BatchCliOptions& o, const BatchPlan& plan)
{
    FileRoles roles;
    for (const PlannedFile& f : plan.files) {
        roles.reads(f.input, "an input image");
    }
    for (const auto& list : o.lists) {
        if (list.second != "-") {
            roles.reads(list.second, "the --files-from list");
        }
    }
    addFilterFiles(o.filters, roles);
    for (const PlannedFile& f : plan.files) {
        if (f.status == FileStatus::Ok) {
            roles.writes(f.output, "the output of " + f.input);
            if (o.job.manifest) {
                roles.writes(manifestPath(f.output), "the manifest of " + f.input);
            }
        }
    }
    if (!o.report.empty()) {
        roles.writes(o.report, "the --report file");
    }
    if (!o.csv.empty()) {
        roles.writes(o.csv, "the --csv file");
    }
    roles.check();
}

/// The line a terminal shows while the batch runs: "[12/200] 3.1 files/s, 1:02 left  name 40%".
BatchProgressCallback terminalProgress(std::ostream& out)
{
    return [&out, started = std::chrono::steady_clock::now()](const BatchProgress& p) {
        std::string name = p.currentFile;
        if (name.size() > 40) {
            name = "..." + name.substr(name.size() - 37);
        }
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        const std::string rate = values::rateText(p.done, p.total, elapsed);
        out << "\r\033[K[" << p.done << "/" << p.total << "] " << (rate.empty() ? "" : rate + "  ") << name << " "
            << static_cast<int>(p.fileFraction * 100) << "%" << std::flush;
    };
}

/// Each failure and skip on err, the counts on out, then the device note and the interruption.
void printSummary(const BatchSummary& summary, const BatchCliOptions& o, const BatchRun& batch, const CliContext& cli)
{
    std::ostream& out = cli.out;
    std::ostream& err = cli.err;
    for (const FileResult& r : summary.files) {
        if (r.status == FileStatus::Failed) {
            err << "failed: " << r.error << "\n";
        } else if (r.status == FileStatus::Skipped && r.output.empty() && !cli.quiet()) {
            err << "skipped: " << r.error << "\n";  // a file in an input folder that is not an image
        }
    }
    if (summary.wasCancelled) {
        err << "interrupted: the files not yet filtered were left out; every output written is complete\n";
    }
    if (cli.quiet()) {
        return;
    }
    std::string devices;
    for (const std::string& d : summary.devices) {
        devices += (devices.empty() ? "" : ", ") + d;
    }
    char wall[96];
    std::snprintf(wall, sizeof wall, "%.0f ms (%.2f files/s, peak memory %.0f MiB)", summary.wallMs,
                  summary.wallMs > 0 ? 1000.0 * (summary.ok + summary.failed) / summary.wallMs : 0.0,
                  summary.peakResidentMiB);
    out << summary.files.size() << " file(s): " << summary.ok << " written, " << summary.skipped << " skipped, "
        << summary.failed << " failed, " << summary.cancelled << " cancelled in " << wall
        << (devices.empty() ? "" : " on " + devices)
        << (o.shard ? " (shard " + o.shard->text() + " of a list of " + std::to_string(batch.scope().listTotal) + ")"
                    : "")
        << "\n";
    if (!batch.note().empty()) {
        err << "note: " << batch.note() << "\n";
    }
}

/// The run the options ask for, checked before anything is written. Throws UsageError,
/// InputListError, BatchRefused, FilesOverlap, files::OutputFileError and std::invalid_argument
/// (the device selection or the method).
void prepareRun(BatchCliOptions& o, DeviceScheduler& scheduler, std::optional<BatchRun>& batch)
{
    readInputLists(o);
    if (o.job.inputs.empty()) {
        throw UsageError(o.lists.empty() ? "no input given (files, folders or patterns)"
                                         : "no input given: the --files-from lists hold no path");
    }
    if (o.job.outputDir.empty()) {
        throw UsageError("no output folder given (-o OUTDIR)");
    }
    if (o.filters.steps.empty()) {
        throw UsageError("nothing to apply: give --filter, --kernel or --preset");
    }
    o.job.chain = chainFromOptions(o.filters);
    o.job.depth = o.filters.depth.value_or(filters::OutputDepth::Same);
    BatchRunOptions options;
    options.device = o.filters.device;
    options.method = o.filters.method;
    options.gpuMemoryLimit = o.filters.gpuMemoryLimit;
    options.jpegOnGpu = o.jpegOnGpu;
    options.shard = o.shard;
    batch.emplace(o.job, options, scheduler);
    refuseOverlaps(o, batch->wholePlan());  // the whole list's: every shard refuses alike
    // The side files pass the output rule before the run, not after it.
    for (const std::string& side : {o.report, o.csv}) {
        if (!side.empty()) {
            files::checkOutputFile(side, files::Streams::Write);
        }
    }
}

}  // namespace

std::span<const OptionSpec> batchOptions()
{
    return kBatchOptions;
}

int runBatchCommand(const std::vector<std::string>& args, CliContext& cli)
{
    std::ostream& err = cli.err;
    BatchCliOptions o;
    // This run is the process: its scheduler keeps every file within the GPUs' memory budgets.
    DeviceScheduler scheduler;
    std::optional<BatchRun> batch;
    try {
        o = parseBatch(args, cli.verbosity);
        if (o.help) {
            printBatchUsage(cli.out);
            return kExitOk;
        }
        prepareRun(o, scheduler, batch);
    } catch (const UsageError& e) {
        err << "tessera-cli batch: " << e.what() << "\n\n";
        printBatchUsage(err);
        return kExitUsage;
    } catch (const InputListError& e) {
        err << "tessera-cli batch: " << e.what() << "\nNothing was written.\n";
        return kExitUsage;
    } catch (const BatchRefused& e) {
        err << "tessera-cli batch: " << e.what() << "\nNothing was written.\n";
        return kExitUsage;
    } catch (const FilesOverlap& e) {
        err << "tessera-cli batch: " << e.what() << "\nNothing was written.\n";
        return kExitUsage;
    } catch (const files::OutputFileError& e) {
        err << "tessera-cli batch: " << e.what() << "\nNothing was written.\n";
        return kExitFailure;
    } catch (const std::invalid_argument& e) {  // the device selection or the method
        err << "tessera-cli batch: " << e.what() << "\n";
        return kExitUsage;
    }

    // The progress line is for people watching a terminal, on standard error so that standard
    // output keeps the results alone; logs and pipes get the summary only.
    const bool terminal = cli.processStreams && !cli.quiet() && ::isatty(STDERR_FILENO) == 1;
    const BatchProgressCallback progress = terminal ? terminalProgress(err) : BatchProgressCallback{};
    // Ctrl+C or SIGTERM stops the run between files (no partial output) and the report below
    // still says what finished; a second signal ends the process at once, its temporaries removed.
    const InterruptGuard guard(InterruptGuard::Mode::Cancel);
    std::optional<StderrLines> wholeLines;  // the decoders' warnings from the worker threads
    wholeLines.emplace();
    std::optional<CancelNotice> notice;
    notice.emplace(guard.cancelFlag(), std::chrono::milliseconds(1500), [&err, quiet = cli.quiet()] {
        if (quiet) {
            return;
        }
        err << "tessera-cli: stopping: waiting for the files being read, filtered or written to finish; "
               "press Ctrl+C again to stop at once (temporaries are removed)\n"
            << std::flush;
    });
    BatchSummary summary = batch->run(guard.cancelFlag(), progress);
    notice.reset();
    wholeLines.reset();  // the workers are joined: stderr is the process's own again
    if (terminal) {
        err << "\r\033[K" << std::flush;
    }

    printSummary(summary, o, *batch, cli);
    if (!o.report.empty()) {
        saveTextFile(o.report, reportJson(summary, batch->job(), batch->wholePlan().chain,
                                          collectVersions(batch->snapshot()), batch->scope()));
    }
    if (!o.csv.empty()) {
        saveTextFile(o.csv, resultsCsv(summary.files, o.shard));
    }
    if (const int signal = InterruptGuard::received(); signal != 0) {
        return exitCodeForSignal(signal);
    }
    return summary.failed == 0 && summary.cancelled == 0 ? kExitOk : kExitFailure;
}

}  // namespace tessera::app
