// libvips, loaded by its soname the first time an image is rendered, and the few of its
// operations Core Image's filters are built from. libvips's headers are not needed: the
// functions below are declared as libvips 8 documents them (its C API has been stable since 8.0),
// found by name, and called with their optional arguments, NULL-terminated.
#include "CVips.h"

#include "CLibraryLoading.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void vips;  // VipsImage
enum { UCHAR = 0, FLOAT = 6 };        // VipsBandFormat
enum { EXTEND_BLACK = 0, EXTEND_COPY = 1, EXTEND_REPEAT = 2 };  // VipsExtend

static struct {
    int (*init)(const char *argv0);
    void (*cache_set_max)(int max);
    const char *(*error_buffer)(void);
    void (*error_clear)(void);
    vips *(*new_from_memory)(const void *data, size_t size, int width, int height, int bands, int format);
    vips *(*new_matrix_from_array)(int width, int height, const double *array, int size);
    int (*get_width)(const vips *image);
    int (*get_height)(const vips *image);
    int (*get_format)(const vips *image);
    int (*write)(vips *in, vips *out);
    int (*cast)(vips *in, vips **out, int format, ...);
    int (*gaussblur)(vips *in, vips **out, double sigma, ...);
    int (*embed)(vips *in, vips **out, int x, int y, int width, int height, ...);
    int (*extract_area)(vips *in, vips **out, int left, int top, int width, int height, ...);
    int (*insert)(vips *main, vips *sub, vips **out, int x, int y, ...);
    int (*recomb)(vips *in, vips **out, vips *matrix, ...);
    int (*linear)(vips *in, vips **out, const double *a, const double *b, int n, ...);
    int (*affine)(vips *in, vips **out, double a, double b, double c, double d, ...);
    void *(*interpolate_nearest_static)(void);
    int (*resize)(vips *in, vips **out, double scale, ...);
    int (*extract_band)(vips *in, vips **out, int band, ...);
    int (*multiply)(vips *left, vips *right, vips **out, ...);
    int (*add)(vips *left, vips *right, vips **out, ...);
    void *(*array_int_new)(const int *array, int n);
    void (*area_unref)(void *area);
    void *(*write_to_memory)(vips *in, size_t *size);
    void (*object_unref)(void *object);
    void (*free)(void *memory);
    vips *(*new_from_buffer)(const void *data, size_t size, const char *options, ...);
    int (*get_bands)(const vips *image);
    int (*colourspace)(vips *in, vips **out, int space, ...);
    int (*bandjoin_const1)(vips *in, vips **out, double c, ...);
    int (*premultiply)(vips *in, vips **out, ...);
    int (*unpremultiply)(vips *in, vips **out, ...);
    int (*write_to_buffer)(vips *in, const char *suffix, void **data, size_t *size, ...);
    int (*mapim)(vips *in, vips **out, vips *index, ...);
    int (*composite2)(vips *base, vips *overlay, vips **out, int mode, ...);
    int (*copy)(vips *in, vips **out, ...);
    int (*bandjoin2)(vips *left, vips *right, vips **out, ...);
    int (*shrink)(vips *in, vips **out, double hshrink, double vshrink, ...);
    int (*conv)(vips *in, vips **out, vips *mask, ...);
    int (*convsep)(vips *in, vips **out, vips *mask, ...);
    int (*rank)(vips *in, vips **out, int width, int height, int index, ...);
    int (*maplut)(vips *in, vips **out, vips *lut, ...);
    int (*bandrank)(vips **in, vips **out, int n, ...);
    int (*bandjoin)(vips **in, vips **out, int n, ...);
    int (*zoom)(vips *in, vips **out, int xfac, int yfac, ...);
    unsigned long (*get_typeof)(const vips *image, const char *name);
    int (*get_int)(const vips *image, const char *name, int *out);
    int (*get_array_int)(vips *image, const char *name, int **out, int *n);
    void (*set_int)(vips *image, const char *name, int value);
    void (*set_array_int)(vips *image, const char *name, const int *array, int n);
    int (*arrayjoin)(vips **in, vips **out, int n, ...);
    int (*divide)(vips *left, vips *right, vips **out, ...);
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *status;
static char problem[512];

static void load(void) {
    // The soname of libvips 8.x (42 since 8.0).
    void *library = cll_open("libvips.so.42", "libvips42", problem, sizeof problem);
    if (!library) {
        status = problem;
        return;
    }
    // GLib's and GObject's functions are found through libvips, which depends on them.
#define FIND(field, name)                                                              \
    if (!cll_find(library, name, (void **)&lib.field, problem, sizeof problem)) {     \
        status = problem;                                                          \
        return;                                                                    \
    }
    FIND(init, "vips_init")
    FIND(cache_set_max, "vips_cache_set_max")
    FIND(error_buffer, "vips_error_buffer")
    FIND(error_clear, "vips_error_clear")
    FIND(new_from_memory, "vips_image_new_from_memory")
    FIND(new_matrix_from_array, "vips_image_new_matrix_from_array")
    FIND(get_width, "vips_image_get_width")
    FIND(get_height, "vips_image_get_height")
    FIND(get_format, "vips_image_get_format")
    FIND(write, "vips_image_write")
    FIND(cast, "vips_cast")
    FIND(gaussblur, "vips_gaussblur")
    FIND(embed, "vips_embed")
    FIND(extract_area, "vips_extract_area")
    FIND(insert, "vips_insert")
    FIND(recomb, "vips_recomb")
    FIND(linear, "vips_linear")
    FIND(affine, "vips_affine")
    FIND(interpolate_nearest_static, "vips_interpolate_nearest_static")
    FIND(resize, "vips_resize")
    FIND(extract_band, "vips_extract_band")
    FIND(multiply, "vips_multiply")
    FIND(add, "vips_add")
    FIND(array_int_new, "vips_array_int_new")
    FIND(area_unref, "vips_area_unref")
    FIND(write_to_memory, "vips_image_write_to_memory")
    FIND(object_unref, "g_object_unref")
    FIND(free, "g_free")
    FIND(new_from_buffer, "vips_image_new_from_buffer")
    FIND(get_bands, "vips_image_get_bands")
    FIND(colourspace, "vips_colourspace")
    FIND(bandjoin_const1, "vips_bandjoin_const1")
    FIND(premultiply, "vips_premultiply")
    FIND(unpremultiply, "vips_unpremultiply")
    FIND(write_to_buffer, "vips_image_write_to_buffer")
    FIND(mapim, "vips_mapim")
    FIND(composite2, "vips_composite2")
    FIND(copy, "vips_copy")
    FIND(bandjoin2, "vips_bandjoin2")
    FIND(shrink, "vips_shrink")
    FIND(conv, "vips_conv")
    FIND(convsep, "vips_convsep")
    FIND(rank, "vips_rank")
    FIND(maplut, "vips_maplut")
    FIND(bandrank, "vips_bandrank")
    FIND(bandjoin, "vips_bandjoin")
    FIND(zoom, "vips_zoom")
    FIND(get_typeof, "vips_image_get_typeof")
    FIND(get_int, "vips_image_get_int")
    FIND(get_array_int, "vips_image_get_array_int")
    FIND(set_int, "vips_image_set_int")
    FIND(set_array_int, "vips_image_set_array_int")
    FIND(arrayjoin, "vips_arrayjoin")
    FIND(divide, "vips_divide")
#undef FIND
    if (lib.init("avfoundation") != 0) {
        snprintf(problem, sizeof problem, "libvips could not start: %s", lib.error_buffer());
        status = problem;
        return;
    }
    // No operation cache: it keys on image addresses, which memory images reuse, and holds
    // frames' memory past their release.
    lib.cache_set_max(0);
}

const char *cvips_load(void) {
    pthread_once(&once, load);
    return status;
}

static _Thread_local char last_error[512];

const char *cvips_error(void) {
    if (cvips_load()) return status;
    snprintf(last_error, sizeof last_error, "%s", lib.error_buffer());
    lib.error_clear();
    size_t length = strlen(last_error);
    while (length > 0 && (last_error[length - 1] == '\n' || last_error[length - 1] == ' ')) last_error[--length] = 0;
    return last_error;
}

/// The image an operation made, or NULL when it failed (called after the operation, never in its argument list).
static cvips_image *made(int result, vips *out) { return result == 0 ? (cvips_image *)out : NULL; }

cvips_image *cvips_from_memory(const void *data, size_t size, int width, int height, int is_float) {
    if (cvips_load()) return NULL;
    return (cvips_image *)lib.new_from_memory(data, size, width, height, 4, is_float ? FLOAT : UCHAR);
}

void cvips_unref(cvips_image *image) {
    if (image) lib.object_unref(image);
}

int cvips_width(const cvips_image *image) { return lib.get_width(image); }
int cvips_height(const cvips_image *image) { return lib.get_height(image); }
int cvips_is_float(const cvips_image *image) { return lib.get_format(image) == FLOAT; }

cvips_image *cvips_to_float(cvips_image *image) {
    vips *out = NULL;
    int result = lib.cast(image, &out, FLOAT, NULL);
    return made(result, out);
}

cvips_image *cvips_to_uchar(cvips_image *image) {
    // Rounded, not truncated; the cast clips to 0-255.
    double a[4] = {1, 1, 1, 1}, b[4] = {0.5, 0.5, 0.5, 0.5};
    vips *rounded = NULL, *out = NULL;
    if (lib.linear(image, &rounded, a, b, 4, NULL) != 0) return NULL;
    int result = lib.cast(rounded, &out, UCHAR, NULL);
    lib.object_unref(rounded);
    return made(result, out);
}

cvips_image *cvips_blur(cvips_image *image, double sigma) {
    vips *out = NULL;
    // The mask reaches three standard deviations, where the Gaussian falls to exp(-4.5) of its peak.
    // Below a sigma of 2 the mask is a few taps, which libvips's integer path rounds so that a flat
    // white came out 247: small masks are worked in float (1, VIPS_PRECISION_FLOAT).
    int result = sigma < 2 ? lib.gaussblur(image, &out, sigma, "min_ampl", 0.0111, "precision", 1, NULL)
                           : lib.gaussblur(image, &out, sigma, "min_ampl", 0.0111, NULL);
    return made(result, out);
}

cvips_image *cvips_embed(cvips_image *image, int x, int y, int width, int height, int copy_edges) {
    vips *out = NULL;
    int result = lib.embed(image, &out, x, y, width, height, "extend", copy_edges == 2 ? EXTEND_REPEAT : copy_edges ? EXTEND_COPY : EXTEND_BLACK, NULL);
    return made(result, out);
}

cvips_image *cvips_recombine(cvips_image *image, const double matrix[16]) {
    vips *m = lib.new_matrix_from_array(4, 4, matrix, 16);
    if (!m) return NULL;
    vips *out = NULL;
    int result = lib.recomb(image, &out, m, NULL);
    lib.object_unref(m);
    return made(result, out);
}

cvips_image *cvips_linear(cvips_image *image, const double a[4], const double b[4]) {
    vips *out = NULL;
    int result = lib.linear(image, &out, a, b, 4, NULL);
    return made(result, out);
}

cvips_image *cvips_affine(cvips_image *image, double a, double b, double c, double d, double dx, double dy, int width, int height, int nearest) {
    int area[4] = {0, 0, width, height};
    void *oarea = lib.array_int_new(area, 4);
    vips *out = NULL;
    int result = nearest ? lib.affine(image, &out, a, b, c, d, "oarea", oarea, "odx", dx, "ody", dy, "extend", EXTEND_BLACK, "interpolate",
                                      lib.interpolate_nearest_static(), NULL)
                         : lib.affine(image, &out, a, b, c, d, "oarea", oarea, "odx", dx, "ody", dy, "extend", EXTEND_BLACK, NULL);
    lib.area_unref(oarea);
    return made(result, out);
}

cvips_image *cvips_resize(cvips_image *image, double x_scale, double y_scale) {
    vips *out = NULL;
    int result = lib.resize(image, &out, x_scale, "vscale", y_scale, NULL);
    return made(result, out);
}

cvips_image *cvips_over(cvips_image *overlay, cvips_image *base) {
    // base * (1 - overlay's alpha / 255) + overlay.
    vips *alpha = NULL, *remaining = NULL, *under = NULL, *out = NULL;
    double scale = -1.0 / 255, offset = 1;
    int result = lib.extract_band(overlay, &alpha, 3, NULL);
    if (result == 0) result = lib.linear(alpha, &remaining, &scale, &offset, 1, NULL);
    if (result == 0) result = lib.multiply(base, remaining, &under, NULL);
    if (result == 0) result = lib.add(under, overlay, &out, NULL);
    if (alpha) lib.object_unref(alpha);
    if (remaining) lib.object_unref(remaining);
    if (under) lib.object_unref(under);
    return made(result, out);
}

cvips_image *cvips_over_area(cvips_image *overlay, cvips_image *base, int x, int y) {
    // Only the area under the overlay is blended; the rest of the base passes through untouched.
    vips *area = NULL, *out = NULL;
    if (lib.extract_area(base, &area, x, y, lib.get_width(overlay), lib.get_height(overlay), NULL) != 0) return made(-1, NULL);
    cvips_image *blended = cvips_over(overlay, area);
    lib.object_unref(area);
    if (!blended) return NULL;
    // An 8-bit base stays 8-bit: the blended area is rounded to it (what writing it out does anyway).
    cvips_image *pasted = blended;
    if (lib.get_format(blended) == FLOAT && lib.get_format(base) != FLOAT) {
        pasted = cvips_to_uchar(blended);
        lib.object_unref(blended);
        if (!pasted) return NULL;
    }
    int result = lib.insert(base, pasted, &out, x, y, NULL);
    lib.object_unref(pasted);
    return made(result, out);
}

cvips_image *cvips_convolve(cvips_image *image, const double *mask, int width, int height, int separable, double bias, int keep_alpha) {
    // Float precision (VIPS_PRECISION_FLOAT): the mask's weights as given, no integer rounding.
    enum { PRECISION_FLOAT = 1 };
    vips *matrix = lib.new_matrix_from_array(width, height, mask, width * height);
    if (!matrix) return made(-1, NULL);
    vips *convolved = NULL, *biased = NULL, *colours = NULL, *alpha = NULL, *out = NULL;
    int result = separable ? lib.convsep(image, &convolved, matrix, "precision", PRECISION_FLOAT, NULL)
                           : lib.conv(image, &convolved, matrix, "precision", PRECISION_FLOAT, NULL);
    lib.object_unref(matrix);
    double one = 1;
    if (result == 0) result = lib.linear(convolved, &biased, &one, &bias, 1, NULL);
    if (result == 0 && keep_alpha) {
        // The convolved colours beside the image's own alpha.
        result = lib.extract_band(biased, &colours, 0, "n", 3, NULL);
        if (result == 0) result = lib.extract_band(image, &alpha, 3, NULL);
        if (result == 0) result = lib.bandjoin2(colours, alpha, &out, NULL);
    } else if (result == 0) {
        out = biased;
        biased = NULL;
    }
    vips *held[] = {convolved, biased, colours, alpha};
    for (int i = 0; i < 4; i++)
        if (held[i]) lib.object_unref(held[i]);
    return made(result, out);
}

cvips_image *cvips_rank(cvips_image *image, int width, int height, int index) {
    vips *out = NULL;
    int result = lib.rank(image, &out, width, height, index, NULL);
    return made(result, out);
}

cvips_image *cvips_curves(cvips_image *image, const unsigned char table[1024]) {
    // Colours not premultiplied, rounded to 8 bits, looked up (256 entries for each of the four
    // bands, interleaved), then premultiplied by the looked-up alpha.
    vips *lut = lib.new_from_memory(table, 1024, 256, 1, 4, UCHAR);
    if (!lut) return made(-1, NULL);
    vips *plain = NULL, *looked = NULL, *out = NULL;
    cvips_image *eight = NULL;
    int result = lib.unpremultiply(image, &plain, NULL);
    if (result == 0) {
        eight = cvips_to_uchar(plain);
        if (!eight) result = -1;
    }
    if (result == 0) result = lib.maplut(eight, &looked, lut, NULL);
    if (result == 0) result = lib.premultiply(looked, &out, NULL);
    if (plain) lib.object_unref(plain);
    if (eight) lib.object_unref(eight);
    if (looked) lib.object_unref(looked);
    lib.object_unref(lut);
    return made(result, out);
}

cvips_image *cvips_component_extreme(cvips_image *image, int maximum) {
    // The largest (or smallest) of B, G and R in each of the three, alpha kept: premultiplied
    // colours share one alpha, so the extreme of them is the extreme of the colours, premultiplied.
    vips *bands[4] = {NULL, NULL, NULL, NULL}, *grey = NULL, *out = NULL;
    int result = 0;
    for (int band = 0; band < 4 && result == 0; band++) result = lib.extract_band(image, &bands[band], band, NULL);
    if (result == 0) result = lib.bandrank(bands, &grey, 3, "index", maximum ? 2 : 0, NULL);
    if (result == 0) {
        vips *joined[4] = {grey, grey, grey, bands[3]};
        result = lib.bandjoin(joined, &out, 4, NULL);
    }
    for (int band = 0; band < 4; band++)
        if (bands[band]) lib.object_unref(bands[band]);
    if (grey) lib.object_unref(grey);
    return made(result, out);
}

cvips_image *cvips_blend_with_mask(cvips_image *image, cvips_image *background, cvips_image *mask, int use_alpha) {
    // image m + background (1 - m), m the mask's alpha or its luma (Rec. 709, premultiplied), 0-1.
    vips *weight = NULL, *m = NULL, *notM = NULL, *front = NULL, *back = NULL, *out = NULL;
    double per255 = 1.0 / 255, zero = 0, minusPer255 = -1.0 / 255, one = 1;
    int result = 0;
    if (use_alpha) {
        result = lib.extract_band(mask, &weight, 3, NULL);
    } else {
        double luma[4] = {0.0722, 0.7152, 0.2126, 0};
        vips *row = lib.new_matrix_from_array(4, 1, luma, 4);
        result = row ? lib.recomb(mask, &weight, row, NULL) : -1;
        if (row) lib.object_unref(row);
    }
    if (result == 0) result = lib.linear(weight, &m, &per255, &zero, 1, NULL);
    if (result == 0) result = lib.linear(weight, &notM, &minusPer255, &one, 1, NULL);
    if (result == 0) result = lib.multiply(image, m, &front, NULL);
    if (result == 0) result = lib.multiply(background, notM, &back, NULL);
    if (result == 0) result = lib.add(front, back, &out, NULL);
    vips *held[] = {weight, m, notM, front, back};
    for (int i = 0; i < 5; i++)
        if (held[i]) lib.object_unref(held[i]);
    return made(result, out);
}

cvips_image *cvips_pixellate(cvips_image *image, int size) {
    // Each size x size block averaged (a box shrink), then drawn as a block of that mean.
    vips *blocks = NULL, *out = NULL;
    int result = lib.shrink(image, &blocks, (double)size, (double)size, NULL);
    if (result == 0) result = lib.zoom(blocks, &out, size, size, NULL);
    if (blocks) lib.object_unref(blocks);
    return made(result, out);
}

cvips_image *cvips_average(cvips_image *image) {
    // A box average over the whole image: one pixel, each band the mean of the image's.
    vips *out = NULL;
    int result = lib.shrink(image, &out, (double)lib.get_width(image), (double)lib.get_height(image), NULL);
    return made(result, out);
}

cvips_image *cvips_mix(cvips_image *first, cvips_image *second, double a, double b) {
    vips *scaledFirst = NULL, *scaledSecond = NULL, *out = NULL;
    double zero = 0;
    int result = lib.linear(first, &scaledFirst, &a, &zero, 1, NULL);
    if (result == 0) result = lib.linear(second, &scaledSecond, &b, &zero, 1, NULL);
    if (result == 0) result = lib.add(scaledFirst, scaledSecond, &out, NULL);
    if (scaledFirst) lib.object_unref(scaledFirst);
    if (scaledSecond) lib.object_unref(scaledSecond);
    return made(result, out);
}

cvips_image *cvips_blend(cvips_image *overlay, cvips_image *base, int mode) {
    // The W3C's compositing of premultiplied colours s (the overlay) and b (the base), alphas as and ab:
    //   separable blend modes: (1 - ab) s + (1 - as) b + as ab B(Cb, Cs), alpha as + ab - as ab,
    //     where B is libvips's blend of the two colours made opaque (Cs = s / as, Cb = b / ab), so
    //     that B sees colours, not premultiplied values (libvips's own compositing of translucent
    //     images gives B premultiplied values);
    //   in: s ab; out: s (1 - ab); atop: s ab + b (1 - as), alpha ab; addition: s + b.
    enum { SRGB = 22, IN = 3, OUT = 4, ATOP = 5, ADD = 12, MULTIPLY_COMPOSITING = 100 };
    vips *held[32] = {0};  // at most 26 steps below
    int count = 0, result = 0;
#define STEP(target, call)                \
    vips *target = NULL;                  \
    if (result == 0) result = (call);     \
    held[count++] = target;
    double per255 = 1.0 / 255, zero = 0, minusPer255 = -1.0 / 255, one = 1;
    STEP(overlayAlpha, lib.extract_band(overlay, &overlayAlpha, 3, NULL))
    STEP(baseAlpha, lib.extract_band(base, &baseAlpha, 3, NULL))
    STEP(as, lib.linear(overlayAlpha, &as, &per255, &zero, 1, NULL))
    STEP(ab, lib.linear(baseAlpha, &ab, &per255, &zero, 1, NULL))
    STEP(notAs, lib.linear(overlayAlpha, &notAs, &minusPer255, &one, 1, NULL))
    STEP(notAb, lib.linear(baseAlpha, &notAb, &minusPer255, &one, 1, NULL))
    STEP(s, lib.extract_band(overlay, &s, 0, "n", 3, NULL))
    STEP(b, lib.extract_band(base, &b, 0, "n", 3, NULL))
    vips *out = NULL;
    if (result == 0 && mode == IN) {
        result = lib.multiply(overlay, ab, &out, NULL);
    } else if (result == 0 && mode == OUT) {
        result = lib.multiply(overlay, notAb, &out, NULL);
    } else if (result == 0 && mode == ADD) {
        result = lib.add(overlay, base, &out, NULL);
    } else if (result == 0 && mode == MULTIPLY_COMPOSITING) {
        // Every band, alpha too, the product of the two (on a 0-1 scale).
        STEP(product, lib.multiply(overlay, base, &product, NULL))
        if (result == 0) result = lib.linear(product, &out, &per255, &zero, 1, NULL);
    } else if (result == 0 && mode == ATOP) {
        STEP(inside, lib.multiply(s, ab, &inside, NULL))
        STEP(under, lib.multiply(b, notAs, &under, NULL))
        STEP(colour, lib.add(inside, under, &colour, NULL))
        if (result == 0) result = lib.bandjoin2(colour, baseAlpha, &out, NULL);
    } else if (result == 0) {
        STEP(plainOverlay, lib.unpremultiply(overlay, &plainOverlay, NULL))
        STEP(plainBase, lib.unpremultiply(base, &plainBase, NULL))
        STEP(cs, lib.extract_band(plainOverlay, &cs, 0, "n", 3, NULL))
        STEP(cb, lib.extract_band(plainBase, &cb, 0, "n", 3, NULL))
        STEP(opaqueS, lib.bandjoin_const1(cs, &opaqueS, 255.0, NULL))
        STEP(opaqueB, lib.bandjoin_const1(cb, &opaqueB, 255.0, NULL))
        STEP(labelledS, lib.copy(opaqueS, &labelledS, "interpretation", SRGB, NULL))
        STEP(labelledB, lib.copy(opaqueB, &labelledB, "interpretation", SRGB, NULL))
        STEP(blended, lib.composite2(labelledB, labelledS, &blended, mode, "compositing_space", SRGB, NULL))
        STEP(f, lib.extract_band(blended, &f, 0, "n", 3, NULL))
        STEP(both, lib.multiply(as, ab, &both, NULL))
        STEP(sPart, lib.multiply(s, notAb, &sPart, NULL))
        STEP(bPart, lib.multiply(b, notAs, &bPart, NULL))
        STEP(fPart, lib.multiply(f, both, &fPart, NULL))
        STEP(sides, lib.add(sPart, bPart, &sides, NULL))
        STEP(colour, lib.add(sides, fPart, &colour, NULL))
        STEP(baseShown, lib.multiply(baseAlpha, notAs, &baseShown, NULL))
        STEP(alpha, lib.add(overlayAlpha, baseShown, &alpha, NULL))
        if (result == 0) result = lib.bandjoin2(colour, alpha, &out, NULL);
    }
#undef STEP
    for (int i = 0; i < count; i++)
        if (held[i]) lib.object_unref(held[i]);
    return made(result, out);
}

int cvips_write(cvips_image *image, void *destination, size_t row_bytes) {
    int width = lib.get_width(image), height = lib.get_height(image);
    size_t packed = (size_t)width * 4;
    if (row_bytes < packed) return -1;
    if (row_bytes == packed) {
        // Rows packed: libvips writes straight into the destination, on its threads.
        vips *target = lib.new_from_memory(destination, packed * (size_t)height, width, height, 4, UCHAR);
        if (!target) return -1;
        int result = lib.write(image, target);
        lib.object_unref(target);
        return result;
    }
    size_t size = 0;
    unsigned char *pixels = lib.write_to_memory(image, &size);
    if (!pixels) return -1;
    if (size != packed * (size_t)height) {
        lib.free(pixels);
        return -1;
    }
    for (int y = 0; y < height; y++) memcpy((unsigned char *)destination + (size_t)y * row_bytes, pixels + (size_t)y * packed, packed);
    lib.free(pixels);
    return 0;
}

enum { INTERPRETATION_SRGB = 22 };  // VipsInterpretation

/// Releases an image if there is one and gives back `next`, for chains of operations.
static vips *replace(vips *old, vips *next) {
    if (old) lib.object_unref(old);
    return next;
}

/// Swaps the first and third bands: R, G, B, A to B, G, R, A and back, in 8 bits.
static vips *swapped_red_blue(vips *image) {
    static const double swap[16] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1};
    cvips_image *out = cvips_recombine((cvips_image *)image, swap);
    if (!out) return NULL;
    vips *bytes = NULL;
    int result = lib.cast((vips *)out, &bytes, UCHAR, NULL);
    lib.object_unref(out);
    return result == 0 ? bytes : NULL;
}

