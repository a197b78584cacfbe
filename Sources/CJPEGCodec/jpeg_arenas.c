// See jpeg_arenas.h.
#include "jpeg_arenas.h"
#include <stdlib.h>
#include <string.h>
#include <jerror.h>

// libjpeg-turbo's SIMD code wants 32-byte alignment and may touch up to 64 samples past a row's
// end; rows are padded to 64 samples, as its own memory manager pads them.
#define ARENA_ALIGN 64
#define ROW_PAD 64
#define CHUNK_MINIMUM (256 * 1024)

struct jpeg_arena_chunk {
    jpeg_arena_chunk *next;
    size_t size, used;
};

#define CHUNK_HEADER ((sizeof(jpeg_arena_chunk) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1))

/// Bump allocation from chunks that are never freed until the arenas are: resetting a pool makes
/// all its chunks empty again, and the next picture of the same size makes the same requests in
/// the same order, so it fits where the last one did.
static void *arena_alloc(jpeg_arena *a, size_t size, uint64_t *allocations) {
    size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    for (jpeg_arena_chunk *c = a->current; c; c = c->next) {
        if (c->size - c->used >= size) {
            void *p = (char *)c + CHUNK_HEADER + c->used;
            c->used += size;
            a->current = c;
            return p;
        }
    }
    size_t capacity = size > CHUNK_MINIMUM ? size : CHUNK_MINIMUM;
    void *memory = NULL;
    if (posix_memalign(&memory, ARENA_ALIGN, CHUNK_HEADER + capacity) != 0) return NULL;
    (*allocations)++;
    jpeg_arena_chunk *c = memory;
    c->next = NULL;
    c->size = capacity;
    c->used = size;
    jpeg_arena_chunk **tail = &a->first;
    while (*tail) tail = &(*tail)->next;
    *tail = c;
    a->current = c;
    return (char *)c + CHUNK_HEADER;
}

static void arena_reset(jpeg_arena *a) {
    for (jpeg_arena_chunk *c = a->first; c; c = c->next) c->used = 0;
    a->current = a->first;
}

static void arena_free(jpeg_arena *a) {
    jpeg_arena_chunk *c = a->first;
    while (c) {
        jpeg_arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->first = a->current = NULL;
}

static jpeg_arenas *arenas_of(j_common_ptr object) { return (jpeg_arenas *)object->client_data; }

static void *small_or_large(j_common_ptr object, int pool_id, size_t size) {
    jpeg_arenas *arenas = arenas_of(object);
    if (pool_id < 0 || pool_id >= JPOOL_NUMPOOLS) ERREXIT1(object, JERR_BAD_POOL_ID, pool_id);
    if (size > 1000000000) ERREXIT1(object, JERR_OUT_OF_MEMORY, 1);
    void *p = arena_alloc(&arenas->pools[pool_id], size, &arenas->allocations);
    if (!p) ERREXIT1(object, JERR_OUT_OF_MEMORY, 2);
    return p;
}

static void *alloc_small(j_common_ptr object, int pool_id, size_t size) { return small_or_large(object, pool_id, size); }

static void *alloc_large(j_common_ptr object, int pool_id, size_t size) { return small_or_large(object, pool_id, size); }

static JSAMPARRAY alloc_sarray(j_common_ptr object, int pool_id, JDIMENSION samples_per_row, JDIMENSION rows) {
    size_t row = ((size_t)samples_per_row + ROW_PAD - 1) & ~(size_t)(ROW_PAD - 1);
    JSAMPARRAY result = small_or_large(object, pool_id, rows * sizeof(JSAMPROW));
    JSAMPLE *samples = small_or_large(object, pool_id, (size_t)rows * row * sizeof(JSAMPLE) + ROW_PAD);
    for (JDIMENSION i = 0; i < rows; i++) result[i] = samples + (size_t)i * row;
    return result;
}

static JBLOCKARRAY alloc_barray(j_common_ptr object, int pool_id, JDIMENSION blocks_per_row, JDIMENSION rows) {
    JBLOCKARRAY result = small_or_large(object, pool_id, rows * sizeof(JBLOCKROW));
    JBLOCK *blocks = small_or_large(object, pool_id, (size_t)rows * blocks_per_row * sizeof(JBLOCK));
    for (JDIMENSION i = 0; i < rows; i++) result[i] = blocks + (size_t)i * blocks_per_row;
    return result;
}

static void free_pool(j_common_ptr object, int pool_id) {
    jpeg_arenas *arenas = arenas_of(object);
    // The library frees what it allocated itself (virtual arrays, for progressive pictures).
    arenas->library.free_pool(object, pool_id);
    if (pool_id >= 0 && pool_id < JPOOL_NUMPOOLS) arena_reset(&arenas->pools[pool_id]);
}

static void error_exit(j_common_ptr object) { longjmp(((jpeg_error_jump *)object->err)->jump, 1); }

// Warnings (corrupt data the library works around) are not printed: a damaged frame is the camera's.
static void output_message(j_common_ptr object) { (void)object; }

void jpeg_error_jump_install(j_common_ptr object, jpeg_error_jump *error) {
    object->err = jpeg_std_error(&error->pub);
    error->pub.error_exit = error_exit;
    error->pub.output_message = output_message;
}

void jpeg_arenas_install(j_common_ptr object, jpeg_arenas *arenas) {
    object->client_data = arenas;
    arenas->library = *object->mem;
    object->mem->alloc_small = alloc_small;
    object->mem->alloc_large = alloc_large;
    object->mem->alloc_sarray = alloc_sarray;
    object->mem->alloc_barray = alloc_barray;
    object->mem->free_pool = free_pool;
}

void jpeg_arenas_release(j_common_ptr object, jpeg_arenas *arenas) {
    // The library's own teardown frees its pools with its own methods; the arenas go after.
    *object->mem = arenas->library;
    jpeg_destroy(object);
    for (int i = 0; i < JPOOL_NUMPOOLS; i++) arena_free(&arenas->pools[i]);
}

int jpeg_arenas_reserve(void **buffer, size_t *capacity, size_t needed, size_t keep, uint64_t *allocations) {
    if (needed <= *capacity) return 0;
    void *grown = NULL;
    if (posix_memalign(&grown, ARENA_ALIGN, needed) != 0) return -1;
    (*allocations)++;
    if (keep > 0 && *buffer) memcpy(grown, *buffer, keep < *capacity ? keep : *capacity);
    free(*buffer);
    *buffer = grown;
    *capacity = needed;
    return 0;
}
