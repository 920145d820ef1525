#include "runtime/ThreadPool.h"

#include "ir/Check.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <exception>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace tessel::runtime {

namespace {

static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t) &&
                  std::atomic<uint32_t>::is_always_lock_free,
              "futex words must be plain 32-bit atomics");

/// Tells the CPU we are in a spin loop (saves power, frees the sibling hyper-thread).
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    asm volatile("yield" ::: "memory");
#endif
}

/// Sleeps while `*word == expected` (may return spuriously).
inline void futexWait(std::atomic<uint32_t>* word, uint32_t expected) {
#if defined(__linux__)
    syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAIT_PRIVATE, expected, nullptr,
            nullptr, 0);
#else
    word->wait(expected, std::memory_order_seq_cst);
#endif
}

/// Wakes every thread sleeping on `word`.
inline void futexWakeAll(std::atomic<uint32_t>* word) {
#if defined(__linux__)
    syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr,
            nullptr, 0);
#else
    word->notify_all();
#endif
}

using Clock = std::chrono::steady_clock;

/// Spins until pred() holds or `micros` have passed; returns pred()'s last value.
template <class Pred> bool spinUntil(Pred pred, int micros) {
    if (pred()) return true;
    if (micros <= 0) return false;
    const auto deadline = Clock::now() + std::chrono::microseconds(micros);
    for (;;) {
        for (int i = 0; i < 64; ++i) {
            cpuRelax();
            if (pred()) return true;
        }
        if (Clock::now() >= deadline) return pred();
    }
}

/// Set while this thread runs a task (on a worker: always).
thread_local bool tlsInTask = false;

/// Sets tlsInTask for a scope and restores it.
struct InTaskScope {
    bool saved = tlsInTask;
    InTaskScope() { tlsInTask = true; }
    ~InTaskScope() { tlsInTask = saved; }
};

inline int32_t callTask(TesselParallelLambda f, int32_t task, int32_t numTasks, void* closure) {
    try {
        return f(task, numTasks, closure);
    } catch (...) {
        return ThreadPool::kTaskThrew;
    }
}

int32_t runSerially(TesselParallelLambda f, void* closure, int32_t numTasks) {
    InTaskScope scope;
    int32_t result = 0;
    for (int32_t t = 0; t < numTasks; ++t) {
        int32_t r = callTask(f, t, numTasks, closure);
        if (r != 0 && result == 0) result = r;
    }
    return result;
}

int envInt(const char* name, int fallback) {
    const char* v = std::getenv(name);
    if (!v || !*v) return fallback;
    char* end = nullptr;
    long n = std::strtol(v, &end, 10);
    if (*end != '\0' || n < 0 || n > 1 << 20) return fallback;
    return static_cast<int>(n);
}

/// 0: the global pool was never made; 1: alive; 2: destroyed (program exit).
constinit std::atomic<int> gGlobalState{0};

} // namespace

struct ThreadPool::Impl {
    /// One per thread of the pool (slot 0 is the caller's), on its own cache lines.
    struct alignas(64) Slot {
        /// Bumped by the caller for each job this worker takes part in; the futex word.
        std::atomic<uint32_t> signal{0};
        /// Set by the worker while it sleeps (or is about to) on `signal`.
        std::atomic<uint32_t> sleeping{0};
        /// The last `signal` value whose share was claimed, by the worker or
        /// (when the worker was late) by the caller; a CAS from signal - 1.
        std::atomic<uint32_t> claimed{0};
        std::thread thread;
        /// Results of this thread's tasks in the current job, written by it alone.
        alignas(64) int32_t failTask = INT32_MAX;
        int32_t failCode = 0;
    };

    std::mutex launchMutex; ///< one job at a time; also guards reconfiguration
    std::vector<std::unique_ptr<Slot>> slots;
    std::atomic<int> numThreads{1};
    std::atomic<int> spinMicros{200};
    std::atomic<bool> pinning{false};
    std::vector<int> cpus; ///< CPUs this process may run on, for pinning
    std::atomic<int64_t> stolenShares{0};

