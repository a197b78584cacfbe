// Finds cairo's and pixman's functions in their libraries, by their sonames, the first time a
// bitmap context is made.
#include "CCairo.h"

#include "CLibraryLoading.h"
#include <pthread.h>

struct ccairo_functions ccairo;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *status;
static char problem[512];

static void load(void) {
    // The sonames of the cairo 1.x and pixman 0.x the shim was compiled against.
    void *cairo = cll_open("libcairo.so.2", "libcairo2", problem, sizeof problem);
    void *pixman = cairo ? cll_open("libpixman-1.so.0", "libpixman-1-0", problem, sizeof problem) : NULL;
    if (!pixman) {
        status = problem;
        return;
    }
    // pixman's names start with p, cairo's with c.
#define CCAIRO_FIND(name)                                                                                   \
    if (!cll_find(#name[0] == 'p' ? pixman : cairo, #name, (void **)&ccairo.name, problem, sizeof problem)) { \
        status = problem;                                                                                   \
        return;                                                                                             \
    }
    CCAIRO_FUNCTIONS(CCAIRO_FIND)
#undef CCAIRO_FIND
}

const char *ccairo_load(void) {
    pthread_once(&once, load);
    return status;
}
