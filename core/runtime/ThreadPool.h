/// \file
/// The low-latency thread pool that runs the parallel loops of generated code.
///
/// Every `parallel` loop of a compiled kernel calls TesselParallelLaunch
/// (ParallelABI.h), which lands in ThreadPool::global().launch(). A launch must
/// cost microseconds, so the pool does not hand work over through a queue and a
/// condition variable: each worker has its own cache line holding a job
/// counter; the caller publishes the job, bumps the counters of the workers it
/// needs, runs task 0 itself and spins until the workers are done. A worker
/// spins on its counter for a short while after each job (spinMicros) and then
/// sleeps on a futex; the caller only makes a wake-up system call for workers
/// that are asleep.
///
/// Task placement is static: with numTasks == numThreads, task i runs on
/// thread i (the caller is thread 0); with more tasks, thread t runs the
/// contiguous block [t*numTasks/P, (t+1)*numTasks/P); with fewer, only threads
/// 0..numTasks-1 take part and the others are not woken. One exception keeps
/// a busy machine from stalling every launch on the scheduler: when a worker
/// has not started its share 50 us after the caller finished its own share
/// (the worker is descheduled, or slow to wake), the caller runs that share
/// itself (stolenShares() counts these).
///
/// A launch from inside a task (nested) runs all its tasks serially on the
/// calling thread. Launches from several outside threads at once are
/// serialised (one job at a time). Exceptions thrown by a task are caught and
/// reported as the task's result (kTaskThrew); none reaches a C caller.
#pragma once

#include "runtime/ParallelABI.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

namespace tessel::runtime {

class ThreadPool {
public:
    /// What a task that threw an exception is reported as.
    static constexpr int32_t kTaskThrew = -1;

    /// The pool behind TesselParallelLaunch: defaultNumThreads() threads,
    /// created on first use, joined when the program exits.
    static ThreadPool& global();

    /// TESSEL_NUM_THREADS when set to a positive number, else
    /// std::thread::hardware_concurrency() (at least 1).
    static int defaultNumThreads();

    /// A pool of `numThreads` threads including the caller (so numThreads - 1
    /// workers); numThreads <= 0 means defaultNumThreads().
    explicit ThreadPool(int numThreads = 0);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    /// Threads that run tasks, the caller included.
    int numThreads() const;
    /// Stops the workers and starts n - 1 new ones (n <= 0: the default).
    /// Waits for a running launch to end; must not be called from a task.
    void setNumThreads(int n);

    /// Pins worker i to CPU i (modulo the CPUs this process may use); the
    /// calling thread is left alone. Off by default. Applies to running workers.
    void setPinning(bool on);
    bool pinning() const;

    /// How long an idle worker spins before it sleeps, in microseconds
    /// (default 200; TESSEL_SPIN_US overrides the default). 0 sleeps at once.
    void setSpinMicros(int us);
    int spinMicros() const;

    /// Runs f(taskId, numTasks, closure) for every task 0..numTasks-1 and waits
    /// for all of them; numTasks <= 0 means numThreads() tasks. Returns 0 when
    /// every task returned 0, else the value returned by the lowest-numbered
    /// task that failed. Every task runs, failed or not.
    int32_t launch(TesselParallelLambda f, void* closure, int32_t numTasks);

    /// For C++ callers: runs body(taskId, numTasks) like launch() and rethrows
    /// the exception of the lowest-numbered task that threw, if any.
    void run(int32_t numTasks, const std::function<void(int32_t taskId, int32_t numTasks)>& body);

    /// Shares the caller ran for a worker that was late (see the file comment).
    int64_t stolenShares() const;

    /// Whether the calling thread is running a task of some pool launch (then
    /// a launch from it runs serially).
    static bool inParallelRegion();

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

} // namespace tessel::runtime
