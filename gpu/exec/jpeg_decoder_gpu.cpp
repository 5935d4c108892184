// SPDX-License-Identifier: Apache-2.0
#include "tessera/gpu/jpeg_decoder_gpu.h"

#include "gpu/runtime/nvjpeg_loader.h"
#include "tessera/gpu/resources.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <condition_variable>
#include <mutex>
#include <vector>

namespace tessera::gpu {

namespace nv = nvjpeg;

namespace {

std::mutex faultMutex;
std::function<bool()> faultHook;  // under faultMutex

bool faultInjected()
{
    std::function<bool()> hook;
    {
        const std::lock_guard lock(faultMutex);
        hook = faultHook;
    }
    return hook && hook();
}

std::string cudaText(cudaError_t err)
{
    return std::string(cudaGetErrorName(err)) + " (" + cudaGetErrorString(err) + ")";
}

const detail::NvjpegApi& api()
{
    return detail::nvjpegLibrary().api();
}

/// States borrowed at once, at most: more callers wait for one to come back. Each holds a
/// device buffer as large as the largest image it decoded.
constexpr std::size_t kMaxStates = 8;

}  // namespace

/// One decoding state: a nvJPEG handle and state of its own (nothing of nvJPEG's is shared
/// between concurrent calls), a stream and the output buffer. A hardware state's handle is of
/// the hardware backend and decodes through the batched calls, one image per batch.
struct DecodeState {
    DeviceId device;
    bool hardware = false;
    nv::nvjpegHandle_t handle = nullptr;
    nv::nvjpegJpegState_t state = nullptr;
    Stream stream;
    RawDeviceBuffer buffer;
    bool warmed = false;     // a decode has succeeded on it
    int batchedFormat = -1;  // the output format the batched decoder was set up for; -1: not set up

    /// Throws std::runtime_error naming the nvJPEG call that failed, CudaError.
    DecodeState(DeviceId d, bool onHardware) : device(d), hardware(onHardware), stream(d)
    {
        const ScopedDevice on(device);
        // Chroma interpolated when upsampled, as libjpeg-turbo does; a library that does not
        // know the flag gets the plain handle (the default backend only: the hardware one is
        // not worth having with another upsampling than the tests bound).
        const nv::nvjpegBackend_t backend = hardware ? nv::NVJPEG_BACKEND_HARDWARE : nv::NVJPEG_BACKEND_DEFAULT;
        nv::nvjpegStatus_t s =
            api().nvjpegCreateEx(backend, nullptr, nullptr, nv::NVJPEG_FLAGS_UPSAMPLING_WITH_INTERPOLATION, &handle);
        if (s != nv::NVJPEG_STATUS_SUCCESS && !hardware) {
            handle = nullptr;
            s = api().nvjpegCreateSimple(&handle);
        }
        if (s != nv::NVJPEG_STATUS_SUCCESS) {
            handle = nullptr;
            throw std::runtime_error(
                std::string(hardware ? "nvjpegCreateEx (hardware backend): " : "nvjpegCreateSimple: ") +
                nv::statusName(s));
        }
        s = api().nvjpegJpegStateCreate(handle, &state);
        if (s != nv::NVJPEG_STATUS_SUCCESS) {
            state = nullptr;
            api().nvjpegDestroy(handle);
            throw std::runtime_error("nvjpegJpegStateCreate: " + nv::statusName(s));
        }
    }
    ~DecodeState()
    {
        const ScopedDevice on(device, std::nothrow);
        api().nvjpegJpegStateDestroy(state);
        api().nvjpegDestroy(handle);
    }
    DecodeState(const DecodeState&) = delete;
    DecodeState& operator=(const DecodeState&) = delete;

    /// A fresh nvJPEG state on the same handle, after a failed decode. Throws std::runtime_error.
    void renew()
    {
        api().nvjpegJpegStateDestroy(state);
        state = nullptr;
        batchedFormat = -1;
        if (const nv::nvjpegStatus_t s = api().nvjpegJpegStateCreate(handle, &state); s != nv::NVJPEG_STATUS_SUCCESS) {
            state = nullptr;
            throw std::runtime_error("nvjpegJpegStateCreate: " + nv::statusName(s));
        }
    }

