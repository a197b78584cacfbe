// Sound through FFmpeg's audio filters: see CAudioFiltering.h. libavfilter is loaded by its
// soname the first time a graph is made, apart from the other FFmpeg libraries, so that reading
// and writing movies never load it (it brings many libraries of its own).
#include "CAudioFiltering.h"
#include "CMediaCodecs.h"
#include "ffmpeg_library.h"
#include <dlfcn.h>
#include <errno.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    AVFilterGraph *(*graph_alloc)(void);
    void (*graph_free)(AVFilterGraph **graph);
    int (*graph_create_filter)(AVFilterContext **context, const AVFilter *filter, const char *name, const char *args, void *opaque,
                               AVFilterGraph *graph);
    const AVFilter *(*get_by_name)(const char *name);
    int (*graph_parse_ptr)(AVFilterGraph *graph, const char *filters, AVFilterInOut **inputs, AVFilterInOut **outputs, void *log);
    int (*graph_config)(AVFilterGraph *graph, void *log);
    AVFilterInOut *(*inout_alloc)(void);
    void (*inout_free)(AVFilterInOut **inout);
    int (*buffersrc_add_frame_flags)(AVFilterContext *context, AVFrame *frame, int flags);
    int (*buffersink_get_frame)(AVFilterContext *context, AVFrame *frame);
    char *(*strdup)(const char *text);
} fl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int status;
static char problem[512];

static void load(void) {
    if ((status = cmc_ffmpeg_load()) < 0) {
        snprintf(problem, sizeof problem, "%s", cmc_media_library_problem());
        return;
    }
    const char *soname = "libavfilter.so." AV_STRINGIFY(LIBAVFILTER_VERSION_MAJOR);
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(problem, sizeof problem, "FFmpeg's filters could not be loaded: %s (Debian's libavfilter)", dlerror());
        status = AVERROR(ENOSYS);
        return;
    }
    void *util = dlopen("libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
#define FIND(field, from, name)                                                                                  \
    if (!(*(void **)&fl.field = dlsym(from, name))) {                                                            \
        snprintf(problem, sizeof problem, "FFmpeg's filters have no %s: not the version this was built for", name); \
        status = AVERROR(ENOSYS);                                                                                \
        return;                                                                                                  \
    }
    FIND(graph_alloc, library, "avfilter_graph_alloc")
    FIND(graph_free, library, "avfilter_graph_free")
    FIND(graph_create_filter, library, "avfilter_graph_create_filter")
    FIND(get_by_name, library, "avfilter_get_by_name")
    FIND(graph_parse_ptr, library, "avfilter_graph_parse_ptr")
    FIND(graph_config, library, "avfilter_graph_config")
    FIND(inout_alloc, library, "avfilter_inout_alloc")
    FIND(inout_free, library, "avfilter_inout_free")
    FIND(buffersrc_add_frame_flags, library, "av_buffersrc_add_frame_flags")
    FIND(buffersink_get_frame, library, "av_buffersink_get_frame")
    FIND(strdup, util ? util : library, "av_strdup")
#undef FIND
}

const char *cmc_audio_filter_problem(void) {
    pthread_once(&once, load);
    return status < 0 ? problem : NULL;
}

struct cmc_audio_filter {
    AVFilterGraph *graph;
    AVFilterContext *source, *sink;
    AVFrame *frame;
    AVAudioFifo *made;
    int sample_rate, channels;
    int64_t pts;
};

void cmc_audio_filter_free(cmc_audio_filter *f) {
    if (!f) return;
    if (f->graph) fl.graph_free(&f->graph);
    av_frame_free(&f->frame);
    if (f->made) av_audio_fifo_free(f->made);
    av_free(f);
}