int cvips_picture_pages(const void *data, size_t size, int *pages, int *loop, int *delays, int capacity, int *delay_count) {
    if (cvips_load()) return -1;
    vips *image = lib.new_from_buffer(data, size, "", NULL);
    if (!image) return -1;
    int value = 0;
    *pages = lib.get_typeof(image, "n-pages") && lib.get_int(image, "n-pages", &value) == 0 && value > 0 ? value : 1;
    *loop = lib.get_typeof(image, "loop") && lib.get_int(image, "loop", &value) == 0 ? value : -1;
    *delay_count = 0;
    int *array = NULL, count = 0;
    if (lib.get_typeof(image, "delay") && lib.get_array_int(image, "delay", &array, &count) == 0 && array) {
        for (int i = 0; i < count && i < capacity; i++) delays[i] = array[i];
        *delay_count = count < capacity ? count : capacity;
    }
    lib.object_unref(image);
    return 0;
}

int cvips_picture_size(const void *data, size_t size, int page, int *width, int *height, int *has_alpha) {
    if (cvips_load()) return -1;
    vips *image = page > 0 ? lib.new_from_buffer(data, size, "", "page", page, NULL) : lib.new_from_buffer(data, size, "", NULL);
    if (!image) return -1;
    *width = lib.get_width(image);
    *height = lib.get_height(image);
    int bands = lib.get_bands(image);
    *has_alpha = bands == 2 || bands == 4;
    lib.object_unref(image);
    return 0;
}

