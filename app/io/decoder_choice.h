// SPDX-License-Identifier: Apache-2.0
#pragma once

// Private to app/io: which decoder reads a file's pixels once readImage has checked its header
// and budget: the format's library, or for a JPEG first the decoder ImageLimits::jpegDecoder
// hands in (a GPU's, say), with libjpeg-turbo reading whatever that one does not take.

#include "app/io/codec/codec.h"
#include "app/io/image_io.h"

#include <cstdint>
#include <span>
#include <string>

namespace tessera::app {

/// The pixels (and metadata) of file, whose format ("jpeg", "png", "tiff", "webp", "exr", "pnm",
/// anything else BMP) and header readImage found; library receives the decoder that read them
/// (see ImageLimits::decoderUsed). Throws codec::CodecError, codec::DecodeCancelled (also when
/// limits.cancel was set while limits.jpegDecoder ran); a failure of limits.jpegDecoder is
/// never thrown: libjpeg-turbo reads the file then.
codec::Decoded decodePixels(const std::string& format, std::span<const std::uint8_t> file, const ImageHeader& header,
                            const ImageLimits& limits, const codec::DecodeBudget& budget, std::string& library);

}  // namespace tessera::app
