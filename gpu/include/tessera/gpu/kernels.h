// SPDX-License-Identifier: Apache-2.0
#pragma once

// The kernel-level face of gpu/, for the benchmark and the tests that time or check one kernel
// at a time: plan and run one spec on device images, the device resources that needs, and the
// naive reference kernel. Everything else goes through gpu/engine.h.

#include "gpu/engine.h"
#include "gpu/executor.h"
#include "gpu/naive_conv.h"
#include "gpu/pixel_format.h"
#include "gpu/resources.h"
