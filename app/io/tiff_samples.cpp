// SPDX-License-Identifier: Apache-2.0
#include "app/io/tiff_samples.h"

#include <algorithm>
#include <array>

namespace tessera::app {

bool readAt(std::istream& in, std::uint64_t offset, unsigned char* out, std::size_t n)
{
    in.clear();
    in.seekg(static_cast<std::streamoff>(offset));
    return static_cast<bool>(in.read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(n)));
}

std::optional<std::map<std::uint16_t, TiffField>> tiffFirstFields(std::istream& in,
                                                                  std::initializer_list<std::uint16_t> tags)
{
    std::array<unsigned char, 8> head{};
    if (!readAt(in, 0, head.data(), head.size())) {
        return std::nullopt;
    }
    const bool little = head[0] == 'I' && head[1] == 'I';
    if (!little && !(head[0] == 'M' && head[1] == 'M')) {
        return std::nullopt;
    }
    const auto u16 = [little](const unsigned char* p) {
        return static_cast<std::uint32_t>(little ? p[0] | (p[1] << 8) : (p[0] << 8) | p[1]);
    };
    const auto u32 = [little](const unsigned char* p) {
        return little ? std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
                            std::uint32_t(p[3]) << 24
                      : std::uint32_t(p[3]) | std::uint32_t(p[2]) << 8 | std::uint32_t(p[1]) << 16 |
                            std::uint32_t(p[0]) << 24;
    };
    if (u16(head.data() + 2) != 42) {
        return std::nullopt;  // BigTIFF (43) or not a TIFF
    }
    const std::uint32_t ifd = u32(head.data() + 4);
    std::array<unsigned char, 2> countBytes{};
    if (!readAt(in, ifd, countBytes.data(), countBytes.size())) {
        return std::nullopt;
    }
    // The first value: inline when all values fit in the entry's four bytes, else at its offset.
    const auto first = [&](const unsigned char* entry) -> std::optional<std::uint32_t> {
        const std::uint32_t type = u16(entry + 2);
        if (type != 3 && type != 4) {
            return std::nullopt;
        }
        const std::uint32_t size = type == 3 ? 2 : 4;
        const unsigned char* at = entry + 8;
        std::array<unsigned char, 4> value{};
        if (static_cast<std::uint64_t>(u32(entry + 4)) * size > 4) {
            if (!readAt(in, u32(entry + 8), value.data(), size)) {
                return std::nullopt;
            }
            at = value.data();
        }
        return type == 3 ? u16(at) : u32(at);
    };
    std::map<std::uint16_t, TiffField> fields;
    const std::uint32_t count = u16(countBytes.data());
    for (std::uint32_t i = 0; i < count; ++i) {
        std::array<unsigned char, 12> entry{};
        if (!readAt(in, ifd + 2 + 12ULL * i, entry.data(), entry.size())) {
            return std::nullopt;
        }
        const auto tag = static_cast<std::uint16_t>(u16(entry.data()));
        if (std::find(tags.begin(), tags.end(), tag) != tags.end()) {
            fields[tag] = TiffField{u16(entry.data() + 2), first(entry.data())};
        }
    }
    return fields;
}

std::optional<int> tiffSamplesPerPixel(std::istream& in)
{
    constexpr std::uint16_t kSamplesPerPixel = 277;
    const auto fields = tiffFirstFields(in, {kSamplesPerPixel});
    if (!fields) {
        return std::nullopt;
    }
    const auto it = fields->find(kSamplesPerPixel);
    if (it == fields->end()) {
        return 1;
    }
    if (!it->second.first) {
        return std::nullopt;
    }
    return static_cast<int>(std::min<std::uint32_t>(*it->second.first, 65535));
}

}  // namespace tessera::app
