// Loading a system library by its soname when it is first needed, for the shims that keep the
// libraries they call out of every program's start (every shim: FFmpeg, PulseAudio, cairo, dlib,
// Rubber Band, ALSA, PipeWire, libheif, ...). Each says why a library or function is missing in words a user can act on.
#ifndef CLIBRARYLOADING_H
#define CLIBRARYLOADING_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Opens the library `soname` (Debian's package `package`) with its symbols kept to itself; NULL
/// when it cannot be, with why in `problem` (of `size` bytes).
void *cll_open(const char *soname, const char *package, char *problem, size_t size);

/// Finds `name` in `library` into `*pointer`; 0 when it is missing, with why in `problem`.
int cll_find(void *library, const char *name, void **pointer, char *problem, size_t size);

/// Finds `name` in the first of `count` libraries that has it, into `*pointer`; 0 when none has
/// it, with why in `problem`.
int cll_find_in(void *const *libraries, int count, const char *name, void **pointer, char *problem, size_t size);

#ifdef __cplusplus
}
#endif
#endif
