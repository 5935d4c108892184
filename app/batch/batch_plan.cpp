// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_plan.h"

#include "app/batch/batch_inputs.h"
#include "app/batch/batch_naming.h"
#include "app/io/image_io.h"
#include "app/io/sample_depth.h"
#include "filters/cpu_executor.h"

#include <opencv2/core/hal/interface.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include <sys/stat.h>

namespace tessera::app {
namespace fs = std::filesystem;

namespace {

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::string normalFormat(const std::string& format)
{
    return lower(!format.empty() && format.front() == '.' ? format.substr(1) : format);
}

int cvDepthOf(filters::OutputDepth depth)
{
    switch (depth) {
    case filters::OutputDepth::U8: return CV_8U;
    case filters::OutputDepth::U16: return CV_16U;
    case filters::OutputDepth::F32: return CV_32F;
    case filters::OutputDepth::Same: break;
    }
    return -1;
}

// The file a path stands for, links and ".." resolved as far as the path exists.
std::string canonicalKey(const std::string& path)
{
    std::error_code ec;
    const fs::path resolved = fs::weakly_canonical(fs::absolute(path), ec);
    return ec ? fs::absolute(path).lexically_normal().string() : resolved.string();
}

// Device and inode, so that a hard link to an input is recognised as that input.
std::pair<dev_t, ino_t> fileId(const std::string& path)
{
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        return {0, 0};
    }
    return {info.st_dev, info.st_ino};
}

// Refuses a format no depth can be written in, or the chosen depth when there is one.
void checkFormat(const std::string& format, filters::OutputDepth depth)
{
    if (format.empty()) {
        return;
    }
    const std::string probe = "x." + format;
    const int cvDepth = cvDepthOf(depth);
    if (cvDepth >= 0) {
        if (const std::string problem = outputFormatProblem(probe, cvDepth); !problem.empty()) {
            throw BatchRefused("output format " + format + ": " + problem);
        }
        return;
    }
    for (int d : {CV_8U, CV_16U, CV_32F}) {
        if (outputFormatProblem(probe, d).empty()) {
            return;
        }
    }
    throw BatchRefused("output format " + format + ": " + outputFormatProblem(probe, CV_8U));
}

// The files whose output format cannot hold their depth: the first reason, and their names as
// a refusal lists them ("a.png, b.png, c.png and 4 more").
struct Misfits {
    std::vector<std::string> names;
    std::string problem;

    void add(std::string name, std::string why)
    {
        if (problem.empty()) {
            problem = std::move(why);
        }
        names.push_back(std::move(name));
    }
    std::string listed() const
    {
        constexpr std::size_t kNamed = 3;
        std::string text;
        for (std::size_t i = 0; i < std::min(kNamed, names.size()); ++i) {
            text += (i == 0 ? "" : ", ") + names[i];
        }
        if (names.size() > kNamed) {
            text += " and " + std::to_string(names.size() - kNamed) + " more";
        }
        return text;
    }
};

// With every depth kept, each input's own depth must fit the chosen format. The depth is read
// from the file's header, so that a 16-bit PNG bound for JPEG stops the batch before anything
// is written; a header that does not say is left to the run, which fails that file with the
// reason.
void checkKeptDepths(const std::string& format, const std::vector<PlannedFile>& files)
{
    Misfits misfits;
    for (const PlannedFile& file : files) {
        if (file.status != FileStatus::Ok) {
            continue;
        }
        const std::optional<int> depth = sniffSampleDepth(file.input);
        if (!depth) {
            continue;
        }
        if (std::string p = outputFormatProblem(file.output, *depth); !p.empty()) {
            misfits.add(fs::path(file.input).filename().string() + " (" + filters::cvDepthName(*depth) + ")",
                        std::move(p));
        }
    }
    if (misfits.names.empty()) {
        return;
    }
    const std::size_t n = misfits.names.size();
    throw BatchRefused("output format " + format + ": " + misfits.problem + " (the depth is kept, and " +
                       std::to_string(n) + (n == 1 ? " input has it: " : " inputs have it: ") + misfits.listed() +
                       "); choose a depth the format holds, or another format");
}

// With the depth set by the filters (a float Sobel) and the format kept, every output's format
// must hold that depth: a batch of PNGs bound for float data is refused before anything is
// read or written, not failed file by file.
void checkChosenDepth(int cvDepth, const std::vector<PlannedFile>& files)
{
    Misfits misfits;
    for (const PlannedFile& file : files) {
        if (file.status != FileStatus::Ok) {
            continue;
        }
        if (std::string p = outputFormatProblem(file.output, cvDepth); !p.empty()) {
            misfits.add(fs::path(file.output).filename().string(), std::move(p));
        }
    }
    if (misfits.names.empty()) {
        return;
    }
    const std::size_t n = misfits.names.size();
    throw BatchRefused("the filters write " + filters::cvDepthName(cvDepth) + " data and " + std::to_string(n) +
                       (n == 1 ? " output" : " outputs") + " would be in a format that cannot hold it (" +
                       misfits.listed() + "): " + misfits.problem +
                       "; choose an output format that holds it, or an output depth of 8 or 16 bits");
}

std::string withSuffix(const fs::path& path, int n)
{
    return (path.parent_path() / (path.stem().string() + "-" + std::to_string(n) + path.extension().string())).string();
}

}  // namespace

