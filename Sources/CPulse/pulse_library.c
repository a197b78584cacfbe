// Finds PulseAudio's functions in its libraries, by their sonames, the first time a server is asked for.
#define CPULSE_LOADING
#include "pulse_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct cpulse_functions cpulse_library;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int status;
static char problem[512];

static void load(void) {
    void *handles[] = { dlopen("libpulse-simple.so.0", RTLD_NOW | RTLD_LOCAL), dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL) };
    enum { count = sizeof handles / sizeof *handles };
    for (int index = 0; index < count; ++index) {
        if (!handles[index]) {
            snprintf(problem, sizeof problem, "PulseAudio's client library could not be loaded: %s (Debian's libpulse0)", dlerror());
            status = -1;
            return;
        }
    }
#define CPULSE_FIND(name)                                                                                   \
    for (int index = 0; index < count && !cpulse_library.name; ++index) {                                  \
        *(void **)&cpulse_library.name = dlsym(handles[index], #name);                                     \
    }                                                                                                      \
    if (!cpulse_library.name) {                                                                            \
        snprintf(problem, sizeof problem, "PulseAudio's client library has no %s", #name);                 \
        status = -1;                                                                                       \
        return;                                                                                            \
    }
    CPULSE_FUNCTIONS(CPULSE_FIND)
#undef CPULSE_FIND
}

int cpulse_load(void) {
    pthread_once(&once, load);
    return status;
}

const char *cpulse_library_problem(void) { return cpulse_load() == 0 ? NULL : problem; }
