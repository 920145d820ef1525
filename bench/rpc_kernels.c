/* The kernels bench_rpc runs on its servers, in the runtime's kernel ABI. */
#include <stdint.h>
#include <time.h>

/* Busy for 1 ms, then out[0] = in[0]: a request's tag comes back, so the
   client knows the device ran its request and not another's. */
int32_t busy_1ms(void* const* args) {
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 1000000L);
    ((int64_t*)args[1])[0] = ((const int64_t*)args[0])[0];
    return 0;
}

/* Does nothing: the cost of a measurement itself. */
int32_t nothing(void* const* args) {
    (void)args;
    return 0;
}
