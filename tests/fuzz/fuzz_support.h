// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace tessera::fuzz {

/// A folder of this process's own under /dev/shm (or the temporary folder), removed at exit.
inline const std::filesystem::path& scratchDir()
{
    static const std::filesystem::path dir = [] {
        namespace fs = std::filesystem;
        std::error_code ec;
        const fs::path base = fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
        const fs::path d = base / ("tessera-fuzz-" + std::to_string(::getpid()));
        fs::create_directories(d);
        std::atexit([] {
            std::error_code e;
            fs::remove_all(scratchDir(), e);
        });
        return d;
    }();
    return dir;
}

/// Writes the fuzz input to name inside scratchDir() and returns its path.
inline std::string writeScratch(const std::string& name, const std::uint8_t* data, std::size_t size)
{
    const std::string path = (scratchDir() / name).string();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return path;
}

/// Splits the input at NUL bytes into strings (an argument list, fields of a record).
inline std::vector<std::string> splitAtNul(const std::uint8_t* data, std::size_t size)
{
    std::vector<std::string> parts(1);
    for (std::size_t i = 0; i < size; ++i) {
        if (data[i] == 0) {
            parts.emplace_back();
        } else {
            parts.back() += static_cast<char>(data[i]);
        }
    }
    return parts;
}

}  // namespace tessera::fuzz
