// SPDX-License-Identifier: Apache-2.0
// The header sniffer, the sample-depth sniffer and the JPEG marker walk read the first bytes of
// every image file before any decoder does: they must never crash, hang or report a negative
// size or a depth readImage() cannot give.
#include "app/io/image_header.h"
#include "app/io/sample_depth.h"

#include <opencv2/core/hal/interface.h>

#include <cstdlib>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    std::istringstream in(bytes, std::ios::binary);
    const tessera::app::ImageHeader header = tessera::app::sniffImageHeader(in);
    if (header.width < 0 || header.height < 0 || (header.format.empty() && (header.width != 0 || header.height != 0))) {
        std::abort();
    }
    const tessera::app::JpegLayout layout = tessera::app::walkJpeg(in, 1000);
    if (layout.scans > 1001 || layout.width < 0 || layout.height < 0) {
        std::abort();
    }
    // The sniffer and the walk read the same frame header.
    if (header.format == "jpeg" && (layout.width != header.width || layout.height != header.height)) {
        std::abort();
    }
    tessera::app::jpegIsComplete(in);
    if (const std::optional<int> depth = tessera::app::sniffSampleDepth(in);
        depth && *depth != CV_8U && *depth != CV_16U && *depth != CV_32F) {
        std::abort();
    }
    return 0;
}
