// SPDX-License-Identifier: Apache-2.0
#include "app/batch/report_merge.h"
#include "app/cli/cli.h"
#include "app/cli/cli_arguments.h"
#include "app/cli/cli_commands.h"
#include "app/io/file_roles.h"
#include "files/output_file.h"

#include <array>
#include <ostream>
#include <stdexcept>

namespace tessera::app {

namespace {

constexpr std::array kMergeOptions{
    OptionSpec{"--output", "-o", ValueKind::File},
    OptionSpec{"--help", "-h"},
};

void printReportUsage(std::ostream& os)
{
    os << "Usage: tessera-cli batch-report merge -o REPORT.json IN.json...\n"
          "\n"
          "Merges the JSON reports (--report) of the shards of one batch (--shard K/N) into one\n"
          "report that lists every file once, in the order of the whole input list, with the\n"
          "counts recomputed. A file listed by several reports (a shard run again) takes the entry\n"
          "of the report that finished last, except that a later \"skipped, the output exists\"\n"
          "keeps the earlier entry that wrote that output. Positions of the list that no report\n"
          "covers are counted as missing and listed under \"missing_positions\".\n"
          "\n"
          "  -o, --output FILE  the merged report, written through a temporary file and a rename\n"
          "                     (a pipe or /dev/stdout is written straight; \"-\" is standard\n"
          "                     output); it may not be one of the reports read\n"
          "  IN.json            the shards' reports (regular files), any number, in any order\n"
          "\n"
          "Reports of different jobs (output folder, name template, format, filters or list size\n"
          "differ), of different lists (one position, two files) or that contradict themselves\n"
          "(counts, positions past the list or outside the shard) are refused. Exit codes: 0\n"
          "merged, every file done or skipped; 1 merged, but a file failed, was cancelled or is\n"
          "missing, or a report cannot be read; 2 a usage error or reports that disagree (nothing\n"
          "written).\n";
}

int runMerge(const std::vector<std::string>& args, CliContext& cli)
{
    std::ostream& out = cli.out;
    std::ostream& err = cli.err;
    std::string output;
    std::vector<std::string> inputs;
    bool help = false;
    try {
        ArgumentReader in(args, {kMergeOptions}, &cli.verbosity);
        while (in.next()) {
            const std::string& a = in.current();
            if (!in.isOption()) {
                inputs.push_back(a);
            } else if (a == "-h" || a == "--help") {
                help = true;
            } else {  // -o, --output
                output = in.value();
            }
        }
        if (help) {
            printReportUsage(out);
            return kExitOk;
        }
        if (output.empty()) {
            throw UsageError("no merged report given (-o REPORT.json)");
        }
        if (inputs.empty()) {
            throw UsageError("no report to merge given");
        }
        FileRoles roles;
        for (const std::string& report : inputs) {
            roles.reads(report, "a report to merge");
        }
        if (output != "-") {
            roles.writes(output, "the merged report (-o)");
        }
        roles.check();
        if (output != "-") {
            files::checkOutputFile(output, files::Streams::Write);
        }
    } catch (const UsageError& e) {
        err << "tessera-cli batch-report merge: " << e.what() << "\n\n";
        printReportUsage(err);
        return kExitUsage;
    } catch (const FilesOverlap& e) {
        err << "tessera-cli batch-report merge: " << e.what() << "\nNothing was written.\n";
        return kExitUsage;
    } catch (const files::OutputFileError& e) {
        err << "tessera-cli batch-report merge: " << e.what() << "\nNothing was written.\n";
        return kExitFailure;
    }

    MergedReport merged;
    try {
        std::vector<ReportText> reports;
        for (const std::string& path : inputs) {
            reports.push_back({path, readReportFile(path)});
        }
        merged = mergeReports(reports);
    } catch (const ReportsDisagree& e) {
        err << "tessera-cli batch-report merge: " << e.what() << "\nNothing was written.\n";
        return kExitUsage;
    } catch (const ReportUnreadable& e) {
        err << "tessera-cli batch-report merge: " << e.what() << "\nNothing was written.\n";
        return kExitFailure;
    }
    if (output == "-") {
        out << merged.json << std::flush;
    } else {
        files::writeOutputFile(output, merged.json);
    }
    // Standard output holds the report alone when it is the output.
    std::ostream& said = output == "-" ? err : out;
    if (!cli.quiet()) {
        said << inputs.size() << " report(s) merged into " << (output == "-" ? "standard output" : output) << ": "
             << merged.total << " file(s), " << merged.ok << " written, " << merged.skipped << " skipped, "
             << merged.failed << " failed, " << merged.cancelled << " cancelled, " << merged.missing << " missing\n";
    }
    return merged.failed == 0 && merged.cancelled == 0 && merged.missing == 0 ? kExitOk : kExitFailure;
}

}  // namespace

std::span<const OptionSpec> mergeOptions()
{
    return kMergeOptions;
}

int runBatchReport(const std::vector<std::string>& args, CliContext& cli)
{
    // The global options may come before the sub-command as before any other.
    std::size_t first = 0;
    while (first < args.size() && applyGlobalOption(args[first], cli.verbosity)) {
        ++first;
    }
    if (first == args.size()) {
        cli.err << "tessera-cli batch-report: give a sub-command (merge)\n\n";
        printReportUsage(cli.err);
        return kExitUsage;
    }
    const std::string& sub = args[first];
    if (sub == "-h" || sub == "--help" || sub == "help") {
        printReportUsage(cli.out);
        return kExitOk;
    }
    if (sub == "merge") {
        return runMerge(std::vector<std::string>(args.begin() + static_cast<long>(first) + 1, args.end()), cli);
    }
    cli.err << "tessera-cli batch-report: unknown sub-command '" << sub << "'\n\n";
    printReportUsage(cli.err);
    return kExitUsage;
}

}  // namespace tessera::app
