// A JPEG encoder for frames over libjpeg-turbo's libjpeg API, which allocates nothing per frame
// once it has encoded its first of a size: libjpeg's memory comes from arenas the encoder keeps
// and reuses, and the JPEG is written into a buffer of the encoder's, grown when a picture needs
// more. It writes what TurboJPEG's tjCompress2 and tjCompressFromYUVPlanes write for the same
// settings (a JFIF baseline JPEG, the same quality tables and DCT).
#ifndef CJPEG_ENCODING_H
#define CJPEG_ENCODING_H
#include <stddef.h>
#include <stdint.h>

typedef struct cje_encoder cje_encoder;

/// An encoder; NULL when memory is short. One thread at a time.
cje_encoder *cje_new(void);
void cje_free(cje_encoder *encoder);

/// Encodes `width` x `height` BGRA rows of `stride` bytes at `quality` (1...100), with 4:4:4
/// chroma when `full_chroma` (4:2:0 otherwise) and the accurate DCT when `accurate_dct` (always at
/// quality 96 and above); 0 with the JPEG at `*jpeg` (`*size` bytes, the encoder's until its next
/// encode), or -1.
int cje_encode_bgra(cje_encoder *encoder, const uint8_t *bgra, int stride, int width, int height, int quality,
                    int full_chroma, int accurate_dct, const uint8_t **jpeg, size_t *size);

/// Encodes full-range 4:2:0 Y'CbCr planes (JPEG's own samples) as they are; each plane's stride
/// must cover its width rounded up to whole 8-sample blocks (16 for luma). 0 or -1, as above.
int cje_encode_planes420(cje_encoder *encoder, const uint8_t *const planes[3], const int32_t strides[3], int width, int height,
                         int quality, int accurate_dct, const uint8_t **jpeg, size_t *size);

/// One band of a picture for `cje_encode_bands`: 16 rows of Y' and 8 of each chroma (4:2:0), in
/// rows the encoder owns, for the handler to fill with the band's samples.
typedef struct cje_band {
    uint8_t *data[3];         ///< Y', Cb, Cr, each at the band's first row
    int32_t stride[3];
    int32_t width[3];         ///< samples to fill in each row: the picture's width, half of it rounded up for chroma
    int32_t first_row[3];     ///< where the band starts in each plane
    int32_t rows[3];          ///< rows to fill in each plane, the last band's cut to the picture
} cje_band;

/// Fills one band; 0 to go on, anything else to stop encoding.
typedef int (*cje_band_handler)(void *context, const cje_band *band);

/// Encodes a `width` x `height` BT.601 Y'CbCr picture that `handler` hands over band by band from
/// the top, as 4:2:0 samples, while each band is still in the cache: at video range
/// (`video_range`) its levels are stretched to JPEG's full range first; with `full_chroma`, its
/// chroma is stored at every pixel (4:4:4, each sample repeated) rather than halved. Quality and
/// DCT as `cje_encode_bgra`; 0 with the JPEG as there, or -1 (also when `handler` stopped it).
int cje_encode_bands(cje_encoder *encoder, int width, int height, int video_range, int quality, int full_chroma, int accurate_dct,
                     cje_band_handler handler, void *context, const uint8_t **jpeg, size_t *size);

/// How many times the encoder has asked the system for memory since it was made.
uint64_t cje_system_allocations(const cje_encoder *encoder);
#endif
