// See CJPEGSamples.h.
#include "CJPEGSamples.h"
#include <math.h>
#include <stddef.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

// The arithmetic, the same in the vector and the scalar code: the 14-bit constants fit 16-bit
// lanes. A chroma pair's JFIF Cb and Cr are its 14-bit products rounded; its share of luma is kept
// with 5 fractional bits (the rounding of the sum and the source's black folded in). A luma sample
// is scaled as (Y' * 128 * luma_scale) >> 16, also with 5 fractional bits, added to its share and
// shifted down: a sample is off the exact value by at most 1/16 of a step before rounding.

static inline uint8_t clamp8(int32_t value) { return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value); }

/// The share of luma of chroma (`u`, `v`, centred on 0), with 5 fractional bits; `base` the rounding and the black.
static inline int16_t luma_share(const cje_jfif_matrix *m, int32_t u, int32_t v, int32_t base) {
    return (int16_t)(((u * m->cb_to_luma + v * m->cr_to_luma + 256) >> 9) + base);
}

static inline uint8_t luma_sample(int32_t y, int32_t scale, int16_t share) { return clamp8((((y << 7) * scale >> 16) + share) >> 5); }

/// Converts `count` chroma pairs: JFIF Cb and Cr, and each pair's share of luma.
static void convert_chroma(const cje_jfif_matrix *m, const uint8_t *uv, uint8_t *cb, uint8_t *cr, int16_t *share, int count, int32_t base) {
    int i = 0;
#if defined(__SSE2__)
    const __m128i centre = _mm_set1_epi16(128), zero = _mm_setzero_si128();
    const __m128i to_cb = _mm_set1_epi32((int32_t)(((uint32_t)(uint16_t)m->cr_to_cb << 16) | (uint16_t)m->cb_to_cb));
    const __m128i to_cr = _mm_set1_epi32((int32_t)(((uint32_t)(uint16_t)m->cr_to_cr << 16) | (uint16_t)m->cb_to_cr));
    const __m128i to_luma = _mm_set1_epi32((int32_t)(((uint32_t)(uint16_t)m->cr_to_luma << 16) | (uint16_t)m->cb_to_luma));
    const __m128i half = _mm_set1_epi32(8192), share_half = _mm_set1_epi32(256), share_base = _mm_set1_epi16((int16_t)base);
    for (; i + 8 <= count; i += 8) {
        const __m128i pairs = _mm_loadu_si128((const __m128i *)(uv + 2 * i));
        // Four (Cb, Cr) pairs a half, as 16-bit lanes centred on 0: madd gives Cb * a + Cr * b a pair.
        const __m128i low = _mm_sub_epi16(_mm_unpacklo_epi8(pairs, zero), centre), high = _mm_sub_epi16(_mm_unpackhi_epi8(pairs, zero), centre);
        const __m128i cb_low = _mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(low, to_cb), half), 14);
        const __m128i cb_high = _mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(high, to_cb), half), 14);
        const __m128i cr_low = _mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(low, to_cr), half), 14);
        const __m128i cr_high = _mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(high, to_cr), half), 14);
        const __m128i cbs = _mm_add_epi16(_mm_packs_epi32(cb_low, cb_high), centre), crs = _mm_add_epi16(_mm_packs_epi32(cr_low, cr_high), centre);
        _mm_storel_epi64((__m128i *)(cb + i), _mm_packus_epi16(cbs, cbs));
        _mm_storel_epi64((__m128i *)(cr + i), _mm_packus_epi16(crs, crs));
        const __m128i share_low = _mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(low, to_luma), share_half), 9);
        const __m128i share_high = _mm_srai_epi32(_mm_add_epi32(_mm_madd_epi16(high, to_luma), share_half), 9);
        _mm_storeu_si128((__m128i *)(share + i), _mm_add_epi16(_mm_packs_epi32(share_low, share_high), share_base));
    }
