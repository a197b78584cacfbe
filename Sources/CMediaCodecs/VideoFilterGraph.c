// Pictures through FFmpeg's video filters: see CVideoFiltering.h.
#include "CVideoFiltering.h"
#include "CMediaCodecs.h"
#include "ffmpeg_library.h"
#include "filter_library.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

struct cmc_video_filter {
    AVFilterGraph *graph;
    AVFilterContext *source, *sink;
    AVFrame *input, *output;
    int width, height, input_format, output_format;
    int64_t pts;
};

/// FFmpeg's pixel format for a CMC_INPUT_* value.
static enum AVPixelFormat pixel_format(int format) {
    switch (format) {
    case CMC_INPUT_NV12: return AV_PIX_FMT_NV12;
    case CMC_INPUT_P010: return AV_PIX_FMT_P010LE;
    case CMC_INPUT_BGRA: return AV_PIX_FMT_BGRA;
    default: return AV_PIX_FMT_NONE;
    }
}

/// FFmpeg's name for a CMC_INPUT_* value's pixel format.
static const char *pixel_format_name(int format) { return format == CMC_INPUT_P010 ? "p010le" : format == CMC_INPUT_BGRA ? "bgra" : "nv12"; }

/// The bytes of each row of a plane, and the number of rows, of a picture of a CMC_INPUT_* format.
static void plane_size(int format, int plane, int width, int height, int *bytes, int *rows) {
    int sample = format == CMC_INPUT_P010 ? 2 : 1;
    if (format == CMC_INPUT_BGRA) { *bytes = width * 4; *rows = height; return; }
    *bytes = plane == 0 ? width * sample : (width + 1) / 2 * 2 * sample;
    *rows = plane == 0 ? height : (height + 1) / 2;
}

void cmc_video_filter_free(cmc_video_filter *f) {
    if (!f) return;
    if (f->graph) fl.graph_free(&f->graph);
    av_frame_free(&f->input);
    av_frame_free(&f->output);
    av_free(f);
}

cmc_video_filter *cmc_video_filter_open(const char *description, int width, int height, int input_format, int output_format, int *error) {
    int loaded = cmc_filter_library_load();
    if (loaded < 0) { *error = loaded; return NULL; }
    if (width < 2 || height < 2 || width > 16384 || height > 16384 || pixel_format(input_format) == AV_PIX_FMT_NONE
        || pixel_format(output_format) == AV_PIX_FMT_NONE) {
        *error = AVERROR(EINVAL);
        return NULL;
    }
    cmc_video_filter *f = av_mallocz(sizeof *f);
    if (!f) { *error = AVERROR(ENOMEM); return NULL; }
    f->width = width;
    f->height = height;
    f->input_format = input_format;
    f->output_format = output_format;
    int err = AVERROR(ENOMEM);
    f->graph = fl.graph_alloc();
    f->input = av_frame_alloc();
    f->output = av_frame_alloc();
    if (!f->graph || !f->input || !f->output) goto fail;
    f->input->format = pixel_format(input_format);
    f->input->width = width;
    f->input->height = height;
    if ((err = av_frame_get_buffer(f->input, 0)) < 0) goto fail;
    char args[256], chain[4096];
    snprintf(args, sizeof args, "video_size=%dx%d:pix_fmt=%d:time_base=1/30:pixel_aspect=1/1", width, height, (int)pixel_format(input_format));
    if ((err = fl.graph_create_filter(&f->source, fl.get_by_name("buffer"), "in", args, NULL, f->graph)) < 0) goto fail;
    if ((err = fl.graph_create_filter(&f->sink, fl.get_by_name("buffersink"), "out", NULL, NULL, f->graph)) < 0) goto fail;
    // The caller's graph, then its output held to the format asked for.
    snprintf(chain, sizeof chain, "%s;[out]format=pix_fmts=%s[final]", description, pixel_format_name(output_format));
    if ((err = cmc_filter_graph_join(f->graph, f->source, f->sink, chain)) < 0) goto fail;
    *error = 0;
    return f;
fail:
    cmc_video_filter_free(f);
    *error = err;
    return NULL;
}

int cmc_video_filter_run(cmc_video_filter *f, const uint8_t *const *input, const int *input_strides, uint8_t *const *output,
                         const int *output_strides) {
    int planes = f->input_format == CMC_INPUT_BGRA ? 1 : 2, err;
    // The graph may still hold the last picture: write into memory of its own then.
    if ((err = av_frame_make_writable(f->input)) < 0) return err;
    for (int plane = 0; plane < planes; plane++) {
        int bytes, rows;
        plane_size(f->input_format, plane, f->width, f->height, &bytes, &rows);
        for (int row = 0; row < rows; row++)
            memcpy(f->input->data[plane] + (size_t)row * f->input->linesize[plane], input[plane] + (size_t)row * input_strides[plane], bytes);
    }
    f->input->pts = f->pts++;
    if ((err = fl.buffersrc_add_frame_flags(f->source, f->input, AV_BUFFERSRC_FLAG_KEEP_REF)) < 0) return err;
    if ((err = fl.buffersink_get_frame(f->sink, f->output)) < 0) return err;
    int out_planes = f->output_format == CMC_INPUT_BGRA ? 1 : 2;
    for (int plane = 0; plane < out_planes; plane++) {
        int bytes, rows;
        plane_size(f->output_format, plane, f->width, f->height, &bytes, &rows);
        for (int row = 0; row < rows; row++)
            memcpy(output[plane] + (size_t)row * output_strides[plane], f->output->data[plane] + (size_t)row * f->output->linesize[plane], bytes);
    }
    av_frame_unref(f->output);
    return 0;
}
