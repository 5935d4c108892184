// SPDX-License-Identifier: Apache-2.0
// The C interface of tessera_c.h over the filter model, the CPU executor and the GPU engine.
// Every entry point catches everything: C callers (and ctypes) cannot take a C++ exception.
#include "python/tessera_c.h"

#include "filters/cpu_executor.h"
#include "filters/preset_io.h"
#include "filters/registry.h"
#include "gpu/cuda_error.h"
#include "gpu/device_chain.h"
#include "gpu/device_info.h"
#include "gpu/engine.h"
#include "python/c_chain.h"
#include "python/c_info.h"
#include "values/device_selection.h"
#include "values/errors.h"

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include <cmath>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

// The layouts the Python package (and any other caller) rebuilds field by field.
static_assert(sizeof(tessera_image) == 40 && offsetof(tessera_image, channels) == 32);
static_assert(sizeof(tessera_options) == 80 && offsetof(tessera_options, border_value) == 48 &&
              offsetof(tessera_options, gpu_memory_limit) == 72);

namespace {

using namespace tessera;
using namespace tessera::python;
using nlohmann::json;

thread_local std::string lastError;
thread_local std::string lastText;

/// Runs body, turning every exception into a status and the thread's last error.
template <typename Body>
tessera_status guarded(Body&& body) noexcept
{
    try {
        lastError.clear();
        body();
        return TESSERA_OK;
    } catch (const Failure& e) {
        lastError = e.what();
        return e.status;
    } catch (const gpu::OutOfDeviceMemory& e) {
        lastError = e.what();
        return TESSERA_OUT_OF_MEMORY;
    } catch (const std::bad_alloc&) {
        lastError = "out of host memory";
        return TESSERA_OUT_OF_MEMORY;
    } catch (const gpu::NotSupported& e) {
        lastError = e.what();
        return TESSERA_NOT_SUPPORTED;
    } catch (const gpu::DeviceUnavailableError& e) {
        lastError = e.what();
        return TESSERA_NOT_SUPPORTED;
    } catch (const filters::PresetError& e) {
        lastError = e.what();
        return TESSERA_INVALID_ARGUMENT;
    } catch (const std::invalid_argument& e) {
        lastError = e.what();
        return TESSERA_INVALID_ARGUMENT;
    } catch (const cv::Exception& e) {
        lastError = e.what();
        return e.code == cv::Error::StsNoMem ? TESSERA_OUT_OF_MEMORY : TESSERA_RUNTIME_ERROR;
    } catch (const std::exception& e) {
        lastError = e.what();
        return TESSERA_RUNTIME_ERROR;
    } catch (...) {
        lastError = "unknown failure";
        return TESSERA_RUNTIME_ERROR;
    }
}

/// The device option's name in messages and the forms it takes.
constexpr gpu::SelectionContext kDeviceArgument{
    "device", gpu::DeviceForm::Auto | gpu::DeviceForm::Cpu | gpu::DeviceForm::AllGpus | gpu::DeviceForm::OneGpu |
                  gpu::DeviceForm::GpuList | gpu::DeviceForm::All};

gpu::Method methodOf(const tessera_options* options)
{
    return gpu::parseMethod(text(options != nullptr ? options->method : nullptr, "auto"));
}

int cvDepthOf(int32_t depth)
{
    switch (depth) {
    case TESSERA_U8: return CV_8U;
    case TESSERA_U16: return CV_16U;
    case TESSERA_F32: return CV_32F;
    default: fail("unknown depth code " + std::to_string(depth));
    }
}

int32_t depthCodeOf(int cvDepth)
{
    return cvDepth == CV_8U ? TESSERA_U8 : cvDepth == CV_16U ? TESSERA_U16 : TESSERA_F32;
}

gpu::PixelFormat formatOf(const tessera_image& image)
{
    return gpu::pixelFormatFromCvType(CV_MAKETYPE(cvDepthOf(image.depth), image.channels));
}

/// Checks the fields every image shares; role names it in messages.
void checkImage(const tessera_image* image, const char* role)
{
    const std::string name(role);
    if (image == nullptr || image->data == nullptr) {
        fail(name + " image is missing");
    }
    if (image->width <= 0 || image->height <= 0 || image->width > (1 << 30) || image->height > (1 << 30)) {
        fail(name + " image is " + std::to_string(image->width) + " x " + std::to_string(image->height) +
             "; both sides must be at least 1");
    }
    if (image->channels != 1 && image->channels != 3 && image->channels != 4) {
        fail(name + " image has " + std::to_string(image->channels) + " channels; 1, 3 or 4 are supported");
    }
    const int64_t row = image->width * image->channels * static_cast<int64_t>(CV_ELEM_SIZE1(cvDepthOf(image->depth)));
    if (image->row_stride < row) {
        fail(name + " image's row stride " + std::to_string(image->row_stride) + " is shorter than a row (" +
             std::to_string(row) + " bytes)");
    }
    if (image->row_stride % CV_ELEM_SIZE1(cvDepthOf(image->depth)) != 0) {
        fail(name + " image's row stride is not a multiple of the channel size");
    }
}

void checkOutput(const tessera_image* src, const tessera_image* dst, int outDepth)
{
    checkImage(dst, "the output");
    if (dst->width != src->width || dst->height != src->height || dst->channels != src->channels) {
        fail("the output image's size or channel count differs from the input's");
    }
    if (dst->depth != depthCodeOf(outDepth)) {
        fail("the output image's depth differs from the depth the chain writes (" + filters::cvDepthName(outDepth) +
             ")");
    }
    const auto begin = [](const tessera_image* i) { return static_cast<const char*>(i->data); };
    const auto end = [](const tessera_image* i) {
        return static_cast<const char*>(i->data) + i->row_stride * (i->height - 1) +
               i->width * i->channels * static_cast<int64_t>(CV_ELEM_SIZE1(cvDepthOf(i->depth)));
    };
    if (begin(src) < end(dst) && begin(dst) < end(src)) {
        fail("the output overlaps the input: give an output array of its own");
    }
}

cv::Mat wrap(const tessera_image& image)
{
    return cv::Mat(static_cast<int>(image.height), static_cast<int>(image.width),
                   CV_MAKETYPE(cvDepthOf(image.depth), image.channels), image.data,
                   static_cast<std::size_t>(image.row_stride));
}

/// Planned device chains by everything that shapes a plan (the chain's text as given, the
/// options, the input's format and size, the GPU, the method), so repeated calls on images of
/// one kind neither parse nor plan again, and each plan's data outlives the work queued with it.
class PlanCache {
public:
    template <typename Make>
    std::shared_ptr<const gpu::DeviceChain> get(const std::string& key, Make&& make)
    {
        {
            std::lock_guard lock(mutex_);
            if (const auto it = plans_.find(key); it != plans_.end()) {
                return it->second;
            }
        }
        std::shared_ptr<const gpu::DeviceChain> planned = make();
        std::lock_guard lock(mutex_);
        if (plans_.size() >= kMaxPlans) {
            plans_.clear();
        }
        plans_.emplace(key, planned);
        return planned;
    }

private:
    static constexpr std::size_t kMaxPlans = 64;
    std::mutex mutex_;
    std::map<std::string, std::shared_ptr<const gpu::DeviceChain>> plans_;
};

PlanCache& planCache()
{
    static PlanCache cache;
    return cache;
}

/// The device chain for a device image: the image's own GPU, checked against the device option.
std::shared_ptr<const gpu::DeviceChain> deviceChainFor(const tessera_image* src, const char* chainJson,
                                                       const tessera_options* options)
{
    checkImage(src, "the input");
    if (chainJson == nullptr) {
        fail("no chain given");
    }
    const gpu::DeviceId device = gpu::deviceOfPointer(src->data);
    const gpu::PixelFormat format = formatOf(*src);
    const std::string key = optionsKey(options) + format.name() + ' ' + std::to_string(src->width) + 'x' +
                            std::to_string(src->height) + ' ' + std::to_string(device.value()) + '\n' + chainJson;
    return planCache().get(key, [&] {
        const auto held = chainFor(chainJson, options);
        const filters::FilterChain& chain = *held;
        const gpu::DeviceSelection selection = gpu::parseDeviceSelection(
            text(options != nullptr ? options->device : nullptr, "auto"), kDeviceArgument);
        using Kind = gpu::DeviceSelection::Kind;
        if (selection.kind() == Kind::Cpu) {
            fail("device='cpu' takes host images; a device image runs on its own GPU (" + gpu::describe(device) +
                 ")");
        }
        if (selection.kind() == Kind::Gpus && (selection.ids().size() != 1 || selection.ids().front() != device)) {
            fail("device='" + gpu::toString(selection) + "' does not name the GPU that holds the image (" +
                 gpu::describe(device) + ")");
        }
        return std::make_shared<const gpu::DeviceChain>(chain, format, static_cast<int>(src->width),
                                                        static_cast<int>(src->height), device, methodOf(options));
    });
}

gpu::DeviceImage deviceImage(const tessera_image& image)
{
    return {image.data, static_cast<std::size_t>(image.row_stride), static_cast<int>(image.width),
            static_cast<int>(image.height), formatOf(image)};
}

}  // namespace

