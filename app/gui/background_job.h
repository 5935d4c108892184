// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <utility>

namespace tessera::app {

/// The app's one way to run work off the GUI thread: start() runs work on a thread of this
/// job's own (QtConcurrent on a one-thread pool, so a controller's jobs never queue behind
/// another's) and hands its result to done on the thread that owns the job, through a
/// QFutureWatcher. One run at a time. The work must not throw (turn errors into the Result)
/// and may post progress with queued calls. Destroying the job waits for the work; its done is
/// then not called. GUI thread only (the work itself runs elsewhere).
template <typename Result>
class BackgroundJob {
public:
    /// Ready to start. Never throws beyond allocation.
    BackgroundJob()
    {
        pool_.setMaxThreadCount(1);
        QObject::connect(&watcher_, &QFutureWatcherBase::finished, &watcher_, [this] {
            running_ = false;
            // Moved out first: done may start the next run, which sets a new done.
            auto done = std::exchange(done_, {});
            if (done) {
                done(watcher_.result());
            }
        });
    }
    /// Waits for the work in progress. Never throws.
    ~BackgroundJob() { wait(); }
    BackgroundJob(const BackgroundJob&) = delete;
    BackgroundJob& operator=(const BackgroundJob&) = delete;

    /// True from start() until done has been called. Never throws.
    bool isRunning() const { return running_; }

    /// Starts work; done gets its result later on this thread. Ignored (returns false) while a
    /// run is in progress. Never throws beyond allocation.
    template <typename Work>
    bool start(Work work, std::function<void(Result)> done)
    {
        if (running_) {
            return false;
        }
        running_ = true;
        done_ = std::move(done);
        watcher_.setFuture(QtConcurrent::run(&pool_, std::move(work)));
        return true;
    }

    /// Blocks until the work in progress (if any) has returned; done is called later, from the
    /// event loop. For destructors, which must not leave work behind. Never throws.
    void wait() { watcher_.waitForFinished(); }

private:
    QThreadPool pool_;
    QFutureWatcher<Result> watcher_;
    std::function<void(Result)> done_;
    bool running_ = false;
};

}  // namespace tessera::app
