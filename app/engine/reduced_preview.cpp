// SPDX-License-Identifier: Apache-2.0
#include "app/engine/reduced_preview.h"

#include "filters/cpu_executor.h"
#include "filters/float_range.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace tessera::app {
namespace {

/// taps convolved with a box of width f (every partial overlap counted): length taps + f - 1.
std::vector<float> withBox(const std::vector<double>& taps, int f, double factor)
{
    std::vector<float> out(taps.size() + static_cast<std::size_t>(f) - 1, 0.0f);
    for (std::size_t i = 0; i < taps.size(); ++i) {
        for (int d = 0; d < f; ++d) {
            out[i + static_cast<std::size_t>(d)] += static_cast<float>(taps[i] * factor);
        }
    }
    return out;
}

/// Copies count pixels of C channels taken every step floats from in, one after another to out.
template <int C>
void splitPhase(const float* __restrict in, float* __restrict out, int count, std::ptrdiff_t step)
{
    for (int i = 0; i < count; ++i, in += step, out += C) {
        for (int c = 0; c < C; ++c) {
            out[c] = in[c];
        }
    }
}

/// The padded source's rows as float, each split by phase: phase rho holds the pixels at
/// columns X * f + rho, so a tap read at stride f becomes a contiguous run. Rows are converted
/// once each into a ring that holds the rows one block row reads; a block row's rows are asked
/// for in increasing order.
class PhaseRows {
public:
    PhaseRows(const cv::Mat& padded, int f, int ringSize)
        : padded_(padded), f_(f), channels_(padded.channels()), length_((padded.cols + f - 1) / f),
          rows_(static_cast<std::size_t>(ringSize)), which_(static_cast<std::size_t>(ringSize), -1)
    {
    }

    /// Floats per row: f phases of length() pixels.
    int span() const { return f_ * length_ * channels_; }
    /// Pixels per phase.
    int length() const { return length_; }

    /// Row r, split by phase.
    const float* get(int r)
    {
        const std::size_t slot = static_cast<std::size_t>(r) % rows_.size();
        if (which_[slot] != r) {
            load(r, rows_[slot]);
            which_[slot] = r;
        }
        return rows_[slot].data();
    }

    /// Where tap t of a strided read starts in a row split by phase (t = q * f + rho).
    std::ptrdiff_t tapOffset(int t) const
    {
        return (static_cast<std::ptrdiff_t>(t % f_) * length_ + t / f_) * channels_;
    }

private:
    void load(int r, std::vector<float>& dst)
    {
        padded_.row(r).convertTo(plain_, CV_32F);
        const float* src = plain_.ptr<float>();
        dst.assign(static_cast<std::size_t>(span()), 0.0f);
        const int width = padded_.cols;
        const int c = channels_;
        for (int rho = 0; rho < f_; ++rho) {
            float* out = dst.data() + static_cast<std::ptrdiff_t>(rho) * length_ * c;
            const float* in = src + static_cast<std::ptrdiff_t>(rho) * c;
            const int count = rho < width ? (width - rho + f_ - 1) / f_ : 0;
            const std::ptrdiff_t step = static_cast<std::ptrdiff_t>(f_) * c;
            switch (c) {  // a fixed channel count lets the copy unroll
            case 1: splitPhase<1>(in, out, count, step); break;
            case 3: splitPhase<3>(in, out, count, step); break;
            case 4: splitPhase<4>(in, out, count, step); break;
            default:
                for (int i = 0; i < count; ++i, in += step, out += c) {
                    std::copy_n(in, c, out);
                }
            }
        }
    }

