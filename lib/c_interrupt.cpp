// SPDX-License-Identifier: Apache-2.0
#include "lib/c_interrupt.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace tessera::capi {

namespace {

std::mutex activeRunsMutex;
std::vector<std::atomic<bool>*> activeRuns;

}  // namespace

ActiveRun::ActiveRun()
{
    const std::lock_guard lock(activeRunsMutex);
    activeRuns.push_back(&cancel_);
}

ActiveRun::~ActiveRun()
{
    const std::lock_guard lock(activeRunsMutex);
    std::erase(activeRuns, &cancel_);
}

void interruptActiveRuns() noexcept
{
    const std::lock_guard lock(activeRunsMutex);
    for (std::atomic<bool>* flag : activeRuns) {
        flag->store(true);
    }
}

}  // namespace tessera::capi
