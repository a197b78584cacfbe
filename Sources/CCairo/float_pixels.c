// Floating-point pixels read into the 8-bit ARGB32 surfaces cairo draws from.
#include "CCairo.h"

#include <math.h>
#include <pthread.h>

/// sRGB's encoding of a linear value from 0 to 1, in 65,536 steps.
static uint8_t encoded[65536];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void make_table(void) {
    for (int i = 0; i < 65536; i++) {
        double linear = i / 65535.0;
        double value = linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055;
        encoded[i] = (uint8_t)(value * 255 + 0.5);
    }
}

/// Component `index` of a row of floats or halves.
static inline float component(const void *row, int half, int index) {
    return half ? (float)((const _Float16 *)row)[index] : ((const float *)row)[index];
}

/// `value` within 0 and 1; NaN is 0.
static inline float unit(float value) { return value > 0 ? (value < 1 ? value : 1) : 0; }

void ccairo_float_to_argb32(
    const void *pixels, int half, size_t row_bytes, int width, int height, int has_alpha, int linear, uint32_t *out, size_t out_row_bytes) {
    pthread_once(&once, make_table);
    for (int y = 0; y < height; y++) {
        const unsigned char *line = (const unsigned char *)pixels + (size_t)y * row_bytes;
        uint32_t *row = (uint32_t *)((unsigned char *)out + (size_t)y * out_row_bytes);
        for (int x = 0; x < width; x++) {
            const void *in = line + (size_t)x * (half ? 8 : 16);
            float alpha = has_alpha ? unit(component(in, half, 3)) : 1;
            if (alpha == 0) {
                row[x] = 0;
                continue;
            }
            // Unpremultiplied, encoded, premultiplied again: sRGB encodes colours, not their products with alpha.
            uint32_t channels[3];
            for (int c = 0; c < 3; c++) {
                float colour = unit(component(in, half, c) / alpha);
                float value = linear ? encoded[(int)(colour * 65535 + 0.5f)] / 255.0f : colour;
                channels[c] = (uint32_t)(value * alpha * 255 + 0.5f);
            }
            row[x] = (uint32_t)(alpha * 255 + 0.5f) << 24 | channels[0] << 16 | channels[1] << 8 | channels[2];
        }
    }
}
