// A small C interface over the libraries photos are written with (Debian: libheif-dev,
// libexif-dev, libpng-dev): HEIC through libheif and x265, PNG through libpng, and EXIF
// blocks through libexif. Every function reports failure by its return value; none aborts.
#ifndef CPHOTOCODECS_H
#define CPHOTOCODECS_H
#include <stddef.h>
#include <stdint.h>

// MARK: EXIF

/// An EXIF block being built.
typedef struct cpc_exif cpc_exif;

/// The image file directories a tag can go into.
typedef enum cpc_exif_ifd { CPC_IFD_0 = 0, CPC_IFD_EXIF = 2, CPC_IFD_GPS = 3 } cpc_exif_ifd;

/// A new, empty EXIF block in Intel byte order; NULL when out of memory.
cpc_exif *cpc_exif_new(void);
void cpc_exif_free(cpc_exif *exif);
/// Sets a tag to an ASCII string; 0 on success.
int cpc_exif_set_ascii(cpc_exif *exif, cpc_exif_ifd ifd, uint16_t tag, const char *value);
/// Sets a tag to `count` unsigned shorts; 0 on success.
int cpc_exif_set_shorts(cpc_exif *exif, cpc_exif_ifd ifd, uint16_t tag, const uint16_t *values, unsigned count);
/// Sets a tag to an unsigned long; 0 on success.
int cpc_exif_set_long(cpc_exif *exif, cpc_exif_ifd ifd, uint16_t tag, uint32_t value);
/// Sets a tag to `count` unsigned rationals (numerator, denominator pairs); 0 on success.
int cpc_exif_set_rationals(cpc_exif *exif, cpc_exif_ifd ifd, uint16_t tag, const uint32_t *pairs, unsigned count);
/// Sets a tag to a signed rational; 0 on success.
int cpc_exif_set_srational(cpc_exif *exif, cpc_exif_ifd ifd, uint16_t tag, int32_t numerator, int32_t denominator);
/// Sets a tag to `count` bytes (EXIF BYTE, or UNDEFINED when `undefined`); 0 on success.
int cpc_exif_set_bytes(cpc_exif *exif, cpc_exif_ifd ifd, uint16_t tag, const uint8_t *values, unsigned count, int undefined);
/// Embeds a JPEG thumbnail (IFD1) in the block; the bytes are copied. 0 on success.
int cpc_exif_set_thumbnail(cpc_exif *exif, const uint8_t *jpeg, size_t size);
/// The block as it goes into a file: "Exif\0\0" and a TIFF structure. Free with free(); 0 on success.
int cpc_exif_save(cpc_exif *exif, uint8_t **data, size_t *size);

// MARK: HEIC

/// Whether this libheif can encode HEVC (an encoder plugin such as x265 is present).
int cpc_heic_can_encode(void);

/// One picture to encode: 8-bit Y'CbCr 4:2:0 in three planes.
typedef struct cpc_heic_picture {
    int width, height;
    const uint8_t *y, *cb, *cr;
    int y_stride, cb_stride, cr_stride;
    int full_range;               ///< whether Y'CbCr uses 0...255
    int matrix;                   ///< ITU-T H.273 matrix coefficients (1 BT.709, 6 BT.601)
    int primaries, transfer;      ///< ITU-T H.273 colour primaries and transfer characteristics
} cpc_heic_picture;

/// Encodes `picture` as a HEIC file at `quality` (0...100) with x265's `preset`, with an EXIF
/// block (or none when `exif` is NULL) and, when `thumbnail_size` is not 0, a thumbnail whose
/// longer side is that many pixels. The file is returned in `data` (free with free()).
/// On failure returns nonzero and puts libheif's message in `error` (size `error_size`).
int cpc_heic_encode(const cpc_heic_picture *picture, int quality, const char *preset,
                    const uint8_t *exif, size_t exif_size, int thumbnail_size,
                    uint8_t **data, size_t *size, char *error, size_t error_size);

/// Decodes a HEIC (or other HEIF) file's primary picture into premultiplied BGRA (`*pixels`, width x 4
/// bytes a row, freed by the caller with free), upright (the file's rotation and mirroring applied),
/// refusing one of more than `max_pixels` pixels; `*has_alpha` says whether it has an alpha plane.
/// 0 on success; otherwise libheif's message, or why it was refused, is in `message`.
int cpc_heic_decode_bgra(const uint8_t *data, size_t size, size_t max_pixels, uint8_t **pixels, int *width, int *height, int *has_alpha,
                         char *message, size_t message_size);

/// The size of a HEIF file's primary picture as displayed, and whether it has an alpha plane,
/// from its boxes without decoding it; 0 on success.
int cpc_heic_info(const uint8_t *data, size_t size, int *width, int *height, int *has_alpha);

// MARK: PNG

/// Encodes 8-bit BGRA pixels as a PNG file (RGBA, or RGB when `opaque`) with an eXIf chunk when
/// `exif` is not NULL (the TIFF structure after "Exif\0\0"). The file is returned in `data`
/// (free with free()); 0 on success.
int cpc_png_encode_bgra(const uint8_t *pixels, int width, int height, int stride, int opaque,
                        const uint8_t *exif, size_t exif_size, uint8_t **data, size_t *size);

/// Decodes a PNG file in memory to 8-bit grey pixels (`width` bytes a row; free with free()),
/// refusing from its header one of more than `max_pixels` pixels. 0 on success; otherwise
/// libpng's message, or why it was refused, is copied into `message` (of `message_size` bytes).
int cpc_png_decode_gray(const uint8_t *data, size_t size, size_t max_pixels, uint8_t **pixels, int *width, int *height,
                        char *message, size_t message_size);

