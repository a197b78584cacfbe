// See CJPEGEncoding.h.
#include "CJPEGEncoding.h"
#include "jpeg_arenas.h"
#include <stdlib.h>
#include <string.h>
#include <jerror.h>

struct cje_encoder {
    struct jpeg_compress_struct cinfo;
    jpeg_error_jump error;
    jpeg_arenas arenas;
    struct jpeg_destination_mgr destination;
    uint8_t *output;                      // the JPEG, grown when a picture needs more
    size_t output_capacity, output_size;
    JSAMPROW *rows;                       // BGRA row pointers
    size_t rows_capacity;
    JSAMPROW plane_rows[3][2 * DCTSIZE];  // one iMCU row's row pointers per component
    uint8_t *band;                        // one band of samples for cje_encode_bands
    size_t band_capacity;
};

static cje_encoder *encoder_of(j_compress_ptr cinfo) { return (cje_encoder *)((char *)cinfo - offsetof(cje_encoder, cinfo)); }

static void init_destination(j_compress_ptr cinfo) {
    cje_encoder *e = encoder_of(cinfo);
    cinfo->dest->next_output_byte = e->output;
    cinfo->dest->free_in_buffer = e->output_capacity;
}

/// The buffer is full: twice the size, what was written kept.
static boolean empty_output_buffer(j_compress_ptr cinfo) {
    cje_encoder *e = encoder_of(cinfo);
    size_t written = e->output_capacity;
    if (jpeg_arenas_reserve((void **)&e->output, &e->output_capacity, written * 2, written, &e->arenas.allocations) != 0) {
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 3);
    }
    cinfo->dest->next_output_byte = e->output + written;
    cinfo->dest->free_in_buffer = e->output_capacity - written;
    return TRUE;
}

static void term_destination(j_compress_ptr cinfo) {
    cje_encoder *e = encoder_of(cinfo);
    e->output_size = e->output_capacity - cinfo->dest->free_in_buffer;
}

cje_encoder *cje_new(void) {
    cje_encoder *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    jpeg_error_jump_install((j_common_ptr)&e->cinfo, &e->error);
    if (setjmp(e->error.jump)) {
        free(e);
        return NULL;
    }
    jpeg_create_compress(&e->cinfo);
    jpeg_arenas_install((j_common_ptr)&e->cinfo, &e->arenas);
    e->destination.init_destination = init_destination;
    e->destination.empty_output_buffer = empty_output_buffer;
    e->destination.term_destination = term_destination;
    e->cinfo.dest = &e->destination;
    return e;
}

void cje_free(cje_encoder *e) {
    if (!e) return;
    jpeg_arenas_release((j_common_ptr)&e->cinfo, &e->arenas);
    free(e->output);
    free(e->rows);
    free(e->band);
    free(e);
}

uint64_t cje_system_allocations(const cje_encoder *e) { return e ? e->arenas.allocations : 0; }

/// Sets up a picture as TurboJPEG does: JFIF Y'CbCr, its quality tables, the fast DCT unless the
/// accurate one is asked for or the quality is 96 or more, luma sampled `h` x `v` times chroma.
static int begin(cje_encoder *e, int width, int height, J_COLOR_SPACE in, int components, int quality, int accurate_dct, int h, int v) {
    if (width <= 0 || height <= 0 || width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION) return -1;
    // A first guess at the JPEG's size, a byte a pixel; the buffer grows from there if need be.
    size_t guess = (size_t)width * (size_t)height + 4096;
    if (e->output_capacity == 0 && jpeg_arenas_reserve((void **)&e->output, &e->output_capacity, guess, 0, &e->arenas.allocations) != 0) return -1;
    struct jpeg_compress_struct *cinfo = &e->cinfo;
    cinfo->image_width = (JDIMENSION)width;
    cinfo->image_height = (JDIMENSION)height;
    cinfo->input_components = components;
    cinfo->in_color_space = in;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality < 1 ? 1 : quality > 100 ? 100 : quality, TRUE);
    cinfo->dct_method = accurate_dct || quality >= 96 ? JDCT_ISLOW : JDCT_FASTEST;
    jpeg_set_colorspace(cinfo, JCS_YCbCr);
    cinfo->comp_info[0].h_samp_factor = h;
    cinfo->comp_info[0].v_samp_factor = v;
    for (int c = 1; c < 3; c++) cinfo->comp_info[c].h_samp_factor = cinfo->comp_info[c].v_samp_factor = 1;
    return 0;
}

