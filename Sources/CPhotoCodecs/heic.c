// HEIC through libheif (Debian's 1.15, whose HEVC encoder is its x265 plugin).
#include "CPhotoCodecs.h"
#include "heif_library.h"
#include "rgba_pixels.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cpc_heic_can_encode(void) { return cpc_heif_load() == NULL && heif_have_encoder_for_format(heif_compression_HEVC); }

/// The file as libheif writes it, gathered in memory.
typedef struct output { uint8_t *bytes; size_t size; int failed; } output;

static struct heif_error write_bytes(struct heif_context *context, const void *data, size_t size, void *userdata) {
    (void)context;
    output *out = userdata;
    uint8_t *bytes = malloc(size ? size : 1);
    if (!bytes) {
        out->failed = 1;
        struct heif_error e = { heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory" };
        return e;
    }
    memcpy(bytes, data, size);
    out->bytes = bytes;
    out->size = size;
    struct heif_error ok = { heif_error_Ok, heif_suberror_Unspecified, "" };
    return ok;
}

static int fail(struct heif_error error, char *message, size_t message_size) {
    if (message && message_size) snprintf(message, message_size, "%s", error.message ? error.message : "libheif failed");
    return -1;
}

/// Copies one plane of `rows` rows of `width` bytes into the image's channel.
static int copy_plane(struct heif_image *image, enum heif_channel channel, const uint8_t *source, int stride, int width, int rows) {
    int destination_stride = 0;
    uint8_t *destination = heif_image_get_plane(image, channel, &destination_stride);
    if (!destination || !source) return -1;
    for (int row = 0; row < rows; row++) memcpy(destination + (size_t)row * destination_stride, source + (size_t)row * stride, (size_t)width);
    return 0;
}

int cpc_heic_encode(const cpc_heic_picture *p, int quality, const char *preset,
                    const uint8_t *exif, size_t exif_size, int thumbnail_size,
                    uint8_t **data, size_t *size, char *message, size_t message_size) {
    if (!p || p->width <= 0 || p->height <= 0 || !data || !size) {
        struct heif_error e = { heif_error_Usage_error, heif_suberror_Unspecified, "invalid picture" };
        return fail(e, message, message_size);
    }
    const char *problem = cpc_heif_load();
    if (problem) {
        snprintf(message, message_size, "%s", problem);
        return -1;
    }
    struct heif_context *context = heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    struct heif_image_handle *handle = NULL;
    struct heif_image_handle *thumbnail = NULL;
    struct heif_color_profile_nclx *nclx = NULL;
    struct heif_error error = { heif_error_Ok, heif_suberror_Unspecified, "" };
    output out = { NULL, 0, 0 };
    int status = -1;
    int chroma_width = (p->width + 1) / 2, chroma_height = (p->height + 1) / 2;

    if (!context) { error.code = heif_error_Memory_allocation_error; error.message = "out of memory"; goto done; }
    error = heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder);
    if (error.code) goto done;
    error = heif_encoder_set_lossy_quality(encoder, quality);
    if (error.code) goto done;
    if (preset) {
        error = heif_encoder_set_parameter_string(encoder, "preset", preset);
        if (error.code) goto done;
    }
    error = heif_image_create(p->width, p->height, heif_colorspace_YCbCr, heif_chroma_420, &image);
    if (error.code) goto done;
    if ((error = heif_image_add_plane(image, heif_channel_Y, p->width, p->height, 8)).code ||
        (error = heif_image_add_plane(image, heif_channel_Cb, chroma_width, chroma_height, 8)).code ||
        (error = heif_image_add_plane(image, heif_channel_Cr, chroma_width, chroma_height, 8)).code) goto done;
    if (copy_plane(image, heif_channel_Y, p->y, p->y_stride, p->width, p->height) ||
        copy_plane(image, heif_channel_Cb, p->cb, p->cb_stride, chroma_width, chroma_height) ||
        copy_plane(image, heif_channel_Cr, p->cr, p->cr_stride, chroma_width, chroma_height)) {
        error.code = heif_error_Usage_error; error.message = "a plane is missing"; goto done;
    }
    nclx = heif_nclx_color_profile_alloc();
    if (nclx) {
        nclx->full_range_flag = p->full_range ? 1 : 0;
        if (p->matrix) nclx->matrix_coefficients = (enum heif_matrix_coefficients)p->matrix;
        if (p->primaries) nclx->color_primaries = (enum heif_color_primaries)p->primaries;
        if (p->transfer) nclx->transfer_characteristics = (enum heif_transfer_characteristics)p->transfer;
        error = heif_image_set_nclx_color_profile(image, nclx);
        if (error.code) goto done;
    }
    error = heif_context_encode_image(context, image, encoder, NULL, &handle);
    if (error.code) goto done;
    if (thumbnail_size > 0) {
        error = heif_context_encode_thumbnail(context, image, handle, encoder, NULL, thumbnail_size, &thumbnail);
        if (error.code) goto done;
    }
    if (exif && exif_size) {
        error = heif_context_add_exif_metadata(context, handle, exif, (int)exif_size);
        if (error.code) goto done;
    }
    struct heif_writer writer = { 1, write_bytes };
    error = heif_context_write(context, &writer, &out);
    if (error.code || out.failed || !out.bytes) goto done;
    *data = out.bytes;
    *size = out.size;
    out.bytes = NULL;
    status = 0;
done:
    if (status != 0) fail(error, message, message_size);
    free(out.bytes);
    if (nclx) heif_nclx_color_profile_free(nclx);
    if (thumbnail) heif_image_handle_release(thumbnail);
    if (handle) heif_image_handle_release(handle);
    if (image) heif_image_release(image);
    if (encoder) heif_encoder_release(encoder);
    if (context) heif_context_free(context);
    return status;
}

