// SPDX-License-Identifier: Apache-2.0
#pragma once

// OpenEXR's stream interfaces over memory: a reader over the caller's bytes and a writer into a
// growing buffer, so the EXR codec never touches a file.

#include <ImfIO.h>

#include <cstdint>
#include <span>
#include <vector>

namespace tessera::app::codec::exr {

/// Reads from a span that outlives it. Reading past the end throws Iex::InputExc (a truncated
/// file is an error, never zero rows).
class MemoryIStream final : public Imf::IStream {
public:
    explicit MemoryIStream(std::span<const std::uint8_t> bytes);
    bool read(char c[], int n) override;
    std::uint64_t tellg() override;
    void seekg(std::uint64_t pos) override;

private:
    std::span<const std::uint8_t> bytes_;
    std::uint64_t pos_ = 0;
};

/// Writes into a buffer that grows as needed; seeking back and overwriting (the line offset
/// table OpenEXR fills in last) is supported.
class MemoryOStream final : public Imf::OStream {
public:
    MemoryOStream();
    void write(const char c[], int n) override;
    std::uint64_t tellp() override;
    void seekp(std::uint64_t pos) override;
    std::vector<std::uint8_t>& bytes() { return bytes_; }

private:
    std::vector<std::uint8_t> bytes_;
    std::uint64_t pos_ = 0;
};

}  // namespace tessera::app::codec::exr
