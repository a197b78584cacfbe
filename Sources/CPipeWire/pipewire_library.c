// Finds libpipewire's functions, by its soname, the first time a PipeWire server is asked for.
#define CPW_LOADING
#include "pipewire_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct cpw_functions cpw_library;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *status;
static char problem[512];

static void load(void) {
    // The soname of every PipeWire 0.3 and 1.x release.
    void *library = dlopen("libpipewire-0.3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(problem, sizeof problem, "libpipewire could not be loaded: %s (Debian's libpipewire-0.3-0)", dlerror());
        status = problem;
        return;
    }
#define CPW_FIND(name)                                                                                            \
    *(void **)&cpw_library.name = dlsym(library, #name);                                                          \
    if (!cpw_library.name) {                                                                                      \
        snprintf(problem, sizeof problem, "libpipewire has no %s: older than the version this was built for", #name); \
        status = problem;                                                                                         \
        return;                                                                                                   \
    }
    CPW_FUNCTIONS(CPW_FIND)
#undef CPW_FIND
}

const char *cpw_load(void) {
    pthread_once(&once, load);
    return status;
}
