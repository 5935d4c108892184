// SPDX-License-Identifier: Apache-2.0
#include "app/io/exif_block.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <utility>

namespace tessera::app {
namespace {

constexpr std::size_t kEntryBytes = 12;

struct NamedTag {
    std::uint16_t tag;
    std::string_view name;
};

// Tags that describe how a TIFF file stores its own pixels or that carry, inside IFD0, a part
// the output writes on its own (ICC, XMP, IPTC).
constexpr std::array<NamedTag, 28> kStructureTags{{
    {254, "NewSubfileType"},
    {255, "SubfileType"},
    {256, "ImageWidth"},
    {257, "ImageLength"},
    {258, "BitsPerSample"},
    {259, "Compression"},
    {262, "PhotometricInterpretation"},
    {266, "FillOrder"},
    {273, "StripOffsets"},
    {277, "SamplesPerPixel"},
    {278, "RowsPerStrip"},
    {279, "StripByteCounts"},
    {284, "PlanarConfiguration"},
    {317, "Predictor"},
    {322, "TileWidth"},
    {323, "TileLength"},
    {324, "TileOffsets"},
    {325, "TileByteCounts"},
    {330, "SubIFDs"},
    {338, "ExtraSamples"},
    {339, "SampleFormat"},
    {347, "JPEGTables"},
    {512, "JPEGProc"},
    {513, "JPEGInterchangeFormat"},
    {514, "JPEGInterchangeFormatLength"},
    {700, "XMLPacket (XMP)"},
    {33723, "IPTC-NAA"},
    {34675, "InterColorProfile (ICC)"},
}};

void put16(std::string& b, std::size_t at, bool be, std::uint16_t v)
{
    b[at + (be ? 0 : 1)] = static_cast<char>(v >> 8);
    b[at + (be ? 1 : 0)] = static_cast<char>(v & 0xff);
}

void put32(std::string& b, std::size_t at, bool be, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i) {
        const auto byte = static_cast<char>((v >> (8 * i)) & 0xff);
        b[at + (be ? 3 - i : i)] = byte;
    }
}

/// Overwrites entry with one value of type (SHORT or LONG) held inside the entry.
void setInline(std::string& b, bool be, const ExifEntry& e, ExifType type, std::uint32_t value)
{
    put16(b, e.at + 2, be, static_cast<std::uint16_t>(type));
    put32(b, e.at + 4, be, 1);
    put32(b, e.at + 8, be, 0);
    if (type == ExifType::Short) {
        put16(b, e.at + 8, be, static_cast<std::uint16_t>(value));
    } else {
        put32(b, e.at + 8, be, value);
    }
}

/// Appends a copy of ifd holding the entries for which keep() is true, word-aligned and not
/// before offset after, with next as its next-IFD offset. Entries are copied verbatim: their
/// value offsets still point at the value bytes, which do not move. Returns the copy's offset,
/// or nullopt when the block would pass 4 GiB.
template <typename Keep>
std::optional<std::uint32_t> appendIfd(std::string& b, bool be, const ExifIfd& ifd, Keep keep, std::uint32_t next,
                                       std::size_t after)
{
    std::vector<const ExifEntry*> kept;
    for (const ExifEntry& e : ifd.entries) {
        if (keep(e)) {
            kept.push_back(&e);
        }
    }
    const std::size_t from = std::max(b.size(), after);
    const std::size_t start = from + (from % 2);
    const std::size_t end = start + 2 + kept.size() * kEntryBytes + 4;
    if (end > std::numeric_limits<std::uint32_t>::max()) {
        return std::nullopt;
    }
    b.resize(end, '\0');
    put16(b, start, be, static_cast<std::uint16_t>(kept.size()));
    std::size_t at = start + 2;
    for (const ExifEntry* e : kept) {
        std::memcpy(b.data() + at, b.data() + e->at, kEntryBytes);
        at += kEntryBytes;
    }
    put32(b, at, be, next);
    return static_cast<std::uint32_t>(start);
}

using Range = std::pair<std::size_t, std::size_t>;

// The bytes an IFD occupies: its entries and the values held outside them.
void addRanges(const ExifIfd& ifd, std::vector<Range>& out)
{
    out.emplace_back(ifd.at, std::size_t{ifd.at} + 2 + ifd.entries.size() * kEntryBytes + 4);
    for (const ExifEntry& e : ifd.entries) {
        if (e.valueAt && e.valueBytes > 4) {
            out.emplace_back(*e.valueAt, *e.valueAt + static_cast<std::size_t>(e.valueBytes));
        }
    }
}

bool overlapsAny(const Range& r, const std::vector<Range>& ranges)
{
    return std::any_of(ranges.begin(), ranges.end(),
                       [&](const Range& k) { return r.first < k.second && k.first < r.second; });
}

// Takes the bytes of an unlinked IFD1 and its thumbnail out of the block, so that a picture of
// the source does not travel on unreferenced: cut off when they lie behind every byte the kept
// IFDs reference (where cameras put them), blanked otherwise. A range that overlaps kept bytes
// is left alone.
void removeThumbnailBytes(std::string& b, const ExifReader& reader, std::uint32_t ifd1At, std::vector<Range> kept)
{
    std::string why;
    const std::optional<ExifIfd> ifd1 = reader.ifd(ifd1At, why);
    if (!ifd1) {
        return;
    }
    std::vector<Range> gone;
    addRanges(*ifd1, gone);
    const ExifEntry* offset = ifd1->find(exif_tag::kJpegInterchangeFormat);
    const ExifEntry* length = ifd1->find(exif_tag::kJpegInterchangeFormatLength);
    if (offset != nullptr && length != nullptr) {
        const std::optional<std::uint32_t> at = reader.integer(*offset);
        const std::optional<std::uint32_t> n = reader.integer(*length);
        if (at && n && *at >= 8 && std::uint64_t{*at} + *n <= b.size()) {
            gone.emplace_back(*at, std::size_t{*at} + *n);
        }
    }
    kept.emplace_back(0, 8);
    std::erase_if(gone, [&](const Range& r) { return overlapsAny(r, kept); });
    if (gone.empty()) {
        return;
    }
    std::size_t keptEnd = 0;
    for (const Range& r : kept) {
        keptEnd = std::max(keptEnd, r.second);
    }
    std::size_t goneStart = b.size();
    for (const Range& r : gone) {
        goneStart = std::min(goneStart, r.first);
    }
    if (goneStart >= keptEnd) {
        b.resize(goneStart);
        return;
    }
    for (const Range& r : gone) {
        // An IFD1 that ends with the block has no next-IFD offset: its range passes the end.
        const std::size_t end = std::min(r.second, b.size());
        std::fill(b.begin() + static_cast<std::ptrdiff_t>(r.first), b.begin() + static_cast<std::ptrdiff_t>(end), '\0');
    }
}

std::string tagList(const std::vector<std::string_view>& names)
{
    std::string out;
    for (const std::string_view n : names) {
        out += (out.empty() ? "" : ", ");
        out += n;
    }
    return out;
}

}  // namespace

