// SPDX-License-Identifier: Apache-2.0
#include "app/devices/device_scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <random>
#include <thread>
#include <vector>

namespace tessera::app {
namespace {

using namespace std::chrono_literals;

const values::DeviceId kGpu0{0};
const values::DeviceId kGpu1{1};

LeaseRequest ask(LeaseKind kind, std::vector<values::DeviceId> devices, std::uint64_t bytes = 0,
                 std::string holder = {})
{
    return {std::move(devices), kind, bytes, std::move(holder)};
}

// Spins until pred holds (threads of the test reach their waits) or five seconds pass.
template <typename Pred>
bool eventually(Pred pred)
{
    const auto until = std::chrono::steady_clock::now() + 5s;
    while (!pred() && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(1ms);
    }
    return pred();
}

bool overlap(const LeaseInterval& a, const LeaseInterval& b)
{
    return a.begin < b.end && b.begin < a.end;
}

bool sharesDevice(const LeaseInterval& a, const LeaseInterval& b)
{
    for (const values::DeviceId d : a.request.devices) {
        if (std::ranges::find(b.request.devices, d) != b.request.devices.end()) {
            return true;
        }
    }
    return false;
}

TEST(DeviceScheduler, PreviewsAndBatchesShareADevice)
{
    DeviceScheduler scheduler;
    DeviceLease batch = scheduler.acquire(ask(LeaseKind::Batch, {kGpu0}, 10));
    DeviceLease preview = scheduler.tryAcquire(ask(LeaseKind::Preview, {kGpu0}, 10));
    EXPECT_TRUE(batch.held());
    EXPECT_TRUE(preview.held());
    EXPECT_EQ(scheduler.bytesInUse(kGpu0), 20u);
    preview.release();
    EXPECT_EQ(scheduler.bytesInUse(kGpu0), 10u);
}

TEST(DeviceScheduler, ExclusiveLeaseKeepsOthersOffItsDevicesOnly)
{
    DeviceScheduler scheduler;
    DeviceLease calibration = scheduler.acquire(ask(LeaseKind::Exclusive, {kGpu0}, 0, "calibration"));
    EXPECT_FALSE(scheduler.tryAcquire(ask(LeaseKind::Preview, {kGpu0})).held());
    EXPECT_FALSE(scheduler.tryAcquire(ask(LeaseKind::Batch, {kGpu0})).held());
    EXPECT_FALSE(scheduler.tryAcquire(ask(LeaseKind::Preview, {kGpu0, kGpu1})).held());
    EXPECT_TRUE(scheduler.tryAcquire(ask(LeaseKind::Batch, {kGpu1})).held());
    EXPECT_EQ(scheduler.whyWait(ask(LeaseKind::Preview, {kGpu0})), "waiting for GPU 0 (calibration running)");
    calibration.release();
    EXPECT_TRUE(scheduler.tryAcquire(ask(LeaseKind::Preview, {kGpu0})).held());
}

TEST(DeviceScheduler, ExclusiveLeaseWaitsForRunningWork)
{
    DeviceScheduler scheduler;
    DeviceLease batch = scheduler.acquire(ask(LeaseKind::Batch, {kGpu0}, 0, "batch"));
    EXPECT_FALSE(scheduler.tryAcquire(ask(LeaseKind::Exclusive, {kGpu0})).held());
    EXPECT_EQ(scheduler.whyWait(ask(LeaseKind::Exclusive, {kGpu0})), "waiting for GPU 0 (batch running)");
    batch.release();
    EXPECT_TRUE(scheduler.tryAcquire(ask(LeaseKind::Exclusive, {kGpu0})).held());
}

TEST(DeviceScheduler, CalibrationNeverOverlapsOtherWorkOnItsDevice)
{
    DeviceScheduler scheduler;
    scheduler.setRecording(true);
    std::atomic<bool> stop{false};
    std::vector<std::jthread> workers;
    // Batches and previews hammer GPU 0 and the CPU while calibrations come and go.
    for (int t = 0; t < 6; ++t) {
        workers.emplace_back([&scheduler, &stop, t] {
            const LeaseKind kind = t % 2 == 0 ? LeaseKind::Batch : LeaseKind::Preview;
            const std::vector<values::DeviceId> devices =
                t < 4 ? std::vector{kGpu0} : std::vector{kGpu0, values::DeviceId::cpu()};
            while (!stop) {
                DeviceLease lease = scheduler.acquire(ask(kind, devices, 1), [&stop] { return stop.load(); });
                std::this_thread::sleep_for(200us);
            }
        });
    }
    for (int i = 0; i < 20; ++i) {
        DeviceLease calibration = scheduler.acquire(ask(LeaseKind::Exclusive, {kGpu0}, 0, "calibration"));
        ASSERT_TRUE(calibration.held());
        std::this_thread::sleep_for(500us);
    }
    stop = true;
    workers.clear();
    const std::vector<LeaseInterval> intervals = scheduler.intervals();
    int exclusive = 0;
    int shared = 0;
    for (const LeaseInterval& a : intervals) {
        if (a.request.kind != LeaseKind::Exclusive) {
            ++shared;
            continue;
        }
        ++exclusive;
        for (const LeaseInterval& b : intervals) {
            if (&a != &b && sharesDevice(a, b)) {
                EXPECT_FALSE(overlap(a, b)) << "a " << toString(b.request.kind) << " lease ran beside a calibration";
            }
        }
    }
    EXPECT_EQ(exclusive, 20);
    EXPECT_GT(shared, 20);
}

TEST(DeviceScheduler, WaitingPreviewGetsTheDeviceBeforeTheNextBatchLease)
{
    DeviceScheduler scheduler;
    scheduler.setBudget(kGpu0, 100);
    scheduler.setRecording(true);
    DeviceLease firstBatch = scheduler.acquire(ask(LeaseKind::Batch, {kGpu0}, 60, "batch"));
    std::string previewWhy;
    std::jthread preview([&] {
        DeviceLease lease = scheduler.acquire(ask(LeaseKind::Preview, {kGpu0}, 60, "preview"), {},
                                              [&](const std::string& why) { previewWhy = why; });
        std::this_thread::sleep_for(2ms);
    });
    ASSERT_TRUE(eventually([&] { return scheduler.waitingCount() == 1; }));
    // 30 more bytes would fit beside the first batch, but the preview waits: the batch waits too.
    std::string batchWhy;
    std::jthread nextBatch([&] {
        DeviceLease lease = scheduler.acquire(ask(LeaseKind::Batch, {kGpu0}, 30, "batch"), {},
                                              [&](const std::string& why) { batchWhy = why; });
    });
    ASSERT_TRUE(eventually([&] { return scheduler.waitingCount() == 2; }));
    std::this_thread::sleep_for(20ms);
    EXPECT_EQ(scheduler.waitingCount(), 2) << "the next batch lease went ahead of the waiting preview";
    firstBatch.release();
    preview.join();
    nextBatch.join();
    EXPECT_EQ(previewWhy, "waiting for GPU 0 (memory held by batch)");
    EXPECT_EQ(batchWhy, "waiting for GPU 0 (preview first)");
    const std::vector<LeaseInterval> intervals = scheduler.intervals();
    ASSERT_EQ(intervals.size(), 3u);
    std::map<std::uint64_t, const LeaseInterval*> bySize;
    for (const LeaseInterval& i : intervals) {
        bySize[i.request.bytes + (i.request.kind == LeaseKind::Preview ? 1000 : 0)] = &i;
    }
    const LeaseInterval& first = *bySize.at(60);
    const LeaseInterval& previewLease = *bySize.at(1060);
    const LeaseInterval& next = *bySize.at(30);
    EXPECT_GT(previewLease.begin, first.end);
    EXPECT_GT(next.begin, previewLease.begin);
}

TEST(DeviceScheduler, ManyConcurrentLeasesNeverExceedABudget)
{
    DeviceScheduler scheduler;
    const std::map<values::DeviceId, std::uint64_t> budgets{{kGpu0, 100}, {kGpu1, 64}, {values::DeviceId::cpu(), 50}};
    for (const auto& [device, bytes] : budgets) {
        scheduler.setBudget(device, bytes);
    }
    scheduler.setRecording(true);
    std::atomic<bool> overBudget{false};
    {
        std::vector<std::jthread> workers;
        for (int t = 0; t < 12; ++t) {
            workers.emplace_back([&, seed = std::random_device{}()] {
                std::mt19937 random(seed);
                const std::vector<std::vector<values::DeviceId>> sets{
                    {kGpu0}, {kGpu1}, {kGpu0, kGpu1}, {values::DeviceId::cpu()}};
                for (int i = 0; i < 60; ++i) {
                    const auto kind = static_cast<LeaseKind>(random() % 2);  // preview or batch
                    const auto& devices = sets[random() % sets.size()];
                    DeviceLease lease = scheduler.acquire(ask(kind, devices, 1 + random() % 45));
                    for (const values::DeviceId d : devices) {
                        overBudget = overBudget || scheduler.bytesInUse(d) > budgets.at(d);
                    }
                    std::this_thread::sleep_for(std::chrono::microseconds(random() % 300));
                }
            });
        }
    }
    EXPECT_FALSE(overBudget);
    // The same from the record: at every grant, the leases then running fit in each budget.
    const std::vector<LeaseInterval> intervals = scheduler.intervals();
    ASSERT_EQ(intervals.size(), 12u * 60u);
    for (const LeaseInterval& a : intervals) {
        for (const values::DeviceId d : a.request.devices) {
            std::uint64_t used = 0;
            for (const LeaseInterval& b : intervals) {
                const bool running = b.begin <= a.begin && a.begin < b.end;
                if (running && std::ranges::find(b.request.devices, d) != b.request.devices.end()) {
                    used += b.grantedBytes;
                }
            }
            ASSERT_LE(used, budgets.at(d)) << "on " << values::describe(d);
        }
    }
}

TEST(DeviceScheduler, RequestLargerThanTheBudgetRunsAlone)
{
    DeviceScheduler scheduler;
    scheduler.setBudget(kGpu0, 100);
    DeviceLease big = scheduler.acquire(ask(LeaseKind::Batch, {kGpu0}, 500));
    EXPECT_EQ(big.bytes(), 100u);
    EXPECT_FALSE(scheduler.tryAcquire(ask(LeaseKind::Preview, {kGpu0}, 1)).held());
    EXPECT_TRUE(scheduler.tryAcquire(ask(LeaseKind::Preview, {kGpu0}, 0)).held());
}

TEST(DeviceScheduler, CancelWhileWaiting)
{
    DeviceScheduler scheduler;
    DeviceLease comparison = scheduler.acquire(ask(LeaseKind::Exclusive, {kGpu0}, 0, "comparison"));
    std::atomic<bool> cancel{false};
    std::atomic<bool> told{false};
    DeviceLease got;
    std::jthread batch([&] {
        got = scheduler.acquire(
            ask(LeaseKind::Batch, {kGpu0}), [&] { return cancel.load(); }, [&](const std::string&) { told = true; });
    });
    ASSERT_TRUE(eventually([&] { return told.load(); }));
    EXPECT_EQ(scheduler.waitingCount(), 1);
    cancel = true;
    batch.join();
    EXPECT_FALSE(got.held());
    EXPECT_EQ(scheduler.waitingCount(), 0);
    comparison.release();
    // The cancelled wait left nothing behind: the device is free.
    EXPECT_TRUE(scheduler.tryAcquire(ask(LeaseKind::Exclusive, {kGpu0})).held());
}

TEST(DeviceScheduler, CancelledPreviewNoLongerHoldsBatchesBack)
{
    DeviceScheduler scheduler;
    DeviceLease calibration = scheduler.acquire(ask(LeaseKind::Exclusive, {kGpu0}));
    std::atomic<bool> cancel{false};
    std::jthread preview([&] {
        scheduler.acquire(ask(LeaseKind::Preview, {kGpu0, kGpu1}), [&] { return cancel.load(); });
    });
    ASSERT_TRUE(eventually([&] { return scheduler.waitingCount() == 1; }));
    EXPECT_FALSE(scheduler.tryAcquire(ask(LeaseKind::Batch, {kGpu1})).held());
    cancel = true;
    preview.join();
    EXPECT_TRUE(scheduler.tryAcquire(ask(LeaseKind::Batch, {kGpu1})).held());
}

TEST(DeviceScheduler, LeaseMovesAndReleasesOnce)
{
    DeviceScheduler scheduler;
    DeviceLease a = scheduler.acquire(ask(LeaseKind::Exclusive, {kGpu0}));
    DeviceLease b = std::move(a);
    EXPECT_FALSE(a.held());  // NOLINT(bugprone-use-after-move): a moved-from lease is empty
    EXPECT_TRUE(b.held());
    a.release();
    EXPECT_FALSE(scheduler.tryAcquire(ask(LeaseKind::Batch, {kGpu0})).held());
    b = DeviceLease();
    EXPECT_TRUE(scheduler.tryAcquire(ask(LeaseKind::Batch, {kGpu0})).held());
    EXPECT_THROW(scheduler.acquire(ask(LeaseKind::Batch, {})), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::app