/// Whether a picture's samples are floating point (VIPS_FORMAT_FLOAT or VIPS_FORMAT_DOUBLE).
static int has_float_samples(const vips *image) {
    enum { DOUBLE = 9 };
    int format = lib.get_format(image);
    return format == FLOAT || format == DOUBLE;
}

/// A picture of floating-point samples as four float bands, red, green, blue (a grey picture's one
/// band three times) and alpha (1 where the picture has none), each value as the file holds it (1
/// the full value); NULL for more than four bands. Takes `image`.
static vips *float_rgba(vips *image) {
    vips *floats = NULL, *colour = NULL, *alpha = NULL, *out = NULL;
    int bands = lib.get_bands(image);
    int result = bands <= 4 ? lib.cast(image, &floats, FLOAT, NULL) : -1;
    lib.object_unref(image);
    if (result == 0 && bands <= 2) {
        vips *grey = NULL;
        result = lib.extract_band(floats, &grey, 0, NULL);
        vips *greys[3] = {grey, grey, grey};
        if (result == 0) result = lib.bandjoin(greys, &colour, 3, NULL);
        if (grey) lib.object_unref(grey);
    } else if (result == 0) {
        result = lib.extract_band(floats, &colour, 0, "n", 3, NULL);
    }
    if (result == 0 && (bands == 2 || bands == 4)) {
        result = lib.extract_band(floats, &alpha, bands - 1, NULL);
        if (result == 0) result = lib.bandjoin2(colour, alpha, &out, NULL);
    } else if (result == 0) {
        result = lib.bandjoin_const1(colour, &out, 1.0, NULL);
    }
    if (floats) lib.object_unref(floats);
    if (colour) lib.object_unref(colour);
    if (alpha) lib.object_unref(alpha);
    return result == 0 ? out : replace(out, NULL);
}

