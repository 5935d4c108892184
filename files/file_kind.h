// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <sys/types.h>

#include <string>

namespace tessera::files {

/// What a file that is not a regular file or a directory is, for messages: "a FIFO", "a
/// character device", "a block device", "a socket", "a symbolic link" or "a special file".
/// Never throws but for bad_alloc.
std::string specialFileKind(mode_t mode);

}  // namespace tessera::files
