// Animated PNGs (APNG) with FFmpeg's demuxer, decoder, encoder and muxer: Image I/O reads their
// frames (composed on the canvas as the file's blend and dispose operations say) and writes
// several images into one. Debian's libpng reads only an APNG's default image.
//
// Thread ownership: none; each call stands alone.
#ifndef CANIMATEDPNG_H
#define CANIMATEDPNG_H
#include <stddef.h>
#include <stdint.h>

/// Decodes frame `index` of an animated PNG in memory into `bgra` (premultiplied B, G, R, A, `width`
/// by `height`, the canvas's size, rows `stride` bytes apart); 0, or a negative FFmpeg error when the
/// data is not an animated PNG, has no such frame, or is damaged.
int cmc_apng_decode_frame(const uint8_t *data, size_t size, int index, uint8_t *bgra, ptrdiff_t stride, int width, int height);

/// Encodes `count` opaque BGRA pictures of one size as an animated PNG, each shown for its delay
/// in milliseconds, played `plays` times (0 for ever); the file's bytes in `*out` (freed with
/// free()) and their number in `*out_size`. 0, or a negative FFmpeg error.
int cmc_apng_encode(const uint8_t *const *frames, int count, int width, int height, ptrdiff_t stride, const int *delays_ms, int plays,
                    uint8_t **out, size_t *out_size);
#endif
