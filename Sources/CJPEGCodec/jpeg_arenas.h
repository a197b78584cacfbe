// libjpeg's memory, kept from picture to picture: arenas that an encoder or decoder installs as
// its libjpeg object's memory manager, so that nothing is allocated per picture once the first
// of a size is done. Private to this module.
#ifndef JPEG_ARENAS_H
#define JPEG_ARENAS_H
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jpeglib.h>

/// Chunks of memory handed out by bumping a pointer; reset, not freed, between pictures.
typedef struct jpeg_arena_chunk jpeg_arena_chunk;
typedef struct jpeg_arena {
    jpeg_arena_chunk *first, *current;
} jpeg_arena;

/// One arena per libjpeg pool, the library's own methods for what the arenas do not take, and a
/// count of the times memory was asked of the system.
typedef struct jpeg_arenas {
    struct jpeg_memory_mgr library;
    jpeg_arena pools[JPOOL_NUMPOOLS];
    uint64_t allocations;
} jpeg_arenas;

/// An error manager that jumps back to the caller instead of exiting, and prints nothing.
typedef struct jpeg_error_jump {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
} jpeg_error_jump;

/// Sets up `error` as `object`'s error manager.
void jpeg_error_jump_install(j_common_ptr object, jpeg_error_jump *error);

/// Makes the arenas `object`'s memory (after jpeg_create_compress or _decompress); `object`'s
/// client_data points at them from then on.
void jpeg_arenas_install(j_common_ptr object, jpeg_arenas *arenas);

/// Gives `object` back the library's own memory methods (before jpeg_destroy_*), then frees the arenas.
void jpeg_arenas_release(j_common_ptr object, jpeg_arenas *arenas);

/// Grows a buffer to at least `needed` bytes (never shrinks it), aligned; 0, or -1 when memory
/// is short. With `keep`, its first `keep` bytes are carried over.
int jpeg_arenas_reserve(void **buffer, size_t *capacity, size_t needed, size_t keep, uint64_t *allocations);
#endif