/// A picture of floating-point samples in 8-bit sRGB with alpha: its colours taken as linear
/// (libvips's scRGB, as it reads a float RGB TIFF) and encoded, its alpha from 0-1 to 0-255.
/// (libvips itself reads a float picture's alpha, and a float grey picture, on a 0-255 scale.) Takes `image`.
static vips *float_as_srgb(vips *image) {
    enum { INTERPRETATION_SCRGB = 28 };
    vips *rgba = float_rgba(image), *colour = NULL, *linear = NULL, *encoded = NULL, *alpha = NULL, *scaled = NULL, *out = NULL;
    if (!rgba) return NULL;
    double scale = 255, offset = 0.5;
    int result = lib.extract_band(rgba, &colour, 0, "n", 3, NULL);
    if (result == 0) result = lib.copy(colour, &linear, "interpretation", INTERPRETATION_SCRGB, NULL);
    if (result == 0) result = lib.colourspace(linear, &encoded, INTERPRETATION_SRGB, NULL);
    if (result == 0) result = lib.extract_band(rgba, &alpha, 3, NULL);
    if (result == 0) result = lib.linear(alpha, &scaled, &scale, &offset, 1, NULL);
    vips *bytes = NULL;
    if (result == 0) result = lib.cast(scaled, &bytes, UCHAR, NULL);
    if (result == 0) result = lib.bandjoin2(encoded, bytes, &out, NULL);
    vips *made_here[] = {rgba, colour, linear, encoded, alpha, scaled, bytes};
    for (size_t i = 0; i < sizeof made_here / sizeof *made_here; i++)
        if (made_here[i]) lib.object_unref(made_here[i]);
    return result == 0 ? out : replace(out, NULL);
}