#endif
    for (; i < count; i++) {
        const int32_t u = uv[2 * i] - 128, v = uv[2 * i + 1] - 128;
        cb[i] = clamp8(((u * m->cb_to_cb + v * m->cr_to_cb + 8192) >> 14) + 128);
        cr[i] = clamp8(((u * m->cb_to_cr + v * m->cr_to_cr + 8192) >> 14) + 128);
        share[i] = luma_share(m, u, v, base);
    }
}

/// Converts `count` luma samples, each pair taking its chroma's share.
static void convert_luma(const uint8_t *in, uint8_t *out, const int16_t *share, int count, int32_t scale) {
    int x = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128(), factor = _mm_set1_epi16((int16_t)scale);
    for (; x + 16 <= count; x += 16) {
        const __m128i luma = _mm_loadu_si128((const __m128i *)(in + x));
        const __m128i shares = _mm_loadu_si128((const __m128i *)(share + x / 2));
        __m128i low = _mm_mulhi_epi16(_mm_slli_epi16(_mm_unpacklo_epi8(luma, zero), 7), factor);
        __m128i high = _mm_mulhi_epi16(_mm_slli_epi16(_mm_unpackhi_epi8(luma, zero), 7), factor);
        low = _mm_srai_epi16(_mm_add_epi16(low, _mm_unpacklo_epi16(shares, shares)), 5);
        high = _mm_srai_epi16(_mm_add_epi16(high, _mm_unpackhi_epi16(shares, shares)), 5);
        _mm_storeu_si128((__m128i *)(out + x), _mm_packus_epi16(low, high));
    }
#endif
    for (; x < count; x++) out[x] = luma_sample(in[x], scale, share[x / 2]);
}

int cje_nv12_to_jfif(const cje_jfif_matrix *m, const uint8_t *luma, int luma_stride, const uint8_t *chroma, int chroma_stride,
                     uint8_t *y, int y_stride, uint8_t *cb, int cb_stride, uint8_t *cr, int cr_stride, int width, int height) {
    if (!m || !luma || !chroma || !y || !cb || !cr || width <= 0 || height <= 0) return -1;
    const int chroma_width = (width + 1) / 2, chroma_height = (height + 1) / 2;
    if (luma_stride < width || chroma_stride < 2 * chroma_width || y_stride < width || cb_stride < chroma_width || cr_stride < chroma_width) {
        return -1;
    }
    // Every constant must fit a 16-bit lane (those of BT.601 and BT.709 at either range do).
    const int32_t constants[] = {m->luma_scale, m->cb_to_luma, m->cr_to_luma, m->cb_to_cb, m->cr_to_cb, m->cb_to_cr, m->cr_to_cr};
    for (size_t c = 0; c < sizeof constants / sizeof constants[0]; c++) {
        if (constants[c] < -32768 || constants[c] > 32767) return -1;
    }
    // The rounding of a luma sample and the source's black, with 5 fractional bits.
    const int32_t base = 16 - (((m->luma_offset << 7) * m->luma_scale) >> 16);
    int16_t share[chunk];
    for (int row = 0; row < chroma_height; row++) {
        const uint8_t *pairs = chroma + (size_t)row * chroma_stride;
        uint8_t *cb_row = cb + (size_t)row * cb_stride, *cr_row = cr + (size_t)row * cr_stride;
        const int luma_rows = 2 * row + 1 < height ? 2 : 1;
        for (int start = 0; start < chroma_width; start += chunk) {
            const int count = chroma_width - start < chunk ? chroma_width - start : chunk;
            convert_chroma(m, pairs + 2 * start, cb_row + start, cr_row + start, share, count, base);
            const int pixels = width - 2 * start < 2 * count ? width - 2 * start : 2 * count;
            for (int k = 0; k < luma_rows; k++) {
                const size_t line = (size_t)(2 * row + k);
                convert_luma(luma + line * luma_stride + 2 * start, y + line * y_stride + 2 * start, share, pixels, m->luma_scale);
            }
        }
    }
    return 0;
}
