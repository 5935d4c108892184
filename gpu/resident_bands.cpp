#include "gpu/resident_bands.h"

#include "gpu/chain_runner.h"
#include "gpu/device_info.h"
#include "gpu/nvtx_range.h"
#include "gpu/pixel_format.h"
#include "gpu/resources.h"
#include "gpu/tile_worker.h"

#include <opencv2/core.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
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
    Event start;
    Event kernels;
    Event downloaded;
    double referenceUs = 0.0;
    Tile work;  // the part of the current request this band computes
    std::string label;

    explicit Band(const DeviceInfo& d)
        : info(d), stream(d.id), runner(d), start(d.id), kernels(d.id), downloaded(d.id)
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

    TileRequest request(const filters::Halo& halo, const EdgeModes& modes) const
    {
        TileRequest rq;
        rq.width = image.cols;
        rq.height = image.rows;
        rq.halo = halo;
        rq.edges = modes;
        rq.pixelBytes = {format.bytesPerPixel(), 0, 0};
        for (std::size_t i = 0; i < slots.size(); ++i) {
            rq.devices.push_back({static_cast<int>(i), std::numeric_limits<std::size_t>::max() / 4,
                                  slots[i].speed > 0.0 ? slots[i].speed : 1.0, {}});
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
            copy2DAsync(band->data.data(), pitch, band->stage.data(), pitch, pitch,
                        static_cast<std::size_t>(in.height), band->stream);
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

    // Enqueues the chain for `part` of the output on each band that holds rows of it.
    // Returns the bands used; each band's work tile says what it computes.
    std::vector<Band*> launch(const filters::FilterChain& chain, const Rect& region, Method method,
                              TensorCores tensor, Clock::time_point origin, std::vector<DeviceImage>* outputs)
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
                throw std::logic_error("resident band does not hold the rows a request needs");
            }
            DeviceImage view = b->image;
            view.data = static_cast<char*>(view.data) + static_cast<std::size_t>(need.y - have.y) * view.pitch +
                        static_cast<std::size_t>(need.x - have.x) * format.bytesPerPixel();
            view.width = need.width;
            view.height = need.height;
            b->runner.setTensorCores(tensor);
            b->referenceUs = usSince(origin);
            b->start.record(b->stream);
            std::vector<Plan> plans;
            {
                NvtxRange range("band " + std::to_string(used.size()) + " kernels");
                outputs->push_back(b->runner.run(chain, view, method, b->stream, &plans));
            }
            b->kernels.record(b->stream);
            b->label.clear();
            for (const auto& p : plans) {
                b->label += (b->label.empty() ? "" : ", ") + toString(p.method);
            }
            used.push_back(b.get());
        }
        return used;
    }

    TimingRecord record(const Band& b, int index, Phase phase, const std::string& label, const Event& from,
                        const Event& to, std::uint64_t bytes) const
    {
        const auto at = [&](const Event& e) { return b.referenceUs + 1000.0 * e.elapsedSince(b.start); };
        return {b.info.id, 0, index, phase, label, at(from), at(to), bytes,
                b.work.out.x, b.work.out.y, b.work.out.width, b.work.out.height};
    }
};

ResidentBands::ResidentBands(const cv::Mat& image, std::vector<DeviceSlot> slots, int haloRows)
    : state_(std::make_unique<State>())
{
    if (image.empty()) {
        throw std::invalid_argument("cannot keep an empty image on the GPUs");
    }
    if (slots.empty()) {
        throw std::invalid_argument("resident bands need at least one GPU");
    }
    auto& s = *state_;
    s.image = image;
    s.format = pixelFormatFromCvType(image.type());
    s.haloRows = std::max(0, haloRows);
    const DeviceSnapshot snap = enumerateDevices();
    for (const auto& slot : slots) {
        if (slot.isCpu()) {
            throw std::invalid_argument("resident bands live on GPUs; the CPU path needs no upload");
        }
        const auto found = std::find_if(snap.devices.begin(), snap.devices.end(),
                                        [&](const DeviceInfo& d) { return d.id == slot.gpu; });
        if (found == snap.devices.end()) {
            throw std::invalid_argument("GPU " + std::to_string(slot.gpu) + " does not exist" +
                                        (snap.hasGpu() ? "" : " (" + snap.reason + ")"));
        }
        s.infos.push_back(*found);
    }
    s.slots = std::move(slots);
    s.layOut({}, {});
}

ResidentBands::~ResidentBands() = default;

