// Finds ALSA's functions in libasound, by its soname, the first time ALSA is asked for devices.
#define CALSA_LOADING
#include "alsa_library.h"

#include "CLibraryLoading.h"
#include <pthread.h>

struct calsa_functions calsa_library;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *status;
static char problem[512];

static void load(void) {
    // The soname of every ALSA library release since 1.0.
    void *library = cll_open("libasound.so.2", "libasound2", problem, sizeof problem);
    if (!library) {
        status = problem;
        return;
    }
#define CALSA_FIND(name)                                                                       \
    if (!cll_find(library, #name, (void **)&calsa_library.name, problem, sizeof problem)) {       \
        status = problem;                                                                   \
        return;                                                                             \
    }
    CALSA_FUNCTIONS(CALSA_FIND)
#undef CALSA_FIND
}

const char *calsa_load(void) {
    pthread_once(&once, load);
    return status;
}
