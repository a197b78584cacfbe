// See CJPEGDecoding.h.
#include "CJPEGDecoding.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

// MARK: - Arenas: libjpeg's pools, kept from picture to picture

// libjpeg-turbo's SIMD code wants 32-byte alignment and may touch up to 64 samples past a row's
// end; rows are padded to 64 samples, as its own memory manager pads them.
#define ARENA_ALIGN 64
#define ROW_PAD 64
#define CHUNK_MINIMUM (256 * 1024)

typedef struct chunk {
    struct chunk *next;
    size_t size, used;
} chunk;

#define CHUNK_HEADER ((sizeof(chunk) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1))

/// Bump allocation from chunks that are never freed until the decoder is: resetting a pool
/// makes all its chunks empty again, and the next picture of the same size makes the same
/// requests in the same order, so it fits where the last one did.
typedef struct arena {
    chunk *first, *current;
} arena;

static void *arena_alloc(arena *a, size_t size, uint64_t *allocations) {
    size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    for (chunk *c = a->current; c; c = c->next) {
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
    chunk *c = memory;
    c->next = NULL;
    c->size = capacity;
    c->used = size;
    chunk **tail = &a->first;
    while (*tail) tail = &(*tail)->next;
    *tail = c;
    a->current = c;
    return (char *)c + CHUNK_HEADER;
}

static void arena_reset(arena *a) {
    for (chunk *c = a->first; c; c = c->next) c->used = 0;
    a->current = a->first;
}

static void arena_free(arena *a) {
    chunk *c = a->first;
    while (c) {
        chunk *next = c->next;
        free(c);
        c = next;
    }
    a->first = a->current = NULL;
}

// MARK: - The decoder

struct error_manager {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
};

struct cjd_decoder {
    struct jpeg_decompress_struct cinfo;  // first, so that libjpeg's pointer is the decoder's
    struct error_manager error;
    struct jpeg_memory_mgr library;       // the library's own methods, for what the arenas do not take
    arena pools[JPOOL_NUMPOOLS];
    uint64_t allocations;
    JSAMPROW *rows;                       // BGRA row pointers
    size_t rows_capacity;
    uint8_t *planes;                      // decoded planes, padded as libjpeg writes them
    size_t planes_capacity;
    JSAMPROW plane_rows[3][4 * DCTSIZE];  // one iMCU row's row pointers per component
};

static cjd_decoder *decoder_of(j_common_ptr cinfo) { return (cjd_decoder *)cinfo; }

static void *small_or_large(j_common_ptr cinfo, int pool_id, size_t size) {
    cjd_decoder *d = decoder_of(cinfo);
    if (pool_id < 0 || pool_id >= JPOOL_NUMPOOLS) ERREXIT1(cinfo, JERR_BAD_POOL_ID, pool_id);
    if (size > 1000000000) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);
    void *p = arena_alloc(&d->pools[pool_id], size, &d->allocations);
    if (!p) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 2);
    return p;
}

static void *alloc_small(j_common_ptr cinfo, int pool_id, size_t size) { return small_or_large(cinfo, pool_id, size); }

static void *alloc_large(j_common_ptr cinfo, int pool_id, size_t size) { return small_or_large(cinfo, pool_id, size); }

static JSAMPARRAY alloc_sarray(j_common_ptr cinfo, int pool_id, JDIMENSION samples_per_row, JDIMENSION rows) {
    size_t row = ((size_t)samples_per_row + ROW_PAD - 1) & ~(size_t)(ROW_PAD - 1);
    JSAMPARRAY result = small_or_large(cinfo, pool_id, rows * sizeof(JSAMPROW));
    JSAMPLE *samples = small_or_large(cinfo, pool_id, (size_t)rows * row * sizeof(JSAMPLE) + ROW_PAD);
    for (JDIMENSION i = 0; i < rows; i++) result[i] = samples + (size_t)i * row;
    return result;
}

static JBLOCKARRAY alloc_barray(j_common_ptr cinfo, int pool_id, JDIMENSION blocks_per_row, JDIMENSION rows) {
    JBLOCKARRAY result = small_or_large(cinfo, pool_id, rows * sizeof(JBLOCKROW));
    JBLOCK *blocks = small_or_large(cinfo, pool_id, (size_t)rows * blocks_per_row * sizeof(JBLOCK));
    for (JDIMENSION i = 0; i < rows; i++) result[i] = blocks + (size_t)i * blocks_per_row;
    return result;
}