    /// Decodes data into out on the stream, asynchronously: nvjpegDecode on the default
    /// backend; on the hardware one a batch of one, set up on first use and whenever the
    /// output format changes.
    nv::nvjpegStatus_t decode(const unsigned char* data, std::size_t length, nv::nvjpegOutputFormat_t format,
                              nv::nvjpegImage_t& out)
    {
        const auto s = static_cast<nv::cudaStream_t>(stream.handle());
        if (!hardware) {
            return api().nvjpegDecode(handle, state, data, length, format, &out, s);
        }
        if (batchedFormat != static_cast<int>(format)) {
            if (const nv::nvjpegStatus_t init = api().nvjpegDecodeBatchedInitialize(handle, state, 1, 1, format);
                init != nv::NVJPEG_STATUS_SUCCESS) {
                return init;
            }
            batchedFormat = static_cast<int>(format);
        }
        const unsigned char* const streams[1] = {data};
        const std::size_t lengths[1] = {length};
        return api().nvjpegDecodeBatched(handle, state, streams, lengths, &out, s);
    }

    /// The file's pixels decoded into this state's device buffer (grown when too small) and
    /// copied to the host; nullopt with why set when nvJPEG or the copy fails, after which the
    /// state is not to be used again. A first decode, and one that grows the buffer, hold
    /// growing: concurrent first decodes gave NVJPEG_STATUS_ALLOCATOR_FAILURE now and then on
    /// an H200 (nvJPEG 13.0.1). Throws CudaError when the buffer cannot be made.
    std::optional<cv::Mat> decodeToHost(std::span<const std::uint8_t> file, int width, int height, int channels,
                                        std::mutex& growing, std::string& why)
    {
        const ScopedDevice on(device);
        const std::size_t pitch = std::size_t(width) * std::size_t(channels);
        const std::size_t bytes = pitch * std::size_t(height);
        std::unique_lock alone(growing, std::defer_lock);
        if (!warmed || buffer.bytes() < bytes) {
            alone.lock();
        }
        if (buffer.bytes() < bytes) {
            buffer = RawDeviceBuffer();  // free the old one before the larger one is made
            buffer = RawDeviceBuffer(bytes, device);
        }
        nv::nvjpegImage_t out{};
        out.channel[0] = static_cast<unsigned char*>(buffer.data());
        out.pitch[0] = pitch;
        const auto s = static_cast<cudaStream_t>(stream.handle());
        const auto* data = reinterpret_cast<const unsigned char*>(file.data());
        const nv::nvjpegOutputFormat_t format = channels == 1 ? nv::NVJPEG_OUTPUT_Y : nv::NVJPEG_OUTPUT_BGRI;
        nv::nvjpegStatus_t status = decode(data, file.size(), format, out);
        if (status == nv::NVJPEG_STATUS_ALLOCATOR_FAILURE) {
            // Once more on a fresh state, with no other decode allocating meanwhile.
            if (!alone.owns_lock()) {
                alone.lock();
            }
            cudaStreamSynchronize(s);
            cudaGetLastError();
            renew();
            status = decode(data, file.size(), format, out);
        }
        if (status != nv::NVJPEG_STATUS_SUCCESS) {
            why =
                std::string(hardware ? "nvjpegDecodeBatched (hardware): " : "nvjpegDecode: ") + nv::statusName(status);
            cudaStreamSynchronize(s);
            cudaGetLastError();
            return std::nullopt;
        }
        cv::Mat image(height, width, CV_8UC(channels));
        cudaError_t err = cudaMemcpy2DAsync(image.data, image.step[0], out.channel[0], pitch, pitch,
                                            std::size_t(height), cudaMemcpyDeviceToHost, s);
        const cudaError_t synced = cudaStreamSynchronize(s);
        err = err != cudaSuccess ? err : synced;
        if (err != cudaSuccess) {
            cudaGetLastError();
            why = "copying the decoded JPEG from " + gpu::describe(device) + ": " + cudaText(err);
            return std::nullopt;
        }
        warmed = true;
        return image;
    }
};

struct GpuJpegDecoder::Pool {
    std::mutex mutex;
    std::condition_variable returned;
    std::vector<std::unique_ptr<DecodeState>> idle;  // under mutex
    std::size_t made = 0;                            // states alive, idle or borrowed
    std::mutex growing;                              // held by a decode tried again after an allocation failure

