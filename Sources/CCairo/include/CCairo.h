// cairo, the 2D drawing library whose model (paths filled and stroked through a transform,
// clipped, composited with Porter-Duff operators) is Quartz 2D's, and pixman, the pixel library
// under it, which converts between the byte orders Core Graphics contexts use and composes
// video layers through any affine transform (FrameProcessing's AffineBlending).
//
// Both are loaded by their sonames when the first bitmap context is made (`ccairo_load`), so a
// process that draws nothing does not load them and the X11, XCB, fontconfig and FreeType
// libraries cairo brings (some 2.5 ms at every start). The functions Core Graphics calls keep
// their names: the libraries' declarations are renamed below, and each name is an inline
// function that calls through the pointer `ccairo_load` found.
#ifndef CCAIRO_H
#define CCAIRO_H

#include <stddef.h>
#include <stdint.h>

#define cairo_clip ccairo_declared_cairo_clip
#define cairo_clip_extents ccairo_declared_cairo_clip_extents
#define cairo_close_path ccairo_declared_cairo_close_path
#define cairo_create ccairo_declared_cairo_create
#define cairo_curve_to ccairo_declared_cairo_curve_to
#define cairo_destroy ccairo_declared_cairo_destroy
#define cairo_fill ccairo_declared_cairo_fill
#define cairo_format_stride_for_width ccairo_declared_cairo_format_stride_for_width
#define cairo_get_source ccairo_declared_cairo_get_source
#define cairo_image_surface_create ccairo_declared_cairo_image_surface_create
#define cairo_image_surface_create_for_data ccairo_declared_cairo_image_surface_create_for_data
#define cairo_image_surface_get_data ccairo_declared_cairo_image_surface_get_data
#define cairo_image_surface_get_format ccairo_declared_cairo_image_surface_get_format
#define cairo_image_surface_get_stride ccairo_declared_cairo_image_surface_get_stride
#define cairo_line_to ccairo_declared_cairo_line_to
#define cairo_move_to ccairo_declared_cairo_move_to
#define cairo_new_path ccairo_declared_cairo_new_path
#define cairo_paint ccairo_declared_cairo_paint
#define cairo_paint_with_alpha ccairo_declared_cairo_paint_with_alpha
#define cairo_pattern_set_extend ccairo_declared_cairo_pattern_set_extend
#define cairo_pattern_set_filter ccairo_declared_cairo_pattern_set_filter
#define cairo_rectangle ccairo_declared_cairo_rectangle
#define cairo_restore ccairo_declared_cairo_restore
#define cairo_save ccairo_declared_cairo_save
#define cairo_scale ccairo_declared_cairo_scale
#define cairo_set_antialias ccairo_declared_cairo_set_antialias
#define cairo_set_dash ccairo_declared_cairo_set_dash
#define cairo_set_fill_rule ccairo_declared_cairo_set_fill_rule
#define cairo_set_line_cap ccairo_declared_cairo_set_line_cap
#define cairo_set_line_join ccairo_declared_cairo_set_line_join
#define cairo_set_line_width ccairo_declared_cairo_set_line_width
#define cairo_set_matrix ccairo_declared_cairo_set_matrix
#define cairo_set_miter_limit ccairo_declared_cairo_set_miter_limit
#define cairo_set_operator ccairo_declared_cairo_set_operator
#define cairo_set_source_rgba ccairo_declared_cairo_set_source_rgba
#define cairo_set_source_surface ccairo_declared_cairo_set_source_surface
#define cairo_stroke ccairo_declared_cairo_stroke
#define cairo_surface_destroy ccairo_declared_cairo_surface_destroy
#define cairo_surface_finish ccairo_declared_cairo_surface_finish
#define cairo_surface_flush ccairo_declared_cairo_surface_flush
#define cairo_surface_mark_dirty ccairo_declared_cairo_surface_mark_dirty
#define cairo_surface_status ccairo_declared_cairo_surface_status
#define cairo_translate ccairo_declared_cairo_translate
#define pixman_image_composite32 ccairo_declared_pixman_image_composite32
#define pixman_image_create_bits ccairo_declared_pixman_image_create_bits
#define pixman_image_set_filter ccairo_declared_pixman_image_set_filter
#define pixman_image_set_repeat ccairo_declared_pixman_image_set_repeat
#define pixman_image_set_transform ccairo_declared_pixman_image_set_transform
#define pixman_image_unref ccairo_declared_pixman_image_unref
// By their folders, with no pkg-config: its flags would link both libraries (see pixman-version.h).
#include <cairo/cairo.h>
#include <pixman-1/pixman.h>
#undef cairo_clip
#undef cairo_clip_extents
#undef cairo_close_path
#undef cairo_create
#undef cairo_curve_to
#undef cairo_destroy
#undef cairo_fill
#undef cairo_format_stride_for_width
#undef cairo_get_source
#undef cairo_image_surface_create
#undef cairo_image_surface_create_for_data
#undef cairo_image_surface_get_data
#undef cairo_image_surface_get_format
#undef cairo_image_surface_get_stride
#undef cairo_line_to
#undef cairo_move_to
#undef cairo_new_path
#undef cairo_paint
#undef cairo_paint_with_alpha
#undef cairo_pattern_set_extend
#undef cairo_pattern_set_filter
#undef cairo_rectangle
#undef cairo_restore
#undef cairo_save
#undef cairo_scale
#undef cairo_set_antialias
#undef cairo_set_dash
#undef cairo_set_fill_rule
#undef cairo_set_line_cap
#undef cairo_set_line_join
#undef cairo_set_line_width
#undef cairo_set_matrix
#undef cairo_set_miter_limit
#undef cairo_set_operator
#undef cairo_set_source_rgba
#undef cairo_set_source_surface
#undef cairo_stroke
#undef cairo_surface_destroy
#undef cairo_surface_finish
#undef cairo_surface_flush
#undef cairo_surface_mark_dirty
#undef cairo_surface_status
#undef cairo_translate
#undef pixman_image_composite32
#undef pixman_image_create_bits
#undef pixman_image_set_filter
#undef pixman_image_set_repeat
#undef pixman_image_set_transform
#undef pixman_image_unref