int cvips_encode_float_tiff(const void *rgba, int width, int height, size_t row_bytes, int has_alpha, void **data, size_t *size) {
    enum { INTERPRETATION_SCRGB = 28 };
    if (cvips_load()) return -1;
    if (width < 1 || height < 1 || row_bytes < (size_t)width * 16) return -1;
    // Unpremultiplied into memory of our own (NaN and infinities as 0), then handed to libvips.
    size_t packed = (size_t)width * 4;
    float *pixels = malloc(packed * (size_t)height * sizeof(float));
    if (!pixels) return -1;
    for (int y = 0; y < height; y++) {
        const float *in = (const float *)((const unsigned char *)rgba + (size_t)y * row_bytes);
        float *out = pixels + (size_t)y * packed;
        for (size_t x = 0; x < packed; x += 4) {
            float alpha = has_alpha ? in[x + 3] : 1;
            if (!(alpha > 0)) alpha = 0;
            for (int c = 0; c < 3; c++) {
                float value = alpha > 0 ? in[x + c] / alpha : 0;
                out[x + c] = value == value && value - value == 0 ? value : 0;
            }
            out[x + 3] = alpha < 1 ? alpha : 1;
        }
    }
    vips *image = lib.new_from_memory(pixels, packed * (size_t)height * sizeof(float), width, height, 4, FLOAT), *next = NULL;
    if (!image) {
        free(pixels);
        return -1;
    }
    int result = 0;
    if (!has_alpha) {
        result = lib.extract_band(image, &next, 0, "n", 3, NULL);
        if (result == 0) image = replace(image, next);
    }
    if (result == 0) result = lib.copy(image, &next, "interpretation", INTERPRETATION_SCRGB, NULL);
    if (result == 0) image = replace(image, next);
    void *written = NULL;
    size_t length = 0;
    if (result == 0) result = lib.write_to_buffer(image, ".tif", &written, &length, NULL);
    lib.object_unref(image);
    free(pixels);
    if (result != 0 || !written) return -1;
    *data = malloc(length);
    if (*data) memcpy(*data, written, length);
    *size = length;
    lib.free(written);
    return *data ? 0 : -1;
}

