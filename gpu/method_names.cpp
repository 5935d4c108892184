#include "gpu/kernel_variant.h"

#include "gpu/errors.h"

#include <algorithm>
#include <array>

// The method names apart from the variant table, so that option parsing (and its fuzz target)
// needs none of the CUDA code the table points to.
namespace tessera::gpu {

namespace {

struct MethodName {
    Method method;
    const char* name;
};

constexpr std::array<MethodName, 4> kMethodNames{{
    {Method::Auto, "auto"},
    {Method::Direct, "direct"},
    {Method::Separable, "separable"},
    {Method::Fft, "fft"},
}};

}  // namespace

std::string toString(Method m)
{
    const auto* it =
        std::find_if(kMethodNames.begin(), kMethodNames.end(), [m](const auto& e) { return e.method == m; });
    return it != kMethodNames.end() ? it->name : "auto";
}

Method parseMethod(const std::string& text)
{
    for (const auto& e : kMethodNames) {
        if (text == e.name) {
            return e.method;
        }
    }
    throw InvalidInput("unknown method '" + text + "' (expected auto, direct, separable or fft)");
}

}  // namespace tessera::gpu
