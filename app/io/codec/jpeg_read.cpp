// SPDX-License-Identifier: Apache-2.0
// The JPEG reader on libjpeg-turbo: pixels as OpenCV 4.6's imread(IMREAD_UNCHANGED) gives them
// (grey one channel, colour BGR, CMYK turned into BGR the way OpenCV does it), the metadata
// segments, a scan budget counted before the decode and watched during it, and a cancel flag
// polled from libjpeg's progress monitor.
#include "app/io/codec/jpeg_common.h"
#include "app/io/orientation.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <cstdlib>

namespace tessera::app::codec {
namespace {

using jpeg::ErrorManager;
using jpeg::guarded;
using jpeg::raise;

struct Progress {
    jpeg_progress_mgr pub{};
    const DecodeBudget* budget = nullptr;
    std::uint64_t pixels = 0;
    int width = 0;
    int height = 0;
    bool progressive = false;
    int lastScan = 0;
};

/// The decompressor with its error manager and progress monitor, destroyed on every way out.
struct Decompressor {
    jpeg_decompress_struct cinfo{};
    ErrorManager err;
    Progress progress;
    bool created = false;

    Decompressor() = default;
    Decompressor(const Decompressor&) = delete;
    Decompressor& operator=(const Decompressor&) = delete;
    ~Decompressor()
    {
        if (created) {
            jpeg_destroy_decompress(&cinfo);
        }
    }
};

std::string scanWording(bool progressive, std::uint64_t scans, int width, int height)
{
    return std::string(progressive ? "progressive JPEG" : "JPEG") + " of " + std::to_string(scans) + " scans over " +
           std::to_string(width) + " x " + std::to_string(height) + " pixels";
}

/// The reason a decode of this many scans is refused, or empty when the budget allows it.
std::string overBudget(const Progress& p, std::uint64_t scans)
{
    const std::string what = scanWording(p.progressive, scans, p.width, p.height);
    if (scans > static_cast<std::uint64_t>(p.budget->maxJpegScans)) {
        return what + ": more scans than the limit of " + std::to_string(p.budget->maxJpegScans);
    }
    if (p.pixels * scans > p.budget->maxWork) {
        return what + ": " + std::to_string(p.pixels * scans) + " pixel passes exceed the decode budget of " +
               std::to_string(p.budget->maxWork);
    }
    return {};
}

void monitor(j_common_ptr cinfo)
{
    Progress& p = *reinterpret_cast<Progress*>(cinfo->progress);
    if (p.budget->cancel != nullptr && p.budget->cancel->load(std::memory_order_relaxed)) {
        jpeg::fail(cinfo, "cancelled while decoding", true);
    }
    const auto* d = reinterpret_cast<j_decompress_ptr>(cinfo);
    const int scan = std::max(d->input_scan_number, 1);
    if (scan == p.lastScan) {
        return;
    }
    p.lastScan = scan;
    char reason[JMSG_LENGTH_MAX + 64] = {};
    {
        // The string is gone before the jump leaves this frame.
        const std::string text = overBudget(p, static_cast<std::uint64_t>(scan));
        std::snprintf(reason, sizeof reason, "%s", text.c_str());
    }
    if (reason[0] != '\0') {
        jpeg::fail(cinfo, reason);
    }
}

/// The number of SOS markers in the file, found by walking its markers and entropy data.
std::uint64_t countScans(std::span<const std::uint8_t> file)
{
    std::uint64_t scans = 0;
    std::size_t pos = 2;
    const std::size_t n = file.size();
    while (pos + 1 < n) {
        if (file[pos] != 0xFF) {
            ++pos;  // entropy-coded data
            continue;
        }
        const std::uint8_t marker = file[pos + 1];
        if (marker == 0xFF || marker == 0x00 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01) {
            pos += marker == 0xFF ? 1 : 2;
            continue;
        }
        if (marker == 0xD9) {
            break;
        }
        if (pos + 3 >= n) {
            break;
        }
        const std::size_t length = std::size_t(file[pos + 2]) << 8 | file[pos + 3];
        if (marker == 0xDA) {
            ++scans;
        }
        pos += 2 + std::max<std::size_t>(length, 2);
    }
    return scans;
}

std::vector<jpeg::Segment> savedSegments(const jpeg_decompress_struct& cinfo)
{
    std::vector<jpeg::Segment> segments;
    for (jpeg_saved_marker_ptr m = cinfo.marker_list; m != nullptr; m = m->next) {
        segments.push_back({m->marker, std::string(reinterpret_cast<const char*>(m->data), m->data_length)});
    }
    return segments;
}

/// Creates the decompressor on file and reads its header with the metadata segments saved.
bool openAndReadHeader(Decompressor& d, std::span<const std::uint8_t> file)
{
    jpeg_decompress_struct* cinfo = &d.cinfo;
    cinfo->err = jpeg::installErrorManager(d.err);
    return guarded(d.err, [&] {
        jpeg_create_decompress(cinfo);
        d.created = true;
        jpeg_mem_src(cinfo, file.data(), static_cast<unsigned long>(file.size()));
        jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
        jpeg_save_markers(cinfo, JPEG_APP0 + 2, 0xFFFF);
        jpeg_save_markers(cinfo, JPEG_APP0 + 13, 0xFFFF);
        jpeg_read_header(cinfo, TRUE);
    });
}

/// OpenCV 4.6's CMYK to BGR conversion (icvCvt_CMYK2BGR_8u_C4C3R).
void cmykRowToBgr(const std::uint8_t* cmyk, std::uint8_t* bgr, int width)
{
    for (int x = 0; x < width; ++x, cmyk += 4, bgr += 3) {
        const int c = cmyk[0], m = cmyk[1], y = cmyk[2], k = cmyk[3];
        bgr[2] = static_cast<std::uint8_t>(k - ((255 - c) * k >> 8));
        bgr[1] = static_cast<std::uint8_t>(k - ((255 - m) * k >> 8));
        bgr[0] = static_cast<std::uint8_t>(k - ((255 - y) * k >> 8));
    }
}

}  // namespace

/// Hands the decoder's progress to the budget (cancel, time), after refusing a file whose scans
/// would take longer than the budget allows. Throws CodecError.
void watchProgress(Decompressor& d, std::span<const std::uint8_t> file, const DecodeBudget& budget)
{
    jpeg_decompress_struct& cinfo = d.cinfo;
    d.progress.budget = &budget;
    d.progress.width = static_cast<int>(cinfo.image_width);
    d.progress.height = static_cast<int>(cinfo.image_height);
    d.progress.pixels = std::uint64_t(cinfo.image_width) * std::uint64_t(cinfo.image_height);
    d.progress.progressive = cinfo.progressive_mode != 0;
    if (const std::string reason = overBudget(d.progress, std::max<std::uint64_t>(countScans(file), 1));
        !reason.empty()) {
        throw CodecError(reason);
    }
    d.progress.pub.progress_monitor = monitor;
    cinfo.progress = &d.progress.pub;
}

Decoded readJpeg(std::span<const std::uint8_t> file, const DecodeBudget& budget)
{
    if (file.size() < 3 || file[0] != 0xFF || file[1] != 0xD8) {
        throw CodecError("not a JPEG file: it does not start with a JPEG start-of-image marker");
    }
    checkCancel(budget);
    Decompressor d;
    d.err.strictWarnings = true;
    if (!openAndReadHeader(d, file)) {
        raise(d.err);
    }
    jpeg_decompress_struct& cinfo = d.cinfo;
    const int width = static_cast<int>(cinfo.image_width);
    const int height = static_cast<int>(cinfo.image_height);
    checkSize(width, height, budget);
    watchProgress(d, file, budget);

    Decoded out;
    out.metadata = jpeg::parseSegments(savedSegments(cinfo));
    const bool cmyk = cinfo.num_components == 4;
    const bool colour = cinfo.num_components > 1;
    if (cmyk) {
        cinfo.out_color_space = JCS_CMYK;
    } else {
        cinfo.out_color_space = colour ? JCS_EXT_BGR : JCS_GRAYSCALE;
    }
    cinfo.dct_method = JDCT_ISLOW;
    cinfo.do_fancy_upsampling = TRUE;
    if (!guarded(d.err, [&] { jpeg_start_decompress(&cinfo); })) {
        raise(d.err);
    }
    const int channels = colour ? 3 : 1;
    if (static_cast<int>(cinfo.output_width) != width || static_cast<int>(cinfo.output_height) != height ||
        cinfo.output_components != (cmyk ? 4 : channels)) {
        throw CodecError("invalid JPEG data: the decoder gives an unexpected output layout");
    }
    // A turned photo is decoded band by band into its upright place.
    const int turn = budget.orientationOf ? budget.orientationOf(out.metadata) : 1;
    const bool turning = turn >= 2 && turn <= 8;
    constexpr int kBand = 16;
    cv::Mat band;
    if (turning) {
        out.pixels.create(app::uprightSize(cv::Size(width, height), turn), CV_8UC(channels));
        band.create(kBand, width, CV_8UC(channels));
        out.upright = true;
    } else {
        out.pixels.create(height, width, CV_8UC(channels));
    }
    std::vector<std::uint8_t> cmykRow(cmyk ? std::size_t(width) * 4 : 0);
    int bandStart = 0;
    while (cinfo.output_scanline < cinfo.output_height) {
        checkCancel(budget);
        const int y = static_cast<int>(cinfo.output_scanline);
        if (y % 64 == 0) {
            reportProgress(budget, y, height);
        }
        std::uint8_t* target = turning ? band.ptr<std::uint8_t>(y - bandStart) : out.pixels.ptr<std::uint8_t>(y);
        JSAMPROW row = cmyk ? cmykRow.data() : target;
        JDIMENSION got = 0;
        if (!guarded(d.err, [&] { got = jpeg_read_scanlines(&cinfo, &row, 1); })) {
            raise(d.err);
        }
        if (got != 1) {
            throw CodecError("truncated JPEG data: the decoder stopped at row " + std::to_string(y));
        }
        if (cmyk) {
            cmykRowToBgr(cmykRow.data(), target, width);
        }
        const int filled = y + 1 - bandStart;
        if (turning && (filled == kBand || y + 1 == height)) {
            app::placeRows(band.rowRange(0, filled), bandStart, height, out.pixels, turn);
            bandStart = y + 1;
        }
    }
    return out;
}

ImageMetadata readJpegMetadata(std::span<const std::uint8_t> file)
{
    try {
        if (file.size() < 3 || file[0] != 0xFF || file[1] != 0xD8) {
            return {};
        }
        Decompressor d;
        openAndReadHeader(d, file);  // a damaged file keeps the segments saved before the damage
        if (!d.created) {
            return {};
        }
        return jpeg::parseSegments(savedSegments(d.cinfo));
    } catch (...) {
        return {};
    }
}

int estimateJpegQuality(std::span<const std::uint8_t> file)
{
    // The luminance table of the JPEG standard (annex K), in natural order as libjpeg keeps it.
    static constexpr int kLuminance[64] = {16, 11, 10, 16, 24,  40,  51,  61,  12, 12, 14, 19, 26,  58,  60,  55,
                                           14, 13, 16, 24, 40,  57,  69,  56,  14, 17, 22, 29, 51,  87,  80,  62,
                                           18, 22, 37, 56, 68,  109, 103, 77,  24, 35, 55, 64, 81,  104, 113, 92,
                                           49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99};
    try {
        if (file.size() < 3 || file[0] != 0xFF || file[1] != 0xD8) {
            return 0;
        }
        Decompressor d;
        if (!openAndReadHeader(d, file) || d.cinfo.quant_tbl_ptrs[0] == nullptr) {
            return 0;
        }
        const JQUANT_TBL& table = *d.cinfo.quant_tbl_ptrs[0];
        int best = 0;
        long bestDistance = 0;
        for (int q = 1; q <= 100; ++q) {
            // libjpeg's jpeg_quality_scaling and jpeg_add_quant_table with baseline limits.
            const long scale = q < 50 ? 5000 / q : 200 - 2 * q;
            long distance = 0;
            for (int i = 0; i < 64; ++i) {
                const long expected = std::clamp((kLuminance[i] * scale + 50) / 100, 1L, 255L);
                distance += std::abs(expected - static_cast<long>(table.quantval[i]));
            }
            if (best == 0 || distance < bestDistance) {
                best = q;
                bestDistance = distance;
            }
        }
        return best;
    } catch (...) {
        return 0;
    }
}

}  // namespace tessera::app::codec
