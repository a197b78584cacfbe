// See CJPEGDecoding.h.
#include "CJPEGDecoding.h"
#include "jpeg_arenas.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <jerror.h>

// Rows of planes are padded to 64 samples, as libjpeg's own memory manager pads them.
#define ROW_PAD 64

// MARK: - The decoder

struct cjd_decoder {
    struct jpeg_decompress_struct cinfo;
    jpeg_error_jump error;
    jpeg_arenas arenas;
    JSAMPROW *rows;                       // BGRA row pointers
    size_t rows_capacity;
    uint8_t *planes;                      // one band of decoded planes, padded as libjpeg writes them
    size_t planes_capacity;
    JSAMPROW plane_rows[3][4 * DCTSIZE];  // one iMCU row's row pointers per component
    struct jpeg_progress_mgr progress;    // stops a progressive picture of too many scans
    int too_many_scans;
};

/// Refuses a progressive picture past CJD_MAXIMUM_SCANS scans: each scan costs a pass over the
/// whole picture's coefficients, so a small file of thousands of scans would take minutes.
static void limit_scans(j_common_ptr common) {
    j_decompress_ptr cinfo = (j_decompress_ptr)common;
    cjd_decoder *d = (cjd_decoder *)cinfo;  // the decompressor is the decoder's first member
    if (cinfo->progressive_mode && cinfo->input_scan_number > CJD_MAXIMUM_SCANS) {
        d->too_many_scans = 1;
        common->err->msg_code = JERR_UNKNOWN_MARKER;
        (*common->err->error_exit)(common);
    }
}

cjd_decoder *cjd_new(void) {
    cjd_decoder *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    jpeg_error_jump_install((j_common_ptr)&d->cinfo, &d->error);
    if (setjmp(d->error.jump)) {
        free(d);
        return NULL;
    }
    jpeg_create_decompress(&d->cinfo);
    jpeg_arenas_install((j_common_ptr)&d->cinfo, &d->arenas);
    d->progress.progress_monitor = limit_scans;
    d->cinfo.progress = &d->progress;
    return d;
}

void cjd_free(cjd_decoder *d) {
    if (!d) return;
    jpeg_arenas_release((j_common_ptr)&d->cinfo, &d->arenas);
    free(d->rows);
    free(d->planes);
    free(d);
}

uint64_t cjd_system_allocations(const cjd_decoder *d) { return d ? d->arenas.allocations : 0; }

/// Reads the header of a picture that is of the expected size once decoded at 1/`denominator` of
/// its own (libjpeg's scaled decoding); 0, or -1 with the picture abandoned.
static int begin(cjd_decoder *d, const uint8_t *jpeg, size_t size, int width, int height, int denominator) {
    d->too_many_scans = 0;
    if (jpeg && size >= 4) {
        jpeg_mem_src(&d->cinfo, jpeg, (unsigned long)size);
        if (jpeg_read_header(&d->cinfo, TRUE) == JPEG_HEADER_OK) {
            d->cinfo.scale_num = 1;
            d->cinfo.scale_denom = (unsigned int)denominator;
            jpeg_calc_output_dimensions(&d->cinfo);
            if ((int)d->cinfo.output_width == width && (int)d->cinfo.output_height == height) return 0;
        }
    }
    jpeg_abort_decompress(&d->cinfo);
    return -1;
}

int cjd_decode_bands(cjd_decoder *d, const uint8_t *jpeg, size_t size, int width, int height, cjd_band_handler handler,
                     void *context) {
    if (!d || !handler) return -1;
    struct jpeg_decompress_struct *cinfo = &d->cinfo;
    if (setjmp(d->error.jump)) {
        jpeg_abort_decompress(cinfo);
        return -1;
    }
    if (begin(d, jpeg, size, width, height, 1) != 0) return -1;
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
    // One iMCU row of each component, whole blocks wide, as libjpeg writes them: a band small
    // enough to still be in the cache when the handler reads it.
    cjd_band band = {.subsampling = subsampling};
    size_t total = 0, offsets[3];
    int rows_per_imcu[3];
    for (int c = 0; c < components; c++) {
        jpeg_component_info *component = &cinfo->comp_info[c];
        band.stride[c] = (int)(((size_t)component->width_in_blocks * DCTSIZE + ROW_PAD - 1) & ~(size_t)(ROW_PAD - 1));
        band.width[c] = (int)((component->h_samp_factor * (long)width + cinfo->max_h_samp_factor - 1) / cinfo->max_h_samp_factor);
        rows_per_imcu[c] = component->v_samp_factor * DCTSIZE;
        offsets[c] = total;
        total += (size_t)band.stride[c] * rows_per_imcu[c];
    }
    if (jpeg_arenas_reserve((void **)&d->planes, &d->planes_capacity, total + ROW_PAD, 0, &d->arenas.allocations) != 0) {
        jpeg_abort_decompress(cinfo);
        return -1;
    }
    JSAMPARRAY rows[3] = {d->plane_rows[0], d->plane_rows[1], d->plane_rows[2]};
    for (int c = 0; c < components; c++) {
        band.data[c] = d->planes + offsets[c];
        for (int r = 0; r < rows_per_imcu[c]; r++) d->plane_rows[c][r] = d->planes + offsets[c] + (size_t)r * band.stride[c];
    }
    for (JDIMENSION imcu = 0; cinfo->output_scanline < cinfo->output_height; imcu++) {
        if (jpeg_read_raw_data(cinfo, rows, (JDIMENSION)(cinfo->max_v_samp_factor * DCTSIZE)) == 0) break;
        for (int c = 0; c < components; c++) {
            jpeg_component_info *component = &cinfo->comp_info[c];
            int plane_height = (int)((component->v_samp_factor * (long)height + cinfo->max_v_samp_factor - 1) / cinfo->max_v_samp_factor);
            band.first_row[c] = (int)imcu * rows_per_imcu[c];
            int left = plane_height - band.first_row[c];
            band.rows[c] = left < rows_per_imcu[c] ? (left > 0 ? left : 0) : rows_per_imcu[c];
        }
        if (handler(context, &band) != 0) {
            jpeg_abort_decompress(cinfo);
            return -1;
        }
    }
    jpeg_finish_decompress(cinfo);
    return 0;
}