std::string outputNameFor(const BatchJob& job, const std::string& input, int index, int count, const std::string& date)
{
    const fs::path in(input);
    NameFields fields;
    fields.stem = in.stem().string();
    const std::string inputExt = in.extension().string();
    fields.ext = inputExt.empty() ? std::string() : inputExt.substr(1);
    fields.filter = job.filterName.empty() ? filterLabel(job.chain) : job.filterName;
    fields.index = index;
    fields.count = count;
    fields.date = date.empty() ? todayDate() : date;
    const std::string format = normalFormat(job.format);
    const std::string ext = !format.empty() ? format : (fields.ext.empty() ? std::string("png") : fields.ext);
    return expandNameTemplate(job.nameTemplate, fields) + "." + ext;
}

namespace {

/// Refuses a job that cannot start: no chain, no output folder, a file where the folder should
/// be, a template that does not parse.
void checkJob(const BatchJob& job)
{
    if (job.chain.steps.empty()) {
        throw BatchRefused("nothing to apply: the filter stack is empty");
    }
    if (job.outputDir.empty()) {
        throw BatchRefused("no output folder given");
    }
    std::error_code ec;
    if (fs::exists(job.outputDir, ec) && !fs::is_directory(job.outputDir, ec)) {
        throw BatchRefused("output folder " + job.outputDir + " is a file, not a folder");
    }
    try {
        checkNameTemplate(job.nameTemplate);
    } catch (const std::invalid_argument& e) {
        throw BatchRefused(e.what());
    }
}

/// The depth the outputs get: the last one a step names (the job's own choice, or a depth set
/// in the stack, such as float for a signed edge filter); Same when every step keeps the
/// input's, which only the files themselves can tell.
filters::OutputDepth outputDepthOf(const filters::FilterChain& chain)
{
    for (auto step = chain.steps.rbegin(); step != chain.steps.rend(); ++step) {
        if (step->depth != filters::OutputDepth::Same) {
            return step->depth;
        }
    }
    return filters::OutputDepth::Same;
}

/// The inputs that can be read, by canonical path and by device and inode, so that no output
/// replaces one of them under another name.
struct KnownInputs {
    std::map<std::string, std::string> byKey;
    std::map<std::pair<dev_t, ino_t>, std::string> byId;

    explicit KnownInputs(const std::vector<BatchInput>& inputs)
    {
        for (const BatchInput& in : inputs) {
            if (in.error.empty()) {
                byKey.emplace(canonicalKey(in.path), in.path);
                if (const auto id = fileId(in.path); id.second != 0) {
                    byId.emplace(id, in.path);
                }
            }
        }
    }