std::size_t exifTypeSize(std::uint16_t type)
{
    switch (type) {
    case 1:
    case 2:
    case 6:
    case 7: return 1;
    case 3:
    case 8: return 2;
    case 4:
    case 9:
    case 11:
    case 13: return 4;
    case 5:
    case 10:
    case 12: return 8;
    default: return 0;
    }
}

std::string_view tiffStructureTagName(std::uint16_t tag)
{
    for (const NamedTag& t : kStructureTags) {
        if (t.tag == tag) {
            return t.name;
        }
    }
    return {};
}

const ExifEntry* ExifIfd::find(std::uint16_t tag) const
{
    for (const ExifEntry& e : entries) {
        if (e.tag == tag) {
            return &e;
        }
    }
    return nullptr;
}

ExifReader::ExifReader(std::string_view block) : block_(block)
{
    if (block.size() < 8) {
        error_ = "a TIFF header needs 8 bytes, the block has " + std::to_string(block.size());
        return;
    }
    if (block.substr(0, 4) == std::string_view("II*\0", 4)) {
        bigEndian_ = false;
    } else if (block.substr(0, 4) == std::string_view("MM\0*", 4)) {
        bigEndian_ = true;
    } else {
        error_ = "no TIFF header (II*\\0 or MM\\0*)";
        return;
    }
    ifd0_ = get32(4);
}

