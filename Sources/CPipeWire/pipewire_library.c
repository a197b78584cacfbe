// Finds libpipewire's functions, by its soname, the first time a PipeWire server is asked for.
#define CPW_LOADING
#include "pipewire_library.h"

#include "CLibraryLoading.h"
#include <pthread.h>

struct cpw_functions cpw_library;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *status;
static char problem[512];

static void load(void) {
    // The soname of every PipeWire 0.3 and 1.x release.
    void *library = cll_open("libpipewire-0.3.so.0", "libpipewire-0.3-0", problem, sizeof problem);
    if (!library) {
        status = problem;
        return;
    }
#define CPW_FIND(name)                                                                       \
    if (!cll_find(library, #name, (void **)&cpw_library.name, problem, sizeof problem)) {       \
        status = problem;                                                                   \
        return;                                                                             \
    }
    CPW_FUNCTIONS(CPW_FIND)
#undef CPW_FIND
}

const char *cpw_load(void) {
    pthread_once(&once, load);
    return status;
}
