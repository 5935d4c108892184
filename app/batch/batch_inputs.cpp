// SPDX-License-Identifier: Apache-2.0
#include "app/batch/batch_inputs.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <set>
#include <string_view>

#include <glob.h>

namespace tessera::app {
namespace fs = std::filesystem;

namespace {

bool isPattern(const std::string& text)
{
    return text.find_first_of("*?[") != std::string::npos;
}

bool hidden(const fs::path& path)
{
    const std::string name = path.filename().string();
    return !name.empty() && name.front() == '.';
}

// Lexically normal absolute form, so "a/./b.png" and "a/b.png" count as one input.
std::string normalPath(const fs::path& path)
{
    std::error_code ec;
    const fs::path absolute = fs::absolute(path, ec);
    return (ec ? path : absolute).lexically_normal().string();
}

class Collector {
public:
    Collector(bool recursive, const std::string& excludeDir) : recursive_(recursive), excludeGiven_(excludeDir)
    {
        if (!excludeDir.empty()) {
            fs::path normal = fs::path(normalPath(excludeDir));
            if (!normal.has_filename() && normal.has_parent_path()) {
                normal = normal.parent_path();  // "out/" names the folder "out"
            }
            exclude_ = normal.string();
        }
    }

    void add(const std::string& path, const std::string& error = {})
    {
        const std::string key = error.empty() ? normalPath(path) : path;
        if (!error.empty() || seen_.insert(key).second) {
            inputs_.push_back({path, error, {}});
        }
    }

    void addFolder(const fs::path& folder)
    {
        std::vector<fs::path> entries;
        std::error_code ec;
        for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
            entries.push_back(it->path());
        }
        if (ec) {
            add(folder.string(), folder.string() + ": cannot list the folder: " + ec.message());
            return;
        }
        std::sort(entries.begin(), entries.end());
        for (const fs::path& entry : entries) {
            if (hidden(entry)) {
                continue;
            }
            std::error_code statError;
            const bool directory = fs::is_directory(entry, statError);
            if (directory && recursive_) {
                // The output folder inside an input folder holds earlier results, not inputs.
                if (!isExcluded(entry)) {
                    addFolder(entry);
                }
            } else if (hasImageExtension(entry.string())) {
                // A folder named like an image is kept: reading it then says what it is.
                add(entry.string());
            } else if (!directory && fs::exists(entry, statError)) {
                std::string ext = entry.extension().string();
                inputs_.push_back({entry.string(),
                                   {},
                                   entry.string() + ": not read: " +
                                       (ext.empty() ? std::string("no file name extension")
                                                    : "'" + ext + "' is not a format Tessera reads") +
                                       " (it reads png, jpg, tif, bmp, webp, exr, pnm and hdr)"});
            }
        }
    }

    void addSpec(const std::string& spec)
    {
        if (isPattern(spec) && !fs::exists(spec)) {
            glob_t matches{};
            const int rc = ::glob(spec.c_str(), 0, nullptr, &matches);
            if (rc != 0 || matches.gl_pathc == 0) {
                ::globfree(&matches);
                add(spec, spec + ": no file matches this pattern");
                return;
            }
            std::vector<std::string> paths(matches.gl_pathv, matches.gl_pathv + matches.gl_pathc);
            ::globfree(&matches);
            for (const std::string& path : paths) {  // glob() sorts them
                std::error_code ec;
                if (fs::is_directory(path, ec) && !hasImageExtension(path)) {
                    addFolder(path);
                } else {
                    add(path);
                }
            }
            return;
        }
        std::error_code ec;
        const fs::file_status status = fs::status(spec, ec);
        if (status.type() == fs::file_type::not_found) {
            add(spec, spec + ": file not found");
        } else if (fs::is_directory(status) && !hasImageExtension(spec)) {
            addFolder(spec);
        } else {
            add(spec);
        }
    }

    std::vector<BatchInput> take() { return std::move(inputs_); }

private:
    // The output folder however it was spelt: "out/", "./out", through a link, or the same inode.
    bool isExcluded(const fs::path& folder) const
    {
        if (exclude_.empty()) {
            return false;
        }
        if (normalPath(folder) == exclude_) {
            return true;
        }
        std::error_code ec;
        return fs::equivalent(folder, excludeGiven_, ec) && !ec;
    }

    bool recursive_;
    std::string excludeGiven_;
    std::string exclude_;
    std::set<std::string> seen_;
    std::vector<BatchInput> inputs_;
};

}  // namespace

bool hasImageExtension(const std::string& path)
{
    static constexpr std::array<std::string_view, 15> extensions{".png",  ".jpg", ".jpeg", ".jpe",  ".tif",
                                                                 ".tiff", ".bmp", ".dib",  ".webp", ".exr",
                                                                 ".pbm",  ".pgm", ".ppm",  ".pnm",  ".hdr"};
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return std::find(extensions.begin(), extensions.end(), ext) != extensions.end();
}

std::vector<BatchInput> expandInputs(const std::vector<std::string>& specs, bool recursive,
                                     const std::string& excludeDir)
{
    Collector collector(recursive, excludeDir);
    for (const std::string& spec : specs) {
        collector.addSpec(spec);
    }
    return collector.take();
}

}  // namespace tessera::app
