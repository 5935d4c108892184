// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <initializer_list>
#include <istream>
#include <map>
#include <optional>

namespace tessera::app {

/// Reads n bytes at offset of in (clearing its state first); false when in holds fewer. Never
/// throws.
bool readAt(std::istream& in, std::uint64_t offset, unsigned char* out, std::size_t n);

/// A field of a TIFF directory: its type code and its first value, read for SHORT (3) and LONG
/// (4) fields, inline or at the offset the entry gives; nothing for other types or a value that
/// cannot be read.
struct TiffField {
    std::uint32_t type = 0;
    std::optional<std::uint32_t> first;
};

/// The fields among `tags` in a classic TIFF's first directory (a tag that is absent is absent
/// from the map), or nothing when in does not hold a classic TIFF header and a first directory
/// it can read (BigTIFF included). Reads from the start of in; never throws.
std::optional<std::map<std::uint16_t, TiffField>> tiffFirstFields(std::istream& in,
                                                                  std::initializer_list<std::uint16_t> tags);

/// SamplesPerPixel of a classic TIFF's first image (tag 277; 1 when the tag is absent, as the
/// format says), or nothing when in does not hold a TIFF header and first IFD it can read
/// (BigTIFF included). Reads from the start of in; never throws.
std::optional<int> tiffSamplesPerPixel(std::istream& in);

}  // namespace tessera::app
