// SPDX-License-Identifier: Apache-2.0
#pragma once

// Directories of a classic TIFF copied as raw entries: how the TIFF codec carries EXIF between a
// TIFF file (whose IFD0 and EXIF and GPS sub-IFDs sit among the pixels' strips) and the
// TIFF-structured EXIF block every other part of Tessera passes around. Private to the codecs.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tessera::app::codec::tiff {

inline constexpr std::uint16_t kExifIfdTag = 34665;
inline constexpr std::uint16_t kGpsIfdTag = 34853;
inline constexpr std::uint16_t kInteropIfdTag = 40965;

/// One directory entry with its value bytes as stored (in the block's byte order).
struct RawEntry {
    std::uint16_t tag = 0;
    std::uint16_t type = 0;
    std::uint32_t count = 0;
    std::string value;  ///< count x the type's size bytes
};

/// Bytes per value of TIFF field type `type` (1..13); 0 for types the format does not define.
std::size_t typeSize(std::uint16_t type);

/// Whether bytes start with a classic TIFF header; sets bigEndian and the first IFD's offset.
bool readHeader(std::span<const std::uint8_t> bytes, bool& bigEndian, std::uint32_t& firstIfd);

/// The entries of the directory at offset, every value read from within bytes (entries of an
/// unknown type, or whose value lies outside bytes, are left out); nothing when the directory
/// itself does not fit. At most 1024 entries are read. Never throws but for bad_alloc.
std::optional<std::vector<RawEntry>> readIfd(std::span<const std::uint8_t> bytes, bool bigEndian,
                                            std::uint32_t offset);

/// The first LONG (or SHORT) value of entry, as a number; nothing for other types.
std::optional<std::uint32_t> firstNumber(const RawEntry& entry, bool bigEndian);

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
