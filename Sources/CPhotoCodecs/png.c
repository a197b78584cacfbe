// PNG through libpng, gathered in memory, with an eXIf chunk.
#include "CPhotoCodecs.h"
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct output { uint8_t *bytes; size_t size, capacity; int failed; } output;

static void write_bytes(png_structp png, png_bytep data, png_size_t length) {
    output *out = png_get_io_ptr(png);
    if (out->failed) return;
    if (out->size + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 65536;
        while (capacity < out->size + length) capacity *= 2;
        uint8_t *bytes = realloc(out->bytes, capacity);
        if (!bytes) { out->failed = 1; png_error(png, "out of memory"); }
        out->bytes = bytes;
        out->capacity = capacity;
    }
    memcpy(out->bytes + out->size, data, length);
    out->size += length;
}

static void flush(png_structp png) { (void)png; }
static void quiet(png_structp png, png_const_charp message) { (void)png; (void)message; }
static void error_jump(png_structp png, png_const_charp message) { (void)message; png_longjmp(png, 1); }

int cpc_png_encode_bgra(const uint8_t *pixels, int width, int height, int stride, int opaque,
                        const uint8_t *exif, size_t exif_size, uint8_t **data, size_t *size) {
    if (!pixels || width <= 0 || height <= 0 || stride < width * 4 || !data || !size) return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, error_jump, quiet);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    // volatile: read after a longjmp back here.
    output * volatile out = calloc(1, sizeof(output));
    if (!info || !out) { png_destroy_write_struct(&png, info ? &info : NULL); free(out); return -1; }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(out->bytes);
        free(out);
        return -1;
    }
    png_set_write_fn(png, out, write_bytes, flush);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    // Photos: fast compression; the filters still do most of the work.
    png_set_compression_level(png, 3);
    if (exif && exif_size > 0 && exif_size < 0x7fffffff) png_set_eXIf_1(png, info, (png_uint_32)exif_size, (png_bytep)exif);
    png_write_info(png, info);
    png_set_bgr(png);
    if (opaque) png_set_filler(png, 0, PNG_FILLER_AFTER);
    for (int row = 0; row < height; row++) png_write_row(png, (png_const_bytep)(pixels + (size_t)row * stride));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *data = out->bytes;
    *size = out->size;
    free(out);
    return 0;
}

// Reads a PNG's header and decodes it as `format` into a new buffer, refusing from the header one
// of more than `max_pixels` pixels before a byte is allocated for them; transparent parts are
// composed over `background` when it is given. 0, or -1 with the reason in `message`.
static int cpc_png_decode(const uint8_t *data, size_t size, size_t max_pixels, uint32_t format, const png_color *background,
                          uint8_t **pixels, int *width, int *height, int *has_alpha, char *message, size_t message_size) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    *pixels = NULL;
    if (!png_image_begin_read_from_memory(&image, data, size)) {
        snprintf(message, message_size, "%s", image.message);
        return -1;
    }
    if (has_alpha) *has_alpha = (image.format & PNG_FORMAT_FLAG_ALPHA) != 0;
    image.format = format;
    if (image.width == 0 || image.height == 0 || image.width > 65535 || image.height > 65535
        || (size_t)image.width * image.height > max_pixels) {
        png_image_free(&image);
        snprintf(message, message_size, "a PNG of %ux%u pixels, more than the %zu a picture may have", image.width, image.height, max_pixels);
        return -1;
    }
    uint8_t *buffer = malloc(PNG_IMAGE_SIZE(image));
    if (!buffer) {
        png_image_free(&image);
        snprintf(message, message_size, "out of memory");
        return -1;
    }
    if (!png_image_finish_read(&image, background, buffer, 0, NULL)) {
        snprintf(message, message_size, "%s", image.message);
        free(buffer);
        return -1;
    }
    *pixels = buffer;
    *width = (int)image.width;
    *height = (int)image.height;
    return 0;
}

int cpc_png_decode_gray(const uint8_t *data, size_t size, size_t max_pixels, uint8_t **pixels, int *width, int *height,
                        char *message, size_t message_size) {
    // Transparent parts are composed over white, as paper is.
    png_color white = {255, 255, 255};
    return cpc_png_decode(data, size, max_pixels, PNG_FORMAT_GRAY, &white, pixels, width, height, NULL, message, message_size);
}