    const cv::Mat& padded_;
    int f_;
    int channels_;
    int length_;
    std::vector<std::vector<float>> rows_;
    std::vector<int> which_;
    cv::Mat plain_;
};

/// acc[0 .. n) += w * src[0 .. n): the contiguous run every tap becomes.
inline void axpy(float* __restrict acc, const float* __restrict src, float w, int n)
{
    for (int i = 0; i < n; ++i) {
        acc[i] += w * src[i];
    }
}

/// out[X] (blocks, all channels) += sum over t of taps[t] * row(X * f + t), row split by phase.
void stridedTaps(const PhaseRows& rows, const float* row, const std::vector<float>& taps, int blocks, int channels,
                 float* out)
{
    for (std::size_t t = 0; t < taps.size(); ++t) {
        if (taps[t] != 0.0f) {
            axpy(out, row + rows.tapOffset(static_cast<int>(t)), taps[t], blocks * channels);
        }
    }
}

/// Runs body over [0, count) in as many stripes as OpenCV has threads, so each stripe's row
/// ring is filled once.
template <typename Body>
void inStripes(int count, const Body& body)
{
    cv::parallel_for_(cv::Range(0, count), body, std::max(1, cv::getNumThreads()));
}

/// The exact filtered values (saturated to outDepth, as float) of the output rectangle area,
/// read from the padded source: output (x, y) reads padded (x .. x + kw, y .. y + kh).
cv::Mat exactArea(const cv::Mat& padded, const filters::FilterSpec& spec, int outDepth, const cv::Rect& area)
{
    const cv::Mat input =
        padded(cv::Rect(area.x, area.y, area.width + spec.kernel.width - 1, area.height + spec.kernel.height - 1));
    cv::Mat kernel(spec.kernel.height, spec.kernel.width, CV_64F);
    for (int y = 0; y < spec.kernel.height; ++y) {
        for (int x = 0; x < spec.kernel.width; ++x) {
            kernel.at<double>(y, x) = spec.kernel.at(x, y) * spec.scale;
        }
    }
    cv::Mat sum;
    cv::filter2D(input, sum, CV_32F, kernel, cv::Point(0, 0), spec.offset, cv::BORDER_REPLICATE);
    sum = sum(cv::Rect(0, 0, area.width, area.height));
    if (outDepth == CV_32F) {
        return sum.clone();
    }
    cv::Mat saturated;
    sum.convertTo(saturated, outDepth);
    saturated.convertTo(sum, CV_32F);
    return sum;
}

/// Writes the block means of values (exact filtered pixels of the output area starting at
/// origin, a multiple of f) into means.
void putBlockMeans(const cv::Mat& values, cv::Point origin, int f, cv::Mat& means)
{
    cv::Mat m;
    if (values.cols % f == 0 && values.rows % f == 0) {
        // Whole blocks of floats: the area resize at a whole factor is their exact mean, vectorised.
        cv::resize(values, m, cv::Size(values.cols / f, values.rows / f), 0, 0, cv::INTER_AREA);
    } else {
        m = blockMeans(values, f);
    }
    m.copyTo(means(cv::Rect(origin.x / f, origin.y / f, m.cols, m.rows)));
}

/// For each block cell of the padded image (f x f, from (0, 0)), the smallest and largest value
/// over the cells a block's reach spans; CV_32F of the channels, blocksY x blocksX.
void reachRange(const cv::Mat& padded, int f, int kw, int kh, int blocksX, int blocksY, cv::Mat& low, cv::Mat& high)
{
    const int cellsX = (padded.cols + f - 1) / f;
    const int cellsY = (padded.rows + f - 1) / f;
    const int channels = padded.channels();
    cv::Mat cellLow(cellsY, cellsX, CV_32FC(channels), cv::Scalar::all(std::numeric_limits<float>::max()));
    cv::Mat cellHigh(cellsY, cellsX, CV_32FC(channels), cv::Scalar::all(-std::numeric_limits<float>::max()));
    cv::Mat row;
    for (int y = 0; y < padded.rows; ++y) {
        padded.row(y).convertTo(row, CV_32F);
        const float* src = row.ptr<float>();
        float* lo = cellLow.ptr<float>(y / f);
        float* hi = cellHigh.ptr<float>(y / f);
        for (int cell = 0; cell < cellsX; ++cell) {
            float* l = lo + static_cast<std::ptrdiff_t>(cell) * channels;
            float* h = hi + static_cast<std::ptrdiff_t>(cell) * channels;
            const int end = std::min(padded.cols, (cell + 1) * f);
            for (int x = cell * f; x < end; ++x) {
                const float* p = src + static_cast<std::ptrdiff_t>(x) * channels;
                for (int c = 0; c < channels; ++c) {
                    l[c] = std::min(l[c], p[c]);
                    h[c] = std::max(h[c], p[c]);
                }
            }
        }
    }
    // A block at (X, Y) reads cells X .. X + spanX - 1 and Y .. Y + spanY - 1.
    const int spanX = (f + kw - 1 + f - 1) / f;
    const int spanY = (f + kh - 1 + f - 1) / f;
    const cv::Mat box = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(spanX, spanY), cv::Point(0, 0));
    cv::erode(cellLow, low, box, cv::Point(0, 0), 1, cv::BORDER_REPLICATE);
    cv::dilate(cellHigh, high, box, cv::Point(0, 0), 1, cv::BORDER_REPLICATE);
    low = low(cv::Rect(0, 0, blocksX, blocksY));
    high = high(cv::Rect(0, 0, blocksX, blocksY));
}