int cvips_picture_is_float(const void *data, size_t size, int page) {
    if (cvips_load()) return -1;
    vips *image = page > 0 ? lib.new_from_buffer(data, size, "", "page", page, NULL) : lib.new_from_buffer(data, size, "", NULL);
    if (!image) return -1;
    int is_float = has_float_samples(image);
    lib.object_unref(image);
    return is_float;
}

int cvips_decode_float_rgba(const void *data, size_t size, int page, float *destination, size_t row_bytes, int width, int height) {
    if (cvips_load()) return -1;
    enum { FAIL_ON_TRUNCATED = 1 };
    vips *image = lib.new_from_buffer(data, size, "", "page", page, "fail_on", FAIL_ON_TRUNCATED, NULL);
    if (!image) return -1;
    if (lib.get_width(image) != width || lib.get_height(image) != height || !has_float_samples(image) || row_bytes < (size_t)width * 16) {
        lib.object_unref(image);
        return -1;
    }
    vips *rgba = float_rgba(image);
    if (!rgba) return -1;
    size_t count = 0;
    float *pixels = lib.write_to_memory(rgba, &count);
    lib.object_unref(rgba);
    if (!pixels || count != (size_t)width * (size_t)height * 16) {
        if (pixels) lib.free(pixels);
        return -1;
    }
    // Premultiplied, as Core Graphics keeps an image's colours with alpha.
    for (int y = 0; y < height; y++) {
        const float *in = pixels + (size_t)y * (size_t)width * 4;
        float *out = (float *)((unsigned char *)destination + (size_t)y * row_bytes);
        for (int x = 0; x < width * 4; x += 4) {
            float a = in[x + 3];
            out[x] = in[x] * a, out[x + 1] = in[x + 1] * a, out[x + 2] = in[x + 2] * a, out[x + 3] = a;
        }
    }
    lib.free(pixels);
    return 0;
}

/// A picture decoded into 8-bit premultiplied B, G, R, A; a truncated one is an error when
/// `fail_on` is VIPS_FAIL_ON_TRUNCATED (1), and decoded as far as it goes when VIPS_FAIL_ON_NONE (0).
static int decode_bgra(const void *data, size_t size, int page, void *destination, size_t row_bytes, int width, int height, int fail_on) {
    if (cvips_load()) return -1;
    vips *image = lib.new_from_buffer(data, size, "", "page", page, "fail_on", fail_on, NULL), *next = NULL;
    if (!image) return -1;
    int bands = lib.get_bands(image);
    if (lib.get_width(image) != width || lib.get_height(image) != height) goto fail;
    int has_alpha = bands == 2 || bands == 4;
    // sRGB in 8 bits, with alpha, premultiplied, in B, G, R, A order.
    if (has_float_samples(image)) {
        image = float_as_srgb(image);
        if (!image) return -1;
    } else {
        if (lib.colourspace(image, &next, INTERPRETATION_SRGB, NULL) != 0) goto fail;
        image = replace(image, next);
    }
    if (lib.get_bands(image) == 3) {
        if (lib.bandjoin_const1(image, &next, 255.0, NULL) != 0) goto fail;
        image = replace(image, next);
    }
    if (lib.get_bands(image) != 4) goto fail;
    if (lib.cast(image, &next, UCHAR, NULL) != 0) goto fail;
    image = replace(image, next);
    if (has_alpha) {
        if (lib.premultiply(image, &next, NULL) != 0) goto fail;
        image = replace(image, next);
        cvips_image *rounded = cvips_to_uchar((cvips_image *)image);
        if (!rounded) goto fail;
        image = replace(image, (vips *)rounded);
    }
    next = swapped_red_blue(image);
    if (!next) goto fail;
    image = replace(image, next);
    if (cvips_write((cvips_image *)image, destination, row_bytes) != 0) goto fail;
    lib.object_unref(image);
    return 0;
fail:
    lib.object_unref(image);
    return -1;
}

int cvips_decode_bgra(const void *data, size_t size, int page, void *destination, size_t row_bytes, int width, int height) {
    // A truncated file is an error, not a picture with its missing part filled (VIPS_FAIL_ON_TRUNCATED).
    return decode_bgra(data, size, page, destination, row_bytes, width, height, 1);
}

int cvips_decode_bgra_arrived(const void *data, size_t size, int page, void *destination, size_t row_bytes, int width, int height) {
    return decode_bgra(data, size, page, destination, row_bytes, width, height, 0);
}

int cvips_encode(const void *bgra, int width, int height, size_t row_bytes, int opaque, const char *suffix, void **data, size_t *size) {
    if (cvips_load()) return -1;
    if (width < 1 || height < 1 || row_bytes < (size_t)width * 4) return -1;
    vips *image = lib.new_from_memory(bgra, row_bytes * (size_t)height, (int)(row_bytes / 4), height, 4, UCHAR), *next = NULL;
    if (!image) return -1;
    if ((size_t)width * 4 != row_bytes) {
        if (lib.extract_area(image, &next, 0, 0, width, height, NULL) != 0) goto fail;
        image = replace(image, next);
    }
    next = swapped_red_blue(image);
    if (!next) goto fail;
    image = replace(image, next);
    if (opaque) {
        if (lib.extract_band(image, &next, 0, "n", 3, NULL) != 0) goto fail;
        image = replace(image, next);
    } else {
        if (lib.unpremultiply(image, &next, NULL) != 0) goto fail;
        image = replace(image, next);
        cvips_image *rounded = cvips_to_uchar((cvips_image *)image);
        if (!rounded) goto fail;
        image = replace(image, (vips *)rounded);
    }
    void *written = NULL;
    size_t length = 0;
    if (lib.write_to_buffer(image, suffix, &written, &length, NULL) != 0 || !written) goto fail;
    *data = malloc(length);
    if (*data) memcpy(*data, written, length);
    *size = length;
    lib.free(written);
    lib.object_unref(image);
    return *data ? 0 : -1;
fail:
    lib.object_unref(image);
    return -1;
}

