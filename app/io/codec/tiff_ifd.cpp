// SPDX-License-Identifier: Apache-2.0
#include "app/io/codec/tiff_ifd.h"

#include "app/io/exif_block.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace tessera::app::codec::tiff {

namespace {

using exif_tag::kExifIfd;
using exif_tag::kGpsIfd;
using exif_tag::kInteropIfd;

void putU16(std::vector<std::uint8_t>& out, std::uint16_t v, bool bigEndian)
{
    if (bigEndian) {
        out.push_back(static_cast<std::uint8_t>(v >> 8));
        out.push_back(static_cast<std::uint8_t>(v));
    } else {
        out.push_back(static_cast<std::uint8_t>(v));
        out.push_back(static_cast<std::uint8_t>(v >> 8));
    }
}

void pushU32(std::vector<std::uint8_t>& out, std::uint32_t v, bool bigEndian)
{
    out.resize(out.size() + 4);
    putU32(out, out.size() - 4, v, bigEndian);
}

std::vector<RawEntry> copyEntries(const ExifReader& reader, const ExifIfd& ifd)
{
    const std::string_view bytes = reader.bytes();
    std::vector<RawEntry> out;
    out.reserve(ifd.entries.size());
    for (const ExifEntry& e : ifd.entries) {
        if (exifTypeSize(e.type) == 0 || (e.valueBytes > 0 && !e.valueAt)) {
            continue;  // a type whose size is unknown, or a value outside the bytes
        }
        RawEntry raw{e.tag, e.type, e.count, {}};
        if (e.valueAt) {
            raw.value.assign(bytes.substr(*e.valueAt, static_cast<std::size_t>(e.valueBytes)));
        }
        out.push_back(std::move(raw));
    }
    return out;
}

}  // namespace

std::optional<Directories> readDirectories(std::span<const std::uint8_t> bytes)
{
    const ExifReader reader(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    std::string why;
    const std::optional<ExifIfd> ifd0 = reader.ifd(reader.ifd0Offset(), why);
    if (!ifd0) {
        return std::nullopt;
    }
    Directories out;
    out.bigEndian = reader.bigEndian();
    out.ifd0 = copyEntries(reader, *ifd0);
    for (const ExifEntry& e : ifd0->entries) {
        if (e.tag != kExifIfd && e.tag != kGpsIfd) {
            continue;
        }
        if (const std::optional<std::uint32_t> at = reader.integer(e)) {
            if (const std::optional<ExifIfd> sub = reader.ifd(*at, why)) {
                (e.tag == kExifIfd ? out.exif : out.gps) = copyEntries(reader, *sub);
            }
        }
    }
    return out;
}

void putU32(std::vector<std::uint8_t>& out, std::size_t at, std::uint32_t v, bool bigEndian)
{
    for (std::size_t i = 0; i < 4; ++i) {
        const int shift = bigEndian ? 24 - 8 * int(i) : 8 * int(i);
        out[at + i] = static_cast<std::uint8_t>(v >> shift);
    }
}

std::uint32_t appendIfd(std::vector<std::uint8_t>& out, bool bigEndian, std::vector<RawEntry> entries,
                        std::vector<std::pair<std::uint16_t, std::size_t>>* pointers)
{
    std::stable_sort(entries.begin(), entries.end(),
                     [](const RawEntry& a, const RawEntry& b) { return a.tag < b.tag; });
    if (out.size() % 2 != 0) {
        out.push_back(0);
    }
    std::size_t values = 0;
    for (const RawEntry& e : entries) {
        values += e.value.size() > 4 ? e.value.size() + 1 : 0;
    }
    if (out.size() + 6 + 12 * entries.size() + values > std::numeric_limits<std::uint32_t>::max()) {
        throw std::length_error("a TIFF directory past 4 GB");
    }
    const auto offset = static_cast<std::uint32_t>(out.size());
    putU16(out, static_cast<std::uint16_t>(entries.size()), bigEndian);
    const std::size_t table = out.size();
    out.resize(out.size() + 12 * entries.size());
    pushU32(out, 0, bigEndian);  // no next directory
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const RawEntry& e = entries[i];
        std::vector<std::uint8_t> head;
        putU16(head, e.tag, bigEndian);
        putU16(head, e.type, bigEndian);
        std::copy(head.begin(), head.end(), out.begin() + static_cast<std::ptrdiff_t>(table + 12 * i));
        putU32(out, table + 12 * i + 4, e.count, bigEndian);
        const std::size_t valueAt = table + 12 * i + 8;
        if (e.value.size() <= 4) {
            std::fill_n(out.begin() + static_cast<std::ptrdiff_t>(valueAt), 4, 0);
            std::copy(e.value.begin(), e.value.end(), out.begin() + static_cast<std::ptrdiff_t>(valueAt));
        } else {
            if (out.size() % 2 != 0) {
                out.push_back(0);
            }
            putU32(out, valueAt, static_cast<std::uint32_t>(out.size()), bigEndian);
            out.insert(out.end(), e.value.begin(), e.value.end());
        }
        if (pointers != nullptr) {
            pointers->emplace_back(e.tag, valueAt);
        }
    }
    return offset;
}

std::string buildExifBlock(bool bigEndian, const std::vector<RawEntry>& ifd0, const std::vector<RawEntry>& exif,
                           const std::vector<RawEntry>& gps)
{
    std::vector<std::uint8_t> out = bigEndian ? std::vector<std::uint8_t>{'M', 'M', 0, 42, 0, 0, 0, 8}
                                              : std::vector<std::uint8_t>{'I', 'I', 42, 0, 8, 0, 0, 0};
    std::vector<RawEntry> first;
    for (const RawEntry& e : ifd0) {
        if (e.tag != kExifIfd && e.tag != kGpsIfd) {
            first.push_back(e);
        }
    }
    for (const auto& [tag, entries] : {std::pair{kExifIfd, &exif}, std::pair{kGpsIfd, &gps}}) {
        if (!entries->empty()) {
            first.push_back({tag, 4, 1, std::string(4, '\0')});
        }
    }
    std::vector<std::pair<std::uint16_t, std::size_t>> pointers;
    appendIfd(out, bigEndian, first, &pointers);
    for (const auto& [tag, at] : pointers) {
        const std::vector<RawEntry>* sub = tag == kExifIfd ? &exif : tag == kGpsIfd ? &gps : nullptr;
        if (sub != nullptr) {
            std::vector<RawEntry> kept;
            for (const RawEntry& e : *sub) {
                if (e.tag != kInteropIfd) {  // a pointer into the source file
                    kept.push_back(e);
                }
            }
            putU32(out, at, appendIfd(out, bigEndian, kept), bigEndian);
        }
    }
    return std::string(out.begin(), out.end());
}

}  // namespace tessera::app::codec::tiff
