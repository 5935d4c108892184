// SPDX-License-Identifier: Apache-2.0
#include "files/temp_files.h"

#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <random>
#include <set>
#include <string_view>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tessera::files {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMarker = ".tmp-";
constexpr std::size_t kTagLength = 6;
constexpr std::size_t kHostLength = 8;
constexpr std::size_t kNameMax = NAME_MAX;
constexpr std::time_t kDay = 24 * 60 * 60;

// The temporaries in flight, for a signal handler to unlink: fixed storage, no allocation, and
// a state word per slot (0 free, 1 being filled, 2 live) so that the handler reads whole paths only.
struct LiveSlot {
    std::atomic<int> state{0};
    char path[PATH_MAX];
};
constexpr int kLiveSlots = 256;
LiveSlot liveSlots[kLiveSlots];

int registerLive(const fs::path& path)
{
    const std::string& text = path.native();
    if (text.size() + 1 > PATH_MAX) {
        return -1;
    }
    for (int i = 0; i < kLiveSlots; ++i) {
        int expected = 0;
        if (liveSlots[i].state.compare_exchange_strong(expected, 1)) {
            std::memcpy(liveSlots[i].path, text.c_str(), text.size() + 1);
            liveSlots[i].state.store(2);
            return i;
        }
    }
    return -1;  // more in flight than slots: a stale one for a later run's sweep if we are killed
}

bool isHex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

bool isAlnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

std::string randomTag()
{
    static constexpr std::string_view alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    thread_local std::mt19937_64 rng{std::random_device{}()};
    std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
    std::string tag(kTagLength, ' ');
    for (char& c : tag) {
        c = alphabet[pick(rng)];
    }
    return tag;
}

// Cuts text to at most bytes, never inside a UTF-8 sequence.
std::string cutUtf8(const std::string& text, std::size_t bytes)
{
    if (text.size() <= bytes) {
        return text;
    }
    std::size_t cut = bytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
        --cut;
    }
    return text.substr(0, cut);
}

}  // namespace

std::string thisHostTag()
{
    // The host name alone is not enough to ask kill(pid, 0): a container sharing the host name
    // has its own process ids, and after a reboot an old pid may name a new process. So the tag
    // stands for the host name, this boot and this pid namespace: where it matches, the pid can
    // be asked; anywhere else only age tells.
    static const std::string tag = [] {
        char name[HOST_NAME_MAX + 1] = {};
        if (::gethostname(name, sizeof name - 1) != 0) {
            name[0] = '\0';
        }
        std::string identity = name;
        if (std::FILE* boot = std::fopen("/proc/sys/kernel/random/boot_id", "r")) {
            char id[64] = {};
            if (std::fgets(id, sizeof id, boot) != nullptr) {
                identity += std::string("|") + id;
            }
            std::fclose(boot);
        }
        char ns[64] = {};
        if (const ssize_t n = ::readlink("/proc/self/ns/pid", ns, sizeof ns - 1); n > 0) {
            identity += std::string("|") + std::string(ns, static_cast<std::size_t>(n));
        }
        std::uint32_t hash = 2166136261u;  // FNV-1a
        for (const char c : identity) {
            hash = (hash ^ static_cast<unsigned char>(c)) * 16777619u;
        }
        char hex[kHostLength + 1];
        std::snprintf(hex, sizeof hex, "%08x", hash);
        return std::string(hex);
    }();
    return tag;
}

std::string temporaryNameFor(const fs::path& target)
{
    const std::string suffix =
        std::string(kMarker) + thisHostTag() + "-" + std::to_string(::getpid()) + "-" + randomTag();
    std::string stem = target.stem().string();
    std::string ext = target.extension().string();
    const std::size_t fixed = 1 + suffix.size();
    if (fixed + ext.size() > kNameMax) {
        ext.clear();  // only a text file's name can have such an extension; the format does not need it
    }
    stem = cutUtf8(stem, kNameMax - fixed - ext.size());
    return "." + stem + suffix + ext;
}

