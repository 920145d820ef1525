// The runner process a session runs its kernels in: requests served by one
// child forked once, its state set up after each fork, an exception a failed
// reply (the child goes on), a crash or a hang the end of that child only
// (the next request forks another, with the state set up again), and the
// cost of a request when no fork is needed.
#include "rpc/RunnerProcess.h"

#include <QtTest>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>

using namespace tessel::rpc;

namespace {

std::vector<char> request(const std::string& what) {
    Writer w;
    w.str(what);
    return w.take();
}

/// What the child answers: "pid", "echo <x>", "state", "throw", "crash", "hang".
struct Child {
    int state = 0; // set by start() in the child; the parent's stays 0
    RunnerProcess process{[this] { state = 42; }, [this](Reader& r) {
                              const std::string what = r.str();
                              Writer w;
                              if (what == "pid") w.i64(::getpid());
                              else if (what.rfind("echo ", 0) == 0) w.str(what.substr(5));
                              else if (what == "state") w.i32(state);
                              else if (what == "throw") throw std::runtime_error("no such thing");
                              else if (what == "crash") ::raise(SIGSEGV);
                              else if (what == "hang") for (;;) ::pause();
                              return w.take();
                          }};

    int64_t pid() {
        const RunnerReply r = process.call(request("pid"), 5000);
        if (r.status != RunnerReply::Status::Ok) return -1;
        Reader rd(r.bytes);
        return rd.i64();
    }
};

} // namespace

class TestRunnerProcess : public QObject {
    Q_OBJECT
private slots:
    void requestsShareOneChild() {
        Child c;
        QVERIFY(!c.process.running());
        const int64_t first = c.pid();
        QVERIFY(first > 0 && first != ::getpid());
        for (int i = 0; i < 20; ++i) QCOMPARE(c.pid(), first);
        QCOMPARE(c.process.forks(), 1);
        const RunnerReply echo = c.process.call(request("echo hello"), 5000);
        QCOMPARE(int(echo.status), int(RunnerReply::Status::Ok));
        Reader r(echo.bytes);
        QCOMPARE(QString::fromStdString(r.str()), QString("hello"));
        // start() ran in the child, not here.
        const RunnerReply state = c.process.call(request("state"), 5000);
        Reader s(state.bytes);
        QCOMPARE(s.i32(), 42);
        QCOMPARE(c.state, 0);
    }

    void anExceptionIsAFailedReplyAndTheChildGoesOn() {
        Child c;
        const int64_t pid = c.pid();
        const RunnerReply r = c.process.call(request("throw"), 5000);
        QCOMPARE(int(r.status), int(RunnerReply::Status::Failed));
        QCOMPARE(QString::fromStdString(r.message), QString("no such thing"));
        QCOMPARE(c.pid(), pid);
    }

    void aCrashEndsThatChildOnly() {
        Child c;
        const int64_t pid = c.pid();
        const RunnerReply r = c.process.call(request("crash"), 5000);
        QCOMPARE(int(r.status), int(RunnerReply::Status::Crashed));
        QCOMPARE(r.signal, SIGSEGV);
        QVERIFY2(r.message.find("SIGSEGV") != std::string::npos, r.message.c_str());
        QVERIFY(!c.process.running());
        const int64_t next = c.pid();
        QVERIFY(next > 0 && next != pid);
        QCOMPARE(c.process.forks(), 2);
        const RunnerReply state = c.process.call(request("state"), 5000);
        Reader s(state.bytes);
        QCOMPARE(s.i32(), 42); // set up again after the fork
    }

    void aHangIsKilledAtTheLimit() {
        Child c;
        c.pid();
        const auto t0 = std::chrono::steady_clock::now();
        const RunnerReply r = c.process.call(request("hang"), 300);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        QCOMPARE(int(r.status), int(RunnerReply::Status::TimedOut));
        QVERIFY2(r.message.find("time limit") != std::string::npos, r.message.c_str());
        QVERIFY(s >= 0.29 && s < 5);
        QVERIFY(c.pid() > 0);
        QCOMPARE(c.process.forks(), 2);
    }

    void aChildKilledBetweenRequestsIsReplaced() {
        Child c;
        const int64_t pid = c.pid();
        ::kill(pid_t(pid), SIGKILL);
        QThread::msleep(50);
        const RunnerReply r = c.process.call(request("pid"), 5000); // finds it gone
        QCOMPARE(int(r.status), int(RunnerReply::Status::Crashed));
        QVERIFY(c.pid() > 0);
    }

    void aRequestCostsFarLessThanAFork() {
        Child c;
        c.pid();
        std::vector<double> us;
        for (int i = 0; i < 200; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            c.pid();
            us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(us.begin(), us.end());
        qInfo("one request to the runner: median %.1f us, p90 %.1f us", us[us.size() / 2], us[us.size() * 9 / 10]);
        QVERIFY2(us[us.size() / 2] < 1000, "a request took a millisecond or more");
        QCOMPARE(c.process.forks(), 1);
    }
};

QTEST_GUILESS_MAIN(TestRunnerProcess)
#include "tst_runnerprocess.moc"
