// SPDX-License-Identifier: Apache-2.0
#include "app/io/data_dirs.h"

#include "app/build_config.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <string_view>
#include <system_error>

namespace tessera::app {

namespace fs = std::filesystem;

fs::path dataDirFor(const fs::path& exe, const fs::path& fallback)
{
    // <prefix>/bin/tessera -> <prefix>/share/tessera
    const fs::path installed = exe.parent_path().parent_path() / "share" / "tessera";
    std::error_code ec;
    if (!exe.empty() && fs::is_directory(installed, ec)) {
        return installed.lexically_normal();
    }
    return fallback;
}

fs::path dataDir()
{
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return dataDirFor(ec ? fs::path() : exe, fs::path(TESSERA_SOURCE_RESOURCES));
}

fs::path samplesDir()
{
    return dataDir() / "samples";
}

fs::path presetsDir()
{
    return dataDir() / "presets";
}

std::vector<fs::path> manualIndexCandidatesFor(const fs::path& exe)
{
    std::vector<fs::path> places;
    if (exe.empty()) {
        return places;
    }
    // <build>/app/tessera or <prefix>/bin/tessera -> <build> or <prefix>
    const fs::path top = exe.parent_path().parent_path();
    std::error_code ec;
    if (fs::is_regular_file(top / "CMakeCache.txt", ec)) {
        places.push_back((top / "docs" / "manual" / "index.html").lexically_normal());
    }
    places.push_back((top / "share" / "tessera" / "manual" / "index.html").lexically_normal());
    return places;
}

std::vector<fs::path> manualIndexCandidates()
{
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return manualIndexCandidatesFor(ec ? fs::path() : exe);
}

std::vector<fs::path> imageFilesIn(const fs::path& dir)
{
    static constexpr std::array<std::string_view, 8> kImageExtensions{".png",  ".jpg", ".jpeg", ".tif",
                                                                      ".tiff", ".bmp", ".webp", ".exr"};
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec)) {
            continue;
        }
        std::string ext = it->path().extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (std::find(kImageExtensions.begin(), kImageExtensions.end(), ext) != kImageExtensions.end()) {
            files.push_back(it->path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace tessera::app
