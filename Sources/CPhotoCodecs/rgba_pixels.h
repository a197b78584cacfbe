// Pixels libheif decodes, laid out as Image I/O's images are; shared by heic.c and heif_sequence.c.
#ifndef CPC_RGBA_PIXELS_H
#define CPC_RGBA_PIXELS_H
#include <stddef.h>
#include <stdint.h>

/// Interleaved RGBA rows (`stride` bytes apart; alpha ignored unless `alpha`) into tightly packed
/// premultiplied BGRA, as Core Graphics' images from Image I/O are laid out.
static inline void cpc_rgba_to_premultiplied_bgra(const uint8_t *rgba, int stride, int width, int height, int alpha, uint8_t *out) {
    for (int y = 0; y < height; y++) {
        const uint8_t *source = rgba + (size_t)y * stride;
        uint8_t *target = out + (size_t)y * width * 4;
        for (int x = 0; x < width; x++, source += 4, target += 4) {
            unsigned a = alpha ? source[3] : 255;
            target[0] = (uint8_t)((source[2] * a + 127) / 255);
            target[1] = (uint8_t)((source[1] * a + 127) / 255);
            target[2] = (uint8_t)((source[0] * a + 127) / 255);
            target[3] = (uint8_t)a;
        }
    }
}

#endif