cmc_audio_filter *cmc_audio_filter_open(const char *description, int sample_rate, int channels, int *error) {
    if (cmc_audio_filter_problem()) { *error = status; return NULL; }
    if (sample_rate < 1 || channels < 1 || channels > 64) { *error = AVERROR(EINVAL); return NULL; }
    cmc_audio_filter *f = av_mallocz(sizeof *f);
    if (!f) { *error = AVERROR(ENOMEM); return NULL; }
    f->sample_rate = sample_rate;
    f->channels = channels;
    int err = AVERROR(ENOMEM);
    AVFilterInOut *inputs = NULL, *outputs = NULL;
    f->graph = fl.graph_alloc();
    f->frame = av_frame_alloc();
    f->made = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, channels, 4096);
    if (!f->graph || !f->frame || !f->made) goto fail;
    char layout[32], args[256], chain[4096];
    if (channels == 1) snprintf(layout, sizeof layout, "mono");
    else if (channels == 2) snprintf(layout, sizeof layout, "stereo");
    else snprintf(layout, sizeof layout, "%dc", channels);
    snprintf(args, sizeof args, "time_base=1/%d:sample_rate=%d:sample_fmt=fltp:channel_layout=%s", sample_rate, sample_rate, layout);
    if ((err = fl.graph_create_filter(&f->source, fl.get_by_name("abuffer"), "in", args, NULL, f->graph)) < 0) goto fail;
    if ((err = fl.graph_create_filter(&f->sink, fl.get_by_name("abuffersink"), "out", NULL, NULL, f->graph)) < 0) goto fail;
    // The caller's graph, then its output held to the input's format.
    snprintf(chain, sizeof chain, "%s;[out]aformat=sample_fmts=fltp:sample_rates=%d:channel_layouts=%s[final]", description, sample_rate, layout);
    outputs = fl.inout_alloc();
    inputs = fl.inout_alloc();
    if (!outputs || !inputs) { err = AVERROR(ENOMEM); goto fail; }
    outputs->name = fl.strdup("in");
    outputs->filter_ctx = f->source;
    outputs->pad_idx = 0;
    outputs->next = NULL;
    inputs->name = fl.strdup("final");
    inputs->filter_ctx = f->sink;
    inputs->pad_idx = 0;
    inputs->next = NULL;
    if ((err = fl.graph_parse_ptr(f->graph, chain, &inputs, &outputs, NULL)) < 0) goto fail;
    if ((err = fl.graph_config(f->graph, NULL)) < 0) goto fail;
    fl.inout_free(&inputs);
    fl.inout_free(&outputs);
    *error = 0;
    return f;
fail:
    fl.inout_free(&inputs);
    fl.inout_free(&outputs);
    cmc_audio_filter_free(f);
    *error = err;
    return NULL;
}

/// Moves every frame the sink has made into the FIFO.
static int collect(cmc_audio_filter *f) {
    while (1) {
        int err = fl.buffersink_get_frame(f->sink, f->frame);
        if (err == AVERROR(EAGAIN) || err == AVERROR_EOF) return 0;
        if (err < 0) return err;
        int written = av_audio_fifo_write(f->made, (void **)f->frame->extended_data, f->frame->nb_samples);
        av_frame_unref(f->frame);
        if (written < 0) return written;
    }
}

int cmc_audio_filter_push(cmc_audio_filter *f, const float *const *input, int frames) {
    if (!input) {
        int err = fl.buffersrc_add_frame_flags(f->source, NULL, 0);
        return err < 0 ? err : collect(f);
    }
    AVFrame *frame = av_frame_alloc();
    if (!frame) return AVERROR(ENOMEM);
    frame->format = AV_SAMPLE_FMT_FLTP;
    frame->sample_rate = f->sample_rate;
    frame->nb_samples = frames;
    av_channel_layout_default(&frame->ch_layout, f->channels);
    int err = av_frame_get_buffer(frame, 0);
    if (err < 0) { av_frame_free(&frame); return err; }
    for (int channel = 0; channel < f->channels; channel++) memcpy(frame->extended_data[channel], input[channel], sizeof(float) * frames);
    frame->pts = f->pts;
    f->pts += frames;
    err = fl.buffersrc_add_frame_flags(f->source, frame, 0);
    av_frame_free(&frame);
    return err < 0 ? err : collect(f);
}

int cmc_audio_filter_available(cmc_audio_filter *f) { return av_audio_fifo_size(f->made); }

int cmc_audio_filter_take(cmc_audio_filter *f, float *const *output, int capacity) {
    return av_audio_fifo_read(f->made, (void **)output, capacity);
}
