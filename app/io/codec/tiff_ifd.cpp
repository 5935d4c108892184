// SPDX-License-Identifier: Apache-2.0
#include "app/io/codec/tiff_ifd.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace tessera::app::codec::tiff {

namespace {

constexpr std::uint32_t kMaxEntries = 1024;

std::uint32_t getU(std::span<const std::uint8_t> b, std::size_t at, std::size_t n, bool bigEndian)
{
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint8_t byte = bigEndian ? b[at + i] : b[at + n - 1 - i];
        v = v << 8 | byte;
    }
    return v;
}

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

}  // namespace

std::size_t typeSize(std::uint16_t type)
{
    switch (type) {
    case 1: case 2: case 6: case 7: return 1;
    case 3: case 8: return 2;
    case 4: case 9: case 11: case 13: return 4;
    case 5: case 10: case 12: return 8;
    default: return 0;
    }
}

bool readHeader(std::span<const std::uint8_t> bytes, bool& bigEndian, std::uint32_t& firstIfd)
{
    if (bytes.size() < 8) {
        return false;
    }
    if (bytes[0] == 'I' && bytes[1] == 'I') {
        bigEndian = false;
    } else if (bytes[0] == 'M' && bytes[1] == 'M') {
        bigEndian = true;
    } else {
        return false;
    }
    if (getU(bytes, 2, 2, bigEndian) != 42) {
        return false;
    }
    firstIfd = getU(bytes, 4, 4, bigEndian);
    return true;
}

std::optional<std::vector<RawEntry>> readIfd(std::span<const std::uint8_t> bytes, bool bigEndian, std::uint32_t offset)
{
    if (offset < 8 || std::uint64_t(offset) + 2 > bytes.size()) {
        return std::nullopt;
    }
    const std::uint32_t count = getU(bytes, offset, 2, bigEndian);
    if (count > kMaxEntries || std::uint64_t(offset) + 2 + 12ull * count > bytes.size()) {
        return std::nullopt;
    }
    std::vector<RawEntry> entries;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::size_t at = offset + 2 + 12 * std::size_t(i);
        RawEntry e;
        e.tag = static_cast<std::uint16_t>(getU(bytes, at, 2, bigEndian));
        e.type = static_cast<std::uint16_t>(getU(bytes, at + 2, 2, bigEndian));
        e.count = getU(bytes, at + 4, 4, bigEndian);
        const std::size_t size = typeSize(e.type);
        if (size == 0 || e.count > std::numeric_limits<std::uint32_t>::max() / size) {
            continue;
        }
        const std::uint64_t total = std::uint64_t(size) * e.count;
        std::uint64_t from = at + 8;
        if (total > 4) {
            from = getU(bytes, at + 8, 4, bigEndian);
            if (from + total > bytes.size()) {
                continue;
            }
        }
        e.value.assign(reinterpret_cast<const char*>(bytes.data() + from), static_cast<std::size_t>(total));
        entries.push_back(std::move(e));
    }
    return entries;
}

std::optional<std::uint32_t> firstNumber(const RawEntry& entry, bool bigEndian)
{
    const std::span<const std::uint8_t> v(reinterpret_cast<const std::uint8_t*>(entry.value.data()), entry.value.size());
    if ((entry.type == 4 || entry.type == 13) && v.size() >= 4) {
        return getU(v, 0, 4, bigEndian);
    }
    if (entry.type == 3 && v.size() >= 2) {
        return getU(v, 0, 2, bigEndian);
    }
    return std::nullopt;
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
    std::stable_sort(entries.begin(), entries.end(), [](const RawEntry& a, const RawEntry& b) { return a.tag < b.tag; });
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
        if (e.tag != kExifIfdTag && e.tag != kGpsIfdTag) {
            first.push_back(e);
        }
    }
    for (const auto& [tag, entries] : {std::pair{kExifIfdTag, &exif}, std::pair{kGpsIfdTag, &gps}}) {
        if (!entries->empty()) {
            first.push_back({tag, 4, 1, std::string(4, '\0')});
        }
    }
    std::vector<std::pair<std::uint16_t, std::size_t>> pointers;
    appendIfd(out, bigEndian, first, &pointers);
    for (const auto& [tag, at] : pointers) {
        const std::vector<RawEntry>* sub = tag == kExifIfdTag ? &exif : tag == kGpsIfdTag ? &gps : nullptr;
        if (sub != nullptr) {
            std::vector<RawEntry> kept;
            for (const RawEntry& e : *sub) {
                if (e.tag != kInteropIfdTag) {  // a pointer into the source file
                    kept.push_back(e);
                }
            }
            putU32(out, at, appendIfd(out, bigEndian, kept), bigEndian);
        }
    }
    return std::string(out.begin(), out.end());
}

}  // namespace tessera::app::codec::tiff
