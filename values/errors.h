// SPDX-License-Identifier: Apache-2.0
#pragma once

// The three kinds of failure gpu/ reports besides CUDA's own (tessera/gpu/cuda_error.h). They derive
// from the standard types callers already catch: the first two are std::invalid_argument, the
// third a std::logic_error.

#include <stdexcept>
#include <string>

namespace tessera::values {

/// The caller asked for something malformed: an empty image, a channel count Tessera never
/// takes, images that do not match their plan, unknown names.
class InvalidInput : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// The request is well formed but this build or device cannot carry it out: a method forced
/// onto a filter it cannot run, tensor cores demanded where they are not eligible.
class NotSupported : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// gpu/'s own bookkeeping is broken (a plan without the data its variant needs, a variant
/// that reached a launcher it does not belong to): a bug, never the user's doing.
class PreconditionError : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

}  // namespace tessera::values
