// SPDX-License-Identifier: Apache-2.0
#pragma once

// An ICC profile that readers accept for tests: the header fields they check (size, version,
// display class, colour and connection spaces, the "acsp" signature, the D50 illuminant), an
// empty tag table, then filler that differs from byte to byte so a misplaced piece shows.

#include <cstddef>
#include <cstdint>
#include <string>

namespace tessera::test {

inline std::string fakeIccProfile(std::size_t size = 512, const char* colourSpace = "RGB ")
{
    std::string icc(size < 160 ? 160 : size, '\0');
    auto put32 = [&](std::size_t at, std::uint32_t v) {
        for (int i = 0; i < 4; ++i) {
            icc[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (24 - 8 * i)) & 0xff);
        }
    };
    put32(0, static_cast<std::uint32_t>(icc.size()));
    put32(8, 0x02100000);
    icc.replace(12, 4, "mntr");
    icc.replace(16, 4, colourSpace);
    icc.replace(20, 4, "XYZ ");
    icc.replace(36, 4, "acsp");
    put32(68, 0x0000F6D6);
    put32(72, 0x00010000);
    put32(76, 0x0000D32D);
    for (std::size_t i = 132; i < icc.size(); ++i) {  // after the (empty) tag table at 128
        icc[i] = static_cast<char>(i * 7 + 3);
    }
    return icc;
}

}  // namespace tessera::test