/// The orientation (1...8) an EXIF block or a JPEG file's EXIF says, or 0 when it says none.
int cpc_exif_read_orientation(const uint8_t *data, size_t size);
/// A tag's value in an EXIF block or a JPEG file's EXIF, as libexif writes it in words, into
/// `text` (of `capacity` bytes); 0 when the tag is there, -1 when it is not.
int cpc_exif_read_text(const uint8_t *data, size_t size, cpc_exif_ifd ifd, uint16_t tag, char *text, size_t capacity);
/// A numeric tag's values (bytes, shorts, longs, rationals, signed or not) in an EXIF block or a
/// JPEG file's EXIF, up to `capacity` of them, as doubles; how many, or -1 when the tag is not there.
int cpc_exif_read_numbers(const uint8_t *data, size_t size, cpc_exif_ifd ifd, uint16_t tag, double *values, unsigned capacity);
/// A HEIC file's EXIF, as an EXIF block beginning "Exif\0\0" (malloc'd into `*exif`); 0, or -1 when it has none.
int cpc_heic_exif(const uint8_t *data, size_t size, uint8_t **exif, size_t *exif_size);

/// How a HEIC's depth image's values are to be read (ISO/IEC 23002-3's representation types).
enum { CPC_DEPTH_INVERSE_Z = 0, CPC_DEPTH_DISPARITY = 1, CPC_DEPTH_Z = 2, CPC_DEPTH_NONUNIFORM_DISPARITY = 3 };

/// The depth image of a HEIC's primary picture: into `*values` (malloc'd, the caller frees it)
/// one float a pixel, rows from the top, `*width` x `*height`: the stored value as a fraction of
/// its range (0-1), and the representation (`*representation`, CPC_DEPTH_*) with the range of
/// what it stands for when the file gives it (`*has_range`: near and far depth in `*low` and
/// `*high` for the Z types, minimum and maximum disparity for the disparity ones). 0; 1 when the
/// picture has no depth image; -1 with why in `message` when it cannot be read or is larger than
/// `max_pixels`.
int cpc_heic_depth(const uint8_t *data, size_t size, size_t max_pixels, float **values, int *width, int *height, int *representation,
                   int *has_range, double *low, double *high, char *message, size_t message_size);

/// Decodes a PNG into premultiplied BGRA (`*pixels`, width x 4 bytes a row, freed by the caller
/// with free), refusing from its header one of more than `max_pixels` pixels; `*has_alpha` says
/// whether the file has transparency. 0 on success; otherwise libpng's message is in `message`.
int cpc_png_decode_bgra(const uint8_t *data, size_t size, size_t max_pixels, uint8_t **pixels, int *width, int *height, int *has_alpha,
                        char *message, size_t message_size);
/// Decodes as much of a PNG as its data holds, as `cpc_png_decode_bgra` does (libpng's progressive
/// reader): the rows, or an interlaced picture's passes, that have arrived, the rest transparent
/// (`*has_alpha` then 1). -1 with why in `message` before the whole header has arrived, or when the
/// data is damaged.
int cpc_png_decode_arrived_bgra(const uint8_t *data, size_t size, size_t max_pixels, uint8_t **pixels, int *width, int *height,
                                int *has_alpha, char *message, size_t message_size);

// MARK: HEIF image sequences

/// Loads a libheif that reads and writes image sequences (1.21 or newer: the system's, or the one
/// scripts/install-deps.sh unpacks), once, from any thread; NULL when loaded, otherwise why not.
const char *cpc_heics_load(void);

/// A HEIF file's image sequence, decoded once through without converting its pictures: how many
/// frames (`*count`, at most `max_frames`), the first `capacity` frames' delays in seconds, how many
/// times it plays (`*plays`, 0 for ever), the pictures' size (refused above `max_pixels`) and whether
/// they have alpha. 0; -1 when the data holds no readable sequence.
int cpc_heics_frames(const uint8_t *data, size_t size, int max_frames, size_t max_pixels, int *count, double *delays, int capacity,
                     int *plays, int *width, int *height, int *has_alpha);

/// A HEIF image sequence's frames decoded in turn: a copy of the file, and its track where the
/// last frame decoded left it. One thread at a time.
typedef struct cpc_heics_reader cpc_heics_reader;

/// A reader of a copy of `data`; NULL when the library is missing or memory is short.
cpc_heics_reader *cpc_heics_reader_create(const uint8_t *data, size_t size);
/// Frees a reader (NULL is ignored).
void cpc_heics_reader_free(cpc_heics_reader *reader);

/// Decodes frame `index` into premultiplied BGRA, as `cpc_heic_decode_bgra` decodes a still picture:
/// from where the reader is when the frame is ahead (the next frame costs one decoding), from the
/// sequence's start when it is behind, as a frame may depend on the ones before it.
int cpc_heics_reader_decode_bgra(cpc_heics_reader *reader, int index, size_t max_pixels, uint8_t **pixels, int *width, int *height,
                                 int *has_alpha, char *message, size_t message_size);

/// Encodes `count` BGRA frames of `width` x `height` (`stride` bytes a row) as a HEIF image sequence
/// with x265 at `quality` (0...100), each shown for its delay in seconds (to the millisecond), played
/// `plays` times (0 for ever); the first frame is the file's still picture too. The file is returned
/// in `data` (free with free()); 0, or -1 with why in `message`.
int cpc_heics_encode(const uint8_t *const *frames, int count, int width, int height, size_t stride, const double *delays, int plays,
                     int quality, uint8_t **data, size_t *size, char *message, size_t message_size);

#endif