/// True when the step's output can fall outside outDepth's range for some input in [low, high]
/// (per channel), i.e. a block's pixels might saturate.
bool maySaturate(const filters::FilterSpec& spec, int outDepth, const float* low, const float* high, int channels)
{
    double positive = 0.0;
    double negative = 0.0;
    for (const double w : spec.kernel.weights) {
        (w > 0 ? positive : negative) += w;
    }
    const double top = outDepth == CV_8U ? 255.0 : 65535.0;
    for (int c = 0; c < channels; ++c) {
        double lo = positive * low[c] + negative * high[c];
        double hi = positive * high[c] + negative * low[c];
        lo = spec.scale * lo + spec.offset;
        hi = spec.scale * hi + spec.offset;
        if (lo > hi) {
            std::swap(lo, hi);
        }
        if (lo < -0.5 || hi >= top + 0.5) {
            return true;
        }
    }
    return false;
}

bool wholeRangeMaySaturate(const cv::Mat& src, const filters::FilterSpec& spec, int outDepth)
{
    std::vector<cv::Mat> planes;
    cv::split(src, planes);
    std::vector<float> low;
    std::vector<float> high;
    for (const cv::Mat& plane : planes) {
        double lo = 0.0;
        double hi = 0.0;
        cv::minMaxLoc(plane, &lo, &hi);
        low.push_back(
            static_cast<float>(std::min(lo, spec.border == filters::Border::Constant ? spec.borderValue : lo)));
        high.push_back(
            static_cast<float>(std::max(hi, spec.border == filters::Border::Constant ? spec.borderValue : hi)));
    }
    return maySaturate(spec, outDepth, low.data(), high.data(), src.channels());
}

}  // namespace

cv::Mat blockMeans(const cv::Mat& image, int factor)
{
    const int f = std::max(1, factor);
    const int channels = image.channels();
    const int outW = (image.cols + f - 1) / f;
    const int outH = (image.rows + f - 1) / f;
    cv::Mat sums(outH, outW, CV_64FC(channels), cv::Scalar::all(0.0));
    cv::Mat row;
    for (int y = 0; y < image.rows; ++y) {
        image.row(y).convertTo(row, CV_64F);
        const double* src = row.ptr<double>();
        double* dst = sums.ptr<double>(y / f);
        for (int x = 0; x < image.cols; ++x) {
            double* cell = dst + static_cast<std::ptrdiff_t>(x / f) * channels;
            for (int c = 0; c < channels; ++c) {
                cell[c] += src[x * channels + c];
            }
        }
    }
    cv::Mat means(outH, outW, CV_32FC(channels));
    for (int Y = 0; Y < outH; ++Y) {
        const int h = std::min(f, image.rows - Y * f);
        for (int X = 0; X < outW; ++X) {
            const int w = std::min(f, image.cols - X * f);
            const double* cell = sums.ptr<double>(Y) + static_cast<std::ptrdiff_t>(X) * channels;
            float* out = means.ptr<float>(Y) + static_cast<std::ptrdiff_t>(X) * channels;
            for (int c = 0; c < channels; ++c) {
                out[c] = static_cast<float>(cell[c] / (static_cast<double>(w) * h));
            }
        }
    }
    return means;
}