std::uint16_t ExifReader::get16(std::size_t at) const
{
    const auto b0 = static_cast<unsigned char>(block_[at]);
    const auto b1 = static_cast<unsigned char>(block_[at + 1]);
    return static_cast<std::uint16_t>(bigEndian_ ? (b0 << 8) | b1 : (b1 << 8) | b0);
}

std::uint32_t ExifReader::get32(std::size_t at) const
{
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
        const auto byte = static_cast<unsigned char>(block_[at + static_cast<std::size_t>(bigEndian_ ? i : 3 - i)]);
        v = (v << 8) | byte;
    }
    return v;
}

std::optional<ExifIfd> ExifReader::ifd(std::uint32_t offset, std::string& why) const
{
    const std::size_t size = block_.size();
    if (!ok()) {
        why = error_;
        return std::nullopt;
    }
    if (offset < 8) {
        why = "IFD offset " + std::to_string(offset) + " points into the header";
        return std::nullopt;
    }
    if (std::size_t{offset} + 2 > size) {
        why = "IFD offset " + std::to_string(offset) + " lies past the end of the " + std::to_string(size) +
              "-byte block";
        return std::nullopt;
    }
    const std::size_t n = get16(offset);
    const std::size_t entriesEnd = std::size_t{offset} + 2 + n * kEntryBytes;
    if (entriesEnd > size) {
        why = "IFD at " + std::to_string(offset) + " holds " + std::to_string(n) +
              " entries, which run past the end of the " + std::to_string(size) + "-byte block";
        return std::nullopt;
    }
    ExifIfd out;
    out.at = offset;
    out.entries.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        ExifEntry e;
        e.at = std::size_t{offset} + 2 + i * kEntryBytes;
        e.tag = get16(e.at);
        e.type = get16(e.at + 2);
        e.count = get32(e.at + 4);
        e.valueBytes = std::uint64_t{e.count} * exifTypeSize(e.type);
        if (e.valueBytes > 0 && e.valueBytes <= 4) {
            e.valueAt = e.at + 8;
        } else if (e.valueBytes > 4) {
            const std::uint64_t at = get32(e.at + 8);
            if (at >= 8 && at + e.valueBytes <= size) {
                e.valueAt = static_cast<std::size_t>(at);
            }
        }
        out.entries.push_back(e);
    }
    out.hasNextField = entriesEnd + 4 <= size;
    out.next = out.hasNextField ? get32(entriesEnd) : 0;
    return out;
}

std::optional<std::uint32_t> ExifReader::integer(const ExifEntry& entry, std::uint32_t index) const
{
    if (!entry.valueAt || index >= entry.count) {
        return std::nullopt;
    }
    const std::size_t at = *entry.valueAt + std::size_t{index} * exifTypeSize(entry.type);
    switch (entry.type) {
    case 1: return static_cast<unsigned char>(block_[at]);
    case 3: return get16(at);
    case 4:
    case 13: return get32(at);
    default: return std::nullopt;
    }
}

int exifOrientation(std::string_view exifBlock)
{
    const ExifReader reader(exifBlock);
    std::string why;
    const std::optional<ExifIfd> ifd0 = reader.ifd(reader.ifd0Offset(), why);
    if (!ifd0) {
        return 0;
    }
    const ExifEntry* e = ifd0->find(exif_tag::kOrientation);
    if (e == nullptr || (e->type != static_cast<std::uint16_t>(ExifType::Short) && e->type != 4)) {
        return 0;
    }
    const std::optional<std::uint32_t> v = reader.integer(*e);
    return v && *v >= 1 && *v <= 8 ? static_cast<int>(*v) : 0;
}