int cje_encode_bgra(cje_encoder *e, const uint8_t *bgra, int stride, int width, int height, int quality,
                    int full_chroma, int accurate_dct, const uint8_t **jpeg, size_t *size) {
    if (!e || !bgra || !jpeg || !size || stride < width * 4) return -1;
    struct jpeg_compress_struct *cinfo = &e->cinfo;
    if (setjmp(e->error.jump)) {
        jpeg_abort_compress(cinfo);
        return -1;
    }
    if (begin(e, width, height, JCS_EXT_BGRA, 4, quality, accurate_dct, full_chroma ? 1 : 2, full_chroma ? 1 : 2) != 0) return -1;
    if (jpeg_arenas_reserve((void **)&e->rows, &e->rows_capacity, (size_t)height * sizeof(JSAMPROW), 0, &e->arenas.allocations) != 0) return -1;
    for (int y = 0; y < height; y++) e->rows[y] = (JSAMPROW)(bgra + (size_t)y * stride);
    jpeg_start_compress(cinfo, TRUE);
    while (cinfo->next_scanline < cinfo->image_height) {
        jpeg_write_scanlines(cinfo, e->rows + cinfo->next_scanline, cinfo->image_height - cinfo->next_scanline);
    }
    jpeg_finish_compress(cinfo);
    *jpeg = e->output;
    *size = e->output_size;
    return 0;
}

int cje_encode_planes420(cje_encoder *e, const uint8_t *const planes[3], const int32_t strides[3], int width, int height,
                         int quality, int accurate_dct, const uint8_t **jpeg, size_t *size) {
    if (!e || !planes || !strides || !jpeg || !size) return -1;
    // libjpeg reads whole blocks of every row it is given: rows must be long enough.
    int widths[3] = {(width + 15) & ~15, ((width + 1) / 2 + 7) & ~7, ((width + 1) / 2 + 7) & ~7};
    for (int c = 0; c < 3; c++) {
        if (!planes[c] || strides[c] < widths[c]) return -1;
    }
    struct jpeg_compress_struct *cinfo = &e->cinfo;
    if (setjmp(e->error.jump)) {
        jpeg_abort_compress(cinfo);
        return -1;
    }
    if (begin(e, width, height, JCS_YCbCr, 3, quality, accurate_dct, 2, 2) != 0) return -1;
    cinfo->raw_data_in = TRUE;
    jpeg_start_compress(cinfo, TRUE);
    int heights[3] = {height, (height + 1) / 2, (height + 1) / 2};
    JSAMPARRAY rows[3] = {e->plane_rows[0], e->plane_rows[1], e->plane_rows[2]};
    // An iMCU row at a time: 16 rows of luma and 8 of each chroma; past the bottom, the last row again.
    for (int top = 0; cinfo->next_scanline < cinfo->image_height; top += 2 * DCTSIZE) {
        for (int c = 0; c < 3; c++) {
            int count = c == 0 ? 2 * DCTSIZE : DCTSIZE, first = c == 0 ? top : top / 2;
            for (int r = 0; r < count; r++) {
                int row = first + r < heights[c] ? first + r : heights[c] - 1;
                e->plane_rows[c][r] = (JSAMPROW)(planes[c] + (size_t)row * strides[c]);
            }
        }
        if (jpeg_write_raw_data(cinfo, rows, 2 * DCTSIZE) == 0) break;
    }
    jpeg_finish_compress(cinfo);
    *jpeg = e->output;
    *size = e->output_size;
    return 0;
}

