// SPDX-License-Identifier: Apache-2.0
#pragma once

// A small walker and patcher of EXIF blocks (TIFF-structured: "II*\0" or "MM\0*", then IFDs), of
// Tessera's own. It edits in place: a value is overwritten where it lies, and an IFD that must
// lose entries is written anew at the end of the block with the header (or the pointer that led
// to it) moved onto the copy. No other byte moves (a dropped thumbnail aside, which is cut off
// the end or blanked), so every offset in the block, those inside maker notes included, stays
// valid, and there is no limit on the block's size beyond the 32-bit
// offsets of the format. Every read is bounds-checked; the walker follows no chain of its own
// accord, so a block whose offsets loop cannot make it loop.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::app {

/// The tags the patcher knows by name.
namespace exif_tag {
inline constexpr std::uint16_t kOrientation = 274;
inline constexpr std::uint16_t kExifIfd = 34665;
inline constexpr std::uint16_t kGpsIfd = 34853;
inline constexpr std::uint16_t kInteropIfd = 40965;
inline constexpr std::uint16_t kPixelXDimension = 40962;
inline constexpr std::uint16_t kPixelYDimension = 40963;
inline constexpr std::uint16_t kJpegInterchangeFormat = 513;
inline constexpr std::uint16_t kJpegInterchangeFormatLength = 514;
}  // namespace exif_tag

/// TIFF field types (1..13); any other code is unknown and its value size cannot be told.
enum class ExifType : std::uint16_t {
    Byte = 1,
    Ascii = 2,
    Short = 3,
    Long = 4,
    Rational = 5,
    SByte = 6,
    Undefined = 7,
    SShort = 8,
    SLong = 9,
    SRational = 10,
    Float = 11,
    Double = 12,
    Ifd = 13,
};

/// The size in bytes of one value of type code type; 0 for an unknown code.
std::size_t exifTypeSize(std::uint16_t type);

/// The name of a tag that structures a TIFF file (StripOffsets, ...), or empty when tag is not
/// one of them. Such tags describe the pixels of the file they came from and never belong in the
/// EXIF of another file.
std::string_view tiffStructureTagName(std::uint16_t tag);

/// One 12-byte IFD entry as the block holds it.
struct ExifEntry {
    std::uint16_t tag = 0;
    std::uint16_t type = 0;
    std::uint32_t count = 0;
    std::size_t at = 0;  ///< offset of the entry itself in the block
    /// Offset of the value bytes (inside the entry when they fit in 4 bytes); nullopt when the
    /// type is unknown or the value runs past the end of the block.
    std::optional<std::size_t> valueAt;
    std::uint64_t valueBytes = 0;  ///< count times the type's size (0 for an unknown type)
};

/// One IFD: its entries in order and the offset of the next IFD (0 for none).
struct ExifIfd {
    std::uint32_t at = 0;
    std::vector<ExifEntry> entries;
    std::uint32_t next = 0;
    bool hasNextField = false;  ///< false when the block ends before the next-IFD offset

    /// The first entry with tag, or null.
    const ExifEntry* find(std::uint16_t tag) const;
};

/// A read-only view of an EXIF block. Never throws; holds a view, so the bytes must outlive it.
class ExifReader {
public:
    explicit ExifReader(std::string_view block);

    /// False when the header is not a TIFF header; error() says why.
    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    bool bigEndian() const { return bigEndian_; }
    std::uint32_t ifd0Offset() const { return ifd0_; }
    std::string_view bytes() const { return block_; }

    /// The IFD at offset; nullopt with why set when it does not lie inside the block (an entry
    /// count of 65535 in a small block, an offset into the header or past the end).
    std::optional<ExifIfd> ifd(std::uint32_t offset, std::string& why) const;
    /// Value number index of entry as an unsigned integer (BYTE, SHORT, LONG or IFD types);
    /// nullopt for other types, an index past the count or a value outside the block.
    std::optional<std::uint32_t> integer(const ExifEntry& entry, std::uint32_t index = 0) const;

    std::uint16_t get16(std::size_t at) const;
    std::uint32_t get32(std::size_t at) const;

private:
    std::string_view block_;
    std::string error_;
    bool bigEndian_ = false;
    std::uint32_t ifd0_ = 0;
};

/// The orientation (1..8) in IFD0 of an EXIF block; 0 when the block does not parse, has no
/// Orientation entry or holds a value outside 1..8. Never throws.
int exifOrientation(std::string_view exifBlock);

/// What editExif() changes.
struct ExifEdit {
    std::optional<std::uint16_t> orientation;  ///< set Orientation to this when present
    std::uint32_t pixelWidth = 0;              ///< PixelXDimension, where present (0: leave)
    std::uint32_t pixelHeight = 0;             ///< PixelYDimension, where present (0: leave)
    bool dropThumbnail = true;                 ///< unlink IFD1 (the thumbnail) from IFD0
    bool dropStructureTags = true;             ///< leave TIFF structure tags out of IFD0
};

/// An edited EXIF block and what the edit left out or could not do, one note each, e.g.
/// "EXIF: thumbnail (IFD1) left out".
struct ExifEdited {
    std::string block;  ///< empty when the whole block was left out (then a note says why)
    std::vector<std::string> notes;
};

/// The block with edit applied. A block whose header or IFD0 does not parse is left out with a
/// note; a sub-IFD (Exif, GPS) that does not parse is unlinked with a note, the rest kept. Bytes
/// that nothing references any more (an IFD0 that was rewritten) stay in
/// the block, except those of the thumbnail: IFD1 and the JPEG it points at are cut off the end
/// of the block when nothing kept lies behind them, and blanked otherwise. Never throws except
/// std::bad_alloc.
ExifEdited editExif(std::string_view exifBlock, const ExifEdit& edit);

}  // namespace tessera::app