std::optional<TemporaryName> parseTemporaryName(const std::string& name)
{
    if (name.size() < 2 || name.front() != '.') {
        return std::nullopt;
    }
    const std::size_t marker = name.rfind(kMarker);
    if (marker == std::string::npos || marker == 0) {
        return std::nullopt;
    }
    std::size_t i = marker + kMarker.size();
    TemporaryName parsed;
    for (std::size_t k = 0; k < kHostLength; ++k, ++i) {
        if (i >= name.size() || !isHex(name[i])) {
            return std::nullopt;
        }
    }
    parsed.host = name.substr(marker + kMarker.size(), kHostLength);
    if (i >= name.size() || name[i++] != '-') {
        return std::nullopt;
    }
    const std::size_t pidStart = i;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9' && i - pidStart < 10) {
        ++i;
    }
    if (i == pidStart || i >= name.size() || name[i] != '-') {
        return std::nullopt;
    }
    parsed.pid = std::stol(name.substr(pidStart, i - pidStart));
    ++i;
    for (std::size_t k = 0; k < kTagLength; ++k, ++i) {
        if (i >= name.size() || !isAlnum(name[i])) {
            return std::nullopt;
        }
    }
    const std::string rest = name.substr(i);
    if (!rest.empty() && (rest.front() != '.' || rest.find('.', 1) != std::string::npos)) {
        return std::nullopt;
    }
    if (parsed.pid <= 0) {
        return std::nullopt;
    }
    return parsed;
}

bool isStaleTemporary(const fs::path& path, std::time_t now)
{
    const std::optional<TemporaryName> name = parseTemporaryName(path.filename().string());
    if (!name) {
        return false;
    }
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
        return false;
    }
    if (name->host == thisHostTag()) {
        // This host can ask whether the writer lives: only a process that is gone proves it.
        return name->pid != ::getpid() && ::kill(static_cast<pid_t>(name->pid), 0) != 0 && errno == ESRCH;
    }
    // Another machine's (a batch shard on a shared folder): only a day without a write proves it.
    return st.st_mtime < now - kDay;
}

int sweepStaleTemporaries(const fs::path& folder, bool once)
{
    try {
        const fs::path where = folder.empty() ? fs::path(".") : folder;
        if (once) {
            static std::mutex mutex;
            static std::set<std::string> swept;
            std::error_code ec;
            fs::path key = fs::weakly_canonical(where, ec);
            if (ec) {
                key = where;
            }
            const std::lock_guard lock(mutex);
            if (!swept.insert(key.string()).second) {
                return 0;
            }
        }
        const std::time_t now = std::time(nullptr);
        int removed = 0;
        std::error_code ec;
        for (fs::directory_iterator it(where, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            if (name.front() != '.' || name.find(kMarker) == std::string::npos) {
                continue;
            }
            if (isStaleTemporary(it->path(), now)) {
                std::error_code removeError;
                removed += fs::remove(it->path(), removeError) ? 1 : 0;
            }
        }
        return removed;
    } catch (...) {
        return 0;  // a sweep is housekeeping: it never fails a write
    }
}

ScopedTemporary::~ScopedTemporary()
{
    if (!path_.empty()) {
        std::error_code ec;
        fs::remove(path_, ec);
    }
    forget();
}

int ScopedTemporary::create(const fs::path& target)
{
    const fs::path folder = target.parent_path();
    sweepStaleTemporaries(folder.empty() ? fs::path(".") : folder);
    int err = EEXIST;
    for (int attempt = 0; attempt < 100 && err == EEXIST; ++attempt) {
        const fs::path candidate = folder / temporaryNameFor(target);
        // Registered before it exists, so that a signal between the open and the registration
        // cannot leave the file behind. Should the name be taken after all, what the signal
        // handler might remove is a file named after this very process: a dead predecessor's
        // temporary, never another program's file.
        slot_ = registerLive(candidate);
        // O_EXCL makes the name ours; mode 0666 lets the umask decide as for any new file.
        const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            ::close(fd);
            path_ = candidate;
            return 0;
        }
        err = errno;
        forget();
    }
    return err;
}

void ScopedTemporary::release()
{
    path_.clear();
    forget();
}

void ScopedTemporary::forget()
{
    if (slot_ >= 0) {
        liveSlots[slot_].state.store(0);
        slot_ = -1;
    }
}

void removeLiveTemporaries() noexcept
{
    for (LiveSlot& slot : liveSlots) {
        if (slot.state.load() == 2) {
            ::unlink(slot.path);
        }
    }
}

}  // namespace tessera::files
