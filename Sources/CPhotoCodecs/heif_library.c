// Finds libheif's functions in its library, by its soname, the first time a HEIC photo is encoded.
#define CPC_HEIF_LOADING
#include "heif_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct cpc_heif_functions cpc_heif;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *status;
static char problem[512];

static void load(void) {
    // The soname of the libheif the shim was compiled against (1 for every 1.x release).
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(problem, sizeof problem, "libheif could not be loaded: %s (Debian's libheif1)", dlerror());
        status = problem;
        return;
    }
#define CPC_FIND(name)                                                                                      \
    *(void **)&cpc_heif.name = dlsym(library, #name);                                                       \
    if (!cpc_heif.name) {                                                                                   \
        snprintf(problem, sizeof problem, "libheif has no %s: older than the version this was built for", #name); \
        status = problem;                                                                                   \
        return;                                                                                             \
    }
    CPC_HEIF_FUNCTIONS(CPC_FIND)
#undef CPC_FIND
}

const char *cpc_heif_load(void) {
    pthread_once(&once, load);
    return status;
}