/// Loads libheif and reads a HEIC's primary picture: 0 with the context and handle the caller
/// releases, or -1 with why in `message` and nothing to release.
static int open_primary(const uint8_t *data, size_t size, struct heif_context **context, struct heif_image_handle **handle, char *message,
                        size_t message_size) {
    *context = NULL;
    *handle = NULL;
    const char *problem = cpc_heif_load();
    if (problem) {
        snprintf(message, message_size, "%s", problem);
        return -1;
    }
    if (!(*context = heif_context_alloc())) {
        snprintf(message, message_size, "out of memory");
        return -1;
    }
    struct heif_error error = heif_context_read_from_memory_without_copy(*context, data, size, NULL);
    if (error.code == heif_error_Ok) error = heif_context_get_primary_image_handle(*context, handle);
    if (error.code == heif_error_Ok) return 0;
    fail(error, message, message_size);
    heif_context_free(*context);
    *context = NULL;
    return -1;
}

int cpc_heic_decode_bgra(const uint8_t *data, size_t size, size_t max_pixels, uint8_t **pixels, int *width, int *height, int *has_alpha,
                         char *message, size_t message_size) {
    struct heif_context *context;
    struct heif_image_handle *handle;
    if (open_primary(data, size, &context, &handle, message, message_size) != 0) return -1;
    struct heif_image *image = NULL;
    int status = -1;
    struct heif_error error;
    int w = heif_image_handle_get_width(handle), h = heif_image_handle_get_height(handle);
    if (w <= 0 || h <= 0 || (size_t)w * (size_t)h > max_pixels) {
        snprintf(message, message_size, "a picture of %dx%d pixels is too large", w, h);
        goto done;
    }
    int alpha = heif_image_handle_has_alpha_channel(handle);
    // libheif applies the file's rotation and mirroring: the picture comes upright.
    error = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, NULL);
    if (error.code != heif_error_Ok) { fail(error, message, message_size); goto done; }
    int stride = 0;
    const uint8_t *rgba = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    uint8_t *out = malloc((size_t)w * (size_t)h * 4);
    if (!rgba || !out) {
        free(out);
        snprintf(message, message_size, rgba ? "out of memory" : "libheif gave no pixels");
        goto done;
    }
    cpc_rgba_to_premultiplied_bgra(rgba, stride, w, h, alpha, out);
    *pixels = out;
    *width = w;
    *height = h;
    *has_alpha = alpha;
    status = 0;
done:
    if (image) heif_image_release(image);
    if (handle) heif_image_handle_release(handle);
    heif_context_free(context);
    return status;
}

int cpc_heic_info(const uint8_t *data, size_t size, int *width, int *height, int *has_alpha) {
    if (cpc_heif_load()) return -1;
    struct heif_context *context = heif_context_alloc();
    if (!context) return -1;
    struct heif_image_handle *handle = NULL;
    int status = -1;
    if (heif_context_read_from_memory_without_copy(context, data, size, NULL).code == heif_error_Ok &&
        heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok) {
        *width = heif_image_handle_get_width(handle);
        *height = heif_image_handle_get_height(handle);
        *has_alpha = heif_image_handle_has_alpha_channel(handle);
        status = *width > 0 && *height > 0 ? 0 : -1;
    }
    if (handle) heif_image_handle_release(handle);
    heif_context_free(context);
    return status;
}

