// SPDX-License-Identifier: Apache-2.0
#include "app/io/file_roles.h"

#include <sys/stat.h>

#include <filesystem>
#include <unordered_map>

namespace tessera::app {

namespace fs = std::filesystem;

namespace {

/// What identifies a file whatever it is called: device and inode when it exists (hard links
/// and symbolic links meet there), else its absolute path with "." and ".." and the links of
/// the folders that exist resolved (two spellings of a file still to be made meet there).
std::string identity(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        return "inode " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
    }
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
    if (ec) {
        p = fs::absolute(path).lexically_normal();
    }
    return "path " + p.string();
}

}  // namespace

void FileRoles::reads(std::string path, std::string role)
{
    reads_.push_back({std::move(path), std::move(role)});
}

void FileRoles::writes(std::string path, std::string role)
{
    writes_.push_back({std::move(path), std::move(role)});
}

void FileRoles::check() const
{
    std::unordered_map<std::string, const Use*> seen;
    for (const Use& r : reads_) {
        seen.emplace(identity(r.path), &r);
    }
    for (const Use& w : writes_) {
        const auto [at, fresh] = seen.emplace(identity(w.path), &w);
        if (fresh) {
            continue;
        }
        const Use& other = *at->second;
        const bool read = &other >= reads_.data() && &other < reads_.data() + reads_.size();
        const std::string also = other.path == w.path ? "" : " (" + other.path + ")";
        throw FilesOverlap(w.path + ": " + w.role + " is the same file as " + other.role + also +
                           (read ? ", which the run reads" : "; both would be written") + "; choose another path");
    }
}

}  // namespace tessera::app
