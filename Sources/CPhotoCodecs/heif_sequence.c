// HEIF image sequences (HEICS) through a libheif that writes and reads sequence tracks (1.21 or
// newer: 1.20 brought sequences, 1.21 decoding a sequence's timeline once, past its edit list).
// Debian 12's libheif is 1.15, which has neither; a newer one is the system's when the system has
// it, otherwise the one scripts/install-deps.sh unpacks from PyPI's pillow-heif wheel (libheif with
// its own x265 and libde265) into /usr/local/lib/linuxavfoundation/libheif.
//
// That one is loaded in a link-map namespace of its own (dlmopen): Debian's libheif is often in the
// process already (libvips's HEIF module brings it, with global symbols), and the newer library's
// calls to its own exported functions would otherwise be bound to the older one's and crash.
#define _GNU_SOURCE
#include "CPhotoCodecs.h"
#include "rgba_pixels.h"
#include <dlfcn.h>
#include <glob.h>
#include <libheif/heif.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The sequence API is declared here (Debian's header, 1.15, predates it); the types and functions
// heif.h already declares are shared with it, as libheif keeps its C interface compatible.
typedef struct heif_track heif_track;
typedef struct heif_track_options heif_track_options;
enum { SEQUENCE_TRACK_PICT = 0x70696374 /* 'pict' */, SEQUENCE_PLAYS_FOR_EVER = 0, SEQUENCE_END = 13 /* heif_error_End_of_sequence */ };
static const uint32_t SEQUENCE_REPETITIONS_INFINITE = 0xFFFFFFFFu;

/// `heif_decoding_options` up to its version 8 (libheif 1.21), whose `ignore_sequence_editlist`
/// decodes each of a sequence's frames once however many times its edit list repeats them.
struct sequence_decoding_options {
    struct heif_decoding_options v4;
    struct {
        uint8_t version;
        int downsampling, upsampling;
        uint8_t only_use_preferred;
    } color_conversion_options;                       // version 5
    int (*cancel_decoding)(void *);                   // version 6
    void *color_conversion_options_ext;               // version 7
    int ignore_sequence_editlist;                     // version 8
};

#define SEQUENCE_FUNCTIONS(F)                                                                                                              \
    F(int, heif_get_version_number_major, (void))                                                                                         \
    F(int, heif_get_version_number_minor, (void))                                                                                         \
    F(struct heif_error, heif_init, (void *))                                                                                             \
    F(struct heif_context *, heif_context_alloc, (void))                                                                                  \
    F(void, heif_context_free, (struct heif_context *))                                                                                   \
    F(struct heif_error, heif_context_read_from_memory_without_copy, (struct heif_context *, const void *, size_t, const void *))       \
    F(struct heif_error, heif_context_write, (struct heif_context *, struct heif_writer *, void *))                                      \
    F(struct heif_error, heif_context_get_encoder_for_format, (struct heif_context *, enum heif_compression_format, struct heif_encoder **)) \
    F(struct heif_error, heif_encoder_set_lossy_quality, (struct heif_encoder *, int))                                                    \
    F(struct heif_error, heif_encoder_set_parameter_string, (struct heif_encoder *, const char *, const char *))                         \
    F(void, heif_encoder_release, (struct heif_encoder *))                                                                                \
    F(struct heif_error, heif_context_encode_image,                                                                                       \
      (struct heif_context *, const struct heif_image *, struct heif_encoder *, const struct heif_encoding_options *,                      \
       struct heif_image_handle **))                                                                                                      \
    F(void, heif_image_handle_release, (const struct heif_image_handle *))                                                                \
    F(struct heif_error, heif_image_create, (int, int, enum heif_colorspace, enum heif_chroma, struct heif_image **))                    \
    F(struct heif_error, heif_image_add_plane, (struct heif_image *, enum heif_channel, int, int, int))                                 \
    F(uint8_t *, heif_image_get_plane, (struct heif_image *, enum heif_channel, int *))                                                  \
    F(const uint8_t *, heif_image_get_plane_readonly, (const struct heif_image *, enum heif_channel, int *))                              \
    F(void, heif_image_release, (const struct heif_image *))                                                                              \
    F(void, heif_image_set_duration, (struct heif_image *, uint32_t))                                                                     \
    F(uint32_t, heif_image_get_duration, (const struct heif_image *))                                                                     \
    F(struct heif_decoding_options *, heif_decoding_options_alloc, (void))                                                               \
    F(void, heif_decoding_options_free, (struct heif_decoding_options *))                                                                 \
    F(void, heif_context_set_number_of_sequence_repetitions, (struct heif_context *, uint32_t))                                           \
    F(void, heif_context_set_major_brand, (struct heif_context *, uint32_t))                                                              \
    F(void, heif_context_add_compatible_brand, (struct heif_context *, uint32_t))                                                         \
    F(heif_track_options *, heif_track_options_alloc, (void))                                                                             \
    F(void, heif_track_options_release, (heif_track_options *))                                                                           \
    F(void, heif_track_options_set_timescale, (heif_track_options *, uint32_t))                                                           \
    F(struct heif_error, heif_context_add_visual_sequence_track,                                                                          \
      (struct heif_context *, uint16_t, uint16_t, uint32_t, const heif_track_options *, const void *, heif_track **))                   \
    F(struct heif_error, heif_track_encode_sequence_image, (heif_track *, const struct heif_image *, struct heif_encoder *, const void *)) \
    F(struct heif_error, heif_track_encode_end_of_sequence, (heif_track *, struct heif_encoder *))                                       \
    F(void, heif_track_release, (heif_track *))                                                                                           \
    F(int, heif_context_has_sequence, (const struct heif_context *))                                                                      \
    F(heif_track *, heif_context_get_track, (const struct heif_context *, uint32_t))                                                      \
    F(uint32_t, heif_track_get_timescale, (const heif_track *))                                                                           \
    F(uint32_t, heif_track_get_number_of_repetitions, (const heif_track *))                                                              \
    F(uint32_t, heif_track_get_track_handler_type, (const heif_track *))                                                                  \
    F(struct heif_error, heif_track_get_image_resolution, (const heif_track *, uint16_t *, uint16_t *))                                 \
    F(int, heif_track_has_alpha_channel, (const heif_track *))                                                                            \
    F(struct heif_error, heif_track_decode_next_image,                                                                                    \
      (heif_track *, struct heif_image **, enum heif_colorspace, enum heif_chroma, const struct heif_decoding_options *))

