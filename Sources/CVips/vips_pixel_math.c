// Pixel arithmetic on libvips (CVipsPixelMath.h): libvips's arithmetic, relational, band and
// resampling operations, found by name in the library `cvips_load` loaded, as vips_library.c
// finds the others.
#include "CVips.h"

#include "CLibraryLoading.h"
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef void vips;  // VipsImage
enum { UCHAR = 0, FLOAT = 6, DOUBLE = 8 };  // VipsBandFormat
// libvips's operation codes (VipsOperationMath, VipsOperationMath2, VipsOperationRelational, VipsOperationRound).
enum { MATH_SIN = 0, MATH_COS = 1, MATH_LOG = 6, MATH_EXP = 8 };
enum { MATH2_POW = 0, MATH2_ATAN2 = 2 };
enum { RELATIONAL_LESS = 2, RELATIONAL_MORE = 4 };
enum { ROUND_FLOOR = 2 };

static struct {
    vips *(*new_matrix_from_array)(int width, int height, const double *array, int size);
    void (*object_unref)(void *object);
    int (*get_bands)(const vips *image);
    int (*xyz)(vips **out, int width, int height, ...);
    int (*black)(vips **out, int width, int height, ...);
    int (*cast)(vips *in, vips **out, int format, ...);
    int (*linear)(vips *in, vips **out, const double *a, const double *b, int n, ...);
    int (*add)(vips *left, vips *right, vips **out, ...);
    int (*subtract)(vips *left, vips *right, vips **out, ...);
    int (*multiply)(vips *left, vips *right, vips **out, ...);
    int (*divide)(vips *left, vips *right, vips **out, ...);
    int (*math)(vips *in, vips **out, int operation, ...);
    int (*math2)(vips *left, vips *right, vips **out, int operation, ...);
    int (*math2_const)(vips *in, vips **out, int operation, const double *c, int n, ...);
    int (*relational)(vips *left, vips *right, vips **out, int operation, ...);
    int (*ifthenelse)(vips *condition, vips *in1, vips *in2, vips **out, ...);
    int (*abs)(vips *in, vips **out, ...);
    int (*round)(vips *in, vips **out, int round, ...);
    int (*extract_band)(vips *in, vips **out, int band, ...);
    int (*bandjoin)(vips **in, vips **out, int n, ...);
    int (*bandrank)(vips **in, vips **out, int n, ...);
    int (*recomb)(vips *in, vips **out, vips *matrix, ...);
    int (*mapim)(vips *in, vips **out, vips *index, ...);
    int (*premultiply)(vips *in, vips **out, ...);
    int (*unpremultiply)(vips *in, vips **out, ...);
    int (*shrink)(vips *in, vips **out, double hshrink, double vshrink, ...);
    int (*min)(vips *in, double *out, ...);
    int (*max)(vips *in, double *out, ...);
    int (*hist_find)(vips *in, vips **out, ...);
    int (*hist_find_indexed)(vips *in, vips *index, vips **out, ...);
    int (*resize)(vips *in, vips **out, double scale, ...);
    int (*text)(vips **out, const char *text, ...);
    int (*get_width)(const vips *image);
    int (*get_height)(const vips *image);
    void *(*write_to_memory)(vips *in, size_t *size);
    void (*free)(void *memory);
    vips *(*new_from_memory)(const void *data, size_t size, int width, int height, int bands, int format);
    int (*fill_nearest)(vips *in, vips **out, ...);
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *status;
static char problem[512];

static void load(void) {
    if ((status = cvips_load())) return;
    void *library = cll_open("libvips.so.42", "libvips42", problem, sizeof problem);
    if (!library) {
        status = problem;
        return;
    }
#define FIND(field, name)                                                          \
    if (!cll_find(library, name, (void **)&lib.field, problem, sizeof problem)) { \
        status = problem;                                                      \
        return;                                                                \
    }
    FIND(new_matrix_from_array, "vips_image_new_matrix_from_array")
    FIND(object_unref, "g_object_unref")
    FIND(get_bands, "vips_image_get_bands")
    FIND(xyz, "vips_xyz")
    FIND(black, "vips_black")
    FIND(cast, "vips_cast")
    FIND(linear, "vips_linear")
    FIND(add, "vips_add")
    FIND(subtract, "vips_subtract")
    FIND(multiply, "vips_multiply")
    FIND(divide, "vips_divide")
    FIND(math, "vips_math")
    FIND(math2, "vips_math2")
    FIND(math2_const, "vips_math2_const")
    FIND(relational, "vips_relational")
    FIND(ifthenelse, "vips_ifthenelse")
    FIND(abs, "vips_abs")
    FIND(round, "vips_round")
    FIND(extract_band, "vips_extract_band")
    FIND(bandjoin, "vips_bandjoin")
    FIND(bandrank, "vips_bandrank")
    FIND(recomb, "vips_recomb")
    FIND(mapim, "vips_mapim")
    FIND(premultiply, "vips_premultiply")
    FIND(unpremultiply, "vips_unpremultiply")
    FIND(shrink, "vips_shrink")
    FIND(min, "vips_min")
    FIND(max, "vips_max")
    FIND(hist_find, "vips_hist_find")
    FIND(hist_find_indexed, "vips_hist_find_indexed")
    FIND(resize, "vips_resize")
    FIND(text, "vips_text")
    FIND(get_width, "vips_image_get_width")
    FIND(get_height, "vips_image_get_height")
    FIND(write_to_memory, "vips_image_write_to_memory")
    FIND(free, "g_free")
    FIND(new_from_memory, "vips_image_new_from_memory")
    FIND(fill_nearest, "vips_fill_nearest")
#undef FIND
}

/// Whether the functions are found; when not, why is left for `cvips_error`.
static int ready(void) {
    pthread_once(&once, load);
    return status == NULL;
}

static cvips_image *made(int result, vips *out) { return result == 0 ? (cvips_image *)out : NULL; }

/// `image` in float (a new reference either way).
static int as_float(vips *image, vips **out) { return lib.cast(image, out, FLOAT, NULL); }

/// `result`, the intermediate it was made from released.
static cvips_image *unref_after(vips *intermediate, cvips_image *result) {
    if (intermediate) lib.object_unref(intermediate);
    return result;
}

cvips_image *cvips_coordinates(int width, int height, double x0, double y0) {
    if (!ready()) return NULL;
    vips *xy = NULL, *floating = NULL, *out = NULL;
    double a[2] = {1, -1}, b[2] = {x0, y0};
    int result = lib.xyz(&xy, width, height, NULL);
    if (result == 0) result = as_float(xy, &floating);
    if (result == 0) result = lib.linear(floating, &out, a, b, 2, NULL);
    if (xy) lib.object_unref(xy);
    if (floating) lib.object_unref(floating);
    return made(result, out);
}

cvips_image *cvips_constant(int width, int height, const double *values, int bands) {
    if (!ready() || bands < 1) return NULL;
    vips *black = NULL, *out = NULL;
    double zeros[64] = {0};
    if (bands > 64) return NULL;
    int result = lib.black(&black, width, height, NULL);
    if (result == 0) result = lib.linear(black, &out, zeros, values, bands, NULL);
    return unref_after(black, made(result, out));
}

/// 1 where `left` < `right`, else 0, in float.
static int less(vips *left, vips *right, vips **out) {
    vips *flags = NULL;
    double scale = 1.0 / 255, offset = 0;
    int result = lib.relational(left, right, &flags, RELATIONAL_LESS, NULL);
    if (result == 0) result = lib.linear(flags, out, &scale, &offset, 1, NULL);
    if (flags) lib.object_unref(flags);
    return result;
}

cvips_image *cvips_binary(cvips_image *left, cvips_image *right, int operation) {
    if (!ready()) return NULL;
    vips *l = (vips *)left, *r = (vips *)right, *out = NULL, *flags = NULL, *degrees = NULL;
    int result = -1;
    switch (operation) {
    case CVIPS_ADD: result = lib.add(l, r, &out, NULL); break;
    case CVIPS_SUBTRACT: result = lib.subtract(l, r, &out, NULL); break;
    case CVIPS_MULTIPLY: result = lib.multiply(l, r, &out, NULL); break;
    case CVIPS_DIVIDE: result = lib.divide(l, r, &out, NULL); break;
    case CVIPS_POWER: result = lib.math2(l, r, &out, MATH2_POW, NULL); break;
    case CVIPS_ATAN2: {
        // libvips answers in degrees, from 0 to 360.
        double a = M_PI / 180, b = 0;
        result = lib.math2(l, r, &degrees, MATH2_ATAN2, NULL);
        if (result == 0) result = lib.linear(degrees, &out, &a, &b, 1, NULL);
        break;
    }
    case CVIPS_MAXIMUM:
    case CVIPS_MINIMUM:
        result = lib.relational(l, r, &flags, RELATIONAL_MORE, NULL);
        if (result == 0) result = operation == CVIPS_MAXIMUM ? lib.ifthenelse(flags, l, r, &out, NULL) : lib.ifthenelse(flags, r, l, &out, NULL);
        break;
    case CVIPS_LESS: result = less(l, r, &out); break;
    default: break;
    }
    if (flags) lib.object_unref(flags);
    if (degrees) lib.object_unref(degrees);
    return made(result, out);
}

cvips_image *cvips_unary(cvips_image *image, int operation) {
    if (!ready()) return NULL;
    vips *in = (vips *)image, *out = NULL, *degrees = NULL;
    int result = -1;
    double to_degrees = 180 / M_PI, zero = 0, half = 0.5;
    switch (operation) {
    case CVIPS_SIN:
    case CVIPS_COS:
        // libvips's sine and cosine take degrees.
        result = lib.linear(in, &degrees, &to_degrees, &zero, 1, NULL);
        if (result == 0) result = lib.math(degrees, &out, operation == CVIPS_SIN ? MATH_SIN : MATH_COS, NULL);
        break;
    case CVIPS_SQRT: result = lib.math2_const(in, &out, MATH2_POW, &half, 1, NULL); break;
    case CVIPS_ABS: result = lib.abs(in, &out, NULL); break;
    case CVIPS_FLOOR: result = lib.round(in, &out, ROUND_FLOOR, NULL); break;
    case CVIPS_EXP: result = lib.math(in, &out, MATH_EXP, NULL); break;
    case CVIPS_LOG: result = lib.math(in, &out, MATH_LOG, NULL); break;
    default: break;
    }
    return unref_after(degrees, made(result, out));
}

cvips_image *cvips_scale_offset(cvips_image *image, const double *a, const double *b, int n) {
    if (!ready()) return NULL;
    vips *out = NULL;
    int result = lib.linear((vips *)image, &out, a, b, n, NULL);
    return made(result, out);
}

cvips_image *cvips_bands(cvips_image *image, int first, int count) {
    if (!ready()) return NULL;
    vips *out = NULL;
    int result = lib.extract_band((vips *)image, &out, first, "n", count, NULL);
    return made(result, out);
}

cvips_image *cvips_join_bands(cvips_image *const *images, int count) {
    if (!ready()) return NULL;
    vips *out = NULL;
    int result = lib.bandjoin((vips **)images, &out, count, NULL);
    return made(result, out);
}

cvips_image *cvips_choose(cvips_image *condition, cvips_image *then, cvips_image *otherwise) {
    if (!ready()) return NULL;
    vips *out = NULL;
    int result = lib.ifthenelse((vips *)condition, (vips *)then, (vips *)otherwise, &out, NULL);
    return made(result, out);
}

cvips_image *cvips_band_rank(cvips_image *image, int index) {
    if (!ready()) return NULL;
    int count = lib.get_bands((vips *)image);
    if (count < 1 || count > 16) return NULL;
    vips *bands[16] = {NULL}, *out = NULL;
    int result = 0;
    for (int band = 0; band < count && result == 0; band++) result = lib.extract_band((vips *)image, &bands[band], band, NULL);
    if (result == 0) result = count == 1 ? lib.cast(bands[0], &out, FLOAT, NULL) : lib.bandrank(bands, &out, count, "index", index, NULL);
    for (int band = 0; band < count; band++)
        if (bands[band]) lib.object_unref(bands[band]);
    return made(result, out);
}

cvips_image *cvips_weigh_bands(cvips_image *image, const double *matrix, int rows, int columns) {
    if (!ready()) return NULL;
    vips *weights = lib.new_matrix_from_array(columns, rows, matrix, rows * columns), *out = NULL;
    if (!weights) return NULL;
    int result = lib.recomb((vips *)image, &out, weights, NULL);
    return unref_after(weights, made(result, out));
}

cvips_image *cvips_sample(cvips_image *image, cvips_image *coordinates) {
    if (!ready()) return NULL;
    vips *out = NULL;
    int result = lib.mapim((vips *)image, &out, (vips *)coordinates, NULL);
    return made(result, out);
}

cvips_image *cvips_premultiplied(cvips_image *image, int premultiply) {
    if (!ready()) return NULL;
    vips *out = NULL;
    int result = premultiply ? lib.premultiply((vips *)image, &out, NULL) : lib.unpremultiply((vips *)image, &out, NULL);
    return made(result, out);
}

cvips_image *cvips_block_means(cvips_image *image, int across, int down) {
    if (!ready()) return NULL;
    vips *out = NULL;
    int result = lib.shrink((vips *)image, &out, (double)across, (double)down, NULL);
    return made(result, out);
}

int cvips_extremes(cvips_image *image, int bands, double *minimum, double *maximum) {
    if (!ready()) return -1;
    for (int band = 0; band < bands; band++) {
        vips *one = NULL;
        int result = lib.extract_band((vips *)image, &one, band, NULL);
        if (result == 0) result = lib.min(one, &minimum[band], NULL);
        if (result == 0) result = lib.max(one, &maximum[band], NULL);
        if (one) lib.object_unref(one);
        if (result != 0) return -1;
    }
    return 0;
}

// The 256 bins of a one-band image's values, rounded and clipped to 8 bits: how many pixels hold
// each, or, with `weights`, the sum of the weights where they do.
static int bins_of(cvips_image *image, cvips_image *weights, double bins[256]) {
    vips *rounded = NULL, *bytes = NULL, *histogram = NULL, *floating = NULL;
    double one = 1, half = 0.5;
    int result = lib.linear((vips *)image, &rounded, &one, &half, 1, NULL);
    if (result == 0) result = lib.cast(rounded, &bytes, UCHAR, NULL);
    if (result == 0) result = weights ? lib.hist_find_indexed((vips *)weights, bytes, &histogram, NULL) : lib.hist_find(bytes, &histogram, NULL);
    if (result == 0) result = lib.cast(histogram, &floating, DOUBLE, NULL);
    if (result == 0) {
        size_t size = 0;
        double *values = lib.write_to_memory(floating, &size);
        size_t count = size / sizeof(double);
        if (values && count >= 1 && count <= 256) {
            for (size_t index = 0; index < 256; index++) bins[index] = index < count ? values[index] : 0;
        } else {
            result = -1;
        }
        if (values) lib.free(values);
    }
    vips *temporaries[] = {rounded, bytes, histogram, floating};
    for (size_t index = 0; index < 4; index++)
        if (temporaries[index]) lib.object_unref(temporaries[index]);
    return result;
}

int cvips_histogram(cvips_image *image, double counts[256]) {
    if (!ready()) return -1;
    return bins_of(image, NULL, counts);
}

int cvips_weighted_histogram(cvips_image *image, cvips_image *weights, double sums[256]) {
    if (!ready()) return -1;
    return bins_of(image, weights, sums);
}

cvips_image *cvips_float_image(const float *values, int width, int height, int bands) {
    if (!ready()) return NULL;
    return (cvips_image *)lib.new_from_memory(values, (size_t)width * (size_t)height * (size_t)bands * sizeof(float), width, height, bands, FLOAT);
}

cvips_image *cvips_resize_with(cvips_image *image, double x_scale, double y_scale, int kernel) {
    if (!ready()) return NULL;
    vips *out = NULL;
    int result = lib.resize((vips *)image, &out, x_scale, "vscale", y_scale, "kernel", kernel, NULL);
    return made(result, out);
}

int cvips_text(const char *markup, const char *font, int dpi, unsigned char **coverage, int *width, int *height) {
    *coverage = NULL;
    if (!ready()) return -1;
    vips *drawn = NULL;
    if (lib.text(&drawn, markup, "font", font, "dpi", dpi, NULL) != 0) return -1;
    size_t size = 0;
    unsigned char *bytes = lib.write_to_memory(drawn, &size);
    int w = lib.get_width(drawn), h = lib.get_height(drawn);
    lib.object_unref(drawn);
    if (!bytes || size != (size_t)w * (size_t)h) {
        if (bytes) lib.free(bytes);
        return -1;
    }
    // Handed over in the C library's own memory, so that the caller frees it with free().
    *coverage = malloc(size);
    if (*coverage) memcpy(*coverage, bytes, size);
    lib.free(bytes);
    *width = w;
    *height = h;
    return *coverage ? 0 : -1;
}

int cvips_extreme_position(cvips_image *image, int maximum, int *x, int *y) {
    if (!ready()) return -1;
    double value = 0;
    return maximum ? lib.max((vips *)image, &value, "x", x, "y", y, NULL) : lib.min((vips *)image, &value, "x", x, "y", y, NULL);
}

int cvips_read_floats(cvips_image *image, float *values, size_t count) {
    if (!ready()) return -1;
    vips *floating = NULL;
    if (lib.cast((vips *)image, &floating, FLOAT, NULL) != 0) return -1;
    size_t size = 0;
    float *computed = lib.write_to_memory(floating, &size);
    lib.object_unref(floating);
    int result = computed && size == count * sizeof(float) ? 0 : -1;
    if (result == 0) memcpy(values, computed, size);
    if (computed) lib.free(computed);
    return result;
}

int cvips_band_count(const cvips_image *image) {
    if (!ready()) return 0;
    return lib.get_bands((const vips *)image);
}

cvips_image *cvips_distance_to_nonzero(cvips_image *image) {
    if (!ready()) return NULL;
    vips *filled = NULL, *distance = NULL;
    int result = lib.fill_nearest((vips *)image, &filled, "distance", &distance, NULL);
    if (filled) lib.object_unref(filled);
    return made(result, distance);
}
