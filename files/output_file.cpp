// SPDX-License-Identifier: Apache-2.0
#include "files/output_file.h"

#include "files/file_kind.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tessera::files {

namespace fs = std::filesystem;

namespace {

// Links followed at most, as the kernel's own bound (MAXSYMLINKS).
constexpr int kMaxLinks = 40;

bool diskFull(int err)
{
    return err == ENOSPC || err == EFBIG || err == EDQUOT;
}

std::string writeReason(int err, bool replacing)
{
    std::string reason = std::string("cannot write the file: ") + std::strerror(err);
    if (diskFull(err)) {
        reason += " (the disk or your quota is full)";
        if (replacing) {
            reason += "; nothing was replaced";
        }
    }
    return reason;
}

// The file a path names once its symbolic links are followed (a link to a file still to be
// made names that file), so that the rename replaces the file and leaves the link a link.
fs::path followLinks(const std::string& path, const std::string& name)
{
    fs::path p = path;
    for (int hops = 0; hops <= kMaxLinks; ++hops) {
        struct stat st {};
        if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
            return p;
        }
        std::error_code ec;
        const fs::path to = fs::read_symlink(p, ec);
        if (ec) {
            throw OutputFileError(name, "cannot read the symbolic link " + p.string() + ": " + ec.message(),
                                  ec.value());
        }
        p = to.is_absolute() ? to : p.parent_path() / to;
    }
    throw OutputFileError(name, std::string("cannot access the file: ") + std::strerror(ELOOP), ELOOP);
}

void requireFolder(const fs::path& file, const std::string& name)
{
    const fs::path folder = file.parent_path().empty() ? fs::path(".") : file.parent_path();
    struct stat st {};
    if (::stat(folder.c_str(), &st) != 0) {
        const int err = errno;
        if (err == ENOENT || err == ENOTDIR) {
            throw OutputFileError(name, "output folder does not exist: " + folder.string(), err);
        }
        throw OutputFileError(name, "cannot access the output folder " + folder.string() + ": " + std::strerror(err),
                              err);
    }
    if (!S_ISDIR(st.st_mode)) {
        throw OutputFileError(name, "output folder is not a directory: " + folder.string(), ENOTDIR);
    }
}

int writeAll(int fd, std::string_view bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return errno;
        }
        done += static_cast<std::size_t>(n);
    }
    return 0;
}

}  // namespace

OutputFileError::OutputFileError(const std::string& path, const std::string& reason, int error)
    : std::runtime_error(path + ": " + reason), path_(path), reason_(reason), error_(error)
{
}

OutputTarget checkOutputFile(const std::string& path, Streams streams)
{
    OutputTarget target;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            throw OutputFileError(path, "is a directory, not a file");
        }
        if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
            if (streams == Streams::Refuse) {
                throw OutputFileError(path, "is " + specialFileKind(st.st_mode) +
                                                "; only a regular file is written here, so it was left as it is");
            }
            target.file = path;  // opened as named: /dev/stdout's link may lead to "pipe:[...]"
            target.stream = true;
            return target;
        }
        if (!S_ISREG(st.st_mode)) {
            throw OutputFileError(path, "is " + specialFileKind(st.st_mode) +
                                            "; only a regular file, a character device or a FIFO is written, so "
                                            "it was left as it is");
        }
        target.replaces = true;
        target.mode = st.st_mode & 07777;
        target.owner = st.st_uid;
        target.group = st.st_gid;
    } else if (errno != ENOENT && errno != ENOTDIR) {
        const int err = errno;
        throw OutputFileError(path, std::string("cannot access the file: ") + std::strerror(err), err);
    }
    target.file = followLinks(path, path);
    requireFolder(target.file, path);
    return target;
}

OutputFile::OutputFile(const std::string& path, Streams streams) : path_(path), target_(checkOutputFile(path, streams))
{
    if (target_.stream) {
        // Without waiting: a FIFO that no process reads would block the writer for ever.
        const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0) {
            const int err = errno;
            throw OutputFileError(path,
                                  err == ENXIO ? std::string("a FIFO that no process reads; nothing was written")
                                               : std::string("cannot open the file for writing: ") + std::strerror(err),
                                  err);
        }
        stream_ = fd;
        struct stat st {};
        if (::fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
            throw OutputFileError(path, "changed while it was opened; nothing was written");
        }
        const int flags = ::fcntl(fd, F_GETFL);
        if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
            const int err = errno;
            throw OutputFileError(path, std::string("cannot open the file for writing: ") + std::strerror(err), err);
        }
        return;
    }
    const fs::path folder = target_.file.parent_path().empty() ? fs::path(".") : target_.file.parent_path();
    if (const int err = temp_.create(target_.file); err != 0) {
        throw OutputFileError(path,
                              err == EACCES || err == EROFS || err == EPERM
                                  ? "output folder is not writable: " + folder.string()
                                  : "cannot create a temporary file in " + folder.string() + ": " + std::strerror(err),
                              err);
    }
    if (target_.replaces) {
        // The contents are never readable by more people than could read the file replaced;
        // the owner may write the temporary until commit() gives it the replaced file's mode.
        ::chmod(temp_.path().c_str(), (target_.mode & 0777) | S_IRUSR | S_IWUSR);
    }
}

