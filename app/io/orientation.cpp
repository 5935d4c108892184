// SPDX-License-Identifier: Apache-2.0
#include "app/io/orientation.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <array>
#include <cstdint>

namespace tessera::app {

namespace {

/// One pixel of N bytes, copied as a value so that the compiler moves it in one or two loads.
template <std::size_t N>
struct Pixel {
    std::array<std::uint8_t, N> bytes;
};

// Where orientation sends input pixel (sx, sy) of a W x H image, as output (ox, oy):
//   2: (W-1-sx, sy)     3: (W-1-sx, H-1-sy)   4: (sx, H-1-sy)
//   5: (sy, sx)         6: (H-1-sy, sx)       7: (H-1-sy, W-1-sx)   8: (sy, W-1-sx)
// For 5..8 an input row becomes an output column; a band of rows is written column by column
// in runs of band.rows pixels, so the rows read and the runs written both stay in cache.
template <std::size_t N>
void place(const cv::Mat& band, int firstRow, int H, cv::Mat& dst, int orientation)
{
    using P = Pixel<N>;
    const int W = band.cols;
    const int rows = band.rows;
    if (orientation >= 2 && orientation <= 4) {
        for (int r = 0; r < rows; ++r) {
            const int sy = firstRow + r;
            const P* in = band.ptr<P>(r);
            P* out = dst.ptr<P>(orientation == 2 ? sy : H - 1 - sy);
            if (orientation == 4) {
                std::copy(in, in + W, out);
            } else {
                std::reverse_copy(in, in + W, out);
            }
        }
        return;
    }
    const bool rowsUp = orientation == 6 || orientation == 7;     // ox = H-1-sy
    const bool columnsUp = orientation == 7 || orientation == 8;  // oy = W-1-sx
    constexpr int kColumns = 64;
    for (int c0 = 0; c0 < W; c0 += kColumns) {
        const int c1 = std::min(c0 + kColumns, W);
        for (int sx = c0; sx < c1; ++sx) {
            P* out = dst.ptr<P>(columnsUp ? W - 1 - sx : sx);
            for (int r = 0; r < rows; ++r) {
                const int sy = firstRow + r;
                out[rowsUp ? H - 1 - sy : sy] = band.ptr<P>(r)[sx];
            }
        }
    }
}

}  // namespace

cv::Size uprightSize(cv::Size size, int orientation)
{
    return orientation >= 5 && orientation <= 8 ? cv::Size(size.height, size.width) : size;
}

void placeRows(const cv::Mat& band, int firstRow, int fullHeight, cv::Mat& dst, int orientation)
{
    if (orientation < 2 || orientation > 8) {
        band.copyTo(dst.rowRange(firstRow, firstRow + band.rows));
        return;
    }
    switch (band.elemSize()) {
    case 1: place<1>(band, firstRow, fullHeight, dst, orientation); return;
    case 2: place<2>(band, firstRow, fullHeight, dst, orientation); return;
    case 3: place<3>(band, firstRow, fullHeight, dst, orientation); return;
    case 4: place<4>(band, firstRow, fullHeight, dst, orientation); return;
    case 6: place<6>(band, firstRow, fullHeight, dst, orientation); return;
    case 8: place<8>(band, firstRow, fullHeight, dst, orientation); return;
    case 12: place<12>(band, firstRow, fullHeight, dst, orientation); return;
    case 16: place<16>(band, firstRow, fullHeight, dst, orientation); return;
    default: break;
    }
    // Pixel sizes no image Tessera reads has: byte by byte.
    const std::size_t n = band.elemSize();
    const int W = band.cols;
    const int H = fullHeight;
    for (int r = 0; r < band.rows; ++r) {
        const int sy = firstRow + r;
        for (int sx = 0; sx < W; ++sx) {
            int ox = sx;
            int oy = sy;
            switch (orientation) {
            case 2: ox = W - 1 - sx; break;
            case 3:
                ox = W - 1 - sx;
                oy = H - 1 - sy;
                break;
            case 4: oy = H - 1 - sy; break;
            case 5:
                ox = sy;
                oy = sx;
                break;
            case 6:
                ox = H - 1 - sy;
                oy = sx;
                break;
            case 7:
                ox = H - 1 - sy;
                oy = W - 1 - sx;
                break;
            default:
                ox = sy;
                oy = W - 1 - sx;
                break;
            }
            std::copy_n(band.ptr(r) + sx * n, n, dst.ptr(oy) + ox * n);
        }
    }
}

cv::Mat orientUpright(const cv::Mat& img, int orientation)
{
    if (orientation < 2 || orientation > 8) {
        return img;
    }
    cv::Mat out(uprightSize(img.size(), orientation), img.type());
    constexpr int kBand = 64;
    for (int y = 0; y < img.rows; y += kBand) {
        placeRows(img.rowRange(y, std::min(y + kBand, img.rows)), y, img.rows, out, orientation);
    }
    return out;
}

}  // namespace tessera::app
