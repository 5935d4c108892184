// SPDX-License-Identifier: Apache-2.0
#include "app/cli/interrupt.h"

#include "files/temp_files.h"

#include <csignal>
#include <cstring>

#include <signal.h>
#include <unistd.h>

namespace tessera::app {

namespace {

std::atomic<bool> cancelRequested{false};
std::atomic<int> firstSignal{0};
std::atomic<int> mode{0};  // 0 Exit, 1 Cancel
struct sigaction previousInt {};
struct sigaction previousTerm {};

void say(const char* text)
{
    // write(2) is async-signal-safe; a short or failed write of a note is not worth a retry.
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, text, std::strlen(text));
}

extern "C" void onSignal(int signal)
{
    int expected = 0;
    const bool first = firstSignal.compare_exchange_strong(expected, signal);
    if (first && mode.load() == 1) {
        cancelRequested.store(true);
        return;
    }
    files::removeLiveTemporaries();
    const int named = first ? signal : firstSignal.load();  // the exit code tells the first one
    say(named == SIGTERM ? "tessera-cli: terminated (SIGTERM); partial outputs removed\n"
                         : "tessera-cli: interrupted (SIGINT); partial outputs removed\n");
    ::_exit(exitCodeForSignal(named));
}

}  // namespace

InterruptGuard::InterruptGuard(Mode m)
{
    cancelRequested = false;
    firstSignal = 0;
    mode = m == Mode::Cancel ? 1 : 0;
    struct sigaction action {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    sigaddset(&action.sa_mask, SIGINT);
    sigaddset(&action.sa_mask, SIGTERM);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &action, &previousInt);
    ::sigaction(SIGTERM, &action, &previousTerm);
}

InterruptGuard::~InterruptGuard()
{
    ::sigaction(SIGINT, &previousInt, nullptr);
    ::sigaction(SIGTERM, &previousTerm, nullptr);
}

const std::atomic<bool>& InterruptGuard::cancelFlag() const
{
    return cancelRequested;
}

int InterruptGuard::received()
{
    return firstSignal.load();
}

CancelNotice::CancelNotice(const std::atomic<bool>& cancel, std::chrono::milliseconds delay, std::function<void()> say)
{
    watcher_ = std::thread([this, &cancel, delay, say = std::move(say)] {
        constexpr auto poll = std::chrono::milliseconds(50);
        std::unique_lock lock(mutex_);
        // Wait for the cancel (or the end of the run), then for the delay (or the end).
        while (!done_ && !cancel.load()) {
            wake_.wait_for(lock, poll);
        }
        if (done_ || wake_.wait_for(lock, delay, [this] { return done_; })) {
            return;
        }
        say();
    });
}

CancelNotice::~CancelNotice()
{
    {
        const std::lock_guard lock(mutex_);
        done_ = true;
    }
    wake_.notify_all();
    watcher_.join();
}

}  // namespace tessera::app
