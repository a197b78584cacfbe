// Core Image's renderer: libvips (Debian's libvips42), loaded by its soname the first time an
// image is rendered. libvips builds a lazy pipeline of operations and evaluates it region by
// region on all cores, as Core Image does its recipes.
//
// Images are 4-band pixels, B, G, R, A, premultiplied, 8-bit or 32-bit float on a 0-255 scale
// (an operation on 8-bit pixels gives 8-bit pixels where libvips can: crops, moves, blurs,
// scaling), with row 0 at the top. Every function that makes an image leaves its inputs to the caller,
// returns NULL on failure (with why in `cvips_error`), and gives an image `cvips_unref` releases.
//
// Thread ownership: thread-safe; an image may be used from any thread.
#ifndef CVIPS_H
#define CVIPS_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An image of libvips's: a node of a pipeline, evaluated when it is written out.
typedef struct cvips_image cvips_image;

/// Loads libvips once, from any thread; NULL when it is loaded, otherwise why not.
const char *cvips_load(void);
/// Why the last operation on this thread failed (libvips's error buffer, cleared).
const char *cvips_error(void);

/// An image over `size` bytes of caller memory, `width` x `height` x 4 bands, rows packed
/// (`width` * 4 bytes, or * 16 for float); the memory must outlive the image and its descendants.
cvips_image *cvips_from_memory(const void *data, size_t size, int width, int height, int is_float);
/// Converts 32-bit float (or, when `half`, IEEE half float) R, G, B, A pixels (premultiplied;
/// `has_alpha` 0 for an image whose alpha is skipped) into the float B, G, R, A, premultiplied, on a 0-255 scale, that
/// `cvips_from_memory` reads, colours kept beyond 0-1 and, when `linear`, encoded with sRGB's
/// transfer function extended to them; NaN becomes 0.
void cvips_float_rgba_to_bgra(
    const void *pixels, int half, size_t row_bytes, int width, int height, int has_alpha, int linear, float *out, size_t out_row_bytes);
/// Decodes 32-bit float R, G, B, A pixels (premultiplied) in place from sRGB's encoding to linear
/// light, extended below 0 and above 1.
void cvips_float_rgba_decode_srgb(float *pixels, size_t row_bytes, int width, int height);
/// Releases an image.
void cvips_unref(cvips_image *image);
/// The image's width and height.
int cvips_width(const cvips_image *image);
int cvips_height(const cvips_image *image);
/// Whether the image's pixels are 32-bit float (otherwise 8-bit).
int cvips_is_float(const cvips_image *image);