/// What stays of IFD0: the tags to drop (structure tags when asked, pointers to sub-IFDs that
/// do not parse, point back at an IFD already read or overlap another), the sub-IFDs kept and
/// the Exif sub-IFD among them. Each sub-IFD left out gets a note.
struct Ifd0Plan {
    std::vector<std::uint16_t> dropTags;
    std::vector<std::string_view> structureNames;
    std::optional<ExifIfd> exifIfd;
    std::vector<ExifIfd> keptSubs;
};

Ifd0Plan planIfd0(const ExifReader& reader, const ExifIfd& ifd0, const ExifEdit& edit, std::vector<std::string>& notes)
{
    Ifd0Plan plan;
    std::vector<std::uint16_t>& dropTags = plan.dropTags;
    std::vector<std::string_view>& structureNames = plan.structureNames;
    std::optional<ExifIfd>& exifIfd = plan.exifIfd;
    std::vector<ExifIfd>& keptSubs = plan.keptSubs;
    std::vector<std::uint32_t> seen{ifd0.at};
    std::string why;
    for (const ExifEntry& e : ifd0.entries) {
        if (edit.dropStructureTags) {
            if (const std::string_view name = tiffStructureTagName(e.tag); !name.empty()) {
                dropTags.push_back(e.tag);
                if (std::find(structureNames.begin(), structureNames.end(), name) == structureNames.end()) {
                    structureNames.push_back(name);
                }
                continue;
            }
        }
        if (e.tag != exif_tag::kExifIfd && e.tag != exif_tag::kGpsIfd) {
            continue;
        }
        const char* what = e.tag == exif_tag::kExifIfd ? "the Exif sub-IFD" : "the GPS sub-IFD";
        const std::optional<std::uint32_t> offset =
            e.count == 1 && (e.type == 4 || e.type == 13) ? reader.integer(e) : std::nullopt;
        std::optional<ExifIfd> sub;
        if (!offset) {
            why = "its pointer is not one LONG";
        } else if (std::find(seen.begin(), seen.end(), *offset) != seen.end()) {
            why = "it points at an IFD already read";
        } else if ((sub = reader.ifd(*offset, why))) {
            // IFDs that share bytes would see each other's patches: such a sub-IFD is not used.
            std::vector<Range> structures;
            structures.emplace_back(ifd0.at, std::size_t{ifd0.at} + 2 + ifd0.entries.size() * kEntryBytes + 4);
            for (const ExifIfd& k : keptSubs) {
                structures.emplace_back(k.at, std::size_t{k.at} + 2 + k.entries.size() * kEntryBytes + 4);
            }
            if (overlapsAny({sub->at, std::size_t{sub->at} + 2 + sub->entries.size() * kEntryBytes + 4}, structures)) {
                why = "it overlaps another IFD";
                sub.reset();
            }
        }
        if (!sub) {
            dropTags.push_back(e.tag);
            notes.push_back(std::string("EXIF: ") + what + " does not parse (" + why + "); left out");
            continue;
        }
        seen.push_back(*offset);
        keptSubs.push_back(*sub);
        if (e.tag == exif_tag::kExifIfd && !exifIfd) {
            exifIfd = std::move(sub);
        }
    }
    return plan;
}

/// PixelXDimension and PixelYDimension of the Exif sub-IFD set to the new size, where they are
/// one SHORT or LONG (a SHORT too small becomes a LONG); otherwise a note.
void setPixelDimensions(std::string& b, bool be, const ExifIfd& exifIfd, const ExifEdit& edit,
                        std::vector<std::string>& notes)
{
    const std::pair<std::uint16_t, std::uint32_t> dims[] = {{exif_tag::kPixelXDimension, edit.pixelWidth},
                                                            {exif_tag::kPixelYDimension, edit.pixelHeight}};
    for (const auto& [tag, value] : dims) {
        const ExifEntry* e = exifIfd.find(tag);
        if (e == nullptr || value == 0) {
            continue;
        }
        const char* name = tag == exif_tag::kPixelXDimension ? "PixelXDimension" : "PixelYDimension";
        if (e->count != 1 || (e->type != 3 && e->type != 4)) {
            notes.push_back(std::string("EXIF: ") + name + " is not one SHORT or LONG and cannot hold " +
                            std::to_string(value) + "; left as it was");
            continue;
        }
        // A SHORT too small for the value becomes a LONG: one value of either fits in the
        // entry, so nothing else moves.
        setInline(b, be, *e, value <= 0xffff && e->type == 3 ? ExifType::Short : ExifType::Long, value);
    }
}

