// SPDX-License-Identifier: Apache-2.0
#include "files/file_kind.h"

#include <sys/stat.h>

namespace tessera::files {

std::string specialFileKind(mode_t mode)
{
    if (S_ISFIFO(mode)) {
        return "a FIFO";
    }
    if (S_ISCHR(mode)) {
        return "a character device";
    }
    if (S_ISBLK(mode)) {
        return "a block device";
    }
    if (S_ISSOCK(mode)) {
        return "a socket";
    }
    if (S_ISLNK(mode)) {
        return "a symbolic link";
    }
    return "a special file";
}

}  // namespace tessera::files