static struct {
#define POINTER(result, name, arguments) result(*name) arguments;
    SEQUENCE_FUNCTIONS(POINTER)
#undef POINTER
} heif;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *status;
static char problem[512];

/// Whether the library is new enough: sequences, and a decoding options' version 8.
static int new_enough(void *library) {
    int (*major)(void) = (int (*)(void))dlsym(library, "heif_get_version_number_major");
    int (*minor)(void) = (int (*)(void))dlsym(library, "heif_get_version_number_minor");
    return major && minor && (major() > 1 || (major() == 1 && minor() >= 21)) && dlsym(library, "heif_track_decode_next_image");
}

/// The folder a libheif of the project's own is found in.
static const char *own_folder(void) {
    const char *folder = getenv("LINUXAVFOUNDATION_LIBHEIF_DIR");
    return folder && *folder ? folder : "/usr/local/lib/linuxavfoundation/libheif";
}

static void load(void) {
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library && !new_enough(library)) {
        dlclose(library);
        library = NULL;
    }
    if (!library) {
        char pattern[600];
        snprintf(pattern, sizeof pattern, "%s/libheif*.so*", own_folder());
        glob_t found;
        if (glob(pattern, 0, NULL, &found) != 0 || found.gl_pathc == 0) {
            snprintf(problem, sizeof problem,
                     "HEIF image sequences need libheif 1.21 or newer: Debian's is older, and none was found in %s "
                     "(scripts/install-deps.sh puts one there)",
                     own_folder());
            status = problem;
            return;
        }
        library = dlmopen(LM_ID_NEWLM, found.gl_pathv[0], RTLD_NOW | RTLD_LOCAL);
        if (!library) snprintf(problem, sizeof problem, "%s could not be loaded: %s", found.gl_pathv[0], dlerror());
        globfree(&found);
        if (!library) {
            status = problem;
            return;
        }
        if (!new_enough(library)) {
            snprintf(problem, sizeof problem, "HEIF image sequences need libheif 1.21 or newer; the one in %s is older", own_folder());
            status = problem;
            return;
        }
    }
