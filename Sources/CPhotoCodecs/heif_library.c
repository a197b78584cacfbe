// Finds libheif's functions in its library, by its soname, the first time a HEIC photo is encoded.
#define CPC_HEIF_LOADING
#include "heif_library.h"

#include "CLibraryLoading.h"
#include <pthread.h>

struct cpc_heif_functions cpc_heif;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *status;
static char problem[512];

static void load(void) {
    // The soname of the libheif the shim was compiled against (1 for every 1.x release).
    void *library = cll_open("libheif.so.1", "libheif1", problem, sizeof problem);
    if (!library) {
        status = problem;
        return;
    }
#define CPC_HEIF_FIND(name)                                                                       \
    if (!cll_find(library, #name, (void **)&cpc_heif.name, problem, sizeof problem)) {       \
        status = problem;                                                                   \
        return;                                                                             \
    }
    CPC_HEIF_FUNCTIONS(CPC_HEIF_FIND)
#undef CPC_HEIF_FIND
}

const char *cpc_heif_load(void) {
    pthread_once(&once, load);
    return status;
}
