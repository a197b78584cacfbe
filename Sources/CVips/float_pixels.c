// Floating-point pictures (Image I/O's float images) as the pixels Core Image's renderer reads.
#include "CVips.h"

#include <math.h>

/// sRGB's encoding of a linear value, extended below 0 and above 1 as Apple's extended spaces are
/// (the curve mirrored through 0, and its power continued above 1).
static inline float encoded(float value) {
    float magnitude = fabsf(value);
    float curve = magnitude <= 0.0031308f ? magnitude * 12.92f : 1.055f * powf(magnitude, 1 / 2.4f) - 0.055f;
    return value < 0 ? -curve : curve;
}

/// Linear light of an sRGB-encoded value, extended as `encoded` is.
static inline float decoded(float value) {
    float magnitude = fabsf(value);
    float linear = magnitude <= 0.04045f ? magnitude / 12.92f : powf((magnitude + 0.055f) / 1.055f, 2.4f);
    return value < 0 ? -linear : linear;
}

void cvips_float_rgba_decode_srgb(float *pixels, size_t row_bytes, int width, int height) {
    for (int y = 0; y < height; y++) {
        float *row = (float *)((unsigned char *)pixels + (size_t)y * row_bytes);
        for (int x = 0; x < width; x++, row += 4) {
            float alpha = row[3];
            if (!(alpha > 0)) continue;
            for (int c = 0; c < 3; c++) row[c] = decoded(row[c] / alpha) * alpha;
        }
    }
}

/// Component `index` of a row of floats or (when `half`) IEEE half floats.
static inline float component(const void *row, int half, int index) {
    return half ? (float)((const _Float16 *)row)[index] : ((const float *)row)[index];
}

void cvips_float_rgba_to_bgra(
    const void *pixels, int half, size_t row_bytes, int width, int height, int has_alpha, int linear, float *out, size_t out_row_bytes) {
    for (int y = 0; y < height; y++) {
        const unsigned char *line = (const unsigned char *)pixels + (size_t)y * row_bytes;
        float *row = (float *)((unsigned char *)out + (size_t)y * out_row_bytes);
        for (int x = 0; x < width; x++, row += 4) {
            const void *in = line + (size_t)x * (half ? 8 : 16);
            float alpha = has_alpha ? component(in, half, 3) : 1;
            alpha = alpha > 0 ? (alpha < 1 ? alpha : 1) : 0;
            for (int c = 0; c < 3; c++) {
                // Unpremultiplied to be encoded, premultiplied again; NaN is 0.
                float colour = alpha > 0 ? component(in, half, c) / alpha : 0;
                if (colour != colour || isinf(colour)) colour = 0;
                row[2 - c] = (linear ? encoded(colour) : colour) * alpha * 255;
            }
            row[3] = alpha * 255;
        }
    }
}