cv::Mat reduceByBlocks(const cv::Mat& image, int factor)
{
    cv::Mat out;
    if (factor > 1 && image.cols % factor == 0 && image.rows % factor == 0 && image.depth() != CV_32F) {
        // Whole blocks only: OpenCV's area resize at a whole factor sums each block and rounds
        // its mean once, as below, and much faster.
        cv::resize(image, out, cv::Size(image.cols / factor, image.rows / factor), 0, 0, cv::INTER_AREA);
        return out;
    }
    blockMeans(image, factor).convertTo(out, image.depth());
    return out;
}

namespace {

/// One reduced run: the padded source, the step, the factor and the block grid it fills.
struct Reduction {
    const cv::Mat& padded;
    const filters::FilterSpec& spec;
    int f;
    int channels;
    int blocksX;  ///< whole blocks; the partial ones are filtered exactly
    int blocksY;
    int outDepth;
    cv::Mat& means;

    /// The whole blocks of a separable kernel: down the rows first (at the block rows only),
    /// then across at the block columns.
    void separableBlocks(double norm) const
    {
        const std::vector<float> across = withBox(spec.separable->row, f, norm);
        const std::vector<float> down = withBox(spec.separable->column, f, 1.0);
        inStripes(blocksY, [&](const cv::Range& ys) {
            PhaseRows rows(padded, f, spec.kernel.height + f - 1);
            std::vector<float> column(static_cast<std::size_t>(rows.span()));
            for (int Y = ys.start; Y < ys.end; ++Y) {
                std::fill(column.begin(), column.end(), 0.0f);
                for (std::size_t t = 0; t < down.size(); ++t) {
                    axpy(column.data(), rows.get(Y * f + static_cast<int>(t)), down[t], rows.span());
                }
                stridedTaps(rows, column.data(), across, blocksX, channels, means.ptr<float>(Y));
            }
        });
    }

    /// The whole blocks of any kernel: each row of the kernel widened by the block, its taps
    /// across, row by row.
    void denseBlocks(double norm) const
    {
        const int kw = spec.kernel.width;
        const int kh = spec.kernel.height;
        std::vector<std::vector<float>> rowsTaps(static_cast<std::size_t>(kh + f - 1),
                                                 std::vector<float>(static_cast<std::size_t>(kw + f - 1), 0.0f));
        for (int j = 0; j < kh; ++j) {
            std::vector<double> taps(static_cast<std::size_t>(kw));
            for (int i = 0; i < kw; ++i) {
                taps[static_cast<std::size_t>(i)] = spec.kernel.at(i, j);
            }
            const std::vector<float> boxed = withBox(taps, f, norm);
            for (int d = 0; d < f; ++d) {
                for (std::size_t t = 0; t < boxed.size(); ++t) {
                    rowsTaps[static_cast<std::size_t>(j + d)][t] += boxed[t];
                }
            }
        }
        inStripes(blocksY, [&](const cv::Range& ys) {
            PhaseRows rows(padded, f, kh + f - 1);
            for (int Y = ys.start; Y < ys.end; ++Y) {
                for (std::size_t s = 0; s < rowsTaps.size(); ++s) {
                    stridedTaps(rows, rows.get(Y * f + static_cast<int>(s)), rowsTaps[s], blocksX, channels,
                                means.ptr<float>(Y));
                }
            }
        });
    }