/// Decodes a picture of the expected size (at 1/`denominator` of its own) into rows of `stride`
/// bytes in `space`, `bytes` a pixel; when `strict`, a picture libjpeg had to warn about (corrupt
/// or cut short) fails too.
static int decode_rows(cjd_decoder *d, const uint8_t *jpeg, size_t size, J_COLOR_SPACE space, int bytes,
                       uint8_t *pixels, int stride, int width, int height, int strict, int denominator) {
    if (!d || !pixels || stride < width * bytes) return -1;
    struct jpeg_decompress_struct *cinfo = &d->cinfo;
    if (setjmp(d->error.jump)) {
        jpeg_abort_decompress(cinfo);
        return -1;
    }
    d->error.pub.msg_code = 0;
    if (begin(d, jpeg, size, width, height, denominator) != 0) return -1;
    cinfo->out_color_space = space;
    if (jpeg_arenas_reserve((void **)&d->rows, &d->rows_capacity, (size_t)height * sizeof(JSAMPROW), 0, &d->arenas.allocations) != 0) {
        jpeg_abort_decompress(cinfo);
        return -1;
    }
    for (int y = 0; y < height; y++) d->rows[y] = pixels + (size_t)y * stride;
    jpeg_start_decompress(cinfo);
    while (cinfo->output_scanline < cinfo->output_height) {
        if (jpeg_read_scanlines(cinfo, d->rows + cinfo->output_scanline, cinfo->output_height - cinfo->output_scanline) == 0) break;
    }
    jpeg_finish_decompress(cinfo);
    return strict && d->error.pub.num_warnings > 0 ? -1 : 0;
}

int cjd_decode_bgra(cjd_decoder *d, const uint8_t *jpeg, size_t size, uint8_t *bgra, int stride, int width, int height) {
    return decode_rows(d, jpeg, size, JCS_EXT_BGRA, 4, bgra, stride, width, height, 0, 1);
}

int cjd_decode_gray(cjd_decoder *d, const uint8_t *jpeg, size_t size, uint8_t *gray, int stride, int width, int height) {
    return decode_rows(d, jpeg, size, JCS_GRAYSCALE, 1, gray, stride, width, height, 1, 1);
}

int cjd_read_size(cjd_decoder *d, const uint8_t *jpeg, size_t size, int *width, int *height) {
    if (!d || !width || !height) return -1;
    struct jpeg_decompress_struct *cinfo = &d->cinfo;
    if (setjmp(d->error.jump)) {
        jpeg_abort_decompress(cinfo);
        return -1;
    }
    d->error.pub.msg_code = 0;
    if (!jpeg || size < 4) return -1;
    jpeg_mem_src(cinfo, jpeg, (unsigned long)size);
    int ok = jpeg_read_header(cinfo, TRUE) == JPEG_HEADER_OK;
    *width = ok ? (int)cinfo->image_width : 0;
    *height = ok ? (int)cinfo->image_height : 0;
    jpeg_abort_decompress(cinfo);
    return ok ? 0 : -1;
}

int cjd_decode_gray_scaled(cjd_decoder *d, const uint8_t *jpeg, size_t size, int denominator, uint8_t *gray, int stride,
                           int width, int height) {
    if (denominator != 1 && denominator != 2 && denominator != 4 && denominator != 8) return -1;
    return decode_rows(d, jpeg, size, JCS_GRAYSCALE, 1, gray, stride, width, height, 1, denominator);
}

void cjd_last_error(const cjd_decoder *d, char *message, size_t capacity) {
    if (!message || capacity == 0) return;
    message[0] = 0;
    if (d && d->too_many_scans) {
        snprintf(message, capacity, "a progressive JPEG of more than %d scans", CJD_MAXIMUM_SCANS);
        return;
    }
    if (!d || d->error.pub.msg_code == 0) return;
    char text[JMSG_LENGTH_MAX];
    (*d->error.pub.format_message)((j_common_ptr)&d->cinfo, text);
    snprintf(message, capacity, "%s", text);
}
