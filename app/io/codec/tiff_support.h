// SPDX-License-Identifier: Apache-2.0
#pragma once

// libtiff over memory with per-handle error handlers: what the TIFF reader and writer share.
// Private to the codecs.

#include "app/io/codec/codec.h"

#include <tiffio.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tessera::app::codec::tiff {

/// What libtiff said on one handle: the first error is kept for the message, warnings go to
/// ioDiagnostic().
struct Handlers {
    std::string firstError;
    /// Throws CodecError: "corrupt TIFF data: <libtiff's first error>" or, without one, what.
    [[noreturn]] void fail(const std::string& what) const;
};

/// A file being read from memory.
struct MemoryFile {
    std::span<const std::uint8_t> bytes;
    std::uint64_t position = 0;
};

/// A file being written to memory.
struct MemorySink {
    std::vector<std::uint8_t> bytes;
    std::uint64_t position = 0;
};

struct Closer {
    void operator()(TIFF* tif) const { TIFFClose(tif); }
};
using Handle = std::unique_ptr<TIFF, Closer>;

/// Opens file for reading; throws CodecError when libtiff cannot read its header or first
/// directory.
Handle openForReading(MemoryFile& file, Handlers& handlers);
/// Opens sink for writing a classic TIFF; throws CodecError when libtiff refuses.
Handle openForWriting(MemorySink& sink, Handlers& handlers);

}  // namespace tessera::app::codec::tiff