    /// An idle state, or permission to make one (null), waiting while kMaxStates are out.
    std::unique_ptr<DecodeState> borrow()
    {
        std::unique_lock lock(mutex);
        returned.wait(lock, [this] { return !idle.empty() || made < kMaxStates; });
        if (!idle.empty()) {
            std::unique_ptr<DecodeState> s = std::move(idle.back());
            idle.pop_back();
            return s;
        }
        ++made;
        return nullptr;
    }

    /// Puts a state back; a null one (failed or not made) frees its place instead.
    void giveBack(std::unique_ptr<DecodeState> s)
    {
        {
            const std::lock_guard lock(mutex);
            if (s) {
                idle.push_back(std::move(s));
            } else {
                --made;
            }
        }
        returned.notify_one();
    }
};

namespace {

/// What the markers before the first scan say: why nvJPEG is not asked (empty when it is), the
/// frame's marker and components, and how many components the first scan holds.
struct JpegHeaders {
    std::string refusal;
    std::uint8_t frame = 0;  // 0xC0 baseline, 0xC1 extended, 0xC2 progressive
    int components = 0;
    int firstScanComponents = 0;
};

/// Why a frame header (marker m, its body) describes a JPEG nvJPEG should not take, or empty.
std::string frameRefusal(std::uint8_t m, const std::uint8_t* body, std::size_t bodyLength, bool jfif,
                         int adobeTransform)
{
    if (m == 0xC3 || m == 0xC7 || m == 0xCB || m == 0xCF) {
        return "lossless JPEG";
    }
    if (m >= 0xC9) {
        return "arithmetic-coded JPEG";
    }
    if (m >= 0xC5) {
        return "hierarchical JPEG";
    }
    if (bodyLength < 6) {
        return "damaged frame header";
    }
    const int precision = body[0];
    const int height = body[1] << 8 | body[2];
    const int width = body[3] << 8 | body[4];
    const int components = body[5];
    if (precision != 8) {
        return std::to_string(precision) + "-bit JPEG";
    }
    if (width == 0 || height == 0) {
        return "JPEG whose height is given after the first scan (DNL)";
    }
    if (components == 4) {
        return adobeTransform == 2 ? "YCCK JPEG (4 components)" : "CMYK JPEG (4 components)";
    }
    if (components != 1 && components != 3) {
        return "JPEG of " + std::to_string(components) + " components";
    }
    if (components == 3 && !jfif) {
        if (adobeTransform == 0) {
            return "RGB JPEG stored without the colour transform (Adobe)";
        }
        if (adobeTransform < 0 && bodyLength >= 6 + 3 * 3 && body[6] == 'R' && body[9] == 'G' && body[12] == 'B') {
            return "RGB JPEG (components named R, G, B)";
        }
    }
    return {};
}

JpegHeaders readJpegHeaders(std::span<const std::uint8_t> file)
{
    JpegHeaders h;
    const auto refuse = [&h](std::string why) {
        h.refusal = std::move(why);
        return h;
    };
    const std::size_t n = file.size();
    if (n < 4 || file[0] != 0xFF || file[1] != 0xD8) {
        return refuse("not a JPEG file");
    }
    bool jfif = false;
    int adobeTransform = -1;  // -1: no Adobe segment
    std::size_t pos = 2;
    while (pos + 1 < n) {
        if (file[pos] != 0xFF) {
            ++pos;  // libjpeg skips stray bytes before a marker too
            continue;
        }
        const std::uint8_t m = file[pos + 1];
        if (m == 0xFF) {
            ++pos;  // fill byte
            continue;
        }
        if (m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7)) {
            pos += 2;
            continue;
        }
        if (m == 0xDA || m == 0xD9) {
            if (h.frame == 0) {
                return refuse("no frame header before the first scan");
            }
            if (m == 0xDA && pos + 4 < n) {
                h.firstScanComponents = file[pos + 4];
            }
            return h;
        }
        if (pos + 3 >= n) {
            break;
        }
        const std::size_t length = std::size_t(file[pos + 2]) << 8 | file[pos + 3];
        if (length < 2 || pos + 2 + length > n) {
            return refuse("damaged marker segment");
        }
        const std::uint8_t* body = file.data() + pos + 4;
        const std::size_t bodyLength = length - 2;
        if (m == 0xE0 && bodyLength >= 5 && std::equal(body, body + 5, "JFIF")) {
            jfif = true;
        } else if (m == 0xEE && bodyLength >= 12 && std::equal(body, body + 5, "Adobe")) {
            adobeTransform = body[11];
        } else if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
            if (std::string why = frameRefusal(m, body, bodyLength, jfif, adobeTransform); !why.empty()) {
                return refuse(std::move(why));
            }
            h.frame = m;
            h.components = body[5];
        }
        pos += 2 + length;
    }
    if (h.frame == 0) {
        return refuse("no frame header");
    }
    return h;  // a frame but no scan: nvJPEG says what is wrong
}

