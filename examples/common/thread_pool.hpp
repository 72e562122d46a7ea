// SPDX-License-Identifier: MIT
// A small std::thread pool that implements impulse::TaskSystem: what an engine writes once over its
// own job system, here with nothing but the standard library. `workers` threads take part in a
// solver step: the caller and workers - 1 threads this pool starts (and joins when it is destroyed).
// Link Threads::Threads.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <impulse/tasks.hpp>

namespace examples {

class ThreadPool final : public impulse::TaskSystem {
public:
    explicit ThreadPool(unsigned workers) : workers_(workers < 1 ? 1 : workers)
    {
        for (unsigned i = 1; i < workers_; ++i) threads_.emplace_back([this, i] { loop(i); });
    }
    ~ThreadPool() override
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (std::thread& t : threads_) t.join();
    }
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    unsigned workers() const noexcept override { return workers_; }

    void* enqueue(Task task, std::size_t count, std::size_t min_range, void* context) noexcept override
    {
        if (count == 0) return nullptr;
        const std::size_t range = min_range < 1 ? 1 : min_range;
        Group* group = nullptr;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            groups_.push_back(std::make_unique<Group>());
            group = groups_.back().get();
            for (std::size_t begin = 0; begin < count; begin += range) {
                const std::size_t end = begin + range < count ? begin + range : count;
                queue_.push_back(Job{task, begin, end, context, group});
                ++group->pending;
            }
        }
        wake_.notify_all();
        return group;
    }

    void finish(void* handle) noexcept override
    {
        if (!handle) return;
        Group* group = static_cast<Group*>(handle);
        std::unique_lock<std::mutex> lock(mutex_);
        // Help with what is still queued, then wait for the rest.
        while (group->pending > 0) {
            if (!queue_.empty()) {
                run_one(lock, 0);
                continue;
            }
            done_.wait(lock);
        }
        for (auto it = groups_.begin(); it != groups_.end(); ++it)
            if (it->get() == group) {
                groups_.erase(it);
                break;
            }
    }

private:
    struct Group {
        std::size_t pending{0};
    };
    struct Job {
        Task task;
        std::size_t begin, end;
        void* context;
        Group* group;
    };

    // Runs the first queued job with the lock released; the lock is held again on return.
    void run_one(std::unique_lock<std::mutex>& lock, unsigned worker)
    {
        const Job job = queue_.front();
        queue_.pop_front();
        lock.unlock();
        job.task(job.begin, job.end, worker, job.context);
        lock.lock();
        if (--job.group->pending == 0) done_.notify_all();
    }

    void loop(unsigned worker)
    {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
            if (stop_ && queue_.empty()) return;
            run_one(lock, worker);
        }
    }

    unsigned workers_;
    std::vector<std::thread> threads_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    std::deque<Job> queue_;
    std::vector<std::unique_ptr<Group>> groups_;
    bool stop_{false};
};

}  // namespace examples