int cpc_heic_exif(const uint8_t *data, size_t size, uint8_t **exif, size_t *exif_size) {
    *exif = NULL;
    *exif_size = 0;
    if (cpc_heif_load()) return -1;
    struct heif_context *context = heif_context_alloc();
    if (!context) return -1;
    struct heif_image_handle *handle = NULL;
    int status = -1;
    heif_item_id id = 0;
    if (heif_context_read_from_memory_without_copy(context, data, size, NULL).code == heif_error_Ok &&
        heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok &&
        heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) == 1) {
        size_t length = heif_image_handle_get_metadata_size(handle, id);
        uint8_t *block = length >= 10 && length < (64u << 20) ? malloc(length) : NULL;
        if (block && heif_image_handle_get_metadata(handle, id, block).code == heif_error_Ok) {
            // The block starts with the big-endian offset of the TIFF header after those four bytes;
            // libexif reads "Exif\0\0" and the TIFF structure.
            uint32_t offset = (uint32_t)block[0] << 24 | (uint32_t)block[1] << 16 | (uint32_t)block[2] << 8 | block[3];
            if ((size_t)offset + 4 < length) {
                size_t tiff = length - 4 - offset;
                *exif = malloc(tiff + 6);
                if (*exif) {
                    memcpy(*exif, "Exif\0\0", 6);
                    memcpy(*exif + 6, block + 4 + offset, tiff);
                    *exif_size = tiff + 6;
                    status = 0;
                }
            }
        }
        free(block);
    }
    if (handle) heif_image_handle_release(handle);
    heif_context_free(context);
    return status;
}

int cpc_heic_depth(const uint8_t *data, size_t size, size_t max_pixels, float **values, int *width, int *height, int *representation,
                   int *has_range, double *low, double *high, char *message, size_t message_size) {
    *values = NULL;
    *has_range = 0;
    struct heif_context *context;
    struct heif_image_handle *handle, *depth = NULL;
    if (open_primary(data, size, &context, &handle, message, message_size) != 0) return -1;
    struct heif_image *image = NULL;
    const struct heif_depth_representation_info *info = NULL;
    int status = -1;
    heif_item_id id = 0;
    struct heif_error error;
    if (!heif_image_handle_has_depth_image(handle) || heif_image_handle_get_list_of_depth_image_IDs(handle, &id, 1) != 1) {
        status = 1;
        goto done;
    }
    error = heif_image_handle_get_depth_image_handle(handle, id, &depth);
    if (error.code != heif_error_Ok) { fail(error, message, message_size); goto done; }
    int w = heif_image_handle_get_width(depth), h = heif_image_handle_get_height(depth);
    if (w <= 0 || h <= 0 || (size_t)w * (size_t)h > max_pixels) {
        snprintf(message, message_size, "a depth image of %dx%d pixels is too large", w, h);
        goto done;
    }
    error = heif_decode_image(depth, &image, heif_colorspace_monochrome, heif_chroma_monochrome, NULL);
    if (error.code != heif_error_Ok) { fail(error, message, message_size); goto done; }
    int stride = 0, bits = heif_image_get_bits_per_pixel_range(image, heif_channel_Y);
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_Y, &stride);
    float *out = malloc((size_t)w * (size_t)h * sizeof(float));
    if (!plane || !out || bits < 1 || bits > 16) {
        free(out);
        snprintf(message, message_size, !plane ? "libheif gave no depth values" : out ? "a depth image of %d bits" : "out of memory", bits);
        goto done;
    }
    // Above 8 bits a value takes two bytes, in the machine's order.
    float scale = 1.0f / (float)((1u << bits) - 1);
    for (int y = 0; y < h; y++) {
        const uint8_t *row = plane + (size_t)y * stride;
        for (int x = 0; x < w; x++) {
            unsigned v = bits > 8 ? ((const uint16_t *)row)[x] : row[x];
            out[(size_t)y * w + x] = (float)v * scale;
        }
    }
    *values = out;
    *width = w;
    *height = h;
    *representation = CPC_DEPTH_INVERSE_Z;
    if (heif_image_handle_get_depth_image_representation_info(handle, id, &info) && info) {
        *representation = (int)info->depth_representation_type;
        int disparity = *representation == CPC_DEPTH_DISPARITY || *representation == CPC_DEPTH_NONUNIFORM_DISPARITY;
        if (disparity && info->has_d_min && info->has_d_max) {
            *low = info->d_min;
            *high = info->d_max;
            *has_range = 1;
        } else if (!disparity && info->has_z_near && info->has_z_far) {
            *low = info->z_near;
            *high = info->z_far;
            *has_range = 1;
        }
    }
    status = 0;
done:
    if (info) heif_depth_representation_info_free(info);
    if (image) heif_image_release(image);
    if (depth) heif_image_handle_release(depth);
    if (handle) heif_image_handle_release(handle);
    heif_context_free(context);
    return status;
}