/// Stretches video-range samples to full range in place: luma 16...235 and chroma 16...240 to
/// 0...255, in 14-bit fixed point that rounds every value as JPEGSampleConverter's tables do.
static void expand_levels(uint8_t *row, int count, int chroma) {
    const int offset = chroma ? 128 : 16, scale = chroma ? 18651 : 19077, base = chroma ? 128 : 0;
    for (int x = 0; x < count; x++) {
        int value = ((((int)row[x] - offset) * scale + 8192) >> 14) + base;
        row[x] = (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
    }
}

/// Repeats a row's last sample up to `padded`: libjpeg reads whole blocks.
static void pad_row(uint8_t *row, int count, int padded) {
    for (int x = count; x < padded; x++) row[x] = row[count - 1];
}

int cje_encode_bands(cje_encoder *e, int width, int height, int video_range, int quality, int full_chroma, int accurate_dct,
                     cje_band_handler handler, void *context, const uint8_t **jpeg, size_t *size) {
    if (!e || !handler || !jpeg || !size || width <= 0 || height <= 0) return -1;
    const int cw = (width + 1) / 2, ch = (height + 1) / 2;
    // Rows padded to whole blocks (luma to 16 for 4:2:0) and aligned; full chroma rows are luma's width.
    const size_t luma_stride = ((size_t)width + 31) & ~(size_t)31, chroma_stride = ((size_t)cw + 31) & ~(size_t)31;
    const size_t full_stride = full_chroma ? luma_stride : 0;
    const size_t needed = 2 * DCTSIZE * luma_stride + 2 * DCTSIZE * chroma_stride + 2 * 2 * DCTSIZE * full_stride;
    if (needed > e->band_capacity && jpeg_arenas_reserve((void **)&e->band, &e->band_capacity, needed, 0, &e->arenas.allocations) != 0) return -1;
    uint8_t *planes[3] = {e->band, e->band + 2 * DCTSIZE * luma_stride, e->band + 2 * DCTSIZE * luma_stride + DCTSIZE * chroma_stride};
    uint8_t *full[2] = {planes[2] + DCTSIZE * chroma_stride, planes[2] + DCTSIZE * chroma_stride + 2 * DCTSIZE * full_stride};
    const int padded[3] = {(width + 15) & ~15, (cw + 7) & ~7, (cw + 7) & ~7};
    struct jpeg_compress_struct *cinfo = &e->cinfo;
    if (setjmp(e->error.jump)) {
        jpeg_abort_compress(cinfo);
        return -1;
    }
    if (begin(e, width, height, JCS_YCbCr, 3, quality, accurate_dct, full_chroma ? 1 : 2, full_chroma ? 1 : 2) != 0) return -1;
    cinfo->raw_data_in = TRUE;
    jpeg_start_compress(cinfo, TRUE);
    JSAMPARRAY rows[3] = {e->plane_rows[0], e->plane_rows[1], e->plane_rows[2]};
    for (int top = 0; top < height; top += 2 * DCTSIZE) {
        const int luma_rows = height - top < 2 * DCTSIZE ? height - top : 2 * DCTSIZE;
        const int chroma_rows = ch - top / 2 < DCTSIZE ? ch - top / 2 : DCTSIZE;
        cje_band band = {
            .data = {planes[0], planes[1], planes[2]},
            .stride = {(int32_t)luma_stride, (int32_t)chroma_stride, (int32_t)chroma_stride},
            .width = {width, cw, cw},
            .first_row = {top, top / 2, top / 2},
            .rows = {luma_rows, chroma_rows, chroma_rows},
        };
        if (handler(context, &band) != 0) {
            jpeg_abort_compress(cinfo);
            return -1;
        }
        for (int c = 0; c < 3; c++) {
            const size_t stride = c == 0 ? luma_stride : chroma_stride;
            for (int r = 0; r < band.rows[c]; r++) {
                uint8_t *row = planes[c] + (size_t)r * stride;
                if (video_range) expand_levels(row, band.width[c], c != 0);
                pad_row(row, band.width[c], padded[c]);
            }
        }
        if (!full_chroma) {
            // 16 rows of Y' and 8 of each chroma; past the bottom, the last row again.
            for (int r = 0; r < 2 * DCTSIZE; r++) e->plane_rows[0][r] = planes[0] + (size_t)(r < luma_rows ? r : luma_rows - 1) * luma_stride;
            for (int c = 1; c < 3; c++) {
                for (int r = 0; r < DCTSIZE; r++) e->plane_rows[c][r] = planes[c] + (size_t)(r < chroma_rows ? r : chroma_rows - 1) * chroma_stride;
            }
            if (jpeg_write_raw_data(cinfo, rows, 2 * DCTSIZE) == 0) break;
            continue;
        }
        // 4:4:4: every chroma sample repeated across its two columns and two rows, then two block rows of 8.
        for (int c = 0; c < 2; c++) {
            for (int r = 0; r < luma_rows; r++) {
                const uint8_t *source = planes[c + 1] + (size_t)(r / 2) * chroma_stride;
                uint8_t *row = full[c] + (size_t)r * full_stride;
                for (int x = 0; x < cw; x++) row[2 * x] = row[2 * x + 1] = source[x];
                pad_row(row, width, padded[0]);
            }
        }
        for (int half = 0; half < 2 && cinfo->next_scanline < cinfo->image_height; half++) {
            for (int r = 0; r < DCTSIZE; r++) {
                const int row = half * DCTSIZE + r < luma_rows ? half * DCTSIZE + r : luma_rows - 1;
                e->plane_rows[0][r] = planes[0] + (size_t)row * luma_stride;
                e->plane_rows[1][r] = full[0] + (size_t)row * full_stride;
                e->plane_rows[2][r] = full[1] + (size_t)row * full_stride;
            }
            if (jpeg_write_raw_data(cinfo, rows, DCTSIZE) == 0) break;
        }
    }
    jpeg_finish_compress(cinfo);
    *jpeg = e->output;
    *size = e->output_size;
    return 0;
}