OutputFile::~OutputFile()
{
    if (stream_ >= 0) {
        ::close(stream_);
    }
}

void OutputFile::write(std::string_view bytes)
{
    if (target_.stream) {
        if (const int err = writeAll(stream_, bytes); err != 0) {
            throw OutputFileError(path_, writeReason(err, false), err);
        }
        return;
    }
    // Flushed to disk and its size checked, so that neither a crash after the rename nor a
    // write that failed quietly (a full disk) can leave a short file in place of a whole one.
    const int fd = ::open(temp_.path().c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        throw OutputFileError(path_, writeReason(err, target_.replaces), err);
    }
    int err = writeAll(fd, bytes);
    if (err == 0 && ::fsync(fd) != 0) {
        err = errno;
    }
    struct stat st {};
    if (err == 0 && (::fstat(fd, &st) != 0 || static_cast<std::size_t>(st.st_size) != bytes.size())) {
        err = EIO;
    }
    if (::close(fd) != 0 && err == 0) {
        err = errno;
    }
    if (err != 0) {
        throw OutputFileError(path_, writeReason(err, target_.replaces), err);
    }
}

void OutputFile::written()
{
    if (target_.stream) {
        return;
    }
    const int fd = ::open(temp_.path().c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        throw OutputFileError(path_, writeReason(err, target_.replaces), err);
    }
    int err = ::fsync(fd) == 0 ? 0 : errno;
    struct stat st {};
    if (err == 0 && (::fstat(fd, &st) != 0 || st.st_size == 0)) {
        err = EIO;
    }
    ::close(fd);
    if (err != 0) {
        throw OutputFileError(path_, writeReason(err, target_.replaces), err);
    }
}

void OutputFile::commit()
{
    if (target_.stream) {
        const int fd = stream_;
        stream_ = -1;
        if (::close(fd) != 0 && errno != EINTR) {
            const int err = errno;
            throw OutputFileError(path_, writeReason(err, false), err);
        }
        return;
    }
    if (target_.replaces) {
        // The owner first: a change of owner clears the set-id bits that chmod then sets.
        // Only root (or a member of the group) may give the file away; others keep it.
        struct stat st {};
        if (::stat(temp_.path().c_str(), &st) == 0 && (st.st_uid != target_.owner || st.st_gid != target_.group)) {
            if (::chown(temp_.path().c_str(), target_.owner, target_.group) != 0) {
                const uid_t keep = static_cast<uid_t>(-1);
                [[maybe_unused]] const int groupOnly = ::chown(temp_.path().c_str(), keep, target_.group);
            }
        }
        if (::chmod(temp_.path().c_str(), target_.mode) != 0) {
            const int err = errno;
            throw OutputFileError(path_,
                                  std::string("cannot give the new file the permissions of the old one: ") +
                                      std::strerror(err) + "; nothing was replaced",
                                  err);
        }
    }
    // Whatever took the file's place while the temporary was written (an encode can take a
    // while) is left alone as well.
    struct stat now {};
    if (::lstat(target_.file.c_str(), &now) == 0 && !S_ISREG(now.st_mode)) {
        const std::string what = S_ISDIR(now.st_mode) ? std::string("a directory") : specialFileKind(now.st_mode);
        throw OutputFileError(path_, "became " + what + " while it was written, so it was left as it is");
    }
    if (::rename(temp_.path().c_str(), target_.file.c_str()) != 0) {
        const int err = errno;
        throw OutputFileError(path_, std::string("cannot replace the file: ") + std::strerror(err), err);
    }
    temp_.release();
}

void writeOutputFile(const std::string& path, std::string_view text)
{
    OutputFile out(path, Streams::Write);
    out.write(text);
    out.commit();
}

}  // namespace tessera::files
