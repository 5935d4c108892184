// SPDX-License-Identifier: Apache-2.0
#include "gpu/exec/streamed/tile_queue.h"

#include "values/log.h"

#include <utility>

namespace tessera::gpu {

TileQueue::TileQueue(std::vector<Tile> tiles, TileRequest request, const std::atomic<bool>* cancel)
    : tiles_(std::move(tiles)), done_(tiles_.size(), false), retired_(tiles_.size(), false),
      request_(std::move(request)), cancel_(cancel), origin_(std::chrono::steady_clock::now())
{
    for (int i = 0; i < static_cast<int>(tiles_.size()); ++i) {
        queue_.push_back(i);
    }
}

bool TileQueue::cancelled() const
{
    return cancel_ != nullptr && cancel_->load();
}

std::optional<TileQueue::Item> TileQueue::pop(bool wait)
{
    std::unique_lock lock(mutex_);
    if (wait) {
        // Wake up now and then to notice a cancel that nobody signals.
        while (queue_.empty() && taken_ > 0 && !cancelled()) {
            changed_.wait_for(lock, std::chrono::milliseconds(20));
        }
    }
    if (queue_.empty() || cancelled()) {
        return std::nullopt;
    }
    const int index = queue_.front();
    queue_.pop_front();
    ++taken_;
    return Item{index, tiles_[static_cast<std::size_t>(index)]};
}

void TileQueue::complete(int index)
{
    {
        std::lock_guard lock(mutex_);
        done_[static_cast<std::size_t>(index)] = true;
        --taken_;
    }
    changed_.notify_all();
}

std::vector<int> TileQueue::handBack(int index, bool split)
{
    std::vector<int> back;
    {
        std::lock_guard lock(mutex_);
        --taken_;
        ++retries_;
        const Rect out = tiles_[static_cast<std::size_t>(index)].out;
        if (split && out.area() > 1) {
            // Halve the longer side; the halves are new tiles, the original is retired.
            Rect a = out;
            Rect b = out;
            if (out.height >= out.width) {
                a.height = out.height / 2;
                b.y = out.y + a.height;
                b.height = out.height - a.height;
            } else {
                a.width = out.width / 2;
                b.x = out.x + a.width;
                b.width = out.width - a.width;
            }
            done_[static_cast<std::size_t>(index)] = true;  // replaced, not to be run
            retired_[static_cast<std::size_t>(index)] = true;
            for (const Rect& r : {b, a}) {
                tiles_.push_back(tileFor(r, request_));
                done_.push_back(false);
                retired_.push_back(false);
                queue_.push_front(static_cast<int>(tiles_.size()) - 1);
                back.insert(back.begin(), static_cast<int>(tiles_.size()) - 1);
            }
        } else {
            queue_.push_front(index);
            back.push_back(index);
        }
    }
    changed_.notify_all();
    return back;
}

double TileQueue::nowUs() const
{
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - origin_).count();
}

void TileQueue::addRecords(const std::vector<TimingRecord>& records)
{
    std::lock_guard lock(mutex_);
    records_.insert(records_.end(), records.begin(), records.end());
}

void TileQueue::addEvent(const std::string& text)
{
    // Every event is work that moved or a device left out: said as it happens.
    values::logIf(values::LogCategory::Fallback, [&] { return text; });
    std::lock_guard lock(mutex_);
    events_.push_back(text);
}

std::vector<TileQueue::Item> TileQueue::drain()
{
    std::lock_guard lock(mutex_);
    std::vector<Item> items;
    for (const int index : queue_) {
        items.push_back({index, tiles_[static_cast<std::size_t>(index)]});
    }
    queue_.clear();
    taken_ += static_cast<int>(items.size());
    return items;
}

std::vector<TimingRecord> TileQueue::records() const
{
    std::lock_guard lock(mutex_);
    return records_;
}

std::vector<std::string> TileQueue::events() const
{
    std::lock_guard lock(mutex_);
    return events_;
}

std::vector<Tile> TileQueue::tiles() const
{
    std::lock_guard lock(mutex_);
    return tiles_;
}

std::vector<bool> TileQueue::computed() const
{
    std::lock_guard lock(mutex_);
    std::vector<bool> out(done_.size());
    for (std::size_t i = 0; i < done_.size(); ++i) {
        out[i] = done_[i] && !retired_[i];
    }
    return out;
}

int TileQueue::retries() const
{
    std::lock_guard lock(mutex_);
    return retries_;
}

}  // namespace tessera::gpu
