// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "app/io/image_io.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#include <unistd.h>
#include <sys/wait.h>

#include <cstdlib>

namespace tessera::test {

namespace fs = std::filesystem;

/// A folder that removes itself: "tessera-batch-<tag>-<random>" in the temporary folder.
class TempFolder {
public:
    explicit TempFolder(const std::string& tag)
        : path_(fs::temp_directory_path() / ("tessera-batch-" + tag + "-" + std::to_string(std::random_device{}())))
    {
        fs::create_directories(path_);
    }
    ~TempFolder()
    {
        std::error_code ec;
        // Give back any permission a test took away so that everything can be removed.
        for (fs::recursive_directory_iterator it(path_, ec), end; !ec && it != end; it.increment(ec)) {
            fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
        }
        fs::remove_all(path_, ec);
    }
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    const fs::path& path() const { return path_; }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

inline std::string readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeBytes(const fs::path& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary) << bytes;
}

/// True when the process can read files without read permission (root), where chmod tests say nothing.
inline bool permissionsIgnored()
{
    return ::geteuid() == 0;
}

/// Sets or clears a folder's immutable attribute, which stops even root from creating files in
/// it. False where the file system or the process cannot (then nothing changed).
inline bool setImmutable(const fs::path& dir, bool on)
{
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd < 0) {
        return false;
    }
    int flags = 0;
    bool ok = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
    if (ok) {
        flags = on ? (flags | FS_IMMUTABLE_FL) : (flags & ~FS_IMMUTABLE_FL);
        ok = ::ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
    }
    ::close(fd);
    return ok;
}

/// A folder nobody may write to for the guard's life: permission bits for a normal user, the
/// immutable attribute for root. ok() is false where neither can be had.
class ReadOnlyFolder {
public:
    explicit ReadOnlyFolder(const fs::path& dir) : dir_(dir)
    {
        if (permissionsIgnored()) {
            immutable_ = setImmutable(dir_, true);
            ok_ = immutable_;
        } else {
            fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
            ok_ = true;
        }
    }
    ~ReadOnlyFolder()
    {
        if (immutable_) {
            setImmutable(dir_, false);
        } else if (ok_) {
            fs::permissions(dir_, fs::perms::owner_all);
        }
    }
    ReadOnlyFolder(const ReadOnlyFolder&) = delete;
    ReadOnlyFolder& operator=(const ReadOnlyFolder&) = delete;
    bool ok() const { return ok_; }

private:
    fs::path dir_;
    bool ok_ = false;
    bool immutable_ = false;
};

/// CRC-32 as PNG chunks carry it (bitwise; the files are tiny).
inline std::uint32_t pngCrc(const std::string& bytes)
{
    std::uint32_t crc = 0xFFFFFFFFu;
    for (unsigned char b : bytes) {
        crc ^= b;
        for (int k = 0; k < 8; ++k) {
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
        }
    }
    return ~crc;
}

/// A PNG whose header claims width x height (8-bit gray) with a tiny body: refused from the header.
inline std::string pngClaiming(std::uint32_t width, std::uint32_t height)
{
    auto be = [](std::uint32_t v) {
        return std::string{static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
                           static_cast<char>(v)};
    };
    auto chunk = [&](const std::string& type, const std::string& data) {
        const std::string body = type + data;
        return be(static_cast<std::uint32_t>(data.size())) + body + be(pngCrc(body));
    };
    const std::string ihdr = be(width) + be(height) + std::string{8, 0, 0, 0, 0};
    return std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) + chunk("IEND", "");
}

/// Random pixels of a type: the full range for integers, [-2, 2] for float.
inline cv::Mat randomImage(std::mt19937& rng, int rows, int cols, int type)
{
    cv::Mat img(rows, cols, type);
    cv::RNG cvRng(rng());
    if (CV_MAT_DEPTH(type) == CV_32F) {
        cvRng.fill(img, cv::RNG::UNIFORM, -2.0, 2.0);
    } else {
        cvRng.fill(img, cv::RNG::UNIFORM, 0, CV_MAT_DEPTH(type) == CV_8U ? 256 : 65536);
    }
    return img;
}

/// The inputs made by makeMixedFolder().
struct MixedFolder {
    std::vector<std::string> good;              ///< decodable images
    std::map<std::string, std::string> bad;     ///< path -> a word the failure reason must hold
    std::map<std::string, std::string> hashes;  ///< every input file's bytes, to see they are untouched
};