/// The hardware decoder's streams: baseline with every component in one interleaved scan.
bool forHardware(const JpegHeaders& h)
{
    return h.refusal.empty() && h.frame == 0xC0 && h.firstScanComponents == h.components;
}

/// The pixels nvJPEG gives for a file: its size and 1 (grey) or 3 (BGR) channels.
struct DecodedShape {
    int width = 0;
    int height = 0;
    int channels = 0;
};

/// The file's shape as nvJPEG reads its headers, or nullopt with why set when it cannot
/// decode it here (the engines take neither 4:1:1 nor 4:1:0, as nvJPEG documents).
std::optional<DecodedShape> decodedShape(nv::nvjpegHandle_t handle, std::span<const std::uint8_t> file, bool hardware,
                                         std::string& why)
{
    int components = 0;
    nv::nvjpegChromaSubsampling_t subsampling = nv::NVJPEG_CSS_UNKNOWN;
    int widths[nv::NVJPEG_MAX_COMPONENT] = {};
    int heights[nv::NVJPEG_MAX_COMPONENT] = {};
    const auto* data = reinterpret_cast<const unsigned char*>(file.data());
    if (const nv::nvjpegStatus_t s =
            api().nvjpegGetImageInfo(handle, data, file.size(), &components, &subsampling, widths, heights);
        s != nv::NVJPEG_STATUS_SUCCESS) {
        why = "nvjpegGetImageInfo: " + nv::statusName(s);
        return std::nullopt;
    }
    const bool refusedHere = hardware && (subsampling == nv::NVJPEG_CSS_411 || subsampling == nv::NVJPEG_CSS_410);
    if ((components != 1 && components != 3) || subsampling == nv::NVJPEG_CSS_UNKNOWN ||
        subsampling == nv::NVJPEG_CSS_410V || refusedHere || widths[0] <= 0 || heights[0] <= 0) {
        why = "nvJPEG reads " + std::to_string(components) + " components with subsampling " +
              std::to_string(static_cast<int>(subsampling)) + ", which it does not decode here";
        return std::nullopt;
    }
    return DecodedShape{widths[0], heights[0], components == 1 ? 1 : 3};
}

}  // namespace

std::string gpuJpegRefusal(std::span<const std::uint8_t> file)
{
    return readJpegHeaders(file).refusal;
}

bool gpuJpegForEngines(std::span<const std::uint8_t> file)
{
    return forHardware(readJpegHeaders(file));
}

GpuJpegDecoder::GpuJpegDecoder(DeviceId device) : device_(device), pool_(std::make_unique<Pool>())
{
}

GpuJpegDecoder::~GpuJpegDecoder() = default;  // every state is back: decode() calls hold the decoder

bool nvjpegHardwareWanted()
{
    const char* v = std::getenv(kNvjpegHardwareVariable);
    return v == nullptr || std::string_view(v) != "0";
}