/// Every cairo and pixman function Core Graphics and the frame path's affine blending call.
#define CCAIRO_FUNCTIONS(F) \
    F(cairo_clip) \
    F(cairo_clip_extents) \
    F(cairo_close_path) \
    F(cairo_create) \
    F(cairo_curve_to) \
    F(cairo_destroy) \
    F(cairo_fill) \
    F(cairo_format_stride_for_width) \
    F(cairo_get_source) \
    F(cairo_image_surface_create) \
    F(cairo_image_surface_create_for_data) \
    F(cairo_image_surface_get_data) \
    F(cairo_image_surface_get_format) \
    F(cairo_image_surface_get_stride) \
    F(cairo_line_to) \
    F(cairo_move_to) \
    F(cairo_new_path) \
    F(cairo_paint) \
    F(cairo_paint_with_alpha) \
    F(cairo_pattern_set_extend) \
    F(cairo_pattern_set_filter) \
    F(cairo_rectangle) \
    F(cairo_restore) \
    F(cairo_save) \
    F(cairo_scale) \
    F(cairo_set_antialias) \
    F(cairo_set_dash) \
    F(cairo_set_fill_rule) \
    F(cairo_set_line_cap) \
    F(cairo_set_line_join) \
    F(cairo_set_line_width) \
    F(cairo_set_matrix) \
    F(cairo_set_miter_limit) \
    F(cairo_set_operator) \
    F(cairo_set_source_rgba) \
    F(cairo_set_source_surface) \
    F(cairo_stroke) \
    F(cairo_surface_destroy) \
    F(cairo_surface_finish) \
    F(cairo_surface_flush) \
    F(cairo_surface_mark_dirty) \
    F(cairo_surface_status) \
    F(cairo_translate) \
    F(pixman_image_composite32) \
    F(pixman_image_create_bits) \
    F(pixman_image_set_filter) \
    F(pixman_image_set_repeat) \
    F(pixman_image_set_transform) \
    F(pixman_image_unref)