extern "C" {

const char* tessera_version(void)
{
    return TESSERA_VERSION_TEXT;
}

int tessera_api_version(void)
{
    return TESSERA_C_API_VERSION;
}

const char* tessera_last_error(void)
{
    return lastError.c_str();
}

const char* tessera_filters_json(void)
{
    try {
        static const std::string list = tessera::python::filtersJson();
        return list.c_str();
    } catch (...) {
        return "{\"filters\": []}";
    }
}

const char* tessera_devices_json(void)
{
    try {
        lastText = tessera::python::devicesJson();
        return lastText.c_str();
    } catch (...) {
        return "{\"devices\": [], \"device_count\": 0, \"reason\": \"out of memory\"}";
    }
}

tessera_status tessera_describe_chain(const char* chain_json, const tessera_options* options, const char** json_out)
{
    return guarded([&] {
        const filters::FilterChain chain = makeChain(chain_json, options);
        json steps = json::array();
        for (const auto& s : chain.steps) {
            const filters::Point a = s.effectiveAnchor();
            steps.push_back({{"id", s.id},
                             {"kernel_size", {s.kernel.width, s.kernel.height}},
                             {"anchor", {a.x, a.y}},
                             {"border", filters::toString(s.border)},
                             {"border_value", s.borderValue},
                             {"scale", s.scale},
                             {"offset", s.offset},
                             {"depth", filters::toString(s.depth)},
                             {"separable", s.separable.has_value()}});
        }
        lastText = steps.dump();
        if (json_out != nullptr) {
            *json_out = lastText.c_str();
        }
    });
}

tessera_status tessera_output_depth(const char* chain_json, const tessera_options* options, int32_t input_depth,
                                    int32_t* output_depth)
{
    return guarded([&] {
        const auto held = chainFor(chain_json, options);
        const filters::FilterChain& chain = *held;
        const int type = gpu::chainOutputType(chain, CV_MAKETYPE(cvDepthOf(input_depth), 1));
        if (output_depth != nullptr) {
            *output_depth = depthCodeOf(CV_MAT_DEPTH(type));
        }
    });
}

tessera_status tessera_apply_host(const tessera_image* src, const tessera_image* dst, const char* chain_json,
                                  const tessera_options* options, const char** where_out)
{
    return guarded([&] {
        checkImage(src, "the input");
        const auto held = chainFor(chain_json, options);
        const filters::FilterChain& chain = *held;
        const cv::Mat in = wrap(*src);
        const int outType = gpu::chainOutputType(chain, in.type());
        checkOutput(src, dst, CV_MAT_DEPTH(outType));
        const cv::Mat target = wrap(*dst);

        std::string note;
        const auto selection =
            gpu::parseDeviceSelection(text(options != nullptr ? options->device : nullptr, "auto"), kDeviceArgument);
        // The CPU asked for by name: no need to ask CUDA about devices.
        const std::vector<gpu::DeviceId> gpus =
            selection.kind() == gpu::DeviceSelection::Kind::Cpu
                ? std::vector<gpu::DeviceId>{}
                : gpu::resolve(selection, gpu::enumerateDevices(), note, kDeviceArgument);
        std::string where = "cpu";
        if (gpus.empty()) {
            filters::applyCpu(in, chain).copyTo(target);
        } else {
            const gpu::Method method = methodOf(options);
            gpu::requireMethod(method);
            gpu::RunOptions so;
            so.deviceSlots = gpu::slotsFor(gpus, {}, options != nullptr ? options->gpu_memory_limit : 0);
            so.method = method;
            gpu::Pipeline pipeline(std::move(so));
            cv::Mat out = target;
            gpu::RunReport report;
            pipeline.run(in, chain, out, &report);
            if (out.data != target.data) {
                out.copyTo(target);
            }
            where = gpu::toString(gpu::selectionOf(gpus));
            note = report.fallback;
            for (const auto& e : report.events) {
                note += (note.empty() ? "" : "; ") + e;
            }
        }
        lastText = where + (note.empty() ? "" : "\n" + note);
        if (where_out != nullptr) {
            *where_out = lastText.c_str();
        }
    });
}

tessera_status tessera_device_prepare(const tessera_image* src, const char* chain_json,
                                      const tessera_options* options, int32_t* output_depth, uint64_t* scratch_bytes)
{
    return guarded([&] {
        const auto planned = deviceChainFor(src, chain_json, options);
        if (output_depth != nullptr) {
            *output_depth = depthCodeOf(CV_MAT_DEPTH(gpu::toCvType(planned->output())));
        }
        if (scratch_bytes != nullptr) {
            *scratch_bytes = planned->scratchBytes();
        }
    });
}

tessera_status tessera_pointer_device(const void* pointer, int32_t* device)
{
    return guarded([&] {
        const gpu::DeviceId id = gpu::deviceOfPointer(pointer);
        if (device != nullptr) {
            *device = id.value();
        }
    });
}

tessera_status tessera_apply_device(const tessera_image* src, const tessera_image* dst, const char* chain_json,
                                    const tessera_options* options, void* stream, void* scratch,
                                    uint64_t scratch_bytes)
{
    return guarded([&] {
        const auto planned = deviceChainFor(src, chain_json, options);
        checkOutput(src, dst, CV_MAT_DEPTH(gpu::toCvType(planned->output())));
        if (gpu::deviceOfPointer(dst->data) != planned->device()) {
            fail("the output lives on another GPU than the input");
        }
        if (scratch != nullptr && scratch_bytes < planned->scratchBytes()) {
            fail("the scratch holds " + std::to_string(scratch_bytes) + " bytes; the chain needs " +
                 std::to_string(planned->scratchBytes()));
        }
        planned->run(deviceImage(*src), deviceImage(*dst), scratch, gpu::StreamView(stream, planned->device()));
    });
}

tessera_status tessera_stream_wait(int32_t device, void* stream, void* producer)
{
    return guarded([&] {
        if (device < 0) {
            fail("no GPU " + std::to_string(device));
        }
        gpu::streamWaits(gpu::DeviceId(device), stream, producer);
    });
}

struct tessera_device_plan {
    std::shared_ptr<const tessera::gpu::DeviceChain> chain;
};

tessera_status tessera_device_plan_create(const tessera_image* src, const char* chain_json,
                                          const tessera_options* options, tessera_device_plan** plan,
                                          int32_t* output_depth, uint64_t* scratch_bytes)
{
    return guarded([&] {
        if (plan == nullptr) {
            fail("no place for the plan given");
        }
        *plan = nullptr;
        auto made = std::make_unique<tessera_device_plan>();
        made->chain = deviceChainFor(src, chain_json, options);
        if (output_depth != nullptr) {
            *output_depth = depthCodeOf(CV_MAT_DEPTH(gpu::toCvType(made->chain->output())));
        }
        if (scratch_bytes != nullptr) {
            *scratch_bytes = made->chain->scratchBytes();
        }
        *plan = made.release();
    });
}

tessera_status tessera_device_plan_run(const tessera_device_plan* plan, const void* src, int64_t src_row_stride,
                                       void* dst, int64_t dst_row_stride, void* stream, void* scratch,
                                       uint64_t scratch_bytes)
{
    return guarded([&] {
        if (plan == nullptr || !plan->chain) {
            fail("no plan given");
        }
        const gpu::DeviceChain& chain = *plan->chain;
        if (src == nullptr || dst == nullptr) {
            fail(src == nullptr ? "the input image is missing" : "the output image is missing");
        }
        if (src_row_stride <= 0 || dst_row_stride <= 0) {
            fail("row strides must be positive");
        }
        if (gpu::deviceOfPointer(src) != chain.device() || gpu::deviceOfPointer(dst) != chain.device()) {
            fail("the images must live on the GPU the chain was planned for (" + gpu::describe(chain.device()) + ")");
        }
        if (scratch != nullptr && scratch_bytes < chain.scratchBytes()) {
            fail("the scratch holds " + std::to_string(scratch_bytes) + " bytes; the chain needs " +
                 std::to_string(chain.scratchBytes()));
        }
        const gpu::DeviceImage in{const_cast<void*>(src), static_cast<std::size_t>(src_row_stride), chain.width(),
                                  chain.height(), chain.input()};
        const gpu::DeviceImage out{dst, static_cast<std::size_t>(dst_row_stride), chain.width(), chain.height(),
                                   chain.output()};
        chain.run(in, out, scratch, gpu::StreamView(stream, chain.device()));
    });
}

void tessera_device_plan_free(tessera_device_plan* plan)
{
    delete plan;
}

}  // extern "C"
