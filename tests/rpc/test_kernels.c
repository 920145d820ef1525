/* Kernels for the server's tests, in the kernel ABI of runtime/Module.h:
   one pointer per argument, 0 on success. Built as a shared object by
   tests/CMakeLists.txt. */
#include <stdint.h>

/* out[i] = in[i] + 1 for 1024 floats. */
int32_t add_one(void* const* args) {
    const float* in = (const float*)args[0];
    float* out = (float*)args[1];
    for (int i = 0; i < 1024; ++i) out[i] = in[i] + 1.0f;
    return 0;
}

/* Writes through a null pointer. */
int32_t crash(void* const* args) {
    (void)args;
    volatile int* p = (volatile int*)0;
    *p = 42;
    return 0;
}

/* Never returns. */
int32_t spin(void* const* args) {
    (void)args;
    volatile uint64_t n = 0;
    for (;;) ++n;
    return 0;
}

/* Reports an error code. */
int32_t fail(void* const* args) {
    (void)args;
    return 7;
}

/* Writes into its first argument, which a run may mark read-only. */
int32_t scribble(void* const* args) {
    float* in = (float*)args[0];
    in[0] = -1.0f;
    return 0;
}
