// Finds PulseAudio's functions in its libraries, by their sonames, the first time a server is asked for.
#define CPULSE_LOADING
#include "pulse_library.h"

#include "CLibraryLoading.h"
#include "CPulse.h"
#include <pthread.h>

struct cpulse_functions cpulse_library;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int status;
static char problem[512];

static void load(void) {
    void *handles[2] = { cll_open("libpulse-simple.so.0", "libpulse0", problem, sizeof problem), NULL };
    if (handles[0]) handles[1] = cll_open("libpulse.so.0", "libpulse0", problem, sizeof problem);
    if (!handles[1]) {
        status = -1;
        return;
    }
#define CPULSE_FIND(name)                                                                                   \
    if (!cll_find_in(handles, 2, #name, (void **)&cpulse_library.name, problem, sizeof problem)) {         \
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

int cpulse_prepare(void) {
    if (!cpulse_server_may_answer()) return -PA_ERR_CONNECTIONREFUSED;
    return cpulse_load() == 0 ? 0 : -PA_ERR_NOTIMPLEMENTED;
}