/// cairo's and pixman's functions, found by `ccairo_load`.
struct ccairo_functions {
#define CCAIRO_POINTER(name) __typeof__(ccairo_declared_##name) *name;
    CCAIRO_FUNCTIONS(CCAIRO_POINTER)
#undef CCAIRO_POINTER
};
extern struct ccairo_functions ccairo;

/// Loads cairo and pixman once, from any thread; NULL when every function was found, otherwise why not.
const char *ccairo_load(void);

static inline void cairo_clip(cairo_t *cr) { ccairo.cairo_clip(cr); }
static inline void cairo_clip_extents(cairo_t *cr, double *x1, double *y1, double *x2, double *y2) { ccairo.cairo_clip_extents(cr, x1, y1, x2, y2); }
static inline void cairo_close_path(cairo_t *cr) { ccairo.cairo_close_path(cr); }
static inline cairo_t *cairo_create(cairo_surface_t *target) { return ccairo.cairo_create(target); }
static inline void cairo_curve_to(cairo_t *cr, double x1, double y1, double x2, double y2, double x3, double y3) { ccairo.cairo_curve_to(cr, x1, y1, x2, y2, x3, y3); }
static inline void cairo_destroy(cairo_t *cr) { ccairo.cairo_destroy(cr); }
static inline void cairo_fill(cairo_t *cr) { ccairo.cairo_fill(cr); }
static inline int cairo_format_stride_for_width(cairo_format_t format, int width) { return ccairo.cairo_format_stride_for_width(format, width); }
static inline cairo_pattern_t *cairo_get_source(cairo_t *cr) { return ccairo.cairo_get_source(cr); }
static inline cairo_surface_t *cairo_image_surface_create(cairo_format_t format, int width, int height) { return ccairo.cairo_image_surface_create(format, width, height); }
static inline cairo_surface_t *cairo_image_surface_create_for_data(unsigned char *data, cairo_format_t format, int width, int height, int stride) { return ccairo.cairo_image_surface_create_for_data(data, format, width, height, stride); }
static inline unsigned char *cairo_image_surface_get_data(cairo_surface_t *surface) { return ccairo.cairo_image_surface_get_data(surface); }
static inline cairo_format_t cairo_image_surface_get_format(cairo_surface_t *surface) { return ccairo.cairo_image_surface_get_format(surface); }
static inline int cairo_image_surface_get_stride(cairo_surface_t *surface) { return ccairo.cairo_image_surface_get_stride(surface); }
static inline void cairo_line_to(cairo_t *cr, double x, double y) { ccairo.cairo_line_to(cr, x, y); }
static inline void cairo_move_to(cairo_t *cr, double x, double y) { ccairo.cairo_move_to(cr, x, y); }
static inline void cairo_new_path(cairo_t *cr) { ccairo.cairo_new_path(cr); }
static inline void cairo_paint(cairo_t *cr) { ccairo.cairo_paint(cr); }
static inline void cairo_paint_with_alpha(cairo_t *cr, double alpha) { ccairo.cairo_paint_with_alpha(cr, alpha); }
static inline void cairo_pattern_set_extend(cairo_pattern_t *pattern, cairo_extend_t extend) { ccairo.cairo_pattern_set_extend(pattern, extend); }
static inline void cairo_pattern_set_filter(cairo_pattern_t *pattern, cairo_filter_t filter) { ccairo.cairo_pattern_set_filter(pattern, filter); }
static inline void cairo_rectangle(cairo_t *cr, double x, double y, double width, double height) { ccairo.cairo_rectangle(cr, x, y, width, height); }
static inline void cairo_restore(cairo_t *cr) { ccairo.cairo_restore(cr); }
static inline void cairo_save(cairo_t *cr) { ccairo.cairo_save(cr); }
static inline void cairo_scale(cairo_t *cr, double sx, double sy) { ccairo.cairo_scale(cr, sx, sy); }
static inline void cairo_set_antialias(cairo_t *cr, cairo_antialias_t antialias) { ccairo.cairo_set_antialias(cr, antialias); }
static inline void cairo_set_dash(cairo_t *cr, const double *dashes, int num_dashes, double offset) { ccairo.cairo_set_dash(cr, dashes, num_dashes, offset); }
static inline void cairo_set_fill_rule(cairo_t *cr, cairo_fill_rule_t fill_rule) { ccairo.cairo_set_fill_rule(cr, fill_rule); }
static inline void cairo_set_line_cap(cairo_t *cr, cairo_line_cap_t line_cap) { ccairo.cairo_set_line_cap(cr, line_cap); }
static inline void cairo_set_line_join(cairo_t *cr, cairo_line_join_t line_join) { ccairo.cairo_set_line_join(cr, line_join); }
static inline void cairo_set_line_width(cairo_t *cr, double width) { ccairo.cairo_set_line_width(cr, width); }
static inline void cairo_set_matrix(cairo_t *cr, const cairo_matrix_t *matrix) { ccairo.cairo_set_matrix(cr, matrix); }
static inline void cairo_set_miter_limit(cairo_t *cr, double limit) { ccairo.cairo_set_miter_limit(cr, limit); }
static inline void cairo_set_operator(cairo_t *cr, cairo_operator_t op) { ccairo.cairo_set_operator(cr, op); }
static inline void cairo_set_source_rgba(cairo_t *cr, double red, double green, double blue, double alpha) { ccairo.cairo_set_source_rgba(cr, red, green, blue, alpha); }
static inline void cairo_set_source_surface(cairo_t *cr, cairo_surface_t *surface, double x, double y) { ccairo.cairo_set_source_surface(cr, surface, x, y); }
static inline void cairo_stroke(cairo_t *cr) { ccairo.cairo_stroke(cr); }
static inline void cairo_surface_destroy(cairo_surface_t *surface) { ccairo.cairo_surface_destroy(surface); }
static inline void cairo_surface_finish(cairo_surface_t *surface) { ccairo.cairo_surface_finish(surface); }
static inline void cairo_surface_flush(cairo_surface_t *surface) { ccairo.cairo_surface_flush(surface); }
static inline void cairo_surface_mark_dirty(cairo_surface_t *surface) { ccairo.cairo_surface_mark_dirty(surface); }
static inline cairo_status_t cairo_surface_status(cairo_surface_t *surface) { return ccairo.cairo_surface_status(surface); }
static inline void cairo_translate(cairo_t *cr, double tx, double ty) { ccairo.cairo_translate(cr, tx, ty); }
static inline void pixman_image_composite32(pixman_op_t op, pixman_image_t *src, pixman_image_t *mask, pixman_image_t *dest, int32_t src_x, int32_t src_y, int32_t mask_x, int32_t mask_y, int32_t dest_x, int32_t dest_y, int32_t width, int32_t height) { ccairo.pixman_image_composite32(op, src, mask, dest, src_x, src_y, mask_x, mask_y, dest_x, dest_y, width, height); }
static inline pixman_image_t *pixman_image_create_bits(pixman_format_code_t format, int width, int height, uint32_t *bits, int rowstride_bytes) { return ccairo.pixman_image_create_bits(format, width, height, bits, rowstride_bytes); }
static inline pixman_bool_t pixman_image_set_filter(pixman_image_t *image, pixman_filter_t filter, const pixman_fixed_t *filter_params, int n_filter_params) { return ccairo.pixman_image_set_filter(image, filter, filter_params, n_filter_params); }
static inline void pixman_image_set_repeat(pixman_image_t *image, pixman_repeat_t repeat) { ccairo.pixman_image_set_repeat(image, repeat); }
static inline pixman_bool_t pixman_image_set_transform(pixman_image_t *image, const pixman_transform_t *transform) { return ccairo.pixman_image_set_transform(image, transform); }
static inline pixman_bool_t pixman_image_unref(pixman_image_t *image) { return ccairo.pixman_image_unref(image); }

/// Converts 32-bit float (or, when `half`, 16-bit IEEE half float) R, G, B, A pixels
/// (premultiplied; `has_alpha` 0 for an image whose alpha is skipped) into cairo's premultiplied
/// ARGB32, each colour clamped to 0-1 and, when `linear`, encoded with sRGB's transfer function, as
/// a bitmap context of 8-bit sRGB holds it.
void ccairo_float_to_argb32(
    const void *pixels, int half, size_t row_bytes, int width, int height, int has_alpha, int linear, uint32_t *out, size_t out_row_bytes);

#endif