    /// How long past the caller's own share a worker may take to start its share.
    static constexpr int kStealGraceMicros = 50;

    // The current job, written by the caller before it bumps the workers' signals.
    TesselParallelLambda f = nullptr;
    void* closure = nullptr;
    int32_t numTasks = 0;
    int32_t participants = 0;
    std::atomic<bool> stopping{false}; ///< read by late workers while stop() writes it

    /// The next task to hand out when there are more tasks than threads.
    alignas(64) std::atomic<int32_t> nextTask{0};
    /// Workers of the current job still running.
    alignas(64) std::atomic<uint32_t> pending{0};
    /// Set while the caller sleeps on `pending`.
    alignas(64) std::atomic<uint32_t> callerSleeping{0};

    /// Runs on the caller the shares of workers that have not claimed theirs.
    void stealLateShares(int p) {
        for (int id = 1; id < p; ++id) {
            Slot& s = *slots[id];
            const uint32_t job = s.signal.load(std::memory_order_relaxed);
            uint32_t expected = job - 1;
            if (!s.claimed.compare_exchange_strong(expected, job, std::memory_order_acq_rel))
                continue;
            {
                InTaskScope scope;
                runShare(id);
            }
            stolenShares.fetch_add(1, std::memory_order_relaxed);
            pending.fetch_sub(1, std::memory_order_seq_cst);
        }
    }

    /// Runs the tasks of thread `t` of the current job and records its first failure.
    void runShare(int t) {
        Slot& s = *slots[t];
        s.failTask = INT32_MAX;
        s.failCode = 0;
        auto record = [&](int32_t task, int32_t r) {
            if (r != 0 && s.failTask == INT32_MAX) {
                s.failTask = task;
                s.failCode = r;
            }
        };
        if (numTasks > participants) {
            // More tasks than threads: hand them out one at a time, so a thread
            // slowed by other load (a shared machine) takes fewer and nobody waits
            // at the end for the slowest static share.
            for (;;) {
                const int32_t task = nextTask.fetch_add(1, std::memory_order_relaxed);
                if (task >= numTasks) break;
                record(task, callTask(f, task, numTasks, closure));
            }
            return;
        }
        const int64_t n = numTasks, p = participants;
        const int32_t begin = static_cast<int32_t>(t * n / p);
        const int32_t end = static_cast<int32_t>((t + 1) * n / p);
        for (int32_t task = begin; task < end; ++task) record(task, callTask(f, task, numTasks, closure));
    }

    void workerLoop(int id) {
        tlsInTask = true;
        Slot& slot = *slots[id];
        // Not signal.load(): a launch may have bumped it before this thread ran.
        uint32_t seen = 0;
        for (;;) {
            auto changed = [&] { return slot.signal.load(std::memory_order_acquire) != seen; };
            if (!spinUntil(changed, spinMicros.load(std::memory_order_relaxed))) {
                // Announce the sleep, then re-check: the caller bumps `signal`
                // before it reads `sleeping` (both seq_cst), so one of us sees the other.
                slot.sleeping.store(1, std::memory_order_seq_cst);
                while (slot.signal.load(std::memory_order_seq_cst) == seen)
                    futexWait(&slot.signal, seen);
                slot.sleeping.store(0, std::memory_order_relaxed);
            }
            seen = slot.signal.load(std::memory_order_acquire);
            if (stopping) return;
            uint32_t expected = seen - 1;
            if (!slot.claimed.compare_exchange_strong(expected, seen, std::memory_order_acq_rel))
                continue; // the caller took this share over: we were late
            runShare(id);
            if (pending.fetch_sub(1, std::memory_order_seq_cst) == 1 &&
                callerSleeping.load(std::memory_order_seq_cst))
                futexWakeAll(&pending);
        }
    }

