// SPDX-License-Identifier: Apache-2.0
// The chain and options of a C call: preset JSON parsed, the options applied as
// `tessera-cli apply` applies them.
#include "lib/c_chain.h"

#include "filters/filter_spec.h"
#include "filters/preset_io.h"
#include "filters/registry.h"

#include <cmath>

namespace tessera::capi {

[[noreturn]] void fail(const std::string& message, tessera_status status)
{
    throw Failure(status, message);
}

std::string text(const char* s, const char* fallback)
{
    return (s == nullptr || *s == '\0') ? std::string(fallback) : std::string(s);
}

namespace {

double finite(double v, const char* name)
{
    if (!std::isfinite(v)) {
        fail(std::string(name) + " must be a finite number");
    }
    return v;
}

}  // namespace

/// The chain the JSON and the options make, as `tessera-cli apply --preset` with options.
filters::FilterChain makeChain(const char* chainJson, const tessera_options* options)
{
    if (chainJson == nullptr) {
        fail("no chain given");
    }
    const filters::Preset preset = filters::parsePreset(chainJson, "chain", filters::builtinRegistry());
    filters::FilterChain chain = preset.chain();
    if (chain.steps.empty()) {
        fail("the chain has no filter");
    }
    if (options == nullptr) {
        return chain;
    }
    const tessera_options& o = *options;
    filters::ChainOverrides overrides;
    if (o.border != nullptr && *o.border != '\0') {
        overrides.border = filters::parseBorder(o.border);
    }
    if (o.set_border_value != 0) {
        overrides.borderValue = finite(o.border_value, "border_value");
    }
    if (o.set_scale != 0) {
        overrides.scale = finite(o.scale, "scale");
    }
    if (o.set_offset != 0) {
        overrides.offset = finite(o.offset, "offset");
    }
    if (o.depth != nullptr && *o.depth != '\0') {
        const std::string d = o.depth;
        overrides.depth = filters::parseOutputDepth(d == "keep" ? std::string("same") : d);
    }
    filters::applyOverrides(chain, overrides);
    for (const auto& s : chain.steps) {
        filters::validateSpec(s);
    }
    return chain;
}

}  // namespace tessera::capi
