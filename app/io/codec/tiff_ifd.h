// SPDX-License-Identifier: Apache-2.0
#pragma once

// Directories of a classic TIFF copied as raw entries: how the TIFF codec carries EXIF between a
// TIFF file (whose IFD0 and EXIF and GPS sub-IFDs sit among the pixels' strips) and the
// TIFF-structured EXIF block every other part of Tessera passes around. Reading goes through
// exif_block's walker (one bounds-checked reader of IFDs for the whole program); this file adds
// the copy into entries that own their bytes and the writer of new directories. Private to the
// codecs.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tessera::app::codec::tiff {

/// One directory entry with its value bytes as stored (in the block's byte order).
struct RawEntry {
    std::uint16_t tag = 0;
    std::uint16_t type = 0;
    std::uint32_t count = 0;
    std::string value;  ///< count x the type's size bytes
};

/// IFD0 of a TIFF file or EXIF block and the EXIF and GPS directories it points at.
struct Directories {
    bool bigEndian = false;
    std::vector<RawEntry> ifd0;  ///< every entry of IFD0, the two pointers included
    std::vector<RawEntry> exif;
    std::vector<RawEntry> gps;
};

/// The directories of bytes, each entry's value copied from within bytes (entries of an unknown
/// type, or whose value lies outside bytes, are left out; so is a sub-directory that does not
/// fit). Nothing when bytes has no classic TIFF header or IFD0 does not fit. Never throws but
/// for bad_alloc.
std::optional<Directories> readDirectories(std::span<const std::uint8_t> bytes);

/// Appends a directory of entries (sorted by tag here) to out, word-aligned, its values after
/// it, offsets counted from out's start; the next-directory offset is 0. Returns the directory's
/// offset and, for each entry whose tag is in `pointers`, where its 4-byte value lies in out, so
/// that a sub-directory's offset can be patched in. Throws std::length_error past 4 GB.
std::uint32_t appendIfd(std::vector<std::uint8_t>& out, bool bigEndian, std::vector<RawEntry> entries,
                        std::vector<std::pair<std::uint16_t, std::size_t>>* pointers = nullptr);

/// Writes value as a 4-byte number at out[at]. Never throws.
void putU32(std::vector<std::uint8_t>& out, std::size_t at, std::uint32_t value, bool bigEndian);

/// A TIFF-structured EXIF block: IFD0 with ifd0's entries and, when given, pointers to an EXIF
/// and a GPS sub-directory holding exif's and gps's entries.
std::string buildExifBlock(bool bigEndian, const std::vector<RawEntry>& ifd0, const std::vector<RawEntry>& exif,
                           const std::vector<RawEntry>& gps);

}  // namespace tessera::app::codec::tiff
