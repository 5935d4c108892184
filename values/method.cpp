// SPDX-License-Identifier: Apache-2.0
#include "values/method.h"

#include "values/errors.h"

#include <algorithm>
#include <array>

namespace tessera::values {

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

}  // namespace tessera::values
