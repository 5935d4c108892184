// SPDX-License-Identifier: Apache-2.0
#include "tessera/gpu/executor.h"

#include "gpu/plan/cost_model.h"
#include "gpu/plan/plan_data.h"
#include "gpu/plan/variant_rows.h"
#include "gpu/plan/variant_support.h"
#include "values/errors.h"
#include "tessera/gpu/values.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tessera::gpu {

namespace {

using detail::VariantEntry;

/// The estimate of a method that cannot run; anything above kShownAsNever is printed as -1
/// (the direct estimate is printed as it is).
constexpr double kNever = 1e30;
constexpr double kShownAsNever = 1e29;
/// Taps with the scale folded in (the separable column taps stay unscaled: the row carries
/// it), and the depth the kernel writes.
std::shared_ptr<PlanData> prepareTaps(const filters::FilterSpec& spec, PixelFormat format, PixelFormat output)
{
    auto data = std::make_shared<PlanData>();
    const double scale = spec.scale;
    data->taps.reserve(spec.kernel.weights.size());
    for (double w : spec.kernel.weights) {
        data->taps.push_back(static_cast<float>(w * scale));
        data->tapSum += data->taps.back();
    }
    if (spec.separable) {
        for (double w : spec.separable->row) {
            data->rowTaps.push_back(static_cast<float>(w * scale));
        }
        for (double w : spec.separable->column) {
            data->colTaps.push_back(static_cast<float>(w));
        }
    }
    // Kernels write their input depth or float; anything else goes through a float intermediate.
    const bool direct = output.depth == format.depth || output.depth == PixelDepth::F32;
    data->kernelOutput = direct ? output : PixelFormat{PixelDepth::F32, format.channels};
    data->needsConvert = !direct;
    return data;
}

/// The first variant of a method and tensor-core setting that can implement the query, or why
/// none can (the refusal of the last, most general one).
struct Choice {
    const VariantEntry* entry = nullptr;
    std::string refusal;
    explicit operator bool() const { return entry != nullptr; }
};

Choice firstEligible(Method method, bool tensorCores, const detail::ShapeQuery& q)
{
    Choice c;
    for (const VariantEntry& e : detail::variantTable()) {
        if (e.method != method || e.tensorCores != tensorCores) {
            continue;
        }
        Support s = e.canImplement(q);
        if (s) {
            c.entry = &e;
            return c;
        }
        c.refusal = std::move(s.reason);
    }
    return c;
}

/// Which variant each method would run, with and without tensor cores.
struct Eligibility {
    Choice direct;
    Choice directTensor;
    Choice separable;
    Choice separableTensor;
    Choice fft;  ///< refused, with the reason, where cuFFT is not installed
};

Eligibility eligibility(const detail::ShapeQuery& q)
{
    Eligibility e;
    e.direct = firstEligible(Method::Direct, false, q);
    e.directTensor = firstEligible(Method::Direct, true, q);
    e.separable = firstEligible(Method::Separable, false, q);
    e.separableTensor = firstEligible(Method::Separable, true, q);
    e.fft = firstEligible(Method::Fft, false, q);
    return e;
}

/// Estimated kernel times (ms) of each method with and without tensor cores; kNever where it
/// cannot run (or, for the FFT, is not worth estimating).
struct Estimates {
    double direct = kNever;
    double directTensor = kNever;
    double separable = kNever;
    double separableTensor = kNever;
    double fft = kNever;
};

/// Each method's estimate is its first eligible variant's (the row's estimate column).
Estimates estimate(const detail::ShapeQuery& q, PixelFormat output, const DeviceInfo& device, TensorCores tensor,
                   const Eligibility& e)
{
    const double pixels = static_cast<double>(q.width) * q.height;
    const double bytes = pixels * static_cast<double>(q.input.bytesPerPixel() + output.bytesPerPixel());
    const auto cost = detail::CostModel::forDevice(device);
    const detail::CostQuery c{q, cost, pixels, bytes};
    const auto of = [&](const Choice& choice) { return choice ? choice.entry->estimate(c) : kNever; };
    Estimates t;
    t.direct = of(e.direct);
    t.separable = of(e.separable);
    if (tensor != TensorCores::Off) {
        t.directTensor = of(e.directTensor);
        t.separableTensor = of(e.separableTensor);
    }
    if (e.fft && (q.kw * q.kh >= detail::kFftMinTaps || !e.direct)) {
        t.fft = of(e.fft);
    }
    return t;
}

/// The method, whether it runs on tensor cores, and why.
struct Ranking {
    Method method = Method::Direct;
    bool tensorCores = false;
    std::string reason;
};

/// The fastest estimate wins (separable on a tie, then direct over the FFT); a forced method
/// stays. Throws NotSupported when TensorCores::On cannot be honoured or no method can run.
Ranking rank(const Estimates& t, Method force, TensorCores tensor, const Eligibility& e)
{
    Ranking r;
    r.method = force;
    if (force == Method::Auto) {
        const double tDirect = std::min(t.direct, t.directTensor);
        const double tSep = std::min(t.separable, t.separableTensor);
        if (std::min({tDirect, tSep, t.fft}) >= kShownAsNever) {
            // Only where no direct kernel fits either; the FFT usually takes these, when cuFFT is there.
            throw NotSupported("no GPU method can run this filter: " + e.direct.refusal + "; " + e.separable.refusal +
                               "; " + e.fft.refusal);
        }
        if (tSep <= tDirect && tSep <= t.fft) {
            r.method = Method::Separable;
        } else if (t.fft < tDirect) {
            r.method = Method::Fft;
        } else {
            r.method = Method::Direct;
        }
        char why[160];
        std::snprintf(why, sizeof why, "estimated ms: direct %.3g, separable %.3g, fft %.3g", tDirect,
                      tSep < kShownAsNever ? tSep : -1.0, t.fft < kShownAsNever ? t.fft : -1.0);
        r.reason = why;
    } else {
        r.reason = "forced";
    }
    if (r.method == Method::Direct || r.method == Method::Separable) {
        const bool separable = r.method == Method::Separable;
        const Choice& onTensor = separable ? e.separableTensor : e.directTensor;
        if (tensor == TensorCores::On) {
            if (!onTensor) {
                throw NotSupported("tensor cores cannot run this filter: " + onTensor.refusal);
            }
            r.tensorCores = true;
        } else {
            r.tensorCores = separable ? t.separableTensor < t.separable : t.directTensor < t.direct;
        }
    }
    return r;
}

/// The variant that carries out the ranking; throws NotSupported when the forced method has none
/// (for the FFT: cuFFT missing, or a kernel it cannot transform).
const VariantEntry& chooseVariant(const Ranking& r, const Eligibility& e)
{
    if (r.method == Method::Fft) {
        if (!e.fft) {
            throw NotSupported(e.fft.refusal);
        }
        return *e.fft.entry;
    }
    const bool separable = r.method == Method::Separable;
    const Choice& c =
        separable ? (r.tensorCores ? e.separableTensor : e.separable) : (r.tensorCores ? e.directTensor : e.direct);
    if (!c) {
        throw NotSupported(c.refusal);
    }
    return *c.entry;
}

/// Places what the variant needs in the workspace (its row's layout, then the conversion's
/// float intermediate) and returns its size. The variant's part starts at 0: the direct kernels
/// find taps that do not fit their launch parameters there.
std::size_t layoutWorkspace(const Plan& plan, PlanData& data)
{
    const detail::VariantEntry& entry = detail::variantEntry(plan.shape.variant);
    std::size_t workspace = entry.workspace != nullptr ? entry.workspace(plan, data, 0) : 0;
    if (data.needsConvert) {
        data.convertWorkspaceOffset = workspace;
        workspace += detail::alignWorkspace(static_cast<std::size_t>(plan.width) * plan.height * plan.input.channels *
                                            sizeof(float));
    }
    return workspace;
}

}  // namespace

