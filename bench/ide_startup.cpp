// bench_ide_startup: start to first paint of the IDE's main window.
//
// Launches `tessel --measure-startup [FILE]` N times (after one warm-up
// launch, so the shared libraries are in the page cache: "warm cache") and
// prints the median and spread of the time from the launcher's clock reading
// just before fork (TESSEL_LAUNCH_NS) to the window's first paint event, which
// tessel prints (the window is mapped and drawn). By default tessel opens a
// bundled example, GEMM ladder step 8, as `tessel step.te` would: the views
// filled, its lowering started; `--open ""` starts it empty. The bar (issues
// 4 and 21) is < 1 s on a warm cache.
//
//   bench_ide_startup [--runs N] [--tessel PATH] [--open FILE] [--platform offscreen|xcb]

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace {

double launchOnce(const std::string& tessel, const std::string& platform, const std::string& file) {
    int pipefd[2];
    if (pipe(pipefd) != 0) return -1;
    timespec t{};
    clock_gettime(CLOCK_REALTIME, &t);
    std::string ns = std::to_string(int64_t(t.tv_sec) * 1000000000LL + t.tv_nsec);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], 1);
        close(pipefd[0]);
        setenv("TESSEL_LAUNCH_NS", ns.c_str(), 1);
        if (!platform.empty()) setenv("QT_QPA_PLATFORM", platform.c_str(), 1);
        if (file.empty()) execl(tessel.c_str(), tessel.c_str(), "--measure-startup", (char*)nullptr);
        else execl(tessel.c_str(), tessel.c_str(), "--measure-startup", file.c_str(), (char*)nullptr);
        _exit(127);
    }
    close(pipefd[1]);
    std::string out;
    char buf[256];
    ssize_t n;
    while ((n = read(pipefd[0], buf, sizeof buf)) > 0) out.append(buf, size_t(n));
    close(pipefd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    auto pos = out.find("first paint: ");
    if (pos == std::string::npos) {
        std::fprintf(stderr, "tessel printed no first-paint time (exit %d): %s\n", WEXITSTATUS(status), out.c_str());
        return -1;
    }
    return std::atof(out.c_str() + pos + 13);
}

} // namespace

int main(int argc, char** argv) {
    int runs = 10;
    std::string tessel = TESSEL_BINARY_DIR "/bin/tessel";
    std::string platform = getenv("DISPLAY") ? "" : "offscreen";
    std::string file = TESSEL_SOURCE_DIR "/resources/examples/gemm/08_register_blocking.te";
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--tessel") && i + 1 < argc) tessel = argv[++i];
        else if (!std::strcmp(argv[i], "--platform") && i + 1 < argc) platform = argv[++i];
        else if (!std::strcmp(argv[i], "--open") && i + 1 < argc) file = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_ide_startup [--runs N] [--tessel PATH] [--open FILE] [--platform offscreen|xcb]\n");
            return 2;
        }
    }
    if (launchOnce(tessel, platform, file) < 0) return 1;  // warm-up: fills the page cache
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        double v = launchOnce(tessel, platform, file);
        if (v < 0) return 1;
        ms.push_back(v);
    }
    std::sort(ms.begin(), ms.end());
    const std::string opened = file.empty() ? std::string("no file") : file.substr(file.find_last_of('/') + 1);
    std::printf("tessel start to first paint (%s, %s, warm cache, %d runs): median %.1f ms, min %.1f, max %.1f  (bar: < 1000 ms)\n",
                platform.empty() ? "xcb" : platform.c_str(), opened.c_str(), runs, ms[ms.size() / 2], ms.front(), ms.back());
    return 0;
}
