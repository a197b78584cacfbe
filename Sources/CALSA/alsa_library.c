// Finds ALSA's functions in libasound, by its soname, the first time ALSA is asked for devices.
#define CALSA_LOADING
#include "alsa_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct calsa_functions calsa_library;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *status;
static char problem[512];

static void load(void) {
    // The soname of every ALSA library release since 1.0.
    void *library = dlopen("libasound.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(problem, sizeof problem, "libasound could not be loaded: %s (Debian's libasound2)", dlerror());
        status = problem;
        return;
    }
#define CALSA_FIND(name)                                                                                       \
    *(void **)&calsa_library.name = dlsym(library, #name);                                                     \
    if (!calsa_library.name) {                                                                                 \
        snprintf(problem, sizeof problem, "libasound has no %s: older than the version this was built for", #name); \
        status = problem;                                                                                      \
        return;                                                                                                \
    }
    CALSA_FUNCTIONS(CALSA_FIND)
#undef CALSA_FIND
}

const char *calsa_load(void) {
    pthread_once(&once, load);
    return status;
}
