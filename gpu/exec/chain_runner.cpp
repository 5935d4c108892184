// SPDX-License-Identifier: Apache-2.0
#include "gpu/exec/chain_runner.h"

#include "filters/float_range.h"
#include "gpu/plan/cost_model.h"
#include "gpu/plan/variant_support.h"
#include "values/errors.h"
#include "tessera/gpu/values.h"

#include <algorithm>
#include <tuple>

namespace tessera::gpu {

bool ChainRunner::Key::operator<(const Key& o) const
{
    return std::tuple(width, height, static_cast<int>(format.depth), format.channels, static_cast<int>(method)) <
           std::tuple(o.width, o.height, static_cast<int>(o.format.depth), o.format.channels,
                      static_cast<int>(o.method));
}

bool stepTakes(const filters::FilterSpec& spec, PixelFormat format, int width, int height, const DeviceInfo& device,
               Method method, TensorCores tensor)
{
    if (method == Method::Auto) {
        return true;
    }
    // The depth the kernels write, as the planner derives it: their input depth or float, with
    // any other output depth reached through a float intermediate.
    const PixelFormat output{
        filters::resolveOutputDepth(spec.depth, format.depth, PixelDepth::U8, PixelDepth::U16, PixelDepth::F32),
        format.channels};
    const bool direct = output.depth == format.depth || output.depth == PixelDepth::F32;
    const PixelFormat kernelOutput = direct ? output : PixelFormat{PixelDepth::F32, format.channels};
    const detail::ShapeQuery query = detail::makeShapeQuery(spec, format, kernelOutput, width, height, device);
    if (method == Method::Separable && !detail::separableSpec(query)) {
        return false;
    }
    for (const detail::VariantEntry& entry : detail::variantTable()) {
        if (entry.method != method) {
            continue;
        }
        if ((entry.tensorCores && tensor == TensorCores::Off) || (!entry.tensorCores && tensor == TensorCores::On)) {
            continue;
        }
        if (entry.canImplement(query)) {
            return true;
        }
    }
    return false;
}

std::vector<Plan> planSteps(const filters::FilterChain& chain, PixelFormat format, int width, int height,
                            const DeviceInfo& device, Method method, TensorCores tensor, SourceValues values)
{
    std::vector<Plan> plans;
    plans.reserve(chain.steps.size());
    PixelFormat current = format;
    for (const auto& spec : chain.steps) {
        const Method m = stepTakes(spec, current, width, height, device, method, tensor) ? method : Method::Auto;
        plans.push_back(makePlan(spec, current, width, height, device, m, tensor, values));
        current = plans.back().output;
        values.maxExponent = plans.back().outputMaxExponent;
    }
    return plans;
}

void enqueueSteps(const std::vector<Plan>& plans, const DeviceImage& src, const DeviceImage& dst,
                  const StepBuffers& buffers, StreamView stream, RowSpan rows, std::vector<Event>* marks)
{
    if (marks != nullptr && marks->size() != plans.size() + 1) {
        throw InvalidInput("enqueueSteps needs one event more than there are steps");
    }
    if (marks != nullptr) {
        (*marks)[0].record(stream);
    }
    DeviceImage current = src;
    for (std::size_t i = 0; i < plans.size(); ++i) {
        const Plan& plan = plans[i];
        const bool last = i + 1 == plans.size();
        DeviceImage next = dst;
        if (!last) {
            next.data = i % 2 == 0 ? buffers.ping : buffers.pong;
            next.pitch =
                buffers.pitch != 0 ? buffers.pitch : static_cast<std::size_t>(src.width) * plan.output.bytesPerPixel();
            next.width = src.width;
            next.height = src.height;
            next.format = plan.output;
        }
        gpu::run(plan, current, next, buffers.workspace, stream, last ? rows : RowSpan{});
        if (marks != nullptr) {
            (*marks)[i + 1].record(stream);
        }
        current = next;
    }
}

ChainRunner::ChainRunner(const DeviceInfo& device) : device_(device)
{
}

const std::vector<Plan>& ChainRunner::plansFor(const filters::FilterChain& chain, PixelFormat format, int width,
                                               int height, Method method)
{
    if (!(chain == chain_)) {
        chain_ = chain;
        plans_.clear();
    }
    const Key key{width, height, format, method};
    auto it = plans_.find(key);
    if (it != plans_.end()) {
        return it->second;
    }
    std::vector<Plan> plans = planSteps(chain, format, width, height, device_, method, tensor_, values_);
    if (plans_.size() > 64) {  // tile sizes seen in one job are few; a long session is not
        plans_.clear();
    }
    return plans_.emplace(key, std::move(plans)).first->second;
}

namespace {

struct Needs {
    std::size_t ping = 0;
    std::size_t pong = 0;
    std::size_t output = 0;
    std::size_t workspace = 0;
};

Needs needsOf(const std::vector<Plan>& plans, int width, int height)
{
    Needs n;
    const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    for (std::size_t i = 0; i < plans.size(); ++i) {
        const std::size_t bytes = pixels * plans[i].output.bytesPerPixel();
        if (i + 1 == plans.size()) {
            n.output = bytes;
        } else if (i % 2 == 0) {
            n.ping = std::max(n.ping, bytes);
        } else {
            n.pong = std::max(n.pong, bytes);
        }
        n.workspace = std::max(n.workspace, plans[i].workspaceBytes);
    }
    return n;
}

}  // namespace

std::size_t ChainRunner::bytesFor(const filters::FilterChain& chain, PixelFormat format, int width, int height,
                                  Method method)
{
    const Needs n = needsOf(plansFor(chain, format, width, height, method), width, height);
    return n.ping + n.pong + n.output + n.workspace;
}

void ChainRunner::ensure(RawDeviceBuffer& buffer, std::size_t bytes, DeviceId device)
{
    if (bytes == 0 || buffer.bytes() >= bytes) {
        return;
    }
    buffer = RawDeviceBuffer();  // free first, so the old and new never need to fit together
    buffer = RawDeviceBuffer(bytes, device);
}

DeviceImage ChainRunner::run(const filters::FilterChain& chain, const DeviceImage& input, Method method,
                             const Stream& stream, std::vector<Plan>* plans, RowSpan rows)
{
    if (chain.steps.empty()) {
        return input;
    }
    const std::vector<Plan>& steps = plansFor(chain, input.format, input.width, input.height, method);
    const Needs n = needsOf(steps, input.width, input.height);
    const DeviceId id = device_.id;
    ensure(ping_, n.ping, id);
    ensure(pong_, n.pong, id);
    ensure(output_, n.output, id);
    ensure(workspace_, n.workspace, id);
    const DeviceImage output{output_.data(),
                             static_cast<std::size_t>(input.width) * steps.back().output.bytesPerPixel(), input.width,
                             input.height, steps.back().output};
    enqueueSteps(steps, input, output, StepBuffers{ping_.data(), pong_.data(), 0, workspace_.data()}, stream, rows);
    if (plans != nullptr) {
        *plans = steps;
    }
    return output;
}

void ChainRunner::setTensorCores(TensorCores tensor)
{
    if (tensor != tensor_) {
        tensor_ = tensor;
        plans_.clear();
    }
}

void ChainRunner::setSourceValues(const SourceValues& values)
{
    if (!(values == values_)) {
        values_ = values;
        plans_.clear();
    }
}

bool mayTakeTransform(const filters::FilterChain& chain)
{
    return std::any_of(chain.steps.begin(), chain.steps.end(), [](const filters::FilterSpec& s) {
        return !s.separable && static_cast<long long>(s.kernel.width) * s.kernel.height >= detail::kFftMinTaps;
    });
}

SourceValues sourceValuesFor(const cv::Mat& image, const filters::FilterChain& chain)
{
    if (image.depth() != CV_32F || !mayTakeTransform(chain)) {
        return {};
    }
    return sourceValuesOf(filters::scanFloatRange(image));
}

void ChainRunner::release()
{
    ping_ = RawDeviceBuffer();
    pong_ = RawDeviceBuffer();
    output_ = RawDeviceBuffer();
    workspace_ = RawDeviceBuffer();
}

}  // namespace tessera::gpu
