// SPDX-License-Identifier: Apache-2.0
#include "app/cli/cli_arguments.h"

namespace tessera::app {

bool ArgumentReader::next()
{
    index_ = started_ ? index_ + 1 : 0;
    started_ = true;
    if (!optionsEnded_ && index_ < args_.size() && args_[index_] == "--") {
        optionsEnded_ = true;
        ++index_;
    }
    return index_ < args_.size();
}

bool ArgumentReader::isOption() const
{
    const std::string& a = current();
    return !optionsEnded_ && a.size() > 1 && a.front() == '-';
}

const std::string& ArgumentReader::value()
{
    if (index_ + 1 >= args_.size()) {
        throw UsageError(current() + " needs a value");
    }
    return args_[++index_];
}

void ArgumentReader::unknownOption() const
{
    throw UsageError("unknown option '" + current() + "'");
}

}  // namespace tessera::app