int cvips_encode_animation(const void *const *frames, int count, int width, int height, size_t row_bytes, const int *delays, int loop, void **data, size_t *size) {
    if (cvips_load()) return -1;
    if (count < 1 || count > 10000 || width < 1 || height < 1 || row_bytes < (size_t)width * 4) return -1;
    vips **opaque = calloc((size_t)count, sizeof(vips *));
    if (!opaque) return -1;
    vips *joined = NULL, *labelled = NULL;
    int result = 0;
    // Each frame as opaque R, G, B, the frames one above the other (libvips's animation layout).
    for (int i = 0; i < count && result == 0; i++) {
        vips *image = lib.new_from_memory(frames[i], row_bytes * (size_t)height, (int)(row_bytes / 4), height, 4, UCHAR), *next = NULL;
        if (!image) { result = -1; break; }
        if ((size_t)width * 4 != row_bytes) {
            if (lib.extract_area(image, &next, 0, 0, width, height, NULL) != 0) { lib.object_unref(image); result = -1; break; }
            image = replace(image, next);
        }
        next = swapped_red_blue(image);
        if (!next) { lib.object_unref(image); result = -1; break; }
        image = replace(image, next);
        if (lib.extract_band(image, &next, 0, "n", 3, NULL) != 0) { lib.object_unref(image); result = -1; break; }
        opaque[i] = replace(image, next);
    }
    if (result == 0) result = lib.arrayjoin(opaque, &joined, count, "across", 1, NULL);
    // The layout and timing go on a copy's header: the pixels are shared.
    if (result == 0) result = lib.copy(joined, &labelled, NULL);
    if (result == 0) {
        lib.set_int(labelled, "page-height", height);
        lib.set_array_int(labelled, "delay", delays, count);
        lib.set_int(labelled, "loop", loop);
    }
    void *written = NULL;
    size_t length = 0;
    // libimagequant's palettes at effort 4 of 10 (libvips's default is 7): within 0.03 dB and 2% of
    // the size of the default's for video pictures, in 0.6 of the time, a palette for each frame.
    // A libvips whose GIF saver takes no effort: its default.
    if (result == 0 && (lib.write_to_buffer(labelled, ".gif[effort=4]", &written, &length, NULL) != 0 || !written)) {
        if (written) lib.free(written);
        written = NULL;
        if (lib.write_to_buffer(labelled, ".gif", &written, &length, NULL) != 0 || !written) result = -1;
    }
    if (result == 0) {
        *data = malloc(length);
        if (*data) memcpy(*data, written, length);
        *size = length;
        if (!*data) result = -1;
    }
    if (written) lib.free(written);
    for (int i = 0; i < count; i++)
        if (opaque[i]) lib.object_unref(opaque[i]);
    free(opaque);
    if (joined) lib.object_unref(joined);
    if (labelled) lib.object_unref(labelled);
    return result;
}

cvips_image *cvips_map(cvips_image *image, const float *coordinates, int width, int height) {
    vips *index = lib.new_from_memory(coordinates, (size_t)width * (size_t)height * 2 * sizeof(float), width, height, 2, FLOAT);
    if (!index) return NULL;
    vips *out = NULL;
    int result = lib.mapim(image, &out, index, NULL);
    lib.object_unref(index);
    return made(result, out);
}

cvips_image *cvips_multiply_pixels(cvips_image *image, const float *factors, int width, int height) {
    vips *by = lib.new_from_memory(factors, (size_t)width * (size_t)height * 4 * sizeof(float), width, height, 4, FLOAT);
    if (!by) return NULL;
    vips *out = NULL;
    int result = lib.multiply(image, by, &out, NULL);
    lib.object_unref(by);
    return made(result, out);
}

/// The B, G and R bands of an image (one image of three bands) and its alpha (one band).
static int split_colour(vips *image, vips **colour, vips **alpha) {
    *colour = NULL;
    *alpha = NULL;
    int result = lib.extract_band(image, colour, 0, "n", 3, NULL);
    if (result == 0) result = lib.extract_band(image, alpha, 3, NULL);
    return result;
}

/// Joins three colour bands and an alpha band back into one image.
static int join_colour(vips *colour, vips *alpha, vips **out) { return lib.bandjoin2(colour, alpha, out, NULL); }

cvips_image *cvips_colour_matrix_linear(cvips_image *image, const double matrix[9], const float to_linear[1024], const unsigned char from_linear[16384]) {
    // Colours not premultiplied and rounded to 8 bits, made linear through `to_linear` (256
    // entries of B, G, R and A, A as a fraction), mixed by `matrix` (B, G, R rows and columns),
    // scaled to 0-4095 and brought back through `from_linear` (4096 entries of B, G, R, A), then
    // premultiplied again.
    vips *forward = lib.new_from_memory(to_linear, 1024 * sizeof(float), 256, 1, 4, FLOAT);
    vips *backward = lib.new_from_memory(from_linear, 16384, 4096, 1, 4, UCHAR);
    if (!forward || !backward) {
        if (forward) lib.object_unref(forward);
        if (backward) lib.object_unref(backward);
        return NULL;
    }
    double m[16] = {matrix[0], matrix[1], matrix[2], 0, matrix[3], matrix[4], matrix[5], 0, matrix[6], matrix[7], matrix[8], 0, 0, 0, 0, 1};
    double scale[4] = {4095, 4095, 4095, 4095}, offset[4] = {0.5, 0.5, 0.5, 0.5};
    vips *plain = NULL, *linear = NULL, *mixed = NULL, *scaled = NULL, *twelve = NULL, *encoded = NULL, *out = NULL;
    vips *mm = lib.new_matrix_from_array(4, 4, m, 16);
    cvips_image *eight = NULL;
    int result = mm ? lib.unpremultiply(image, &plain, NULL) : -1;
    if (result == 0) result = (eight = cvips_to_uchar(plain)) ? 0 : -1;
    if (result == 0) result = lib.maplut(eight, &linear, forward, NULL);
    if (result == 0) result = lib.recomb(linear, &mixed, mm, NULL);
    if (result == 0) result = lib.linear(mixed, &scaled, scale, offset, 4, NULL);
    if (result == 0) result = lib.cast(scaled, &twelve, 2 /* USHORT, clipped */, NULL);
    if (result == 0) result = lib.maplut(twelve, &encoded, backward, NULL);
    if (result == 0) result = lib.premultiply(encoded, &out, NULL);
    vips *temporaries[] = {plain, eight, linear, mixed, scaled, twelve, encoded, mm, forward, backward};
    for (size_t index = 0; index < sizeof temporaries / sizeof temporaries[0]; index++)
        if (temporaries[index]) lib.object_unref(temporaries[index]);
    return made(result, out);
}

