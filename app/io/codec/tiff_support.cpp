// SPDX-License-Identifier: Apache-2.0
#include "app/io/codec/tiff_support.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace tessera::app::codec::tiff {

namespace {

std::string format(const char* fmt, va_list args)
{
    char text[512];
    std::vsnprintf(text, sizeof text, fmt, args);
    std::string line(text);
    std::replace(line.begin(), line.end(), '\n', ' ');
    return line;
}

int onError(TIFF*, void* user, const char* module, const char* fmt, va_list args)
{
    auto* h = static_cast<Handlers*>(user);
    if (h->firstError.empty()) {
        h->firstError = format(fmt, args);
    } else {
        ioDiagnostic(std::string("libtiff ") + (module != nullptr ? module : ""), format(fmt, args));
    }
    return 1;  // handled: libtiff's global handler (stderr) stays silent
}

int onWarning(TIFF*, void*, const char* module, const char* fmt, va_list args)
{
    ioDiagnostic(std::string("libtiff ") + (module != nullptr ? module : ""), format(fmt, args));
    return 1;
}

tmsize_t readFrom(thandle_t h, void* buffer, tmsize_t n)
{
    auto* f = static_cast<MemoryFile*>(h);
    if (n <= 0 || f->position >= f->bytes.size()) {
        return 0;
    }
    const std::uint64_t count = std::min<std::uint64_t>(std::uint64_t(n), f->bytes.size() - f->position);
    std::memcpy(buffer, f->bytes.data() + f->position, count);
    f->position += count;
    return static_cast<tmsize_t>(count);
}

tmsize_t noWrite(thandle_t, void*, tmsize_t)
{
    return 0;
}

toff_t seekIn(thandle_t h, toff_t offset, int whence)
{
    auto* f = static_cast<MemoryFile*>(h);
    const std::uint64_t base = whence == SEEK_CUR ? f->position : whence == SEEK_END ? f->bytes.size() : 0;
    f->position = base + offset;
    return f->position;
}

toff_t sizeIn(thandle_t h)
{
    return static_cast<MemoryFile*>(h)->bytes.size();
}

int mapIn(thandle_t h, void** base, toff_t* size)
{
    auto* f = static_cast<MemoryFile*>(h);
    *base = const_cast<std::uint8_t*>(f->bytes.data());
    *size = f->bytes.size();
    return 1;
}

void unmap(thandle_t, void*, toff_t)
{
}

int closeNothing(thandle_t)
{
    return 0;
}

tmsize_t readSink(thandle_t h, void* buffer, tmsize_t n)
{
    auto* s = static_cast<MemorySink*>(h);
    if (n <= 0 || s->position >= s->bytes.size()) {
        return 0;
    }
    const std::uint64_t count = std::min<std::uint64_t>(std::uint64_t(n), s->bytes.size() - s->position);
    std::memcpy(buffer, s->bytes.data() + s->position, count);
    s->position += count;
    return static_cast<tmsize_t>(count);
}

tmsize_t writeSink(thandle_t h, void* buffer, tmsize_t n)
{
    auto* s = static_cast<MemorySink*>(h);
    if (n <= 0) {
        return 0;
    }
    const std::uint64_t end = s->position + std::uint64_t(n);
    if (end > s->bytes.size()) {
        s->bytes.resize(end);
    }
    std::memcpy(s->bytes.data() + s->position, buffer, std::size_t(n));
    s->position = end;
    return n;
}

toff_t seekSink(thandle_t h, toff_t offset, int whence)
{
    auto* s = static_cast<MemorySink*>(h);
    const std::uint64_t base = whence == SEEK_CUR ? s->position : whence == SEEK_END ? s->bytes.size() : 0;
    s->position = base + offset;
    return s->position;
}

toff_t sizeSink(thandle_t h)
{
    return static_cast<MemorySink*>(h)->bytes.size();
}

int noMap(thandle_t, void**, toff_t*)
{
    return 0;
}

struct OptionsDeleter {
    void operator()(TIFFOpenOptions* o) const { TIFFOpenOptionsFree(o); }
};

std::unique_ptr<TIFFOpenOptions, OptionsDeleter> options(Handlers& handlers)
{
    std::unique_ptr<TIFFOpenOptions, OptionsDeleter> o(TIFFOpenOptionsAlloc());
    TIFFOpenOptionsSetErrorHandlerExtR(o.get(), onError, &handlers);
    TIFFOpenOptionsSetWarningHandlerExtR(o.get(), onWarning, &handlers);
    // No single allocation beyond what the largest image within the limits needs for a strip.
    TIFFOpenOptionsSetMaxSingleMemAlloc(o.get(), tmsize_t{1} << 31);
    return o;
}

}  // namespace

void Handlers::fail(const std::string& what) const
{
    throw CodecError("corrupt TIFF data: " + (firstError.empty() ? what : firstError));
}

Handle openForReading(MemoryFile& file, Handlers& handlers)
{
    const auto o = options(handlers);
    Handle tif(
        TIFFClientOpenExt("tiff", "r", &file, readFrom, noWrite, seekIn, closeNothing, sizeIn, mapIn, unmap, o.get()));
    if (!tif) {
        handlers.fail("cannot read the header");
    }
    return tif;
}

Handle openForWriting(MemorySink& sink, Handlers& handlers)
{
    const auto o = options(handlers);
    Handle tif(TIFFClientOpenExt("tiff", "w", &sink, readSink, writeSink, seekSink, closeNothing, sizeSink, noMap,
                                 unmap, o.get()));
    if (!tif) {
        throw CodecError("libtiff cannot start a file: " + handlers.firstError);
    }
    return tif;
}

}  // namespace tessera::app::codec::tiff