/// The image in 32-bit float, or rounded and clipped back to 8 bits.
cvips_image *cvips_to_float(cvips_image *image);
cvips_image *cvips_to_uchar(cvips_image *image);
/// A Gaussian blur of standard deviation `sigma`, its mask reaching three sigma; the image
/// keeps its size, so the caller gives it a margin that wide.
cvips_image *cvips_blur(cvips_image *image, double sigma);
/// The image placed at (`x`, `y`) in a transparent `width` x `height` image (cropping what falls outside);
/// `copy_edges` 1 fills the rest with the image's edge pixels instead, 2 with the image repeated.
cvips_image *cvips_embed(cvips_image *image, int x, int y, int width, int height, int copy_edges);
/// Each output band as a weighted sum of the input's four: `matrix` is 4 rows of 4, row by output band.
cvips_image *cvips_recombine(cvips_image *image, const double matrix[16]);
/// Each band times `a[band]` plus `b[band]`.
cvips_image *cvips_linear(cvips_image *image, const double a[4], const double b[4]);
/// The image mapped by the matrix (`a` `b`; `c` `d`) plus (`dx`, `dy`), as
/// x' = a x + b y + dx, y' = c x + d y + dy (pixel centres at whole coordinates), sampled
/// bilinearly (or, when `nearest` is 1, from the nearest pixel), into a `width` x `height` image,
/// transparent where nothing maps.
cvips_image *cvips_affine(cvips_image *image, double a, double b, double c, double d, double dx, double dy, int width, int height, int nearest);
/// The image scaled by `x_scale` and `y_scale` with a Lanczos-3 kernel.
cvips_image *cvips_resize(cvips_image *image, double x_scale, double y_scale);
/// `overlay` over `base`, premultiplied (both the same size).
cvips_image *cvips_over(cvips_image *overlay, cvips_image *base);
/// `overlay` composited over the area of `base` whose top-left corner is (`x`, `y`): the rest of
/// `base` is left as it is, so that a small overlay costs its own area only.
cvips_image *cvips_over_area(cvips_image *overlay, cvips_image *base, int x, int y);
/// `image` convolved with a `width` x `height` mask of weights (rows first), in float, plus `bias`
/// (0-255 scale); with `separable`, the mask is one row applied across and then down; with
/// `keep_alpha`, alpha is the image's own.
cvips_image *cvips_convolve(cvips_image *image, const double *mask, int width, int height, int separable, double bias, int keep_alpha);
/// Each pixel replaced, band by band, by the `index`th smallest value of the `width` x `height`
/// window around it (0 the minimum, width x height - 1 the maximum, the middle the median).
cvips_image *cvips_rank(cvips_image *image, int width, int height, int index);
/// Each band of `image`'s colours, not premultiplied and rounded to 8 bits, replaced by its entry in
/// `table` (256 entries for each of B, G, R, A, interleaved: entry i of band b at 4 i + b), then
/// premultiplied again by the new alpha.
cvips_image *cvips_curves(cvips_image *image, const unsigned char table[1024]);
/// The largest (`maximum`) or smallest of each pixel's B, G and R in all three; alpha kept.
cvips_image *cvips_component_extreme(cvips_image *image, int maximum);
/// `image` where the mask is, `background` where it is not: image m + background (1 - m), m the
/// mask's alpha (`use_alpha`) or its luma, on a 0-1 scale (all three the same size).
cvips_image *cvips_blend_with_mask(cvips_image *image, cvips_image *background, cvips_image *mask, int use_alpha);
/// Each `size` x `size` block of `image` (whose sides are multiples of it) filled with its mean.
cvips_image *cvips_pixellate(cvips_image *image, int size);
/// One pixel whose every band is the mean of that band over the whole image.
cvips_image *cvips_average(cvips_image *image);
/// `a` times `first` plus `b` times `second`, band by band (both the same size).
cvips_image *cvips_mix(cvips_image *first, cvips_image *second, double a, double b);
/// `overlay` blended with `base` (both premultiplied, the same size) in libvips's blend mode `mode`
/// (a VipsBlendMode: 3 in, 4 out, 5 atop, 12 add, 14 multiply ... 24 exclusion; and 100, every band
/// of the two multiplied, alpha too).
cvips_image *cvips_blend(cvips_image *overlay, cvips_image *base, int mode);

/// A `width` x `height` image whose each pixel is sampled (bilinearly) from `image` where
/// `coordinates` say: an x and a y (pixel centres at whole numbers) for each output pixel, rows
/// packed; transparent where they fall outside. The coordinates must outlive the image.
cvips_image *cvips_map(cvips_image *image, const float *coordinates, int width, int height);
/// Each pixel's four bands times the four `factors` given for it (`width` x `height`, rows packed),
/// in float; the factors must outlive the image.
cvips_image *cvips_multiply_pixels(cvips_image *image, const float *factors, int width, int height);

/// Mixes the colours in linear light: made linear through `to_linear` (256 entries of B, G, R and A
/// interleaved, A as a fraction), mixed by a 3x3 matrix over B, G and R, and brought back through
/// `from_linear` (4096 entries of B, G, R and A interleaved, indexed by the value times 4095).
cvips_image *cvips_colour_matrix_linear(cvips_image *image, const double matrix[9], const float to_linear[1024], const unsigned char from_linear[16384]);
/// Raises (amount above 0) or lowers the saturation of the less saturated colours more than of the saturated ones.
cvips_image *cvips_vibrance(cvips_image *image, double amount);
/// Lifts shadows and lowers highlights by a gain from the luma around each pixel (blurred by `sigma` when above 0).
cvips_image *cvips_shadows_highlights(cvips_image *image, double sigma, double shadows, double highlights);


