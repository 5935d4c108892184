// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_job.h"

#include <stdexcept>

namespace tessera::app {

std::string toString(OverwritePolicy policy)
{
    switch (policy) {
    case OverwritePolicy::Skip: return "skip";
    case OverwritePolicy::Rename: return "rename";
    case OverwritePolicy::Overwrite: return "overwrite";
    }
    return "skip";
}

OverwritePolicy parseOverwritePolicy(const std::string& text)
{
    for (OverwritePolicy p : {OverwritePolicy::Skip, OverwritePolicy::Rename, OverwritePolicy::Overwrite}) {
        if (text == toString(p)) {
            return p;
        }
    }
    throw std::invalid_argument("unknown overwrite policy '" + text + "' (use skip, rename or overwrite)");
}

std::string toString(FileStatus status)
{
    switch (status) {
    case FileStatus::Ok: return "ok";
    case FileStatus::Skipped: return "skipped";
    case FileStatus::Failed: return "failed";
    case FileStatus::Cancelled: return "cancelled";
    }
    return "failed";
}

}  // namespace tessera::app