/// Fills folder with at least `count` good images of mixed formats (png, tif, jpg, bmp), depths
/// (u8, u16, f32 where the format holds them), channel counts and odd sizes, and the broken
/// inputs a batch must survive: truncated PNG, empty file, text named .jpg, a folder named .png,
/// a PNG header claiming 100000 x 100000, and an unreadable file unless permissions are ignored.
inline MixedFolder makeMixedFolder(const fs::path& folder, std::uint32_t seed, int count = 32)
{
    std::mt19937 rng(seed);
    struct Kind {
        const char* ext;
        int depth;
        int channels;
    };
    const std::vector<Kind> kinds{{"png", CV_8U, 1}, {"png", CV_8U, 3},  {"png", CV_16U, 4}, {"png", CV_16U, 1},
                                  {"tif", CV_8U, 3}, {"tif", CV_16U, 3}, {"tif", CV_32F, 1}, {"tif", CV_32F, 4},
                                  {"jpg", CV_8U, 3}, {"jpg", CV_8U, 1},  {"bmp", CV_8U, 3},  {"bmp", CV_8U, 1},
                                  {"png", CV_8U, 4}, {"tif", CV_32F, 3}, {"tif", CV_16U, 1}, {"webp", CV_8U, 3}};
    MixedFolder made;
    std::uniform_int_distribution<int> side(3, 47);
    for (int i = 0; i < count; ++i) {
        const Kind& k = kinds[static_cast<size_t>(i) % kinds.size()];
        const std::string path = (folder / ("img" + std::to_string(100 + i) + "." + k.ext)).string();
        app::writeImage(path, randomImage(rng, side(rng) | 1, side(rng), CV_MAKETYPE(k.depth, k.channels)));
        made.good.push_back(path);
    }
    std::vector<uchar> png;
    cv::imencode(".png", randomImage(rng, 64, 64, CV_8UC3), png);
    const auto add = [&](const std::string& name, const std::string& bytes, const std::string& reason) {
        writeBytes(folder / name, bytes);
        made.bad[(folder / name).string()] = reason;
    };
    add("truncated.png", std::string(png.begin(), png.begin() + static_cast<long>(png.size() * 6 / 10)), "PNG");
    add("empty.png", "", "empty");
    add("notes.jpg", "These are notes, not a picture.\n", "not an image");
    add("huge.png", pngClaiming(100000, 100000), "100000 x 100000");
    fs::create_directory(folder / "folder.png");
    made.bad[(folder / "folder.png").string()] = "directory";
    if (!permissionsIgnored()) {
        add("locked.png", std::string(png.begin(), png.end()), "permission");
        fs::permissions(folder / "locked.png", fs::perms::none);
    }
    for (const auto& entry : fs::directory_iterator(folder)) {
        if (entry.is_regular_file()) {
            made.hashes[entry.path().string()] = readBytes(entry.path());
        }
    }
    if (permissionsIgnored()) {
        return made;
    }
    made.hashes.erase((folder / "locked.png").string());  // unreadable for the check as well
    return made;
}

/// Names in folder that look like temporary or partial files (hidden names).
inline std::vector<std::string> leftovers(const fs::path& folder)
{
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (name.front() == '.' || name.find(".tmp") != std::string::npos) {
            names.push_back(name);
        }
    }
    return names;
}

/// path in double quotes, for a shell command line.
inline std::string quoted(const std::string& path)
{
    return "\"" + path + "\"";
}

/// What a run of the real tessera-cli gave.
struct CliRun {
    int code = -1;
    std::string out;
    std::string err;
};

/// Runs the real tessera-cli through the shell with `args`, as a user or a script would; its
/// stdout and stderr go through files in dir. `shell` runs first in the same shell (limits,
/// traps).
inline CliRun cli(const TempFolder& dir, const std::string& args, const std::string& shell = "")
{
    const std::string out = dir.file("stdout.txt");
    const std::string err = dir.file("stderr.txt");
    const std::string command =
        shell + std::string("\"") + TESSERA_CLI + "\" " + args + " >\"" + out + "\" 2>\"" + err + "\"";
    const int status = std::system(command.c_str());
    CliRun r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = readBytes(out);
    r.err = readBytes(err);
    fs::remove(out);
    fs::remove(err);
    return r;
}

}  // namespace tessera::test