    /// Each run of neighbouring whole blocks whose pixels might saturate, filtered exactly.
    void exactWhereClipping() const
    {
        cv::Mat low;
        cv::Mat high;
        reachRange(padded, f, spec.kernel.width, spec.kernel.height, blocksX, blocksY, low, high);
        inStripes(blocksY, [&](const cv::Range& ys) {
            for (int Y = ys.start; Y < ys.end; ++Y) {
                const auto flagged = [&](int x) {
                    return maySaturate(spec, outDepth, low.ptr<float>(Y) + x * channels,
                                       high.ptr<float>(Y) + x * channels, channels);
                };
                for (int X = 0; X < blocksX;) {
                    if (!flagged(X)) {
                        ++X;
                        continue;
                    }
                    int end = X + 1;
                    while (end < blocksX && flagged(end)) {
                        ++end;
                    }
                    const cv::Rect area(X * f, Y * f, (end - X) * f, f);
                    putBlockMeans(exactArea(padded, spec, outDepth, area), area.tl(), f, means);
                    X = end;
                }
            }
        });
    }

    /// The partial blocks at the right and bottom edges of an image of size, filtered exactly.
    void partialBlocks(cv::Size size) const
    {
        if (blocksX * f < size.width) {
            const cv::Rect area(blocksX * f, 0, size.width - blocksX * f, size.height);
            putBlockMeans(exactArea(padded, spec, outDepth, area), area.tl(), f, means);
        }
        if (blocksY * f < size.height) {
            const cv::Rect area(0, blocksY * f, blocksX * f, size.height - blocksY * f);
            putBlockMeans(exactArea(padded, spec, outDepth, area), area.tl(), f, means);
        }
    }
};

}  // namespace

std::optional<cv::Mat> reducedCorrelation(const cv::Mat& src, const filters::FilterChain& chain, int factor)
{
    const int f = factor;
    if (chain.steps.size() != 1 || f < 2 || src.empty() || src.cols < f || src.rows < f) {
        return std::nullopt;
    }
    if (src.depth() == CV_32F) {
        const filters::FloatRange range = filters::scanFloatRange(src);
        if (range.nonFinite || range.maxExponent > 100) {
            return std::nullopt;  // sums over a block could overflow where single pixels do not
        }
    }
    const filters::FilterSpec& spec = chain.steps.front();
    const int outDepth = filters::resolveOutputDepth(spec.depth, src.depth());
    const filters::Halo halo = spec.halo();
    cv::Mat padded;
    cv::copyMakeBorder(src, padded, halo.top, halo.bottom, halo.left, halo.right, filters::toCvBorder(spec.border),
                       cv::Scalar::all(spec.borderValue));
    cv::Mat means((src.rows + f - 1) / f, (src.cols + f - 1) / f, CV_32FC(src.channels()), cv::Scalar::all(0.0));
    const Reduction run{padded, spec, f, src.channels(), src.cols / f, src.rows / f, outDepth, means};
    const double norm = spec.scale / (static_cast<double>(f) * f);
    if (spec.separable) {
        run.separableBlocks(norm);
    } else {
        run.denseBlocks(norm);
    }
    if (spec.offset != 0.0) {
        means(cv::Rect(0, 0, run.blocksX, run.blocksY)) += cv::Scalar::all(spec.offset);
    }
    // When no value of the image's own range can take the output out of its depth's range, no
    // block's pixels can clip.
    if (outDepth != CV_32F && wholeRangeMaySaturate(src, spec, outDepth)) {
        run.exactWhereClipping();
    }
    run.partialBlocks(src.size());
    if (outDepth == CV_32F) {
        return means;
    }
    cv::Mat out;
    means.convertTo(out, outDepth);
    return out;
}

}  // namespace tessera::app