cvips_image *cvips_vibrance(cvips_image *image, double amount) {
    // On colours not premultiplied: with the mean m, the largest x and the smallest n of B, G and R,
    // and the saturation (x - n) / x, each colour c becomes m + (c - m) (1 + amount (1 - saturation)):
    // the less saturated a pixel, the more its saturation changes; greys and fully saturated colours keep theirs.
    vips *plain = NULL, *colour = NULL, *alpha = NULL, *bands[3] = {NULL, NULL, NULL}, *mean = NULL, *largest = NULL, *smallest = NULL;
    vips *negative_small = NULL, *range = NULL, *guarded = NULL, *saturation = NULL, *factor = NULL, *factor3 = NULL, *mean3 = NULL;
    vips *negative_mean3 = NULL, *offset = NULL, *scaled = NULL, *moved = NULL, *joined = NULL, *out = NULL;
    double third[3] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
    vips *averaging = lib.new_matrix_from_array(3, 1, third, 3);
    int result = averaging ? lib.unpremultiply(image, &plain, NULL) : -1;
    if (result == 0) result = split_colour(plain, &colour, &alpha);
    for (int band = 0; band < 3 && result == 0; band++) result = lib.extract_band(colour, &bands[band], band, NULL);
    if (result == 0) result = lib.recomb(colour, &mean, averaging, NULL);
    if (result == 0) result = lib.bandrank(bands, &largest, 3, "index", 2, NULL);
    if (result == 0) result = lib.bandrank(bands, &smallest, 3, "index", 0, NULL);
    double minus = -1, zero = 0, one = 1, tiny = 1e-6, factor_a = -amount, factor_b = 1 + amount;
    if (result == 0) result = lib.linear(smallest, &negative_small, &minus, &zero, 1, NULL);
    if (result == 0) result = lib.add(largest, negative_small, &range, NULL);
    // Black has no saturation: its largest is raised a hair, so that 0 / 0 is 0.
    if (result == 0) result = lib.linear(largest, &guarded, &one, &tiny, 1, NULL);
    if (result == 0) result = lib.divide(range, guarded, &saturation, NULL);
    // 1 + amount (1 - s) = (1 + amount) - amount s.
    if (result == 0) result = lib.linear(saturation, &factor, &factor_a, &factor_b, 1, NULL);
    if (result == 0) {
        vips *three[3] = {factor, factor, factor};
        result = lib.bandjoin(three, &factor3, 3, NULL);
    }
    if (result == 0) {
        vips *three[3] = {mean, mean, mean};
        result = lib.bandjoin(three, &mean3, 3, NULL);
    }
    double minus3[3] = {-1, -1, -1}, zero3[3] = {0, 0, 0};
    if (result == 0) result = lib.linear(mean3, &negative_mean3, minus3, zero3, 3, NULL);
    if (result == 0) result = lib.add(colour, negative_mean3, &offset, NULL);
    if (result == 0) result = lib.multiply(offset, factor3, &scaled, NULL);
    if (result == 0) result = lib.add(mean3, scaled, &moved, NULL);
    if (result == 0) result = join_colour(moved, alpha, &joined);
    if (result == 0) result = lib.premultiply(joined, &out, NULL);
    vips *temporaries[] = {plain, colour, alpha, bands[0], bands[1], bands[2], mean, largest, smallest, negative_small, range, guarded, saturation,
                           factor, factor3, mean3, negative_mean3, offset, scaled, moved, joined, averaging};
    for (size_t index = 0; index < sizeof temporaries / sizeof temporaries[0]; index++)
        if (temporaries[index]) lib.object_unref(temporaries[index]);
    return made(result, out);
}

cvips_image *cvips_shadows_highlights(cvips_image *image, double sigma, double shadows, double highlights) {
    // Each pixel's colours multiplied by a gain from the luma around it, b (Rec. 709 of the colours
    // not premultiplied, 0-1, blurred by `sigma` when it is above 0): 1 + shadows (1 - b)² -
    // (1 - highlights) b² / 2. Shadows lift dark surroundings (up to twice as bright), a highlight
    // amount below 1 lowers bright ones (down to half); the image's detail within them is kept.
    double luma[4] = {0.0722 / 255, 0.7152 / 255, 0.2126 / 255, 0};
    vips *plain = NULL, *colour = NULL, *alpha = NULL, *base = NULL, *blurred = NULL, *dark = NULL, *dark2 = NULL, *bright2 = NULL;
    vips *lift = NULL, *lower = NULL, *gain = NULL, *gain3 = NULL, *out = NULL;
    vips *weights = lib.new_matrix_from_array(4, 1, luma, 4);
    int result = weights ? lib.unpremultiply(image, &plain, NULL) : -1;
    if (result == 0) result = lib.recomb(plain, &base, weights, NULL);
    if (result == 0 && sigma > 0) result = lib.gaussblur(base, &blurred, sigma, "min_ampl", 0.011, NULL);
    vips *b = blurred ? blurred : base;
    double minus = -1, one = 1, zero = 0, s = shadows, h = -(1 - highlights) / 2;
    if (result == 0) result = lib.linear(b, &dark, &minus, &one, 1, NULL);
    if (result == 0) result = lib.multiply(dark, dark, &dark2, NULL);
    if (result == 0) result = lib.multiply(b, b, &bright2, NULL);
    if (result == 0) result = lib.linear(dark2, &lift, &s, &one, 1, NULL);
    if (result == 0) result = lib.linear(bright2, &lower, &h, &zero, 1, NULL);
    if (result == 0) result = lib.add(lift, lower, &gain, NULL);
    if (result == 0) {
        // Premultiplied colours take the gain as they are; alpha keeps a gain of 1.
        vips *ones = NULL;
        result = lib.linear(gain, &ones, &zero, &one, 1, NULL);
        if (result == 0) {
            vips *four[4] = {gain, gain, gain, ones};
            result = lib.bandjoin(four, &gain3, 4, NULL);
        }
        if (ones) lib.object_unref(ones);
    }
    if (result == 0) result = lib.multiply(image, gain3, &out, NULL);
    vips *temporaries[] = {plain, colour, alpha, base, blurred, dark, dark2, bright2, lift, lower, gain, gain3, weights};
    for (size_t index = 0; index < sizeof temporaries / sizeof temporaries[0]; index++)
        if (temporaries[index]) lib.object_unref(temporaries[index]);
    return made(result, out);
}