#define FIND(result, name, arguments)                                                                                 \
    if (!(*(void **)&heif.name = dlsym(library, #name))) {                                                             \
        snprintf(problem, sizeof problem, "%s is missing from libheif", #name);                                        \
        status = problem;                                                                                              \
        return;                                                                                                        \
    }
    SEQUENCE_FUNCTIONS(FIND)
#undef FIND
    heif.heif_init(NULL);
    struct heif_decoding_options *options = heif.heif_decoding_options_alloc();
    int version = options ? options->version : 0;
    if (options) heif.heif_decoding_options_free(options);
    if (version < 8) {
        snprintf(problem, sizeof problem, "HEIF image sequences need libheif's decoding options of version 8 (libheif 1.21)");
        status = problem;
    }
}

const char *cpc_heics_load(void) {
    pthread_once(&once, load);
    return status;
}

static int failed(struct heif_error error, char *message, size_t size) {
    if (message && size) snprintf(message, size, "%s", error.message && *error.message ? error.message : "libheif failed");
    return -1;
}

/// Decoding options that decode each frame once, past the edit list's repetitions.
static struct heif_decoding_options *once_through(void) {
    struct heif_decoding_options *options = heif.heif_decoding_options_alloc();
    if (options) ((struct sequence_decoding_options *)options)->ignore_sequence_editlist = 1;
    return options;
}

/// The data's first image-sequence track, in a context the caller frees.
static heif_track *open_track(const uint8_t *data, size_t size, struct heif_context **context) {
    *context = NULL;
    if (cpc_heics_load() || !data) return NULL;
    *context = heif.heif_context_alloc();
    if (!*context) return NULL;
    if (heif.heif_context_read_from_memory_without_copy(*context, data, size, NULL).code != heif_error_Ok ||
        !heif.heif_context_has_sequence(*context))
        return NULL;
    heif_track *track = heif.heif_context_get_track(*context, 0);
    if (track && heif.heif_track_get_track_handler_type(track) != SEQUENCE_TRACK_PICT) {
        heif.heif_track_release(track);
        return NULL;
    }
    return track;
}

int cpc_heics_frames(const uint8_t *data, size_t size, int max_frames, size_t max_pixels, int *count, double *delays, int capacity,
                     int *plays, int *width, int *height, int *has_alpha) {
    struct heif_context *context;
    heif_track *track = open_track(data, size, &context);
    int result = -1;
    struct heif_decoding_options *options = NULL;
    if (!track) goto done;
    uint16_t w = 0, h = 0;
    if (heif.heif_track_get_image_resolution(track, &w, &h).code != heif_error_Ok || w == 0 || h == 0 ||
        (size_t)w * (size_t)h > max_pixels)
        goto done;
    uint32_t timescale = heif.heif_track_get_timescale(track);
    uint32_t repetitions = heif.heif_track_get_number_of_repetitions(track);
    options = once_through();
    if (!options || timescale == 0) goto done;
    // How many frames, and how long each is shown, only decoding tells (libheif gives no sample count).
    int frames = 0;
    for (;;) {
        struct heif_image *image = NULL;
        struct heif_error error = heif.heif_track_decode_next_image(track, &image, heif_colorspace_undefined, heif_chroma_undefined, options);
        if (error.code == SEQUENCE_END) break;
        if (error.code != heif_error_Ok || frames >= max_frames) {
            if (image) heif.heif_image_release(image);
            goto done;
        }
        if (frames < capacity) delays[frames] = (double)heif.heif_image_get_duration(image) / timescale;
        heif.heif_image_release(image);
        frames++;
    }
    if (frames == 0) goto done;
    *count = frames;
    *plays = repetitions == SEQUENCE_REPETITIONS_INFINITE ? 0 : (int)repetitions;
    *width = w;
    *height = h;
    *has_alpha = heif.heif_track_has_alpha_channel(track);
    result = 0;
done:
    if (options) heif.heif_decoding_options_free(options);
    if (track) heif.heif_track_release(track);
    if (context) heif.heif_context_free(context);
    return result;
}

struct cpc_heics_reader {
    uint8_t *data;
    size_t size;
    struct heif_context *context;
    heif_track *track;
    struct heif_decoding_options *options;
    /// The frame the next decoding gives.
    int next;
};

/// Closes the reader's track and context, so that the next decoding starts from the first frame.
static void rewind_reader(cpc_heics_reader *reader) {
    if (reader->track) heif.heif_track_release(reader->track);
    if (reader->context) heif.heif_context_free(reader->context);
    reader->track = NULL;
    reader->context = NULL;
    reader->next = 0;
}

cpc_heics_reader *cpc_heics_reader_create(const uint8_t *data, size_t size) {
    if (cpc_heics_load() || !data || size == 0) return NULL;
    cpc_heics_reader *reader = calloc(1, sizeof *reader);
    if (!reader) return NULL;
    reader->data = malloc(size);
    reader->options = once_through();
    if (!reader->data || !reader->options) {
        cpc_heics_reader_free(reader);
        return NULL;
    }
    memcpy(reader->data, data, size);
    reader->size = size;
    return reader;
}

void cpc_heics_reader_free(cpc_heics_reader *reader) {
    if (!reader) return;
    rewind_reader(reader);
    if (reader->options) heif.heif_decoding_options_free(reader->options);
    free(reader->data);
    free(reader);
}

int cpc_heics_reader_decode_bgra(cpc_heics_reader *reader, int index, size_t max_pixels, uint8_t **pixels, int *width, int *height,
                                 int *has_alpha, char *message, size_t message_size) {
    if (!reader || index < 0) {
        snprintf(message, message_size, "no image sequence");
        return -1;
    }
    // A frame before the next one: the sequence is decoded again from its start, as each frame may
    // depend on the ones before it.
    if (index < reader->next) rewind_reader(reader);
    if (!reader->track && !(reader->track = open_track(reader->data, reader->size, &reader->context))) {
        rewind_reader(reader);
        snprintf(message, message_size, "no image sequence");
        return -1;
    }
    uint16_t w = 0, h = 0;
    if (heif.heif_track_get_image_resolution(reader->track, &w, &h).code != heif_error_Ok || w == 0 || h == 0 ||
        (size_t)w * (size_t)h > max_pixels) {
        snprintf(message, message_size, "a sequence of %dx%d pictures is too large", w, h);
        return -1;
    }
    int alpha = heif.heif_track_has_alpha_channel(reader->track);
    struct heif_image *image = NULL;
    while (reader->next <= index) {
        if (image) heif.heif_image_release(image);
        image = NULL;
        int last = reader->next == index;
        struct heif_error error = heif.heif_track_decode_next_image(reader->track, &image, last ? heif_colorspace_RGB : heif_colorspace_undefined,
                                                                    last ? heif_chroma_interleaved_RGBA : heif_chroma_undefined, reader->options);
        if (error.code != heif_error_Ok) {
            if (error.code == SEQUENCE_END) snprintf(message, message_size, "the sequence has no frame %d", index);
            else failed(error, message, message_size);
            rewind_reader(reader);
            return -1;
        }
        reader->next++;
    }
    int stride = 0;
    const uint8_t *rgba = heif.heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    uint8_t *out = malloc((size_t)w * (size_t)h * 4);
    if (!rgba || !out) {
        free(out);
        heif.heif_image_release(image);
        snprintf(message, message_size, rgba ? "out of memory" : "libheif gave no pixels");
        return -1;
    }
    cpc_rgba_to_premultiplied_bgra(rgba, stride, w, h, alpha, out);
    heif.heif_image_release(image);
    *pixels = out;
    *width = w;
    *height = h;
    *has_alpha = alpha;
    return 0;
}

/// A four-character code as libheif's brands are.
static uint32_t fourcc(const char *code) { return (uint32_t)code[0] << 24 | (uint32_t)code[1] << 16 | (uint32_t)code[2] << 8 | (uint32_t)code[3]; }

/// The file as libheif writes it, gathered in memory.
typedef struct gathered { uint8_t *bytes; size_t size; } gathered;


static struct heif_error gather(struct heif_context *context, const void *data, size_t size, void *userdata) {
    (void)context;
    gathered *out = userdata;
    out->bytes = malloc(size ? size : 1);
    if (!out->bytes) {
        struct heif_error e = { heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory" };
        return e;
    }
    memcpy(out->bytes, data, size);
    out->size = size;
    struct heif_error ok = { heif_error_Ok, heif_suberror_Unspecified, "" };
    return ok;
}

/// One BGRA frame as libheif's interleaved RGB image, shown for `duration` ticks.
static struct heif_image *rgb_image(const uint8_t *bgra, int width, int height, size_t stride, uint32_t duration) {
    struct heif_image *image = NULL;
    if (heif.heif_image_create(width, height, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image).code != heif_error_Ok) return NULL;
    int row_bytes = 0;
    uint8_t *rgb;
    if (heif.heif_image_add_plane(image, heif_channel_interleaved, width, height, 8).code != heif_error_Ok ||
        !(rgb = heif.heif_image_get_plane(image, heif_channel_interleaved, &row_bytes))) {
        heif.heif_image_release(image);
        return NULL;
    }
    for (int y = 0; y < height; y++) {
        const uint8_t *source = bgra + (size_t)y * stride;
        uint8_t *target = rgb + (size_t)y * row_bytes;
        for (int x = 0; x < width; x++, source += 4, target += 3) {
            target[0] = source[2];
            target[1] = source[1];
            target[2] = source[0];
        }
    }
    heif.heif_image_set_duration(image, duration);
    return image;
}

int cpc_heics_encode(const uint8_t *const *frames, int count, int width, int height, size_t stride, const double *delays, int plays,
                     int quality, uint8_t **data, size_t *size, char *message, size_t message_size) {
    const char *unavailable = cpc_heics_load();
    if (unavailable) {
        snprintf(message, message_size, "%s", unavailable);
        return -1;
    }
    if (!frames || count <= 0 || width <= 0 || height <= 0 || width > 65535 || height > 65535 || stride < (size_t)width * 4) {
        snprintf(message, message_size, "no frames, or frames of an impossible size");
        return -1;
    }
    // Delays are kept to the millisecond.
    enum { timescale = 1000 };
    struct heif_context *context = heif.heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    heif_track_options *options = heif.heif_track_options_alloc();
    heif_track *track = NULL;
    gathered out = { NULL, 0 };
    int result = -1;
    struct heif_error error;
    if (!context || !options) {
        snprintf(message, message_size, "out of memory");
        goto done;
    }
    if ((error = heif.heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder)).code != heif_error_Ok ||
        (error = heif.heif_encoder_set_lossy_quality(encoder, quality < 0 ? 0 : quality > 100 ? 100 : quality)).code != heif_error_Ok) {
        failed(error, message, message_size);
        goto done;
    }
    // x265's own default preset: libheif's plugin picks "slow", meant for one photo, three times the
    // time a frame here.
    if ((error = heif.heif_encoder_set_parameter_string(encoder, "preset", "medium")).code != heif_error_Ok) {
        failed(error, message, message_size);
        goto done;
    }
    heif.heif_track_options_set_timescale(options, timescale);
    heif.heif_context_set_number_of_sequence_repetitions(context, plays > 0 ? (uint32_t)plays : SEQUENCE_PLAYS_FOR_EVER);
    // The first frame is the file's still picture too, as readers of still HEIF files show it.
    struct heif_image *still = rgb_image(frames[0], width, height, stride, 0);
    struct heif_image_handle *handle = NULL;
    error = still ? heif.heif_context_encode_image(context, still, encoder, NULL, &handle)
                  : (struct heif_error){ heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory" };
    if (still) heif.heif_image_release(still);
    if (handle) heif.heif_image_handle_release(handle);
    if (error.code != heif_error_Ok) {
        failed(error, message, message_size);
        goto done;
    }
    if ((error = heif.heif_context_add_visual_sequence_track(context, (uint16_t)width, (uint16_t)height, SEQUENCE_TRACK_PICT, options, NULL,
                                                             &track))
            .code != heif_error_Ok) {
        failed(error, message, message_size);
        goto done;
    }
    for (int index = 0; index < count; index++) {
        double delay = delays ? delays[index] : 0.1;
        double ticks = delay == delay && delay > 0 ? delay * timescale + 0.5 : 1;
        struct heif_image *image = rgb_image(frames[index], width, height, stride, ticks > 4e9 ? 4000000000u : ticks < 1 ? 1 : (uint32_t)ticks);
        if (!image) {
            snprintf(message, message_size, "out of memory");
            goto done;
        }
        error = heif.heif_track_encode_sequence_image(track, image, encoder, NULL);
        heif.heif_image_release(image);
        if (error.code != heif_error_Ok) {
            failed(error, message, message_size);
            goto done;
        }
    }
    if ((error = heif.heif_track_encode_end_of_sequence(track, encoder)).code != heif_error_Ok) {
        failed(error, message, message_size);
        goto done;
    }
    // An image sequence's brand first (ISO/IEC 23008-12), and a still HEIC's beside it, so that
    // readers of still pictures take the file too.
    heif.heif_context_set_major_brand(context, fourcc("msf1"));
    const char *brands[] = { "msf1", "mif1", "heic", "hevc", "iso8" };
    for (size_t index = 0; index < sizeof brands / sizeof *brands; index++) heif.heif_context_add_compatible_brand(context, fourcc(brands[index]));
    struct heif_writer writer = { 1, gather };
    if ((error = heif.heif_context_write(context, &writer, &out)).code != heif_error_Ok || !out.bytes) {
        free(out.bytes);
        failed(error, message, message_size);
        goto done;
    }
    *data = out.bytes;
    *size = out.size;
    result = 0;
done:
    if (track) heif.heif_track_release(track);
    if (options) heif.heif_track_options_release(options);
    if (encoder) heif.heif_encoder_release(encoder);
    if (context) heif.heif_context_free(context);
    return result;
}