    void pin(int id) {
#if defined(__linux__)
        if (id == 0) return;
        cpu_set_t set;
        CPU_ZERO(&set);
        if (pinning.load() && !cpus.empty()) {
            CPU_SET(cpus[id % cpus.size()], &set);
        } else {
            for (int c : cpus)
                CPU_SET(c, &set);
        }
        if (!cpus.empty())
            pthread_setaffinity_np(slots[id]->thread.native_handle(), sizeof(set), &set);
#endif
    }

    /// Starts n - 1 workers; with fewer (thread creation failed), runs on what started.
    void start(int n) {
        // Every slot exists before any worker runs: workers index `slots`.
        slots.clear();
        for (int id = 0; id < n; ++id)
            slots.push_back(std::make_unique<Slot>());
        stopping = false;
        int started = 1;
        for (; started < n; ++started) {
            try {
                const int id = started;
                slots[id]->thread = std::thread([this, id] { workerLoop(id); });
            } catch (...) {
                break;
            }
            if (pinning.load()) pin(started);
        }
        slots.resize(started); // shrinking never reallocates
        numThreads.store(started);
    }

    void stop() {
        stopping = true;
        for (size_t id = 1; id < slots.size(); ++id) {
            Slot& s = *slots[id];
            s.signal.fetch_add(1, std::memory_order_seq_cst);
            futexWakeAll(&s.signal);
        }
        for (size_t id = 1; id < slots.size(); ++id)
            slots[id]->thread.join();
        slots.resize(1);
        numThreads.store(1);
    }

    /// Runs a job on `p` >= 2 participants; the launch mutex is held.
    int32_t runParallel(TesselParallelLambda fn, void* cl, int32_t tasks, int p) {
        f = fn;
        closure = cl;
        numTasks = tasks;
        participants = p;
        nextTask.store(0, std::memory_order_relaxed);
        pending.store(static_cast<uint32_t>(p - 1), std::memory_order_relaxed);
        const auto start = Clock::now();
        for (int id = 1; id < p; ++id) {
            Slot& s = *slots[id];
            s.signal.fetch_add(1, std::memory_order_seq_cst);
            if (s.sleeping.load(std::memory_order_seq_cst)) futexWakeAll(&s.signal);
        }
        {
            InTaskScope scope;
            runShare(0);
        }
        // A worker that has not even claimed its share by `stealAfter` is
        // descheduled (the machine is busy) or slow to wake: the caller runs
        // that share itself rather than wait for the scheduler.
        const auto now = Clock::now();
        const auto stealAfter = now + (now - start) + std::chrono::microseconds(kStealGraceMicros);
        const auto sleepAfter =
            stealAfter + std::chrono::microseconds(spinMicros.load(std::memory_order_relaxed));
        bool stealChecked = false;
        for (;;) {
            if (pending.load(std::memory_order_acquire) == 0) break;
            for (int i = 0; i < 64 && pending.load(std::memory_order_acquire) != 0; ++i)
                cpuRelax();
            const auto t = Clock::now();
            if (!stealChecked && t >= stealAfter) {
                stealChecked = true;
                stealLateShares(p);
            }
            if (t >= sleepAfter) {
                callerSleeping.store(1, std::memory_order_seq_cst);
                for (uint32_t v; (v = pending.load(std::memory_order_seq_cst)) != 0;)
                    futexWait(&pending, v);
                callerSleeping.store(0, std::memory_order_relaxed);
                break;
            }
        }
        int32_t firstTask = INT32_MAX, code = 0;
        for (int id = 0; id < p; ++id) {
            const Slot& s = *slots[id];
            if (s.failTask < firstTask) {
                firstTask = s.failTask;
                code = s.failCode;
            }
        }
        return code;
    }
};

ThreadPool& ThreadPool::global() {
    struct Holder {
        ThreadPool pool;
        Holder() { gGlobalState.store(1); }
        ~Holder() { gGlobalState.store(2); }
    };
    static Holder holder;
    return holder.pool;
}

int ThreadPool::defaultNumThreads() {
    int env = envInt("TESSEL_NUM_THREADS", 0);
    if (env > 0) return env;
    return std::max(1u, std::thread::hardware_concurrency());
}

