// SPDX-License-Identifier: Apache-2.0
#pragma once

// The names of what the GPU planner can choose: a method (the algorithm family a user may
// force), whether tensor cores may be used, and the kernel variant that carries a plan out.

#include "values/method.h"
#include "tessera/gpu/values.h"

#include <span>
#include <string>
#include <utility>

namespace tessera::gpu {

/// Every kernel the planner can choose. Within a method the planner takes the first variant,
/// in this order, that can implement the plan; LaunchShape::compiledSize says which compiled
/// instance of a templated variant runs.
enum class KernelVariant {
    DirectRgba8WalkHalf,     ///< the RGBA8 walk summing exact bytes in fp16, 3x3 with mild taps; compiledSize = 3
    DirectRgba8Walk,         ///< RGBA8 3x3 / 5x5 window walking down a strip; compiledSize = K
    DirectFixed,             ///< square odd 3..15, fully unrolled; compiledSize = K
    DirectTiled,             ///< any size, shared-memory tile per block; compiledSize = 0
    DirectRgba8Imma,         ///< integer tensor cores, RGBA8 3x3 / 5x5 with 16-bit fixed-point taps; compiledSize = K
    DirectTensor,            ///< tensor cores, width class 8 or 16 taps; compiledSize = the class
    DirectTensorPersistent,  ///< tensor cores, persistent blocks, width class 32 or 64 taps
    SeparableWalk,           ///< f32 one channel, at most 32 taps, walking strips; compiledSize = 0
    SeparableSingle,         ///< one channel, fused row and column pass; compiledSize = 0
    SeparableTiled,          ///< any format, fused in a shared-memory tile; compiledSize = 0
    SeparableTwoPass,        ///< window too large to fuse: two passes via a float intermediate
    SeparableTf32Walk,       ///< tensor cores, f32 one channel in three TF32 products; compiledSize = 16 or 32
    SeparableTensorWalk,     ///< tensor cores, RGBA8 up to 33 taps per side, walking strips
    SeparableTensor,         ///< tensor cores, fused tile; compiledSize = the width class
    FftRows,                 ///< row spectra on chip, vertical taps summed in frequency; up to 64 per side
    Fft,                     ///< cuFFT product of spectra; compiledSize = 0
};

/// Every variant, in the planner's order of preference.
std::span<const KernelVariant> allKernelVariants();
/// The variant's name from the variant table, e.g. "direct-fixed". Never throws.
std::string toString(KernelVariant v);
/// The variant named `text`; throws InvalidInput naming the bad text.
KernelVariant parseKernelVariant(const std::string& text);
/// The method a variant belongs to. Never throws.
Method methodOf(KernelVariant v);
/// Whether a variant runs on tensor cores. Never throws.
bool usesTensorCores(KernelVariant v);

/// Whether a variant can carry out a plan, and if not, why (in words a user can act on).
struct Support {
    bool ok = true;
    std::string reason;  ///< empty when ok

    static Support yes() { return {}; }
    static Support no(std::string why) { return {false, std::move(why)}; }
    explicit operator bool() const { return ok; }
};

}  // namespace tessera::gpu
