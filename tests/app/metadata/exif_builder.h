// SPDX-License-Identifier: Apache-2.0
#pragma once

// Builds EXIF blocks byte by byte for the tests: IFD0, an Exif sub-IFD and IFD1 with a
// thumbnail, laid out one after the other with each IFD's long values behind it, in either
// byte order.

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::app::test {

struct RawEntry {
    std::uint16_t tag;
    std::uint16_t type;
    std::uint32_t count;
    std::string value;  ///< the value bytes in the block's byte order
};

class ExifBuilder {
public:
    explicit ExifBuilder(bool bigEndian = false) : be_(bigEndian) {}

    std::string u16(std::uint32_t v) const
    {
        std::string s(2, '\0');
        s[be_ ? 0 : 1] = static_cast<char>((v >> 8) & 0xff);
        s[be_ ? 1 : 0] = static_cast<char>(v & 0xff);
        return s;
    }
    std::string u32(std::uint32_t v) const
    {
        std::string s(4, '\0');
        for (int i = 0; i < 4; ++i) {
            s[static_cast<std::size_t>(be_ ? 3 - i : i)] = static_cast<char>((v >> (8 * i)) & 0xff);
        }
        return s;
    }
    RawEntry shortEntry(std::uint16_t tag, std::uint32_t v) const { return {tag, 3, 1, u16(v)}; }
    RawEntry longEntry(std::uint16_t tag, std::uint32_t v) const { return {tag, 4, 1, u32(v)}; }
    static RawEntry asciiEntry(std::uint16_t tag, const std::string& text)
    {
        return {tag, 2, static_cast<std::uint32_t>(text.size() + 1), text + std::string(1, '\0')};
    }
    static RawEntry undefinedEntry(std::uint16_t tag, const std::string& bytes)
    {
        return {tag, 7, static_cast<std::uint32_t>(bytes.size()), bytes};
    }

    std::vector<RawEntry> ifd0;
    std::vector<RawEntry> exif;  ///< when not empty, IFD0 gets an ExifIFD pointer to it
    std::vector<RawEntry> ifd1;  ///< when not empty or thumbnail is set, IFD0 links to it
    std::string thumbnail;       ///< IFD1 gets JPEGInterchangeFormat(Length) entries for it

    std::string build() const
    {
        std::vector<RawEntry> first = ifd0;
        std::vector<RawEntry> second = ifd1;
        const bool hasExif = !exif.empty();
        const bool hasIfd1 = !ifd1.empty() || !thumbnail.empty();
        if (hasExif) {
            first.push_back(longEntry(34665, 0));
        }
        if (!thumbnail.empty()) {
            second.push_back(longEntry(513, 0));
            second.push_back(longEntry(514, static_cast<std::uint32_t>(thumbnail.size())));
        }
        const std::size_t at0 = 8;
        const std::size_t atExif = at0 + size(first);
        const std::size_t at1 = atExif + (hasExif ? size(exif) : 0);
        const std::size_t atThumb = at1 + (hasIfd1 ? size(second) : 0);
        if (hasExif) {
            first.back().value = u32(static_cast<std::uint32_t>(atExif));
        }
        if (!thumbnail.empty()) {
            second[second.size() - 2].value = u32(static_cast<std::uint32_t>(atThumb));
        }
        std::string out = be_ ? std::string("MM\0*", 4) : std::string("II*\0", 4);
        out += u32(static_cast<std::uint32_t>(at0));
        write(out, first, hasIfd1 ? at1 : 0);
        if (hasExif) {
            write(out, exif, 0);
        }
        if (hasIfd1) {
            write(out, second, 0);
        }
        out += thumbnail;
        return out;
    }

private:
    static std::size_t size(const std::vector<RawEntry>& entries)
    {
        std::size_t n = 2 + 12 * entries.size() + 4;
        for (const RawEntry& e : entries) {
            if (e.value.size() > 4) {
                n += e.value.size() + e.value.size() % 2;
            }
        }
        return n;
    }

    void write(std::string& out, const std::vector<RawEntry>& entries, std::size_t next) const
    {
        const std::size_t start = out.size();
        std::size_t data = start + 2 + 12 * entries.size() + 4;
        std::string values;
        out += u16(static_cast<std::uint32_t>(entries.size()));
        for (const RawEntry& e : entries) {
            out += u16(e.tag) + u16(e.type) + u32(e.count);
            if (e.value.size() <= 4) {
                out += e.value + std::string(4 - e.value.size(), '\0');
            } else {
                out += u32(static_cast<std::uint32_t>(data + values.size()));
                values += e.value;
                if (values.size() % 2 != 0) {
                    values += '\0';
                }
            }
        }
        out += u32(static_cast<std::uint32_t>(next));
        out += values;
    }

    bool be_;
};

}  // namespace tessera::app::test
