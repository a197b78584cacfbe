// Pictures through a graph of FFmpeg's video filters (libavfilter, loaded when the first graph
// is made): colour conversion between primaries, transfer functions and matrices with zscale.
// Two-plane 4:2:0 (8 or 10 bits) or BGRA pictures go in and come out, at one size.
//
// Thread ownership: a graph belongs to one thread at a time.
#ifndef CVIDEOFILTERING_H
#define CVIDEOFILTERING_H

#include <stdint.h>

typedef struct cmc_video_filter cmc_video_filter;

/// Makes a graph from FFmpeg's filter description, whose input is labelled [in] and output [out]
/// (such as "[in]zscale=pin=1:p=9[out]"), for `width` x `height` pictures in `input_format`, giving
/// pictures in `output_format` (each a CMC_INPUT_* value); NULL and a negative FFmpeg error on failure.
cmc_video_filter *cmc_video_filter_open(const char *description, int width, int height, int input_format, int output_format, int *error);

/// Runs one picture through the graph: its planes (one for BGRA, two otherwise) and their bytes per
/// row in, the made picture's planes written to `output`; 0 or a negative FFmpeg error.
int cmc_video_filter_run(cmc_video_filter *filter, const uint8_t *const *input, const int *input_strides, uint8_t *const *output,
                         const int *output_strides);

void cmc_video_filter_free(cmc_video_filter *filter);

#endif
