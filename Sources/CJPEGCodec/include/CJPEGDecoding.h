// A JPEG decoder for camera frames over libjpeg-turbo's libjpeg API, which allocates nothing
// per frame once it has decoded its first: libjpeg's memory for a picture comes from arenas the
// decoder keeps and reuses (libjpeg lets an application supply its memory manager's methods),
// and the row pointers and planes it decodes into are the decoder's own, grown once.
#ifndef CJPEG_DECODING_H
#define CJPEG_DECODING_H
#include <stddef.h>
#include <stdint.h>

typedef struct cjd_decoder cjd_decoder;

/// The chroma subsampling of a decoded picture.
typedef enum cjd_subsampling {
    CJD_SUBSAMPLING_444 = 0,
    CJD_SUBSAMPLING_422 = 1,
    CJD_SUBSAMPLING_420 = 2,
    CJD_SUBSAMPLING_GRAY = 3,
} cjd_subsampling;

/// One band of a picture being decoded to planes in the JPEG's own layout: one row of whole blocks
/// of every component (8 or 16 rows of Y'), in the decoder's memory until the next band.
typedef struct cjd_band {
    const uint8_t *data[3];   ///< Y', Cb, Cr (Cb and Cr NULL for grey), each at the band's first row
    int32_t stride[3];
    int32_t width[3];         ///< each plane's width
    int32_t first_row[3];     ///< where the band starts in each plane
    int32_t rows[3];          ///< the band's rows of each plane, the last band's cut to the picture
    cjd_subsampling subsampling;
} cjd_band;

/// Takes one band as it is decoded; 0 to go on, anything else to stop decoding.
typedef int (*cjd_band_handler)(void *context, const cjd_band *band);

/// A decoder; NULL when memory is short. One thread at a time.
cjd_decoder *cjd_new(void);
void cjd_free(cjd_decoder *decoder);

/// Decodes a `width` x `height` Y'CbCr or grey JPEG to planes, band by band from the top, each handed
/// to `handler` while it is still in the cache; 0, or -1 when the data is not such a JPEG, is
/// another size, is subsampled in a way cameras do not send (4:1:1, 4:4:0), or `handler` stopped it.
int cjd_decode_bands(cjd_decoder *decoder, const uint8_t *jpeg, size_t size, int width, int height, cjd_band_handler handler,
                     void *context);

/// Decodes a `width` x `height` JPEG into BGRA rows of `stride` bytes; 0, or -1.
int cjd_decode_bgra(cjd_decoder *decoder, const uint8_t *jpeg, size_t size, uint8_t *bgra, int stride, int width, int height);

/// Reads the size of the JPEG in `jpeg` without decoding it; 0, or -1 when it is not a JPEG.
int cjd_read_size(cjd_decoder *decoder, const uint8_t *jpeg, size_t size, int *width, int *height);

/// Decodes a `width` x `height` JPEG of any colour into 8-bit grey rows of `stride` bytes; 0, or -1,
/// also when the data is corrupt or cut short (where libjpeg would warn and fill in grey).
int cjd_decode_gray(cjd_decoder *decoder, const uint8_t *jpeg, size_t size, uint8_t *gray, int stride, int width, int height);

/// The most scans a progressive picture may have; one of more fails to decode (real encoders
/// write about ten).
#define CJD_MAXIMUM_SCANS 100

/// Decodes a JPEG of any colour into 8-bit grey rows of `stride` bytes at 1/`denominator` of its
/// size (1, 2, 4 or 8: libjpeg's scaled decoding, which skips the work of the pixels left out);
/// `width` x `height` must be the scaled size (the full size divided, rounded up). 0, or -1.
int cjd_decode_gray_scaled(cjd_decoder *decoder, const uint8_t *jpeg, size_t size, int denominator, uint8_t *gray, int stride,
                           int width, int height);

/// What libjpeg said of the last picture it could not decode, into `message` (at most `capacity`
/// bytes with the terminating zero); empty when it said nothing.
void cjd_last_error(const cjd_decoder *decoder, char *message, size_t capacity);

/// How many times the decoder has asked the system for memory since it was made.
uint64_t cjd_system_allocations(const cjd_decoder *decoder);
#endif