ExifEdited editExif(std::string_view exifBlock, const ExifEdit& edit)
{
    ExifEdited out;
    const ExifReader reader(exifBlock);
    std::string why;
    const std::optional<ExifIfd> ifd0 = reader.ifd(reader.ifd0Offset(), why);
    if (!ifd0) {
        out.notes.push_back("EXIF: does not parse (" + why + "); left out");
        return out;
    }
    const bool be = reader.bigEndian();
    std::string b(exifBlock);
    const Ifd0Plan plan = planIfd0(reader, *ifd0, edit, out.notes);
    const std::vector<std::uint16_t>& dropTags = plan.dropTags;
    const std::vector<std::string_view>& structureNames = plan.structureNames;
    const std::optional<ExifIfd>& exifIfd = plan.exifIfd;
    const std::vector<ExifIfd>& keptSubs = plan.keptSubs;
    if (!structureNames.empty()) {
        out.notes.push_back("EXIF: TIFF structure tags left out: " + tagList(structureNames));
    }

    if (edit.orientation) {
        if (const ExifEntry* e = ifd0->find(exif_tag::kOrientation)) {
            setInline(b, be, *e, ExifType::Short, *edit.orientation);
        }
    }
    if (exifIfd) {
        setPixelDimensions(b, be, *exifIfd, edit, out.notes);
    }

    const bool unlinkThumbnail = edit.dropThumbnail && ifd0->next != 0;
    if (unlinkThumbnail) {
        out.notes.push_back("EXIF: thumbnail (IFD1) left out");
    }
    // An IFD that ends with the block lacks its next-IFD offset; a copy appended right behind it
    // would become that offset. The copy goes behind the place it would have.
    std::size_t structuresEnd = std::size_t{ifd0->at} + 2 + ifd0->entries.size() * kEntryBytes + 4;
    for (const ExifIfd& k : keptSubs) {
        structuresEnd = std::max(structuresEnd, std::size_t{k.at} + 2 + k.entries.size() * kEntryBytes + 4);
    }
    if (unlinkThumbnail) {
        std::vector<Range> kept;
        addRanges(*ifd0, kept);
        for (const ExifIfd& sub : keptSubs) {
            addRanges(sub, kept);
        }
        if (exifIfd) {
            if (const ExifEntry* interop = exifIfd->find(exif_tag::kInteropIfd)) {
                const std::optional<std::uint32_t> at = interop->count == 1 ? reader.integer(*interop) : std::nullopt;
                if (const std::optional<ExifIfd> ifd = at ? reader.ifd(*at, why) : std::nullopt) {
                    addRanges(*ifd, kept);
                }
            }
        }
        removeThumbnailBytes(b, reader, ifd0->next, std::move(kept));
    }
    if (!dropTags.empty()) {
        // Copy IFD0 (with the edits above, which are inside its entries) to the end of the block
        // without the dropped tags, and point the header at the copy.
        const auto keep = [&](const ExifEntry& e) {
            return std::find(dropTags.begin(), dropTags.end(), e.tag) == dropTags.end();
        };
        const std::optional<std::uint32_t> at =
            appendIfd(b, be, *ifd0, keep, unlinkThumbnail ? 0 : ifd0->next, structuresEnd);
        if (!at) {
            out.notes.push_back("EXIF: the block would pass 4 GiB once edited; left out");
            return out;
        }
        put32(b, 4, be, *at);
    } else if (unlinkThumbnail) {
        put32(b, ifd0->at + 2 + ifd0->entries.size() * kEntryBytes, be, 0);
    }
    out.block = std::move(b);
    return out;
}

}  // namespace tessera::app
