// Sound through a graph of FFmpeg's audio filters (libavfilter, loaded when the first graph is
// made): equalisers, convolution, echoes, clipping, Rubber Band's stretching. Deinterleaved
// 32-bit floats go in and come out, at the graph's rate and channels.
//
// Thread ownership: a graph belongs to one thread at a time.
#ifndef CAUDIOFILTERING_H
#define CAUDIOFILTERING_H

typedef struct cmc_audio_filter cmc_audio_filter;

/// Makes a graph from FFmpeg's filter description, whose input is labelled [in] and output [out]
/// (such as "[in]equalizer=f=1000:t=o:w=1:g=6[out]"), for deinterleaved floats at a rate with a
/// number of channels; NULL and a negative FFmpeg error on failure (`cmc_audio_filter_problem` says why
/// libavfilter could not be loaded).
cmc_audio_filter *cmc_audio_filter_open(const char *description, int sample_rate, int channels, int *error);

/// Hands the graph `frames` frames (one pointer per channel), or, with NULL, says the input has
/// ended; 0 or a negative FFmpeg error.
int cmc_audio_filter_push(cmc_audio_filter *filter, const float *const *input, int frames);

/// The frames the graph has made that wait to be taken.
int cmc_audio_filter_available(cmc_audio_filter *filter);

/// Takes up to `capacity` made frames into `output` (one pointer per channel); the frames taken.
int cmc_audio_filter_take(cmc_audio_filter *filter, float *const *output, int capacity);

void cmc_audio_filter_free(cmc_audio_filter *filter);

/// Why libavfilter could not be loaded, or NULL when it is loaded.
const char *cmc_audio_filter_problem(void);

#endif
