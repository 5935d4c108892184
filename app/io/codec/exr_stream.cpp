// SPDX-License-Identifier: Apache-2.0
#include "app/io/codec/exr_stream.h"

#include <Iex.h>

#include <cstring>
#include <string>

namespace tessera::app::codec::exr {

MemoryIStream::MemoryIStream(std::span<const std::uint8_t> bytes) : Imf::IStream("memory"), bytes_(bytes)
{
}

bool MemoryIStream::read(char c[], int n)
{
    if (n < 0 || pos_ > bytes_.size() || std::uint64_t(n) > bytes_.size() - pos_) {
        throw Iex::InputExc("the file ends early (" + std::to_string(n) + " bytes wanted at offset " +
                            std::to_string(pos_) + " of " + std::to_string(bytes_.size()) + ")");
    }
    if (n > 0) {
        std::memcpy(c, bytes_.data() + pos_, std::size_t(n));
    }
    pos_ += std::uint64_t(n);
    return pos_ < bytes_.size();
}

std::uint64_t MemoryIStream::tellg()
{
    return pos_;
}

void MemoryIStream::seekg(std::uint64_t pos)
{
    // Seeking past the end is allowed; the next read fails.
    pos_ = pos;
}

MemoryOStream::MemoryOStream() : Imf::OStream("memory")
{
}

void MemoryOStream::write(const char c[], int n)
{
    if (n <= 0) {
        return;
    }
    const std::uint64_t end = pos_ + std::uint64_t(n);
    if (end > bytes_.size()) {
        bytes_.resize(end);
    }
    std::memcpy(bytes_.data() + pos_, c, std::size_t(n));
    pos_ = end;
}

std::uint64_t MemoryOStream::tellp()
{
    return pos_;
}

void MemoryOStream::seekp(std::uint64_t pos)
{
    pos_ = pos;
}

}  // namespace tessera::app::codec::exr