static void free_pool(j_common_ptr cinfo, int pool_id) {
    cjd_decoder *d = decoder_of(cinfo);
    // The library frees what it allocated itself (virtual arrays, for progressive pictures).
    d->library.free_pool(cinfo, pool_id);
    if (pool_id >= 0 && pool_id < JPOOL_NUMPOOLS) arena_reset(&d->pools[pool_id]);
}

static void error_exit(j_common_ptr cinfo) { longjmp(((struct error_manager *)cinfo->err)->jump, 1); }

// Warnings (corrupt data the library works around) are not printed: a damaged frame is the camera's.
static void output_message(j_common_ptr cinfo) { (void)cinfo; }

cjd_decoder *cjd_new(void) {
    cjd_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->cinfo.err = jpeg_std_error(&d->error.pub);
    d->error.pub.error_exit = error_exit;
    d->error.pub.output_message = output_message;
    if (setjmp(d->error.jump)) {
        free(d);
        return NULL;
    }
    jpeg_create_decompress(&d->cinfo);
    d->library = *d->cinfo.mem;
    d->cinfo.mem->alloc_small = alloc_small;
    d->cinfo.mem->alloc_large = alloc_large;
    d->cinfo.mem->alloc_sarray = alloc_sarray;
    d->cinfo.mem->alloc_barray = alloc_barray;
    d->cinfo.mem->free_pool = free_pool;
    return d;
}

void cjd_free(cjd_decoder *d) {
    if (!d) return;
    // The library's own teardown frees its pools with its own methods; the arenas go after.
    *d->cinfo.mem = d->library;
    jpeg_destroy_decompress(&d->cinfo);
    for (int i = 0; i < JPOOL_NUMPOOLS; i++) arena_free(&d->pools[i]);
    free(d->rows);
    free(d->planes);
    free(d);
}

uint64_t cjd_system_allocations(const cjd_decoder *d) { return d ? d->allocations : 0; }

/// Grows a buffer of the decoder's (never shrinks it); 0, or -1 when memory is short.
static int reserve(void **buffer, size_t *capacity, size_t needed, uint64_t *allocations) {
    if (needed <= *capacity) return 0;
    void *grown = NULL;
    if (posix_memalign(&grown, ARENA_ALIGN, needed) != 0) return -1;
    (*allocations)++;
    free(*buffer);
    *buffer = grown;
    *capacity = needed;
    return 0;
}

/// Reads the header of a picture of the expected size; 0, or -1 with the picture abandoned.
static int begin(cjd_decoder *d, const uint8_t *jpeg, size_t size, int width, int height) {
    if (jpeg && size >= 4) {
        jpeg_mem_src(&d->cinfo, jpeg, (unsigned long)size);
        if (jpeg_read_header(&d->cinfo, TRUE) == JPEG_HEADER_OK
            && (int)d->cinfo.image_width == width && (int)d->cinfo.image_height == height) return 0;
    }
    jpeg_abort_decompress(&d->cinfo);
    return -1;
}

