// SPDX-License-Identifier: Apache-2.0
// The chain and options of a C call: preset JSON parsed, the options applied as
// `tessera-cli apply` applies them, and recent results remembered.
#include "python/c_chain.h"

#include "filters/filter_spec.h"
#include "filters/preset_io.h"
#include "filters/registry.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>

namespace tessera::python {

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
    if (o.border != nullptr && *o.border != '\0') {
        const filters::Border border = filters::parseBorder(o.border);
        for (auto& s : chain.steps) {
            s.border = border;
        }
    }
    if (o.set_border_value != 0) {
        const double v = finite(o.border_value, "border_value");
        for (auto& s : chain.steps) {
            s.borderValue = v;
        }
    }
    auto& last = chain.steps.back();
    if (o.set_scale != 0) {
        last.scale = finite(o.scale, "scale");
    }
    if (o.set_offset != 0) {
        last.offset = finite(o.offset, "offset");
    }
    if (o.depth != nullptr && *o.depth != '\0') {
        const std::string d = o.depth;
        last.depth = filters::parseOutputDepth(d == "keep" ? std::string("same") : d);
    }
    for (const auto& s : chain.steps) {
        filters::validateSpec(s);
    }
    return chain;
}

namespace {

/// A string as its length and bytes, so no two sequences of fields run together into one key.
void appendText(std::string& key, const char* s, const char* fallback)
{
    const std::string value = text(s, fallback);
    key += std::to_string(value.size());
    key += ':';
    key += value;
}

/// A double as its IEEE-754 bit pattern in hex (or '-' when unset): exact, so values that differ
/// in the last bit, or 0 and -0, never share a key. NaNs of different payloads get keys of their
/// own too, but none is ever kept: makeChain refuses them, and a failed call remembers nothing.
void appendNumber(std::string& key, int32_t set, double value)
{
    if (set == 0) {
        key += '-';
        return;
    }
    char digits[17];
    std::snprintf(digits, sizeof digits, "%016llx",
                  static_cast<unsigned long long>(std::bit_cast<std::uint64_t>(value)));
    key += digits;
}

}  // namespace

std::string optionsKey(const tessera_options* o)
{
    if (o == nullptr) {
        return "*";
    }
    std::string key;
    appendText(key, o->border, "");
    appendText(key, o->depth, "");
    appendText(key, o->device, "auto");
    appendText(key, o->method, "auto");
    appendNumber(key, o->set_border_value, o->border_value);
    appendNumber(key, o->set_scale, o->scale);
    appendNumber(key, o->set_offset, o->offset);
    return key;
}

/// makeChain, remembered for the chain texts and options seen last: a loop filtering frame
/// after frame parses its chain once.
std::shared_ptr<const filters::FilterChain> chainFor(const char* chainJson, const tessera_options* options)
{
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const filters::FilterChain>> chains;
    if (chainJson == nullptr) {
        fail("no chain given");
    }
    const std::string key = optionsKey(options) + '\n' + chainJson;
    {
        std::lock_guard lock(mutex);
        if (const auto it = chains.find(key); it != chains.end()) {
            return it->second;
        }
    }
    auto chain = std::make_shared<const filters::FilterChain>(makeChain(chainJson, options));
    std::lock_guard lock(mutex);
    if (chains.size() >= 64) {
        chains.clear();
    }
    chains.emplace(key, chain);
    return chain;
}

}  // namespace tessera::python
