// Pixel arithmetic on libvips: the operations the generated, blended and distorted filters of
// Core Image are built from, each a node of libvips's lazy pipeline, evaluated region by region
// on libvips's threads when the image is written out (no loop over pixels here).
//
// Images here have any number of 32-bit float bands; where one operand of a two-image operation
// has one band and the other several, the one band is used for each. Every function leaves its
// inputs to the caller and returns a new image (NULL on failure, with why in `cvips_error`).
//
// Thread ownership: thread-safe, as libvips is.
#ifndef CVIPS_PIXEL_MATH_H
#define CVIPS_PIXEL_MATH_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cvips_image cvips_image;

/// The two-image operations of `cvips_binary`.
enum cvips_binary_operation {
    CVIPS_ADD = 0,
    CVIPS_SUBTRACT = 1,
    CVIPS_MULTIPLY = 2,
    CVIPS_DIVIDE = 3,
    CVIPS_POWER = 4,
    /// The angle of (right, left) in radians: atan2(left, right).
    CVIPS_ATAN2 = 5,
    CVIPS_MAXIMUM = 6,
    CVIPS_MINIMUM = 7,
    /// 1 where left < right, else 0.
    CVIPS_LESS = 8,
};

/// The one-image operations of `cvips_unary` (angles in radians).
enum cvips_unary_operation {
    CVIPS_SIN = 0,
    CVIPS_COS = 1,
    CVIPS_SQRT = 2,
    CVIPS_ABS = 3,
    CVIPS_FLOOR = 4,
    CVIPS_EXP = 5,
    CVIPS_LOG = 6,
};

/// A `width` x `height` image of two bands: x0 + column and y0 - row (the plane's coordinates of
/// each pixel when x0 and y0 are the first pixel's).
cvips_image *cvips_coordinates(int width, int height, double x0, double y0);
/// A `width` x `height` image of `bands` bands, each pixel `values`.
cvips_image *cvips_constant(int width, int height, const double *values, int bands);
/// `left` and `right` combined band by band.
cvips_image *cvips_binary(cvips_image *left, cvips_image *right, int operation);
/// `image` through a function, band by band.
cvips_image *cvips_unary(cvips_image *image, int operation);
/// Each band times `a` plus `b` (`n` values each: one for every band, or one for all).
cvips_image *cvips_scale_offset(cvips_image *image, const double *a, const double *b, int n);
/// `count` bands of `image` from `first`.
cvips_image *cvips_bands(cvips_image *image, int first, int count);
/// The bands of `count` images, one after another.
cvips_image *cvips_join_bands(cvips_image *const *images, int count);
/// `then` where `condition` is not 0, `otherwise` where it is.
cvips_image *cvips_choose(cvips_image *condition, cvips_image *then, cvips_image *otherwise);
/// One band: at each pixel the `index`th smallest of the image's bands (0 the smallest).
cvips_image *cvips_band_rank(cvips_image *image, int index);
/// `rows` bands, each a weighted sum of the image's `columns` bands (`matrix` rows first).
cvips_image *cvips_weigh_bands(cvips_image *image, const double *matrix, int rows, int columns);
/// `image` sampled bilinearly where `coordinates` (two bands, x and y in `image`'s pixels, the
/// first pixel's centre at 0, 0) say; 0 where they fall outside.
cvips_image *cvips_sample(cvips_image *image, cvips_image *coordinates);
/// Four-band B, G, R, A (0-255) premultiplied by its alpha (`premultiply` 1) or divided by it (0).
cvips_image *cvips_premultiplied(cvips_image *image, int premultiply);
/// Each `across` x `down` block of the image replaced by one pixel, its mean.
cvips_image *cvips_block_means(cvips_image *image, int across, int down);
/// The smallest and largest value of each of the image's first `bands` bands, computed now; 0 or -1.
int cvips_extremes(cvips_image *image, int bands, double *minimum, double *maximum);
/// The counts of each value 0-255 of a one-band image (rounded and clipped to 8 bits), computed now; 0 or -1.
int cvips_histogram(cvips_image *image, double counts[256]);
/// For each value 0-255 of a one-band image (rounded and clipped to 8 bits), the sum of the
/// one-band `weights` image's pixels where the image holds that value, computed now; 0 or -1.
int cvips_weighted_histogram(cvips_image *image, cvips_image *weights, double sums[256]);
/// A `width` x `height` image of `bands` float bands over caller memory (rows packed), which must outlive it.
cvips_image *cvips_float_image(const float *values, int width, int height, int bands);
/// The image scaled by `x_scale` and `y_scale` with libvips's kernel `kernel` (a VipsKernel:
/// 2 Catmull-Rom cubic, 3 Mitchell-Netravali cubic, 5 Lanczos-3).
cvips_image *cvips_resize_with(cvips_image *image, double x_scale, double y_scale, int kernel);
/// `markup` (Pango's) drawn by libvips's text renderer in `font` (a Pango font description, "Sans
/// 12") at `dpi`: into `*coverage` (malloc'd, the caller frees it) one byte a pixel, 0 to 255, of
/// `*width` x `*height`; 0, or -1 when it cannot be drawn.
int cvips_text(const char *markup, const char *font, int dpi, unsigned char **coverage, int *width, int *height);
/// Where a one-band image is largest (`maximum`) or smallest: its first such pixel's column and
/// row (rows downwards), computed now; 0 or -1.
int cvips_extreme_position(cvips_image *image, int maximum, int *x, int *y);
/// The image's values in float, computed now into `values` (`count` floats: width x height x
/// bands, rows packed); 0, or -1 when it cannot be computed or holds another number of values.
int cvips_read_floats(cvips_image *image, float *values, size_t count);
/// The number of the image's bands.
int cvips_band_count(const cvips_image *image);
/// For each pixel of a one-band image, the distance in pixels to the nearest pixel that is not
/// 0 (libvips's nearest fill), in float.
cvips_image *cvips_distance_to_nonzero(cvips_image *image);

#ifdef __cplusplus
}
#endif
#endif