/// Evaluates the image into `destination`: `height` rows of `row_bytes`, each starting with the
/// image's row packed (8-bit images only). 0 on success.
int cvips_write(cvips_image *image, void *destination, size_t row_bytes);

/// The size of a picture file's page `page` (0 the first), and whether it has alpha, from its header
/// alone (any format libvips loads: TIFF, GIF, WebP...); 0, or -1 when libvips cannot read it.
int cvips_picture_size(const void *data, size_t size, int page, int *width, int *height, int *has_alpha);
/// Decodes a picture file's page `page` (0 the first), of `width` x `height` as its header says, into 8-bit B, G,
/// R, A, premultiplied, rows `row_bytes` apart; 0, or -1 when it cannot be decoded.
int cvips_decode_bgra(const void *data, size_t size, int page, void *destination, size_t row_bytes, int width, int height);
/// As `cvips_decode_bgra`, for a picture whose data has arrived in part: decoded as far as it goes
/// (a GIF's rows to come are transparent) rather than refused.
int cvips_decode_bgra_arrived(const void *data, size_t size, int page, void *destination, size_t row_bytes, int width, int height);
/// Encodes `height` rows (`row_bytes` apart) of `width` 32-bit float R, G, B, A pixels, premultiplied
/// (`has_alpha` 0: the alpha is skipped and left out), as a TIFF of float samples, unpremultiplied,
/// the values as they are; the bytes in `*data` (free with free) and `*size`. 0, or -1.
int cvips_encode_float_tiff(const void *rgba, int width, int height, size_t row_bytes, int has_alpha, void **data, size_t *size);
/// Whether a picture file's page `page` holds floating-point samples (a float TIFF): 1 or 0, from its
/// header alone; -1 when libvips cannot read it.
int cvips_picture_is_float(const void *data, size_t size, int page);
/// Decodes a picture file's page of floating-point samples, of `width` x `height` as its header
/// says, into 32-bit float R, G, B, A, premultiplied, each value as the file holds it (1 the full
/// value, beyond it where the file goes beyond), rows `row_bytes` apart; 0, or -1 when it cannot be.
int cvips_decode_float_rgba(const void *data, size_t size, int page, float *destination, size_t row_bytes, int width, int height);
/// Encodes 8-bit B, G, R, A premultiplied pixels (rows `row_bytes` apart; alpha dropped when `opaque`)
/// in the format of a file name suffix (".tif", ".gif"), into `*data` (malloc'd, `*size` bytes); 0 or -1.
int cvips_encode(const void *bgra, int width, int height, size_t row_bytes, int opaque, const char *suffix, void **data, size_t *size);
/// The pages of a picture (a GIF's frames, a TIFF's pages; 1 for others), its loop count (-1 when
/// it says none; 0 is for ever) and up to `capacity` of its frames' delays in milliseconds; 0, or
/// -1 when libvips cannot read it.
int cvips_picture_pages(const void *data, size_t size, int *pages, int *loop, int *delays, int capacity, int *delay_count);
/// `count` BGRA frames of `width` x `height` (rows `row_bytes` apart) encoded as an animated GIF, each
/// shown for its delay in milliseconds, looped `loop` times (0 for ever): into `*data` (malloc'd,
/// the caller frees it), `*size` bytes; 0, or -1 when it cannot be.
int cvips_encode_animation(const void *const *frames, int count, int width, int height, size_t row_bytes, const int *delays, int loop, void **data, size_t *size);

#ifdef __cplusplus
}
#endif

#include "CVipsPixelMath.h"
#endif