std::shared_ptr<GpuJpegDecoder> GpuJpegDecoder::open(DeviceId device, std::string& why)
{
    const detail::NvjpegLibrary& library = detail::nvjpegLibrary();
    if (!library.available()) {
        why = library.error();
        return nullptr;
    }
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || device.isCpu() || device.value() >= count) {
        cudaGetLastError();
        why = "GPU JPEG decoding unavailable: no " + gpu::describe(device) +
              (err != cudaSuccess ? " (" + cudaText(err) + ")" : " (" + std::to_string(count) + " CUDA devices)");
        return nullptr;
    }
    std::shared_ptr<GpuJpegDecoder> decoder;
    try {
        // The first state is made now, so that a device where nvJPEG cannot start says so here.
        auto first = std::make_unique<DecodeState>(device, false);
        decoder.reset(new GpuJpegDecoder(device));
        decoder->pool_->made = 1;
        decoder->pool_->idle.push_back(std::move(first));
    } catch (const std::exception& e) {
        clearLastError();
        why = "GPU JPEG decoding unavailable on " + gpu::describe(device) + ": " + e.what();
        return nullptr;
    }
    // The decode engines, where the GPU has them and they are not turned off: a device without
    // them refuses the hardware backend, and every file then takes the default one.
    if (!nvjpegHardwareWanted()) {
        decoder->hardwareWhy_ = std::string("turned off by ") + kNvjpegHardwareVariable + "=0";
        return decoder;
    }
    try {
        auto first = std::make_unique<DecodeState>(device, true);
        decoder->hardwarePool_ = std::make_unique<Pool>();
        decoder->hardwarePool_->made = 1;
        decoder->hardwarePool_->idle.push_back(std::move(first));
    } catch (const std::exception& e) {
        clearLastError();
        decoder->hardwareWhy_ = e.what();
    }
    return decoder;
}

std::optional<cv::Mat> GpuJpegDecoder::decode(std::span<const std::uint8_t> file, std::string& why)
{
    if (faultInjected()) {
        why = "nvjpegDecode: " + nv::statusName(nv::NVJPEG_STATUS_EXECUTION_FAILED) + " (injected fault)";
        return std::nullopt;
    }
    const JpegHeaders headers = readJpegHeaders(file);
    if (!headers.refusal.empty()) {
        why = headers.refusal;
        return std::nullopt;
    }
    if (hardwarePool_ && forHardware(headers)) {
        std::string hardwareWhy;
        if (std::optional<cv::Mat> image = decodeOn(*hardwarePool_, true, file, hardwareWhy)) {
            hardwareDecodes_.fetch_add(1, std::memory_order_relaxed);
            return image;
        }
        // The engines refused or failed: the default backend tries the same file.
    }
    return decodeOn(*pool_, false, file, why);
}

std::optional<cv::Mat> GpuJpegDecoder::decodeOn(Pool& pool, bool hardware, std::span<const std::uint8_t> file,
                                                std::string& why)
{
    std::unique_ptr<DecodeState> state = pool.borrow();
    if (!state) {
        try {
            state = std::make_unique<DecodeState>(device_, hardware);
        } catch (const std::exception& e) {
            clearLastError();
            pool.giveBack(nullptr);
            why = std::string("GPU JPEG decoding failed on ") + gpu::describe(device_) + ": " + e.what();
            return std::nullopt;
        }
    }
    std::string infoWhy;
    const std::optional<DecodedShape> shape = decodedShape(state->handle, file, hardware, infoWhy);
    if (!shape) {
        why = std::move(infoWhy);
        pool.giveBack(std::move(state));
        return std::nullopt;
    }
    try {
        std::optional<cv::Mat> image =
            state->decodeToHost(file, shape->width, shape->height, shape->channels, pool.growing, why);
        // A state a failed decode leaves behind is not trusted again.
        pool.giveBack(image ? std::move(state) : nullptr);
        return image;
    } catch (const std::exception& e) {
        clearLastError();
        why = std::string("GPU JPEG decoding failed on ") + gpu::describe(device_) + ": " + e.what();
        state.reset();
        pool.giveBack(nullptr);
        return std::nullopt;
    }
}

std::string GpuJpegDecoder::describe() const
{
    return "nvJPEG " + detail::nvjpegLibrary().version() + " on " + gpu::describe(device_) +
           (hardwarePool_ ? ", baseline JPEGs on the decode engines" : ", no decode engines: " + hardwareWhy_);
}

bool GpuJpegDecoder::hasHardwareDecoder() const
{
    return hardwarePool_ != nullptr;
}

std::string GpuJpegDecoder::label() const
{
    return "nvJPEG (" + gpu::describe(device_) + ")";
}

void setGpuJpegFaultForTesting(std::function<bool()> fault)
{
    const std::lock_guard lock(faultMutex);
    faultHook = std::move(fault);
}

}  // namespace tessera::gpu