ThreadPool::ThreadPool(int numThreads) : impl_(std::make_unique<Impl>()) {
    impl_->spinMicros.store(envInt("TESSEL_SPIN_US", 200));
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0)
        for (int c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &set)) impl_->cpus.push_back(c);
#endif
    impl_->start(numThreads > 0 ? numThreads : defaultNumThreads());
}

ThreadPool::~ThreadPool() {
    std::lock_guard lock(impl_->launchMutex);
    impl_->stop();
}

int ThreadPool::numThreads() const {
    return impl_->numThreads.load(std::memory_order_relaxed);
}

void ThreadPool::setNumThreads(int n) {
    TESSEL_CHECK(!tlsInTask, "ThreadPool::setNumThreads called from inside a task");
    if (n <= 0) n = defaultNumThreads();
    std::lock_guard lock(impl_->launchMutex);
    if (n == numThreads()) return;
    impl_->stop();
    impl_->start(n);
}

void ThreadPool::setPinning(bool on) {
    std::lock_guard lock(impl_->launchMutex);
    if (impl_->pinning.exchange(on) == on) return;
    for (size_t id = 1; id < impl_->slots.size(); ++id)
        impl_->pin(static_cast<int>(id));
}

bool ThreadPool::pinning() const {
    return impl_->pinning.load();
}

void ThreadPool::setSpinMicros(int us) {
    impl_->spinMicros.store(std::max(0, us));
}

int ThreadPool::spinMicros() const {
    return impl_->spinMicros.load();
}

bool ThreadPool::inParallelRegion() {
    return tlsInTask;
}

int64_t ThreadPool::stolenShares() const {
    return impl_->stolenShares.load();
}

int32_t ThreadPool::launch(TesselParallelLambda f, void* closure, int32_t numTasks) {
    if (!f) return kTaskThrew;
    if (tlsInTask) return runSerially(f, closure, numTasks > 0 ? numTasks : 1);
    if (numTasks == 1) return runSerially(f, closure, 1);
    std::lock_guard lock(impl_->launchMutex);
    const int p = numThreads();
    if (numTasks <= 0) numTasks = p;
    const int participants = std::min<int>(p, numTasks);
    if (participants <= 1) return runSerially(f, closure, numTasks);
    return impl_->runParallel(f, closure, numTasks, participants);
}

void ThreadPool::run(int32_t numTasks,
                     const std::function<void(int32_t taskId, int32_t numTasks)>& body) {
    struct Closure {
        const std::function<void(int32_t, int32_t)>* body;
        std::mutex mutex;
        int32_t errorTask = INT32_MAX;
        std::exception_ptr error;
    } c{&body, {}, INT32_MAX, nullptr};
    auto trampoline = [](int32_t task, int32_t n, void* p) -> int32_t {
        auto* c = static_cast<Closure*>(p);
        try {
            (*c->body)(task, n);
            return 0;
        } catch (...) {
            std::lock_guard lock(c->mutex);
            if (task < c->errorTask) {
                c->errorTask = task;
                c->error = std::current_exception();
            }
            return kTaskThrew;
        }
    };
    launch(trampoline, &c, numTasks);
    if (c.error) std::rethrow_exception(c.error);
}

} // namespace tessel::runtime

extern "C" int32_t TesselParallelLaunch(TesselParallelLambda f, void* closure, int32_t numTasks) {
    using tessel::runtime::ThreadPool;
    try {
        if (tessel::runtime::gGlobalState.load(std::memory_order_relaxed) == 2)
            return tessel::runtime::runSerially(f, closure, numTasks > 0 ? numTasks : 1);
        return ThreadPool::global().launch(f, closure, numTasks);
    } catch (...) {
        return ThreadPool::kTaskThrew;
    }
}

extern "C" int32_t TesselParallelNumThreads() {
    using tessel::runtime::ThreadPool;
    try {
        if (tessel::runtime::gGlobalState.load(std::memory_order_relaxed) == 2) return 1;
        return ThreadPool::global().numThreads();
    } catch (...) {
        return 1;
    }
}
