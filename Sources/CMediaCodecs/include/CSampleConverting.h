// Converting blocks of linear PCM between sample formats, rates and channel counts with
// libswresample: what an audio converter and an audio file's processing format are built on.
//
// Thread ownership: a converter belongs to one thread at a time.
#ifndef CSAMPLECONVERTING_H
#define CSAMPLECONVERTING_H
#include <stdint.h>

typedef struct cmc_sample_converter cmc_sample_converter;

/// How samples are stored.
enum { CMC_SAMPLE_INT16 = 0, CMC_SAMPLE_INT32 = 1, CMC_SAMPLE_FLOAT32 = 2, CMC_SAMPLE_FLOAT64 = 3 };

/// A block of samples' layout: one of CMC_SAMPLE_*, separate buffers per channel or interleaved,
/// frames a second, and channels.
typedef struct cmc_sample_layout {
    int format;
    int planar;
    int sample_rate;
    int channels;
} cmc_sample_layout;

/// Opens a converter from one layout to another. `matrix`, when not NULL, gives the weight of
/// each input channel in each output channel (out x in, row by output channel); NULL keeps the
/// channels in order, copying a single input channel into every output one and leaving output
/// channels without an input silent. `filter_length` is the resampling filter's length (longer
/// is better and slower; 0 for libswresample's default). `dither` adds triangular dither when
/// the output has fewer bits. NULL and a negative FFmpeg error on failure.
cmc_sample_converter *cmc_sample_converter_open(const cmc_sample_layout *input, const cmc_sample_layout *output,
                                                const double *matrix, int filter_length, int dither, int *error);

/// Converts `frames` input frames (in: one pointer per channel when planar, else one), writing at
/// most `capacity` output frames; the frames written, or a negative FFmpeg error. Frames that do
/// not fit stay in the converter: a call with no input frames (a non-NULL `input`, 0 `frames`)
/// gives them. A NULL `input` ends the stream: it drains the resampler's filter too.
int cmc_sample_converter_convert(cmc_sample_converter *converter, uint8_t *const *output, int capacity,
                                 const uint8_t *const *input, int frames);

/// The most output frames the next conversion of `frames` input frames can give.
int cmc_sample_converter_output_bound(cmc_sample_converter *converter, int frames);

/// The input frames' worth of sound the converter holds, at the input rate.
int64_t cmc_sample_converter_delay(cmc_sample_converter *converter);

/// Forgets what the converter holds, to start a new stream.
int cmc_sample_converter_reset(cmc_sample_converter *converter);

void cmc_sample_converter_free(cmc_sample_converter *converter);

#endif
