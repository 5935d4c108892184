// SPDX-License-Identifier: Apache-2.0
#include "gpu/exec/resident/resident_bands.h"

#include "values/errors.h"
#include "tessera/gpu/values.h"
#include "gpu/exec/band_crew.h"
#include "gpu/exec/chain_runner.h"
#include "gpu/plan/plan_data.h"
#include "filters/float_range.h"
#include "tessera/gpu/device_info.h"
#include "gpu/runtime/nvtx_range.h"
#include "tessera/gpu/pixel_format.h"
#include "tessera/gpu/resources.h"
#include "gpu/exec/streamed/tile_worker.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <optional>
#include <chrono>
#include <cstring>
#include <functional>
#include <limits>
#include <mutex>
#include <stdexcept>

namespace tessera::gpu {

namespace {

using Clock = std::chrono::steady_clock;

double usSince(Clock::time_point origin)
{
    return std::chrono::duration<double, std::micro>(Clock::now() - origin).count();
}

// One GPU's rows: the stored input (out rows plus halo rows), its stream and buffers.
struct Band {
    DeviceInfo info;
    Tile tile;  // out: the rows this GPU answers for; in: the rows it stores
    Stream stream;
    RawDeviceBuffer data;
    DeviceImage image;
    ChainRunner runner;
    RawPinnedBuffer stage;
    RawDeviceBuffer blockSums;  // a reduced request's block sums, before they are downloaded
    Event start;
    Event kernels;
    Event downloaded;
    double referenceUs = 0.0;
    Tile work;           // the part of the current request this band computes
    DeviceImage output;  // where its result is, until the next request
    std::string label;

    explicit Band(const DeviceInfo& d) : info(d), stream(d.id), runner(d), start(d.id), kernels(d.id), downloaded(d.id)
    {
    }
};

bool covers(const filters::Halo& stored, const filters::Halo& need)
{
    return stored.left >= need.left && stored.right >= need.right && stored.top >= need.top &&
           stored.bottom >= need.bottom;
}

}  // namespace

struct ResidentBands::State {
    cv::Mat image;
    PixelFormat format;
    std::vector<DeviceSlot> slots;
    std::vector<DeviceInfo> infos;
    int haloRows = 32;
    bool laidOut = false;
    filters::Halo stored;
    EdgeModes edges;
    std::vector<std::unique_ptr<Band>> bands;
    double uploadMs = 0.0;
    std::unique_ptr<BandCrew> crew;
    /// What one scan tells of an f32 image's values, made at its first chain (the bands live
    /// as long as the image's pixels stay as they are). A preview runs many chains over one
    /// image, so one pass buys every later plan its bound: the FFT choice under the float
    /// rule, and the separable walks' check skipped where no output can leave the finite range.
    std::optional<SourceValues> values;

    SourceValues sourceValues()
    {
        if (image.depth() != CV_32F) {
            return {};
        }
        if (!values) {
            values = sourceValuesOf(filters::scanFloatRange(image));
        }
        return *values;
    }

    TileRequest request(const filters::Halo& halo, const EdgeModes& modes) const
    {
        TileRequest rq;
        rq.width = image.cols;
        rq.height = image.rows;
        rq.halo = halo;
        rq.edges = modes;
        rq.pixelBytes = {format.bytesPerPixel(), 0, 0};
        for (std::size_t i = 0; i < slots.size(); ++i) {
            rq.devices.push_back({SlotIndex{i},
                                  std::numeric_limits<std::size_t>::max() / 4,
                                  slots[i].speed > 0.0 ? slots[i].speed : 1.0,
                                  {}});
        }
        return rq;
    }

    // The halo a band stores for a chain of halo `need`: the chain's whole reach plus one on
    // each side, so that a request cut at an image edge finds every pixel a reflection there
    // reads (see the planner's Border rule), and at least the default rows.
    filters::Halo storedFor(const filters::Halo& need) const
    {
        const int across = need.left + need.right + 1;
        const int down = need.top + need.bottom + 1;
        return {std::max(across, 8), std::max(across, 8), std::max(down, haloRows), std::max(down, haloRows)};
    }