// Multiplies BGRA pixels' colours by their alpha, as Core Graphics draws them.
static void premultiply(uint8_t *buffer, size_t count) {
    for (size_t i = 0; i < count; i++) {
        uint8_t *p = buffer + i * 4;
        unsigned a = p[3];
        if (a == 255) continue;
        p[0] = (uint8_t)((p[0] * a + 127) / 255);
        p[1] = (uint8_t)((p[1] * a + 127) / 255);
        p[2] = (uint8_t)((p[2] * a + 127) / 255);
    }
}

int cpc_png_decode_bgra(const uint8_t *data, size_t size, size_t max_pixels, uint8_t **pixels, int *width, int *height, int *has_alpha,
                        char *message, size_t message_size) {
    if (cpc_png_decode(data, size, max_pixels, PNG_FORMAT_BGRA, NULL, pixels, width, height, has_alpha, message, message_size) != 0) return -1;
    if (*has_alpha) premultiply(*pixels, (size_t)*width * (size_t)*height);
    return 0;
}

// A PNG read progressively, as its data arrives: the rows (or, interlaced, the passes' pixels)
// that have come, in a transparent picture allocated once the header has.
typedef struct {
    size_t max_pixels;
    uint8_t *buffer;
    png_uint_32 width, height;
    int has_alpha, complete;
    char *message;
    size_t message_size;
} arrival;

static void arrival_error(png_structp png, png_const_charp text) {
    arrival *a = png_get_error_ptr(png);
    if (a->message[0] == 0) snprintf(a->message, a->message_size, "%s", text);
    png_longjmp(png, 1);
}

static void arrival_header(png_structp png, png_infop info) {
    arrival *a = png_get_progressive_ptr(png);
    png_uint_32 width = 0, height = 0;
    int depth = 0, color = 0;
    png_get_IHDR(png, info, &width, &height, &depth, &color, NULL, NULL, NULL);
    if (width == 0 || height == 0 || width > 65535 || height > 65535 || (size_t)width * height > a->max_pixels) {
        snprintf(a->message, a->message_size, "a PNG of %ux%u pixels, more than the %zu a picture may have", width, height, a->max_pixels);
        png_error(png, "too large");
    }
    int transparent = (color & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS);
    a->has_alpha = transparent;
    // Any PNG as 8-bit B, G, R, A: palettes and small greys expanded, 16 bits cut to 8.
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_bgr(png);
    if (!transparent) png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    a->buffer = calloc((size_t)width * height, 4);
    if (!a->buffer) png_error(png, "out of memory");
    a->width = width;
    a->height = height;
}

static void arrival_row(png_structp png, png_bytep row, png_uint_32 number, int pass) {
    (void)pass;
    arrival *a = png_get_progressive_ptr(png);
    if (row && number < a->height) png_progressive_combine_row(png, a->buffer + (size_t)number * a->width * 4, row);
}

static void arrival_end(png_structp png, png_infop info) {
    (void)info;
    arrival *a = png_get_progressive_ptr(png);
    a->complete = 1;
}

int cpc_png_decode_arrived_bgra(const uint8_t *data, size_t size, size_t max_pixels, uint8_t **pixels, int *width, int *height,
                                int *has_alpha, char *message, size_t message_size) {
    *pixels = NULL;
    if (message_size > 0) message[0] = 0;
    arrival a = {.max_pixels = max_pixels, .message = message, .message_size = message_size};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &a, arrival_error, quiet);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        free(a.buffer);
        return -1;
    }
    png_set_progressive_read_fn(png, &a, arrival_header, arrival_row, arrival_end);
    png_process_data(png, info, (png_bytep)data, size);
    png_destroy_read_struct(&png, &info, NULL);
    if (!a.buffer) {
        snprintf(message, message_size, "the PNG's header has not all arrived");
        return -1;
    }
    premultiply(a.buffer, (size_t)a.width * a.height);
    *pixels = a.buffer;
    *width = (int)a.width;
    *height = (int)a.height;
    // What has not arrived is transparent.
    *has_alpha = a.has_alpha || !a.complete;
    return 0;
}

