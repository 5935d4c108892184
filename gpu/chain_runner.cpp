// SPDX-License-Identifier: Apache-2.0
#include "gpu/chain_runner.h"

#include "filters/float_range.h"
#include "gpu/cost_model.h"

#include <algorithm>
#include <tuple>

namespace tessera::gpu {

bool ChainRunner::Key::operator<(const Key& o) const
{
    return std::tuple(width, height, static_cast<int>(format.depth), format.channels, static_cast<int>(method)) <
           std::tuple(o.width, o.height, static_cast<int>(o.format.depth), o.format.channels,
                      static_cast<int>(o.method));
}

ChainRunner::ChainRunner(const DeviceInfo& device) : device_(device) {}

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
    std::vector<Plan> plans;
    PixelFormat current = format;
    SourceValues values = values_;
    for (const auto& spec : chain.steps) {
        const Method m = (method == Method::Separable && !spec.separable) ? Method::Auto : method;
        plans.push_back(makePlan(spec, current, width, height, device_, m, tensor_, values));
        current = plans.back().output;
        values.maxExponent = plans.back().outputMaxExponent;
    }
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
    DeviceImage current = input;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const Plan& plan = steps[i];
        const bool last = i + 1 == steps.size();
        RawDeviceBuffer& target = last ? output_ : (i % 2 == 0 ? ping_ : pong_);
        const DeviceImage next{target.data(), static_cast<std::size_t>(input.width) * plan.output.bytesPerPixel(),
                               input.width, input.height, plan.output};
        gpu::run(plan, current, next, workspace_.data(), stream, last ? rows : RowSpan{});
        current = next;
    }
    if (plans != nullptr) {
        *plans = steps;
    }
    return current;
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