    void layOut(const filters::Halo& need, const EdgeModes& modes)
    {
        const filters::Halo halo = storedFor(need);
        const auto tiles = planBands(request(halo, modes));
        bands.clear();
        laidOut = false;
        const auto t0 = Clock::now();
        const std::size_t bpp = format.bytesPerPixel();
        for (std::size_t i = 0; i < tiles.size(); ++i) {
            if (tiles[i].out.empty()) {
                continue;
            }
            auto band = std::make_unique<Band>(infos[i]);
            band->tile = tiles[i];
            const Rect& in = tiles[i].in;
            const std::size_t pitch = static_cast<std::size_t>(in.width) * bpp;
            band->data = RawDeviceBuffer(pitch * static_cast<std::size_t>(in.height), infos[i].id);
            band->image = {band->data.data(), pitch, in.width, in.height, format};
            band->stage = RawPinnedBuffer(pitch * static_cast<std::size_t>(in.height));
            gatherTileInput(image, tiles[i], band->stage.data(), pitch);
            copy2DAsync(band->data.data(), pitch, band->stage.data(), pitch, pitch, static_cast<std::size_t>(in.height),
                        band->stream);
            bands.push_back(std::move(band));
        }
        for (auto& b : bands) {
            b->stream.synchronize();
        }
        uploadMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        stored = halo;
        edges = modes;
        laidOut = true;
    }

    void ensureLayout(const filters::FilterChain& chain)
    {
        const filters::Halo need = chain.halo();
        const EdgeModes modes = edgeModes(chain);
        if (!laidOut || !(modes == edges) || !covers(stored, storedFor(need))) {
            NvtxRange range("lay out resident bands");
            layOut(need, modes);
        }
    }

    // The bands that hold rows of `region`, each with its work tile (what it computes).
    std::vector<Band*> select(const filters::FilterChain& chain, const Rect& region)
    {
        const TileRequest rq = request(chain.halo(), edgeModes(chain));
        std::vector<Band*> used;
        for (auto& b : bands) {
            const Rect& out = b->tile.out;
            const int top = std::max(region.y, out.y);
            const int bottom = std::min(region.bottom(), out.bottom());
            if (bottom <= top) {
                continue;
            }
            b->work = tileFor({region.x, top, region.width, bottom - top}, rq);
            const Rect& need = b->work.in;
            const Rect& have = b->tile.in;
            if (need.x < have.x || need.y < have.y || need.right() > have.right() || need.bottom() > have.bottom()) {
                throw PreconditionError("resident band does not hold the rows a request needs");
            }
            used.push_back(b.get());
        }
        return used;
    }

    // Enqueues the chain on one band's work tile; its output is b.output.
    void launch(Band& b, const filters::FilterChain& chain, Method method, TensorCores tensor, Clock::time_point origin,
                int index)
    {
        const Rect& need = b.work.in;
        const Rect& have = b.tile.in;
        DeviceImage view = b.image;
        view.data = static_cast<char*>(view.data) + static_cast<std::size_t>(need.y - have.y) * view.pitch +
                    static_cast<std::size_t>(need.x - have.x) * format.bytesPerPixel();
        view.width = need.width;
        view.height = need.height;
        b.runner.setTensorCores(tensor);
        b.runner.setSourceValues(sourceValues());
        const std::vector<Plan>& plans = b.runner.plansFor(chain, format, view.width, view.height, method);
        b.referenceUs = usSince(origin);
        b.start.record(b.stream);
        {
            NvtxRange range("band " + std::to_string(index) + " kernels");
            // Only the band's own rows are needed; the rest of the view is their halo.
            const RowSpan own{b.work.out.y - need.y, b.work.out.height};
            b.output = b.runner.run(chain, view, method, b.stream, nullptr, own);
        }
        b.kernels.record(b.stream);
        b.label.clear();
        for (const auto& p : plans) {
            b.label += (b.label.empty() ? "" : ", ") + toString(p.method);
        }
    }

    // Runs job(i) for every used band at once, one thread per band.
    void together(std::size_t count, const std::function<void(int)>& job)
    {
        if (!crew || crew->helpers() + 1 < static_cast<int>(count)) {
            crew = std::make_unique<BandCrew>(static_cast<int>(bands.size()) - 1);
        }
        crew->run(static_cast<int>(count), job);
    }