    /// Throws BatchRefused when output is one of the inputs, by name or by file.
    void refuseReplacing(const std::string& output, const std::string& key) const
    {
        if (const auto same = byKey.find(key); same != byKey.end()) {
            throw BatchRefused("the output " + output + " would replace the input " + same->second +
                               "; choose another output folder or name template");
        }
        if (const auto id = fileId(output); id.second != 0) {
            if (const auto same = byId.find(id); same != byId.end()) {
                throw BatchRefused("the output " + output + " is the same file as the input " + same->second +
                                   "; choose another output folder or name template");
            }
        }
    }
};

/// What the overwrite policy does with the outputs that exist already: skip their files, or
/// give them the first free "-N" name (taken: the canonical outputs already claimed).
void applyPolicy(OverwritePolicy policy, std::vector<PlannedFile>& files, std::set<std::string> taken)
{
    std::error_code ec;
    for (PlannedFile& file : files) {
        if (file.status != FileStatus::Ok || !fs::exists(fs::symlink_status(file.output, ec))) {
            continue;
        }
        if (policy == OverwritePolicy::Skip) {
            file.status = FileStatus::Skipped;
            file.error = file.input + ": the output " + file.output + " exists (policy skip)";
        } else if (policy == OverwritePolicy::Rename) {
            const fs::path original(file.output);
            for (int n = 1;; ++n) {
                const std::string candidate = withSuffix(original, n);
                if (!fs::exists(fs::symlink_status(candidate, ec)) && !taken.contains(canonicalKey(candidate))) {
                    file.output = candidate;
                    taken.insert(canonicalKey(candidate));
                    break;
                }
            }
        }
    }
}

}  // namespace

BatchPlan planBatch(const BatchJob& job)
{
    checkJob(job);
    BatchPlan plan;
    plan.outputDir = job.outputDir;
    plan.date = todayDate();
    plan.chain = job.chain;
    // The job's depth, when it names one, is the last step's (the chain's one override rule).
    if (job.depth != filters::OutputDepth::Same) {
        filters::applyOverrides(plan.chain, {.depth = job.depth});
    }
    const filters::OutputDepth outputDepth = outputDepthOf(plan.chain);
    checkFormat(normalFormat(job.format), outputDepth);

    const std::vector<BatchInput> inputs = expandInputs(job.inputs, job.recursive, job.outputDir);
    if (inputs.empty()) {
        throw BatchRefused("no input images found");
    }
    // Files skipped for their format take no {index}: the numbering is the images'.
    const int count = static_cast<int>(
        std::count_if(inputs.begin(), inputs.end(), [](const BatchInput& in) { return in.skipped.empty(); }));
    if (count == 0) {
        throw BatchRefused("no input images found; " + inputs.front().skipped +
                           (inputs.size() > 1 ? " (and " + std::to_string(inputs.size() - 1) + " more files)" : ""));
    }
    const KnownInputs known(inputs);
    std::map<std::string, std::string> inputByOutput;  // canonical output -> the input naming it
    int index = 0;
    for (size_t n = 0; n < inputs.size(); ++n) {
        const BatchInput& in = inputs[n];
        PlannedFile file;
        file.position = static_cast<int>(n) + 1;
        file.input = in.path;
        if (!in.skipped.empty() || !in.error.empty()) {
            file.status = in.skipped.empty() ? FileStatus::Failed : FileStatus::Skipped;
            file.error = in.skipped.empty() ? in.error : in.skipped;
            file.index = in.skipped.empty() ? ++index : 0;
            plan.files.push_back(std::move(file));
            continue;
        }
        file.index = ++index;
        file.output = (fs::path(job.outputDir) / outputNameFor(job, file.input, file.index, count, plan.date)).string();
        const std::string key = canonicalKey(file.output);
        known.refuseReplacing(file.output, key);
        if (const auto [it, fresh] = inputByOutput.emplace(key, file.input); !fresh) {
            throw BatchRefused("the inputs " + it->second + " and " + file.input + " would both be written to " +
                               file.output + "; add {index} or {ext} to the name template");
        }
        plan.files.push_back(std::move(file));
    }
    if (const int cvDepth = cvDepthOf(outputDepth); cvDepth >= 0) {
        checkChosenDepth(cvDepth, plan.files);
    }

    if (const std::string format = normalFormat(job.format);
        outputDepth == filters::OutputDepth::Same && !format.empty()) {
        checkKeptDepths(format, plan.files);
    }
    std::set<std::string> taken;
    for (const auto& entry : inputByOutput) {
        taken.insert(entry.first);
    }
    applyPolicy(job.policy, plan.files, std::move(taken));
    return plan;
}

}  // namespace tessera::app
