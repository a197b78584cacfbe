// Sound through FFmpeg's audio filters: see CAudioFiltering.h.
#include "CAudioFiltering.h"
#include "CMediaCodecs.h"
#include "ffmpeg_library.h"
#include "filter_library.h"
#include <errno.h>
#include <stdio.h>

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
    int loaded = cmc_filter_library_load();
    if (loaded < 0) { *error = loaded; return NULL; }
    if (sample_rate < 1 || channels < 1 || channels > 64) { *error = AVERROR(EINVAL); return NULL; }
    cmc_audio_filter *f = av_mallocz(sizeof *f);
    if (!f) { *error = AVERROR(ENOMEM); return NULL; }
    f->sample_rate = sample_rate;
    f->channels = channels;
    int err = AVERROR(ENOMEM);
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
    if ((err = cmc_filter_graph_join(f->graph, f->source, f->sink, chain)) < 0) goto fail;
    *error = 0;
    return f;
fail:
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

const char *cmc_audio_filter_problem(void) { return cmc_filter_library_problem(); }
