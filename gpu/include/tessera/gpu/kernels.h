// SPDX-License-Identifier: Apache-2.0
#pragma once

// The kernel-level face of gpu/, for the benchmark and the tests that time or check one kernel
// at a time: plan and run one spec on device images, the device resources that needs, and the
// naive reference kernel. Everything else goes through gpu/engine.h.

#include "tessera/gpu/engine.h"
#include "tessera/gpu/executor.h"
#include "tessera/gpu/naive_conv.h"
#include "tessera/gpu/pixel_format.h"
#include "tessera/gpu/resources.h"
