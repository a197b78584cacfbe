// See CLibraryLoading.h.
#include "CLibraryLoading.h"

#include <dlfcn.h>
#include <stdio.h>

void *cll_open(const char *soname, const char *package, char *problem, size_t size) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) snprintf(problem, size, "%s could not be loaded: %s (Debian's %s)", soname, dlerror(), package);
    return library;
}

int cll_find(void *library, const char *name, void **pointer, char *problem, size_t size) {
    return cll_find_in(&library, 1, name, pointer, problem, size);
}

int cll_find_in(void *const *libraries, int count, const char *name, void **pointer, char *problem, size_t size) {
    *pointer = NULL;
    for (int index = 0; index < count && !*pointer; ++index) *pointer = dlsym(libraries[index], name);
    if (*pointer) return 1;
    snprintf(problem, size, "%s is missing from its library: not the version this was built for", name);
    return 0;
}
