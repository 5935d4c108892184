// SPDX-License-Identifier: Apache-2.0
#pragma once

// What reading (image_io.cpp) and writing (image_write.cpp) share, private to the two.

#include <chrono>
#include <string>

namespace tessera::app::detail {

/// Bits for the sample types an output format can hold.
enum DepthBit : unsigned { kU8 = 1, kU16 = 2, kF32 = 4 };

/// kU8, kU16 or kF32 for an OpenCV depth; 0 for any other.
unsigned depthBit(int depth);
/// Milliseconds since `began`, one decimal, for the io diagnostics.
std::string millisecondsSince(std::chrono::steady_clock::time_point began);
/// `text` in capitals (a format's name in messages).
std::string upper(std::string text);

}  // namespace tessera::app::detail