cv::Mat ResidentBands::apply(const filters::FilterChain& chain, const cv::Rect& region, Method method,
                             TensorCores tensor, MultiRunReport* report)
{
    auto& s = *state_;
    const cv::Rect whole(0, 0, s.image.cols, s.image.rows);
    const cv::Rect inside = region.empty() ? whole : (region & whole);
    if (inside.empty()) {
        throw std::invalid_argument("the requested region lies outside the image");
    }
    if (chain.steps.empty()) {
        return s.image(inside).clone();
    }
    const auto origin = Clock::now();
    s.ensureLayout(chain);
    const Rect r{inside.x, inside.y, inside.width, inside.height};
    std::vector<DeviceImage> outputs;
    const auto used = s.launch(chain, r, method, tensor, origin, &outputs);
    const int outType = chainOutputType(chain, s.image.type());
    const std::size_t outBpp = CV_ELEM_SIZE(outType);
    for (std::size_t i = 0; i < used.size(); ++i) {
        Band& b = *used[i];
        const Tile& w = b.work;
        const std::size_t rowBytes = static_cast<std::size_t>(w.out.width) * outBpp;
        const std::size_t bytes = rowBytes * static_cast<std::size_t>(w.out.height);
        if (b.stage.bytes() < bytes) {
            b.stage = RawPinnedBuffer();
            b.stage = RawPinnedBuffer(bytes);
        }
        const DeviceImage& o = outputs[i];
        const char* first = static_cast<const char*>(o.data) + static_cast<std::size_t>(w.out.y - w.in.y) * o.pitch +
                            static_cast<std::size_t>(w.out.x - w.in.x) * outBpp;
        copy2DAsync(b.stage.data(), rowBytes, first, o.pitch, rowBytes, static_cast<std::size_t>(w.out.height),
                    b.stream);
        b.downloaded.record(b.stream);
    }
    cv::Mat out(inside.height, inside.width, outType);
    MultiRunReport local;
    for (std::size_t i = 0; i < used.size(); ++i) {
        Band& b = *used[i];
        b.downloaded.synchronize();
        const Tile& w = b.work;
        const std::size_t rowBytes = static_cast<std::size_t>(w.out.width) * outBpp;
        for (int row = 0; row < w.out.height; ++row) {
            std::memcpy(out.ptr(w.out.y - inside.y + row) + static_cast<std::size_t>(w.out.x - inside.x) * outBpp,
                        static_cast<const char*>(b.stage.data()) + static_cast<std::size_t>(row) * rowBytes, rowBytes);
        }
        const int index = static_cast<int>(i);
        local.records.push_back(s.record(b, index, Phase::Kernel, b.label, b.start, b.kernels,
                                         static_cast<std::uint64_t>(w.in.area()) * (s.format.bytesPerPixel() + outBpp)));
        local.records.push_back(s.record(b, index, Phase::Download, "download", b.kernels, b.downloaded,
                                         rowBytes * static_cast<std::uint64_t>(w.out.height)));
        local.tiles.push_back(w);
        local.computed.push_back(true);
        SlotReport slot;
        slot.slot = DeviceSlot{b.info.id, 0, 1.0};
        slot.tiles = 1;
        slot.busyMs = b.downloaded.elapsedSince(b.start);
        local.slotReports.push_back(slot);
        if (local.methods.empty()) {
            local.methods.push_back(b.label);
        }
    }
    local.wallMs = usSince(origin) / 1000.0;
    if (report != nullptr) {
        *report = std::move(local);
    }
    return out;
}

double ResidentBands::runInPlace(const filters::FilterChain& chain, Method method, TensorCores tensor,
                                 MultiRunReport* report)
{
    auto& s = *state_;
    if (chain.steps.empty()) {
        return 0.0;
    }
    s.ensureLayout(chain);
    const auto origin = Clock::now();
    std::vector<DeviceImage> outputs;
    const auto used = s.launch(chain, Rect{0, 0, s.image.cols, s.image.rows}, method, tensor, origin, &outputs);
    for (Band* b : used) {
        b->kernels.synchronize();
    }
    const double wallMs = usSince(origin) / 1000.0;
    if (report != nullptr) {
        MultiRunReport local;
        const std::size_t outBpp = CV_ELEM_SIZE(chainOutputType(chain, s.image.type()));
        for (std::size_t i = 0; i < used.size(); ++i) {
            const Band& b = *used[i];
            local.records.push_back(s.record(b, static_cast<int>(i), Phase::Kernel, b.label, b.start, b.kernels,
                                             static_cast<std::uint64_t>(b.work.in.area()) *
                                                 (s.format.bytesPerPixel() + outBpp)));
            local.tiles.push_back(b.work);
            local.computed.push_back(true);
        }
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