int cjd_decode_planes(cjd_decoder *d, const uint8_t *jpeg, size_t size, int width, int height, cjd_planes *out) {
    if (!d || !out) return -1;
    struct jpeg_decompress_struct *cinfo = &d->cinfo;
    if (setjmp(d->error.jump)) {
        jpeg_abort_decompress(cinfo);
        return -1;
    }
    if (begin(d, jpeg, size, width, height) != 0) return -1;
    int components = cinfo->num_components;
    cjd_subsampling subsampling;
    if (components == 1 && cinfo->jpeg_color_space == JCS_GRAYSCALE) {
        subsampling = CJD_SUBSAMPLING_GRAY;
    } else if (components == 3 && cinfo->jpeg_color_space == JCS_YCbCr) {
        // Subsampling is the ratio of luma's sampling factors to chroma's, which encoders spell
        // differently (4:2:2 as 2x1 and 1x1, or as 2x2 and 1x2).
        jpeg_component_info *luma = &cinfo->comp_info[0], *cb = &cinfo->comp_info[1], *cr = &cinfo->comp_info[2];
        int h = luma->h_samp_factor / cb->h_samp_factor, v = luma->v_samp_factor / cb->v_samp_factor;
        int exact = cb->h_samp_factor == cr->h_samp_factor && cb->v_samp_factor == cr->v_samp_factor
            && h * cb->h_samp_factor == luma->h_samp_factor && v * cb->v_samp_factor == luma->v_samp_factor;
        if (exact && h == 1 && v == 1) subsampling = CJD_SUBSAMPLING_444;
        else if (exact && h == 2 && v == 1) subsampling = CJD_SUBSAMPLING_422;
        else if (exact && h == 2 && v == 2) subsampling = CJD_SUBSAMPLING_420;
        else { jpeg_abort_decompress(cinfo); return -1; }
    } else {
        jpeg_abort_decompress(cinfo);
        return -1;
    }
    for (int c = 0; c < components; c++) {
        if (cinfo->comp_info[c].v_samp_factor * DCTSIZE > (int)(sizeof d->plane_rows[0] / sizeof d->plane_rows[0][0])) {
            jpeg_abort_decompress(cinfo);
            return -1;
        }
    }
    cinfo->raw_data_out = TRUE;
    cinfo->out_color_space = cinfo->jpeg_color_space;
    jpeg_start_decompress(cinfo);
    // Each component's plane holds whole blocks and whole iMCU rows, as libjpeg writes them.
    size_t offsets[3], total = 0;
    int strides[3], rows_per_imcu[3];
    for (int c = 0; c < components; c++) {
        jpeg_component_info *component = &cinfo->comp_info[c];
        strides[c] = (int)(((size_t)component->width_in_blocks * DCTSIZE + ROW_PAD - 1) & ~(size_t)(ROW_PAD - 1));
        rows_per_imcu[c] = component->v_samp_factor * DCTSIZE;
        offsets[c] = total;
        total += (size_t)strides[c] * rows_per_imcu[c] * cinfo->total_iMCU_rows;
    }
    if (reserve((void **)&d->planes, &d->planes_capacity, total + ROW_PAD, &d->allocations) != 0) {
        jpeg_abort_decompress(cinfo);
        return -1;
    }
    JSAMPARRAY rows[3] = {d->plane_rows[0], d->plane_rows[1], d->plane_rows[2]};
    for (JDIMENSION imcu = 0; cinfo->output_scanline < cinfo->output_height; imcu++) {
        for (int c = 0; c < components; c++) {
            uint8_t *first = d->planes + offsets[c] + (size_t)strides[c] * rows_per_imcu[c] * imcu;
            for (int r = 0; r < rows_per_imcu[c]; r++) d->plane_rows[c][r] = first + (size_t)r * strides[c];
        }
        if (jpeg_read_raw_data(cinfo, rows, (JDIMENSION)(cinfo->max_v_samp_factor * DCTSIZE)) == 0) break;
    }
    for (int c = 0; c < 3; c++) {
        if (c < components) {
            jpeg_component_info *component = &cinfo->comp_info[c];
            out->data[c] = d->planes + offsets[c];
            out->stride[c] = strides[c];
            out->width[c] = (int)((component->h_samp_factor * (long)width + cinfo->max_h_samp_factor - 1) / cinfo->max_h_samp_factor);
            out->height[c] = (int)((component->v_samp_factor * (long)height + cinfo->max_v_samp_factor - 1) / cinfo->max_v_samp_factor);
        } else {
            out->data[c] = NULL;
            out->stride[c] = out->width[c] = out->height[c] = 0;
        }
    }
    out->subsampling = subsampling;
    jpeg_finish_decompress(cinfo);
    return 0;
}

int cjd_decode_bgra(cjd_decoder *d, const uint8_t *jpeg, size_t size, uint8_t *bgra, int stride, int width, int height) {
    if (!d || !bgra || stride < width * 4) return -1;
    struct jpeg_decompress_struct *cinfo = &d->cinfo;
    if (setjmp(d->error.jump)) {
        jpeg_abort_decompress(cinfo);
        return -1;
    }
    if (begin(d, jpeg, size, width, height) != 0) return -1;
    cinfo->out_color_space = JCS_EXT_BGRA;
    if (reserve((void **)&d->rows, &d->rows_capacity, (size_t)height * sizeof(JSAMPROW), &d->allocations) != 0) {
        jpeg_abort_decompress(cinfo);
        return -1;
    }
    for (int y = 0; y < height; y++) d->rows[y] = bgra + (size_t)y * stride;
    jpeg_start_decompress(cinfo);
    while (cinfo->output_scanline < cinfo->output_height) {
        if (jpeg_read_scanlines(cinfo, d->rows + cinfo->output_scanline, cinfo->output_height - cinfo->output_scanline) == 0) break;
    }
    jpeg_finish_decompress(cinfo);
    return 0;
}