    // The plan of each step as band b ran it, and how the image is laid out.
    void describePlans(Band& b, const filters::FilterChain& chain, Method method, RunReport& report) const
    {
        for (const auto& p : b.runner.plansFor(chain, format, b.work.in.width, b.work.in.height, method)) {
            report.methods.push_back(p.describe());
            report.stepMethods.push_back(p.method);
        }
        report.plan = std::to_string(bands.size()) + (bands.size() == 1 ? " band" : " bands") + " of " +
                      std::to_string(image.cols) + " x " + std::to_string(image.rows) + ", halo " +
                      std::to_string(stored.top) + " rows";
    }

    TimingRecord record(const Band& b, int index, Phase phase, const std::string& label, const Event& from,
                        const Event& to, std::uint64_t bytes) const
    {
        const auto at = [&](const Event& e) { return b.referenceUs + 1000.0 * e.elapsedSince(b.start); };
        return {b.info.id,
                0,
                index,
                phase,
                label,
                at(from),
                at(to),
                bytes,
                b.work.out.x,
                b.work.out.y,
                b.work.out.width,
                b.work.out.height};
    }
};

ResidentBands::ResidentBands(const cv::Mat& image, std::vector<DeviceSlot> slots, int haloRows)
    : state_(std::make_unique<State>())
{
    if (image.empty()) {
        throw InvalidInput("cannot keep an empty image on the GPUs");
    }
    if (slots.empty()) {
        throw InvalidInput("resident bands need at least one GPU");
    }
    auto& s = *state_;
    s.image = image;
    s.format = pixelFormatFromCvType(image.type());
    s.haloRows = std::max(0, haloRows);
    const DeviceSnapshot snap = enumerateDevices();
    for (const auto& slot : slots) {
        if (slot.isCpu()) {
            throw InvalidInput("resident bands live on GPUs; the CPU path needs no upload");
        }
        const auto found = std::find_if(snap.devices.begin(), snap.devices.end(),
                                        [&](const DeviceInfo& d) { return d.id == slot.gpu; });
        if (found == snap.devices.end()) {
            throw InvalidInput(describe(slot.gpu) + " does not exist" +
                               (snap.hasGpu() ? "" : " (" + snap.reason + ")"));
        }
        s.infos.push_back(*found);
    }
    s.slots = std::move(slots);
    s.layOut({}, {});
}

ResidentBands::~ResidentBands() = default;

namespace {

/// The block means in outType from the block sums of an image of size: whole blocks in one
/// scaled conversion, the partial ones at the right and bottom edges by their own pixel counts.
cv::Mat blockSumsToMeans(const cv::Mat& sums, int f, cv::Size size, int outType)
{
    cv::Mat means(sums.size(), outType);
    const int depth = CV_MAT_DEPTH(outType);
    const cv::Rect whole(0, 0, size.width / f, size.height / f);
    if (!whole.empty()) {
        cv::Mat part = means(whole);
        sums(whole).convertTo(part, depth, 1.0 / (static_cast<double>(f) * f));
    }
    const auto edge = [&](const cv::Rect& cells) {
        if (cells.empty()) {
            return;
        }
        cv::Mat scaled(cells.size(), sums.type());
        const int channels = sums.channels();
        for (int y = 0; y < cells.height; ++y) {
            const int h = std::min(f, size.height - (cells.y + y) * f);
            const float* in = sums.ptr<float>(cells.y + y) + static_cast<std::ptrdiff_t>(cells.x) * channels;
            float* o = scaled.ptr<float>(y);
            for (int x = 0; x < cells.width; ++x) {
                const float n = static_cast<float>(h * std::min(f, size.width - (cells.x + x) * f));
                for (int c = 0; c < channels; ++c) {
                    o[x * channels + c] = in[x * channels + c] / n;
                }
            }
        }
        cv::Mat part = means(cells);
        scaled.convertTo(part, depth);
    };
    edge(cv::Rect(whole.width, 0, sums.cols - whole.width, sums.rows));
    edge(cv::Rect(0, whole.height, whole.width, sums.rows - whole.height));
    return means;
}

/// After band b's chain was launched: downloads its output rows inside the request `inside`
/// into out (the request's pixels, outBpp bytes each). Returns the bytes downloaded.
std::size_t downloadRows(Band& b, const cv::Rect& inside, std::size_t outBpp, cv::Mat& out)
{
    const Tile& w = b.work;
    const std::size_t rowBytes = static_cast<std::size_t>(w.out.width) * outBpp;
    const std::size_t bytes = rowBytes * static_cast<std::size_t>(w.out.height);
    if (b.stage.bytes() < bytes) {
        b.stage = RawPinnedBuffer();
        b.stage = RawPinnedBuffer(bytes);
    }
    const DeviceImage& o = b.output;
    const char* first = static_cast<const char*>(o.data) + static_cast<std::size_t>(w.out.y - w.in.y) * o.pitch +
                        static_cast<std::size_t>(w.out.x - w.in.x) * outBpp;
    copy2DAsync(b.stage.data(), rowBytes, first, o.pitch, rowBytes, static_cast<std::size_t>(w.out.height), b.stream);
    b.downloaded.record(b.stream);
    b.downloaded.synchronize();
    for (int row = 0; row < w.out.height; ++row) {
        std::memcpy(out.ptr(w.out.y - inside.y + row) + static_cast<std::size_t>(w.out.x - inside.x) * outBpp,
                    static_cast<const char*>(b.stage.data()) + static_cast<std::size_t>(row) * rowBytes, rowBytes);
    }
    return bytes;
}

/// After band b's chain was launched: sums its result's f x f blocks on the GPU, downloads the
/// sums and adds them into sums (the whole image's block grid; a block row shared with the next
/// band gets both parts). Returns the bytes downloaded.
std::size_t downloadBlockSums(Band& b, int f, cv::Mat& sums, std::mutex& merging)
{
    const Tile& w = b.work;
    if (w.out.x != 0) {
        throw InvalidInput("block sums need bands of whole rows");
    }
    DeviceImage view = b.output;
    const std::size_t bpp = b.output.format.bytesPerPixel();
    view.data = static_cast<char*>(b.output.data) + static_cast<std::size_t>(w.out.y - w.in.y) * b.output.pitch +
                static_cast<std::size_t>(w.out.x - w.in.x) * bpp;
    view.width = w.out.width;
    view.height = w.out.height;
    const int rows = detail::blockSumRows(w.out.y, w.out.height, f);
    const std::size_t rowFloats = static_cast<std::size_t>(sums.cols) * sums.channels();
    const std::size_t bytes = rowFloats * sizeof(float) * static_cast<std::size_t>(rows);
    if (b.blockSums.bytes() < bytes) {
        b.blockSums = RawDeviceBuffer();
        b.blockSums = RawDeviceBuffer(bytes, b.info.id);
    }
    if (b.stage.bytes() < bytes) {
        b.stage = RawPinnedBuffer();
        b.stage = RawPinnedBuffer(bytes);
    }
    detail::launchBlockSums(view, w.out.y, f, static_cast<float*>(b.blockSums.data()), b.stream);
    copy2DAsync(b.stage.data(), bytes, b.blockSums.data(), bytes, bytes, 1, b.stream);
    b.downloaded.record(b.stream);
    b.downloaded.synchronize();
    const cv::Mat got(rows, sums.cols, sums.type(), b.stage.data());
    const std::lock_guard lock(merging);
    cv::Mat target = sums.rowRange(w.out.y / f, w.out.y / f + rows);
    cv::add(target, got, target);
    return bytes;
}

}  // namespace

cv::Mat ResidentBands::apply(const filters::FilterChain& chain, const cv::Rect& region, Method method,
                             TensorCores tensor, RunReport* report, int reduce)
{
    auto& s = *state_;
    const cv::Rect whole(0, 0, s.image.cols, s.image.rows);
    const cv::Rect inside = region.empty() ? whole : (region & whole);
    if (inside.empty()) {
        throw InvalidInput("the requested region lies outside the image");
    }
    if (chain.steps.empty()) {
        return s.image(inside).clone();
    }
    const auto origin = Clock::now();
    s.ensureLayout(chain);
    const Rect r{inside.x, inside.y, inside.width, inside.height};
    const auto used = s.select(chain, r);
    const int outType = chainOutputType(chain, s.image.type());
    const std::size_t outBpp = CV_ELEM_SIZE(outType);
    const int f = std::max(1, reduce);
    const bool reduced = f > 1 && inside == whole;
    const int channels = CV_MAT_CN(outType);
    cv::Mat out = reduced ? cv::Mat((whole.height + f - 1) / f, (whole.width + f - 1) / f, CV_32FC(channels),
                                    cv::Scalar::all(0.0))
                          : cv::Mat(inside.height, inside.width, outType);
    std::mutex merging;
    std::vector<std::size_t> downloadedBytes(used.size(), 0);
    // Every GPU launches, downloads and copies its rows on a thread of its own.
    s.together(used.size(), [&](int i) {
        if (reduced) {
            Band& b = *used[static_cast<std::size_t>(i)];
            s.launch(b, chain, method, tensor, origin, i);
            downloadedBytes[static_cast<std::size_t>(i)] = downloadBlockSums(b, f, out, merging);
            return;
        }
        Band& b = *used[static_cast<std::size_t>(i)];
        s.launch(b, chain, method, tensor, origin, i);
        downloadedBytes[static_cast<std::size_t>(i)] = downloadRows(b, inside, outBpp, out);
    });
    RunReport local;
    local.placement = Placement::Resident;
    for (std::size_t i = 0; i < used.size(); ++i) {
        Band& b = *used[i];
        const Tile& w = b.work;
        const int index = static_cast<int>(i);
        local.records.push_back(
            s.record(b, index, Phase::Kernel, b.label, b.start, b.kernels,
                     static_cast<std::uint64_t>(w.in.area()) * (s.format.bytesPerPixel() + outBpp)));
        local.records.push_back(s.record(b, index, Phase::Download, reduced ? "download block sums" : "download",
                                         b.kernels, b.downloaded, downloadedBytes[i]));
        local.tiles.push_back(w);
        local.computed.push_back(true);
        SlotReport slot;
        slot.slot = DeviceSlot{b.info.id, 0, 1.0};
        slot.tiles = 1;
        slot.busyMs = b.downloaded.elapsedSince(b.start);
        local.slotReports.push_back(slot);
    }
    if (!used.empty()) {
        s.describePlans(*used.front(), chain, method, local);
    }
    if (reduced) {
        out = blockSumsToMeans(out, f, whole.size(), outType);
    }
    local.wallMs = usSince(origin) / 1000.0;
    if (report != nullptr) {
        *report = std::move(local);
    }
    return out;
}

double ResidentBands::runInPlace(const filters::FilterChain& chain, Method method, TensorCores tensor,
                                 RunReport* report)
{
    auto& s = *state_;
    if (chain.steps.empty()) {
        return 0.0;
    }
    s.ensureLayout(chain);
    const auto used = s.select(chain, Rect{0, 0, s.image.cols, s.image.rows});
    const auto origin = Clock::now();
    s.together(used.size(), [&](int i) {
        Band& b = *used[static_cast<std::size_t>(i)];
        s.launch(b, chain, method, tensor, origin, i);
        b.kernels.synchronize();
    });
    const double wallMs = usSince(origin) / 1000.0;
    if (report != nullptr) {
        RunReport local;
        const std::size_t outBpp = CV_ELEM_SIZE(chainOutputType(chain, s.image.type()));
        for (std::size_t i = 0; i < used.size(); ++i) {
            const Band& b = *used[i];
            local.records.push_back(
                s.record(b, static_cast<int>(i), Phase::Kernel, b.label, b.start, b.kernels,
                         static_cast<std::uint64_t>(b.work.in.area()) * (s.format.bytesPerPixel() + outBpp)));
            local.tiles.push_back(b.work);
            local.computed.push_back(true);
        }
        if (!used.empty()) {
            s.describePlans(*used.front(), chain, method, local);
        }
        local.placement = Placement::Resident;
        local.wallMs = wallMs;
        *report = std::move(local);
    }
    return wallMs;
}

std::vector<Tile> ResidentBands::bands() const
{
    std::vector<Tile> out;
    for (const auto& b : state_->bands) {
        Tile t = b->tile;
        t.device = b->info.id;
        out.push_back(t);
    }
    return out;
}

double ResidentBands::uploadMilliseconds() const
{
    return state_->uploadMs;
}

const std::vector<DeviceSlot>& ResidentBands::deviceSlots() const
{
    return state_->slots;
}

}  // namespace tessera::gpu