namespace {

/// makePlan's steps; `variant`, when given, replaces the ranking.
/// The magnitude a step's outputs and intermediate sums stay below, as a power of two, when
/// its source's stay below 2^inExponent: the source's bound grown by the taps (sum |k|, and
/// for a separable spec the row pass's sum |row| on its own and then times sum |column|) plus
/// |offset|. kUnknown when the source is not bounded or the result could come near the top of
/// the f32 range (2^100 leaves room for every rounding on the way).
int outputExponentBound(const filters::FilterSpec& spec, const PlanData& data, PixelDepth depth, int inExponent)
{
    if (depth == PixelDepth::U8) {
        inExponent = std::min(inExponent, 8);
    } else if (depth == PixelDepth::U16) {
        inExponent = std::min(inExponent, 16);
    }
    if (inExponent == SourceValues::kUnknown || !std::isfinite(spec.offset)) {
        return SourceValues::kUnknown;
    }
    const auto sumAbs = [](const std::vector<float>& taps) {
        double s = 0.0;
        for (float t : taps) {
            s += std::fabs(static_cast<double>(t));
        }
        return s;
    };
    double growth = std::max(1.0, sumAbs(data.taps));
    if (!data.rowTaps.empty()) {
        const double row = std::max(1.0, sumAbs(data.rowTaps));
        growth = std::max(growth, row * std::max(1.0, sumAbs(data.colTaps)));
    }
    const double bound = std::ldexp(growth, inExponent) + std::fabs(spec.offset);
    if (!(bound < std::ldexp(1.0, 100))) {
        return SourceValues::kUnknown;
    }
    return std::ilogb(bound) + 1;
}

Plan planFor(const filters::FilterSpec& spec, PixelFormat format, int width, int height, const DeviceInfo& device,
             Method force, TensorCores tensor, const KernelVariant* variant, SourceValues values)
{
    if (width < 1 || height < 1) {
        throw InvalidInput("cannot plan a filter for an empty image");
    }
    if (format.channels != 1 && format.channels != 3 && format.channels != 4) {
        throw InvalidInput("unsupported channel count " + std::to_string(format.channels));
    }
    Plan plan;
    plan.spec = spec;
    plan.input = format;
    plan.output = {
        filters::resolveOutputDepth(spec.depth, format.depth, PixelDepth::U8, PixelDepth::U16, PixelDepth::F32),
        format.channels};
    plan.width = width;
    plan.height = height;
    plan.device = device.id;

    auto data = prepareTaps(spec, format, plan.output);
    // The query keeps pointers: to the plan's own copy of the spec, which stays put from here.
    const detail::ShapeQuery query =
        detail::makeShapeQuery(plan.spec, format, data->kernelOutput, width, height, device);
    if (variant != nullptr) {
        const detail::VariantEntry& entry = detail::variantEntry(*variant);
        if (Support s = entry.canImplement(query); !s) {
            throw NotSupported(std::string(entry.name) + ": " + s.reason);
        }
        plan.method = entry.method;
        plan.tensorCores = entry.tensorCores;
        plan.reason = "forced variant";
        plan.shape = entry.shape(query);
        plan.shape.variant = entry.variant;  // rows may share a shape function (the RGBA8 walk's forms)
    } else {
        if (force == Method::Separable) {
            if (Support s = detail::separableSpec(query); !s) {
                throw NotSupported(s.reason);
            }
        }
        const Eligibility e = eligibility(query);
        Estimates times = estimate(query, plan.output, device, tensor, e);
        // The float rule: on an image a transform's global bound does not serve, the FFT is
        // chosen only when nothing else can run.
        const bool avoidTransform =
            !values.transformsSafe && force == Method::Auto && times.fft < kShownAsNever &&
            std::min({times.direct, times.directTensor, times.separable, times.separableTensor}) < kShownAsNever;
        if (avoidTransform) {
            times.fft = kNever;
        }
        Ranking r = rank(times, force, tensor, e);
        if (avoidTransform) {
            r.reason += "; no FFT: the image holds NaN, infinity or a range its error bound does not serve";
        }
        const VariantEntry& chosen = chooseVariant(r, e);
        plan.method = r.method;
        plan.tensorCores = r.tensorCores;
        plan.reason = std::move(r.reason);
        plan.shape = chosen.shape(query);
        plan.shape.variant = chosen.variant;
    }
    // The chosen variant's note: the bound of its number form, or its passes.
    if (const detail::VariantEntry& entry = detail::variantEntry(plan.shape.variant); entry.note != nullptr) {
        plan.reason += entry.note(spec);
    }
    plan.outputMaxExponent = outputExponentBound(spec, *data, format.depth, values.maxExponent);
    plan.data = data;  // planFft reads the plan's taps through it
    plan.workspaceBytes = layoutWorkspace(plan, *data);
    return plan;
}

}  // namespace

SourceValues sourceValuesOf(const filters::FloatRange& range)
{
    SourceValues v;
    v.transformsSafe = filters::transformSafe(range);
    v.maxExponent = range.nonFinite ? SourceValues::kUnknown : range.maxExponent;
    return v;
}

Plan makePlan(const filters::FilterSpec& spec, PixelFormat format, int width, int height, const DeviceInfo& device,
              Method force, TensorCores tensor, SourceValues values)
{
    return planFor(spec, format, width, height, device, force, tensor, nullptr, values);
}

Plan makePlanForVariant(const filters::FilterSpec& spec, PixelFormat format, int width, int height,
                        const DeviceInfo& device, KernelVariant variant)
{
    return planFor(spec, format, width, height, device, Method::Auto, TensorCores::Auto, &variant, SourceValues{});
}

}  // namespace tessera::gpu
