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

/// A picture decoded to planes in the JPEG's own layout, in the decoder's memory until its next decode.
typedef struct cjd_planes {
    const uint8_t *data[3];   ///< Y', Cb, Cr (Cb and Cr NULL for grey)
    int32_t stride[3];
    int32_t width[3], height[3];
    cjd_subsampling subsampling;
} cjd_planes;

/// A decoder; NULL when memory is short. One thread at a time.
cjd_decoder *cjd_new(void);
void cjd_free(cjd_decoder *decoder);

/// Decodes a `width` x `height` Y'CbCr or grey JPEG to planes; 0, or -1 when the data is not such
/// a JPEG, is another size, or is subsampled in a way cameras do not send (4:1:1, 4:4:0).
int cjd_decode_planes(cjd_decoder *decoder, const uint8_t *jpeg, size_t size, int width, int height, cjd_planes *planes);

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
