// SPDX-License-Identifier: Apache-2.0
#include "app/io/tiff_samples.h"

#include <array>
#include <cstdint>

namespace tessera::app {

std::optional<int> tiffSamplesPerPixel(std::istream& in)
{
    in.clear();
    in.seekg(0);
    std::array<unsigned char, 8> head{};
    if (!in.read(reinterpret_cast<char*>(head.data()), head.size())) {
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
    in.seekg(u32(head.data() + 4));
    std::array<unsigned char, 2> countBytes{};
    if (!in.read(reinterpret_cast<char*>(countBytes.data()), countBytes.size())) {
        return std::nullopt;
    }
    const std::uint32_t count = u16(countBytes.data());
    for (std::uint32_t i = 0; i < count; ++i) {
        std::array<unsigned char, 12> entry{};
        if (!in.read(reinterpret_cast<char*>(entry.data()), entry.size())) {
            return std::nullopt;
        }
        if (u16(entry.data()) != 277) {
            continue;
        }
        const std::uint32_t type = u16(entry.data() + 2);
        if (type == 3) {  // SHORT, stored in the first two bytes of the value
            return static_cast<int>(u16(entry.data() + 8));
        }
        if (type == 4) {  // LONG
            const std::uint32_t v = u32(entry.data() + 8);
            return v > 65535 ? 65535 : static_cast<int>(v);
        }
        return std::nullopt;
    }
    return 1;
}

}  // namespace tessera::app
