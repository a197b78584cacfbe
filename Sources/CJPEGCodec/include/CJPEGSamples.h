// Y'CbCr with another matrix (BT.709, HD video) put into the samples a JPEG stores (JFIF: BT.601,
// full range) in one step, with no trip through R'G'B': a 3x3 matrix in 14-bit fixed point. The
// chroma of the result depends only on the source's chroma (grey stays grey whatever the matrix),
// so 4:2:0 chroma is converted where it stands, and each luma sample takes the chroma it shares.
#ifndef CJPEG_SAMPLES_H
#define CJPEG_SAMPLES_H
#include <stdint.h>

/// How one matrix and range become JFIF's samples, in 14-bit fixed point.
typedef struct cje_jfif_matrix {
    int32_t luma_offset;                   ///< the source's black: 16 at video range, 0 at full
    int32_t luma_scale;                    ///< Y' to JFIF's Y'
    int32_t cb_to_luma, cr_to_luma;        ///< the chroma's share of JFIF's Y'
    int32_t cb_to_cb, cr_to_cb;            ///< JFIF's Cb
    int32_t cb_to_cr, cr_to_cr;            ///< JFIF's Cr
} cje_jfif_matrix;

/// The constants for a source whose matrix has luma coefficients `kr` and `kb` (BT.709: 0.2126 and
/// 0.0722), at video range (luma 16...235, chroma 16...240) or full range.
void cje_jfif_matrix_make(cje_jfif_matrix *matrix, double kr, double kb, int video_range);

/// Converts `height` rows of two-plane 4:2:0 (`luma`, and `chroma` with Cb and Cr interleaved,
/// half as many rows rounded up) into JFIF's three planes (`y` full size, `cb` and `cr` half each
/// way, rounded up); `width` and `height` need not be even. 0, or -1 for a bad argument.
int cje_nv12_to_jfif(const cje_jfif_matrix *matrix, const uint8_t *luma, int luma_stride, const uint8_t *chroma, int chroma_stride,
                     uint8_t *y, int y_stride, uint8_t *cb, int cb_stride, uint8_t *cr, int cr_stride, int width, int height);

#endif
