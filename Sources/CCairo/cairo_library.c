// Finds cairo's and pixman's functions in their libraries, by their sonames, the first time a
// bitmap context is made.
#include "CCairo.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct ccairo_functions ccairo;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *status;
static char problem[512];

static void *open_library(const char *soname, const char *package) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(problem, sizeof problem, "%s could not be loaded: %s (Debian's %s)", soname, dlerror(), package);
        status = problem;
    }
    return library;
}

static void load(void) {
    // The sonames of the cairo 1.x and pixman 0.x the shim was compiled against.
    void *cairo = open_library("libcairo.so.2", "libcairo2");
    if (!cairo) return;
    void *pixman = open_library("libpixman-1.so.0", "libpixman-1-0");
    if (!pixman) return;
#define CCAIRO_FIND(name)                                                                                  \
    /* pixman's names start with p, cairo's with c. */                                                   \
    *(void **)&ccairo.name = dlsym(#name[0] == 'p' ? pixman : cairo, #name);                            \
    if (!ccairo.name) {                                                                                    \
        snprintf(problem, sizeof problem, "%s is missing from its library: older than the version this was built for", #name); \
        status = problem;                                                                                  \
        return;                                                                                            \
    }
    CCAIRO_FUNCTIONS(CCAIRO_FIND)
#undef CCAIRO_FIND
}

const char *ccairo_load(void) {
    pthread_once(&once, load);
    return status;
}
