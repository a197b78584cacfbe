// See CJPEGSamples.h.
#include "CJPEGSamples.h"
#include <math.h>
#include <stddef.h>

/// Chroma samples converted at a time: their shares of luma are kept on the stack meanwhile.
enum { chunk = 256 };

/// R'G'B' (0...1) of normalised Y'PbPr under the matrix with luma coefficients `kr` and `kb`.
static void rgb_of(double kr, double kb, double luma, double pb, double pr, double rgb[3]) {
    const double kg = 1 - kr - kb;
    rgb[0] = luma + 2 * (1 - kr) * pr;
    rgb[2] = luma + 2 * (1 - kb) * pb;
    rgb[1] = (luma - kr * rgb[0] - kb * rgb[2]) / kg;
}

/// JFIF's normalised Y'PbPr (BT.601) of R'G'B'.
static void jfif_of(const double rgb[3], double out[3]) {
    out[0] = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
    out[1] = (rgb[2] - out[0]) / 1.772;
    out[2] = (rgb[0] - out[0]) / 1.402;
}

static int32_t fixed(double value) { return (int32_t)lround(value * 16384); }

void cje_jfif_matrix_make(cje_jfif_matrix *matrix, double kr, double kb, int video_range) {
    // Source samples to normalised values, and JFIF's normalised values to samples (255 steps).
    const double luma_step = video_range ? 1.0 / 219 : 1.0 / 255, chroma_step = video_range ? 1.0 / 224 : 1.0 / 255;
    double rgb[3], from_pb[3], from_pr[3];
    rgb_of(kr, kb, 0, 1, 0, rgb);
    jfif_of(rgb, from_pb);
    rgb_of(kr, kb, 0, 0, 1, rgb);
    jfif_of(rgb, from_pr);
    matrix->luma_offset = video_range ? 16 : 0;
    matrix->luma_scale = fixed(255 * luma_step);
    matrix->cb_to_luma = fixed(255 * chroma_step * from_pb[0]);
    matrix->cr_to_luma = fixed(255 * chroma_step * from_pr[0]);
    matrix->cb_to_cb = fixed(255 * chroma_step * from_pb[1]);
    matrix->cr_to_cb = fixed(255 * chroma_step * from_pr[1]);
    matrix->cb_to_cr = fixed(255 * chroma_step * from_pb[2]);
    matrix->cr_to_cr = fixed(255 * chroma_step * from_pr[2]);
}

static inline uint8_t clamp8(int32_t value) { return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value); }

int cje_nv12_to_jfif(const cje_jfif_matrix *m, const uint8_t *luma, int luma_stride, const uint8_t *chroma, int chroma_stride,
                     uint8_t *y, int y_stride, uint8_t *cb, int cb_stride, uint8_t *cr, int cr_stride, int width, int height) {
    if (!m || !luma || !chroma || !y || !cb || !cr || width <= 0 || height <= 0) return -1;
    const int chroma_width = (width + 1) / 2, chroma_height = (height + 1) / 2;
    if (luma_stride < width || chroma_stride < 2 * chroma_width || y_stride < width || cb_stride < chroma_width || cr_stride < chroma_width) {
        return -1;
    }
    // Each chroma sample's share of the luma it covers, the rounding and the source's black folded in.
    int32_t share[chunk];
    const int32_t black = 8192 - m->luma_offset * m->luma_scale;
    for (int row = 0; row < chroma_height; row++) {
        const uint8_t *pairs = chroma + (size_t)row * chroma_stride;
        uint8_t *cb_row = cb + (size_t)row * cb_stride, *cr_row = cr + (size_t)row * cr_stride;
        const int luma_rows = 2 * row + 1 < height ? 2 : 1;
        for (int start = 0; start < chroma_width; start += chunk) {
            const int count = chroma_width - start < chunk ? chroma_width - start : chunk;
            const uint8_t *uv = pairs + 2 * start;
            for (int i = 0; i < count; i++) {
                const int32_t u = uv[2 * i] - 128, v = uv[2 * i + 1] - 128;
                share[i] = u * m->cb_to_luma + v * m->cr_to_luma + black;
                cb_row[start + i] = clamp8(((u * m->cb_to_cb + v * m->cr_to_cb + 8192) >> 14) + 128);
                cr_row[start + i] = clamp8(((u * m->cb_to_cr + v * m->cr_to_cr + 8192) >> 14) + 128);
            }
            const int pixels = width - 2 * start < 2 * count ? width - 2 * start : 2 * count;
            for (int k = 0; k < luma_rows; k++) {
                const uint8_t *in = luma + (size_t)(2 * row + k) * luma_stride + 2 * start;
                uint8_t *out = y + (size_t)(2 * row + k) * y_stride + 2 * start;
                for (int x = 0; x < pixels; x++) out[x] = clamp8((in[x] * m->luma_scale + share[x >> 1]) >> 14);
            }
        }
    }
    return 0;
}
