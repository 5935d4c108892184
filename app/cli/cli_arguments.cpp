// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cli_arguments.h"

#include "values/log.h"

#include <array>

namespace tessera::app {

namespace {

constexpr std::array kGlobalOptions{
    OptionSpec{"--verbose", "-v"},
    OptionSpec{"--quiet", "-q"},
};

}  // namespace

std::span<const OptionSpec> globalOptions()
{
    return kGlobalOptions;
}

bool applyGlobalOption(std::string_view argument, Verbosity& verbosity)
{
    if (argument == "-v" || argument == "--verbose") {
        verbosity = Verbosity::Verbose;
        values::setExtraLogCategories(values::kAllLogCategories);
        return true;
    }
    if (argument == "-q" || argument == "--quiet") {
        verbosity = Verbosity::Quiet;
        values::setExtraLogCategories(0);
        return true;
    }
    return false;
}

ArgumentReader::ArgumentReader(const std::vector<std::string>& args, std::vector<std::span<const OptionSpec>> tables,
                               Verbosity* verbosity)
    : args_(args), tables_(std::move(tables)), verbosity_(verbosity)
{
    tables_.push_back(globalOptions());
}

const OptionSpec* ArgumentReader::find(std::string_view name) const
{
    for (const auto& table : tables_) {
        for (const OptionSpec& spec : table) {
            if (spec.name == name || (!spec.shortName.empty() && spec.shortName == name)) {
                return &spec;
            }
        }
    }
    return nullptr;
}

bool ArgumentReader::next()
{
    while (true) {
        index_ = started_ ? index_ + 1 : 0;
        started_ = true;
        if (!optionsEnded_ && index_ < args_.size() && args_[index_] == "--") {
            optionsEnded_ = true;
            ++index_;
        }
        option_ = nullptr;
        inline_.reset();
        if (index_ >= args_.size()) {
            return false;
        }
        const std::string& a = args_[index_];
        current_ = a;
        if (optionsEnded_ || a.size() < 2 || a.front() != '-') {
            return true;  // positional ("-" alone is standard input or output)
        }
        // Only a long option carries its value after '=': "-o=x" is no option of any table.
        if (const auto eq = a.find('='); a.starts_with("--") && eq != std::string::npos) {
            current_ = a.substr(0, eq);
            inline_ = a.substr(eq + 1);
        }
        option_ = find(current_);
        if (option_ == nullptr) {
            unknownOption();
        }
        if (inline_ && option_->value == ValueKind::None) {
            throw UsageError(current_ + " takes no value (got '" + a + "')");
        }
        Verbosity ignored = Verbosity::Normal;
        if (applyGlobalOption(current_, verbosity_ != nullptr ? *verbosity_ : ignored)) {
            continue;
        }
        return true;
    }
}

std::string ArgumentReader::value()
{
    if (inline_) {
        std::string text = std::move(*inline_);
        inline_.reset();
        return text;
    }
    if (index_ + 1 >= args_.size()) {
        throw UsageError(current_ + " needs a value");
    }
    return args_[++index_];
}

void ArgumentReader::unknownOption() const
{
    throw UsageError("unknown option '" + current_ + "'");
}

}  // namespace tessera::app
