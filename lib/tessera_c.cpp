// SPDX-License-Identifier: Apache-2.0
// The C interface of tessera_c.h over the filter model, the CPU executor and the GPU engine.
// Every entry point catches everything: C callers (and ctypes) cannot take a C++ exception.
#include "tessera/tessera.h"

#include "app/io/encode_choice.h"
#include "app/io/image_io.h"
#include "filters/cpu_executor.h"
#include "filters/preset_io.h"
#include "filters/registry.h"
#include "tessera/gpu/cuda_error.h"
#include "tessera/gpu/device_chain.h"
#include "tessera/gpu/device_info.h"
#include "tessera/gpu/engine.h"
#include "lib/c_chain.h"
#include "lib/c_image.h"
#include "lib/c_info.h"
#include "lib/c_interrupt.h"
#include "lib/c_report.h"
#include "values/device_selection.h"
#include "values/errors.h"

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// The layouts the Python package (and any other caller) rebuilds field by field.
static_assert(sizeof(tessera_image) == 40 && offsetof(tessera_image, channels) == 32);
static_assert(sizeof(tessera_options) == 80 && offsetof(tessera_options, border_value) == 48 &&
              offsetof(tessera_options, gpu_memory_limit) == 72);

namespace {

using namespace tessera;
using namespace tessera::capi;
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
    } catch (const values::NotSupported& e) {
        lastError = e.what();
        return TESSERA_NOT_SUPPORTED;
    } catch (const values::DeviceUnavailableError& e) {
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
constexpr values::SelectionContext kDeviceArgument{
    "device", values::DeviceForm::Auto | values::DeviceForm::Cpu | values::DeviceForm::AllGpus |
                  values::DeviceForm::OneGpu | values::DeviceForm::GpuList | values::DeviceForm::All};

values::Method methodOf(const tessera_options* options)
{
    return values::parseMethod(text(options != nullptr ? options->method : nullptr, "auto"));
}

/// The report of the calling thread's last run. A device run without step timing keeps only
/// its chain and wall time, and the report is made when asked for: the run itself stays cheap.
struct LastRun {
    bool any = false;
    values::RunReport report;
    std::shared_ptr<const gpu::DeviceChain> untimed;  ///< set when report is still to be made
    double wallMs = 0.0;
    std::string where;
    std::string note;

    const values::RunReport& get()
    {
        if (untimed) {
            report = untimed->report();
            report.wallMs = wallMs;
            untimed.reset();
        }
        return report;
    }
};

thread_local LastRun lastRun;
std::atomic<bool> stepTiming{false};

double msSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

/// A planned chain (tessera_plan_create): everything a run needs besides the pointers.
struct tessera_plan {
    bool onDevice = false;
    int width = 0;
    int height = 0;
    int inType = 0;   ///< OpenCV type of the input
    int outType = 0;  ///< OpenCV type of the output
    // Host plans:
    tessera::filters::FilterChain chain;
    std::vector<tessera::values::DeviceId> gpus;  ///< empty: the CPU path
    tessera::values::Method method = tessera::values::Method::Auto;
    std::size_t memoryLimit = 0;
    std::string where;
    std::string note;  ///< what resolving the device option said
    // Device plans:
    std::shared_ptr<const tessera::gpu::DeviceChain> device;
};

namespace {

/// The image a run names by pointer and stride, with the plan's geometry; role names it.
tessera_image planned(const tessera_plan& plan, const void* data, int64_t stride, int cvType, const char* role)
{
    tessera_image image{const_cast<void*>(data),          plan.width, plan.height, stride, CV_MAT_CN(cvType),
                        depthCodeOf(CV_MAT_DEPTH(cvType))};
    checkImage(&image, role);
    return image;
}

void makeHostPlan(tessera_plan& plan, const tessera_options* options)
{
    const auto selection =
        values::parseDeviceSelection(text(options != nullptr ? options->device : nullptr, "auto"), kDeviceArgument);
    // The CPU asked for by name: no need to ask CUDA about devices.
    if (selection.kind() != values::DeviceSelection::Kind::Cpu) {
        plan.gpus = values::resolve(selection, gpu::enumerateDevices(), plan.note, kDeviceArgument);
    }
    plan.method = methodOf(options);
    if (!plan.gpus.empty()) {
        gpu::requireMethod(plan.method);
    }
    plan.memoryLimit = options != nullptr ? options->gpu_memory_limit : 0;
    plan.where = plan.gpus.empty() ? std::string("cpu") : values::toString(values::selectionOf(plan.gpus));
}

void makeDevicePlan(tessera_plan& plan, const tessera_image& src, const tessera_options* options)
{
    const values::DeviceId device = gpu::deviceOfPointer(src.data);
    const values::DeviceSelection selection =
        values::parseDeviceSelection(text(options != nullptr ? options->device : nullptr, "auto"), kDeviceArgument);
    using Kind = values::DeviceSelection::Kind;
    if (selection.kind() == Kind::Cpu) {
        fail("device='cpu' takes host images; a device image runs on its own GPU (" + values::describe(device) + ")");
    }
    if (selection.kind() == Kind::Gpus && (selection.ids().size() != 1 || selection.ids().front() != device)) {
        fail("device='" + values::toString(selection) + "' does not name the GPU that holds the image (" +
             values::describe(device) + ")");
    }
    plan.device = std::make_shared<const gpu::DeviceChain>(plan.chain, formatOf(src), plan.width, plan.height, device,
                                                           methodOf(options));
    plan.chain = {};  // the device chain holds its plans; the specs are not needed again
    plan.where = values::toString(values::selectionOf({device}));
}

}  // namespace

extern "C" {

const char* tessera_version(void)
{
    return TESSERA_VERSION_TEXT;
}

const char* tessera_commit(void)
{
    return capi::kBuildCommit;
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
        static const std::string list = tessera::capi::filtersJson();
        return list.c_str();
    } catch (...) {
        return "{\"filters\": []}";
    }
}

const char* tessera_devices_json(void)
{
    try {
        lastText = tessera::capi::devicesJson();
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

tessera_status tessera_plan_create(const tessera_image* src, int32_t memory, const char* chain_json,
                                   const tessera_options* options, tessera_plan** plan, int32_t* output_depth,
                                   uint64_t* scratch_bytes)
{
    return guarded([&] {
        if (plan == nullptr) {
            fail("no place for the plan given");
        }
        *plan = nullptr;
        if (memory != TESSERA_HOST_MEMORY && memory != TESSERA_DEVICE_MEMORY) {
            fail("unknown memory kind " + std::to_string(memory));
        }
        checkImage(src, "the input");
        auto made = std::make_unique<tessera_plan>();
        made->onDevice = memory == TESSERA_DEVICE_MEMORY;
        made->width = static_cast<int>(src->width);
        made->height = static_cast<int>(src->height);
        made->inType = CV_MAKETYPE(cvDepthOf(src->depth), src->channels);
        made->chain = makeChain(chain_json, options);
        made->outType = gpu::chainOutputType(made->chain, made->inType);
        if (made->onDevice) {
            makeDevicePlan(*made, *src, options);
        } else {
            makeHostPlan(*made, options);
        }
        if (output_depth != nullptr) {
            *output_depth = depthCodeOf(CV_MAT_DEPTH(made->outType));
        }
        if (scratch_bytes != nullptr) {
            *scratch_bytes = made->device ? made->device->scratchBytes() : 0;
        }
        *plan = made.release();
    });
}

tessera_status tessera_interrupt(void)
{
    capi::interruptActiveRuns();
    return TESSERA_OK;
}

tessera_status tessera_plan_run_host(const tessera_plan* plan, const void* src, int64_t src_row_stride, void* dst,
                                     int64_t dst_row_stride)
{
    return guarded([&] {
        if (plan == nullptr || plan->onDevice) {
            fail(plan == nullptr ? "no plan given" : "the plan is for device images");
        }
        const auto started = std::chrono::steady_clock::now();
        const tessera_image in = planned(*plan, src, src_row_stride, plan->inType, "the input");
        const tessera_image out = planned(*plan, dst, dst_row_stride, plan->outType, "the output");
        checkOutput(&in, &out, CV_MAT_DEPTH(plan->outType));
        const cv::Mat source = wrap(in);
        const cv::Mat target = wrap(out);
        // The CPU path is a slot of the same pipeline as the GPUs: one report shape for both.
        std::unique_lock<std::mutex> shared;
        std::unique_ptr<gpu::Pipeline> own;
        gpu::Pipeline* pipeline = nullptr;
        if (plan->gpus.empty()) {
            // Every CPU run has the same options: one pipeline serves them all, so its slot's
            // thread is started once. A run that finds it busy makes one of its own.
            static std::mutex mutex;
            static gpu::Pipeline* const cpu = [] {
                gpu::RunOptions so;
                so.deviceSlots = gpu::cpuSlots();
                return new gpu::Pipeline(std::move(so));  // kept to the end of the process
            }();
            shared = std::unique_lock(mutex, std::try_to_lock);
            pipeline = shared.owns_lock() ? cpu : nullptr;
        }
        if (pipeline == nullptr) {
            gpu::RunOptions so;
            so.deviceSlots = plan->gpus.empty() ? gpu::cpuSlots() : gpu::slotsFor(plan->gpus, {}, plan->memoryLimit);
            so.method = plan->gpus.empty() ? values::Method::Auto : plan->method;
            own = std::make_unique<gpu::Pipeline>(std::move(so));
            pipeline = own.get();
        }
        cv::Mat result = target;
        values::RunReport report;
        const ActiveRun active;
        gpu::RunControl control;
        control.cancel = active.flag();
        if (!pipeline->run(source, plan->chain, result, control, &report)) {
            fail("interrupted (tessera_interrupt)", TESSERA_INTERRUPTED);
        }
        if (result.data != target.data) {
            result.copyTo(target);
        }
        report.wallMs = msSince(started);
        lastRun.report = std::move(report);
        lastRun.untimed.reset();
        lastRun.where = plan->where;
        lastRun.note = plan->note;
        lastRun.any = true;
    });
}

tessera_status tessera_plan_run_device(const tessera_plan* plan, const void* src, int64_t src_row_stride, void* dst,
                                       int64_t dst_row_stride, void* stream, void* scratch, uint64_t scratch_bytes)
{
    return guarded([&] {
        if (plan == nullptr || !plan->device) {
            fail(plan == nullptr ? "no plan given" : "the plan is for host images");
        }
        const auto started = std::chrono::steady_clock::now();
        const gpu::DeviceChain& chain = *plan->device;
        if (src == nullptr || dst == nullptr) {
            fail(src == nullptr ? "the input image is missing" : "the output image is missing");
        }
        if (src_row_stride <= 0 || dst_row_stride <= 0) {
            fail("row strides must be positive");
        }
        if (gpu::deviceOfPointer(src) != chain.device() || gpu::deviceOfPointer(dst) != chain.device()) {
            fail("the images must live on the GPU the chain was planned for (" + values::describe(chain.device()) +
                 ")");
        }
        if (scratch != nullptr && scratch_bytes < chain.scratchBytes()) {
            fail("the scratch holds " + std::to_string(scratch_bytes) + " bytes; the chain needs " +
                 std::to_string(chain.scratchBytes()));
        }
        const gpu::DeviceImage in{const_cast<void*>(src), static_cast<std::size_t>(src_row_stride), chain.width(),
                                  chain.height(), chain.input()};
        const gpu::DeviceImage out{dst, static_cast<std::size_t>(dst_row_stride), chain.width(), chain.height(),
                                   chain.output()};
        const gpu::StreamView view(stream, chain.device());
        if (stepTiming.load(std::memory_order_relaxed)) {
            values::RunReport report;
            chain.run(in, out, scratch, view, &report, true);
            lastRun.report = std::move(report);
            lastRun.untimed.reset();
        } else {
            chain.run(in, out, scratch, view);
            lastRun.untimed = plan->device;
            lastRun.wallMs = msSince(started);
        }
        lastRun.where = plan->where;
        lastRun.note.clear();
        lastRun.any = true;
    });
}

void tessera_plan_free(tessera_plan* plan)
{
    delete plan;
}

tessera_status tessera_last_run(int32_t form, const char** text_out)
{
    return guarded([&] {
        if (form == TESSERA_REPORT_JSON) {
            lastText = lastRun.any ? reportJson(lastRun.get(), lastRun.where, lastRun.note) : std::string("null");
        } else if (form == TESSERA_REPORT_CHROME_TRACE) {
            if (!lastRun.any) {
                fail("no run yet on this thread: nothing to trace");
            }
            lastText = chromeTrace(lastRun.get().records);
        } else {
            fail("unknown report form " + std::to_string(form));
        }
        if (text_out != nullptr) {
            *text_out = lastText.c_str();
        }
    });
}

tessera_status tessera_pointer_device(const void* pointer, int32_t* device)
{
    return guarded([&] {
        const values::DeviceId id = gpu::deviceOfPointer(pointer);
        if (device != nullptr) {
            *device = id.value();
        }
    });
}

tessera_status tessera_stream_wait(int32_t device, void* stream, void* producer)
{
    return guarded([&] {
        if (device < 0) {
            fail("no GPU " + std::to_string(device));
        }
        gpu::streamWaits(values::DeviceId(device), stream, producer);
    });
}

int32_t tessera_set_step_timing(int32_t on)
{
    return stepTiming.exchange(on != 0) ? 1 : 0;
}

tessera_status tessera_write_image(const char* path, const tessera_image* image, int32_t rgb, const char* quality,
                                   const char* compression, const char** encoding_out)
{
    return guarded([&] {
        if (path == nullptr || *path == '\0') {
            fail("no path given");
        }
        checkImage(image, "the image");
        const std::string target(path);
        app::codec::EncodeOptions options;
        if (quality != nullptr) {
            values::setQuality(options, quality);
        }
        if (compression != nullptr) {
            values::setCompression(options, compression);
        }
        const cv::Mat pixels = wrap(*image);
        if (const std::string problem = app::outputFormatProblem(target, pixels.depth(), pixels.channels());
            !problem.empty()) {
            fail(target + ": " + problem);
        }
        // The caller's pixels are only read: a colour image in R, G, B order is turned into a copy.
        cv::Mat ordered;
        if (rgb != 0 && pixels.channels() >= 3) {
            cv::cvtColor(pixels, ordered, pixels.channels() == 4 ? cv::COLOR_RGBA2BGRA : cv::COLOR_RGB2BGR);
        } else {
            ordered = pixels;
        }
        app::writeImage(target, ordered, nullptr, options);
        lastText = values::describeEncoding(values::encodedFormatOf(target), options);
        if (encoding_out != nullptr) {
            *encoding_out = lastText.c_str();
        }
    });
}

}  // extern "C"
