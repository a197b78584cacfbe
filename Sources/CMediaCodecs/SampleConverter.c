// Converting linear PCM with libswresample: see CSampleConverting.h.
#include "CSampleConverting.h"
#include <errno.h>
#include "ffmpeg_library.h"

struct cmc_sample_converter {
    SwrContext *resampler;
    cmc_sample_layout input, output;
    int filter_length;
    int dither;
    double *weights;
};

static enum AVSampleFormat sample_format(const cmc_sample_layout *layout) {
    switch (layout->format) {
    case CMC_SAMPLE_INT16: return layout->planar ? AV_SAMPLE_FMT_S16P : AV_SAMPLE_FMT_S16;
    case CMC_SAMPLE_INT32: return layout->planar ? AV_SAMPLE_FMT_S32P : AV_SAMPLE_FMT_S32;
    case CMC_SAMPLE_FLOAT32: return layout->planar ? AV_SAMPLE_FMT_FLTP : AV_SAMPLE_FMT_FLT;
    case CMC_SAMPLE_FLOAT64: return layout->planar ? AV_SAMPLE_FMT_DBLP : AV_SAMPLE_FMT_DBL;
    default: return AV_SAMPLE_FMT_NONE;
    }
}

/// Builds (or rebuilds, after a reset) the resampler with the converter's channel weights.
static int build(cmc_sample_converter *c) {
    swr_free(&c->resampler);
    AVChannelLayout in_layout, out_layout;
    // Channels in order, without meaning: the weights, not the layouts, say where sound goes.
    av_channel_layout_default(&in_layout, c->input.channels);
    av_channel_layout_default(&out_layout, c->output.channels);
    int err = swr_alloc_set_opts2(&c->resampler, &out_layout, sample_format(&c->output), c->output.sample_rate,
                                  &in_layout, sample_format(&c->input), c->input.sample_rate, 0, NULL);
    av_channel_layout_uninit(&in_layout);
    av_channel_layout_uninit(&out_layout);
    if (err < 0) return err;
    if (c->filter_length > 0 && (err = av_opt_set_int(c->resampler, "filter_size", c->filter_length, 0)) < 0) return err;
    if (c->dither && (err = av_opt_set_int(c->resampler, "dither_method", SWR_DITHER_TRIANGULAR, 0)) < 0) return err;
    if ((err = swr_set_matrix(c->resampler, c->weights, c->input.channels)) < 0) return err;
    return swr_init(c->resampler);
}

cmc_sample_converter *cmc_sample_converter_open(const cmc_sample_layout *input, const cmc_sample_layout *output,
                                                const double *matrix, int filter_length, int dither, int *error) {
    int err = cmc_ffmpeg_load();
    if (err < 0) { *error = err; return NULL; }
    if (input->channels < 1 || output->channels < 1 || input->channels > 64 || output->channels > 64 ||
        input->sample_rate < 1 || output->sample_rate < 1 ||
        sample_format(input) == AV_SAMPLE_FMT_NONE || sample_format(output) == AV_SAMPLE_FMT_NONE) {
        *error = AVERROR(EINVAL);
        return NULL;
    }
    cmc_sample_converter *c = av_mallocz(sizeof *c);
    if (!c) { *error = AVERROR(ENOMEM); return NULL; }
    c->input = *input;
    c->output = *output;
    c->filter_length = filter_length;
    c->dither = dither;
    c->weights = av_malloc(sizeof(double) * input->channels * output->channels);
    if (!c->weights) { cmc_sample_converter_free(c); *error = AVERROR(ENOMEM); return NULL; }
    for (int out = 0; out < output->channels; out++) {
        for (int in = 0; in < input->channels; in++) {
            double weight;
            if (matrix) weight = matrix[out * input->channels + in];
            else if (input->channels == 1) weight = 1;
            else weight = in == out ? 1 : 0;
            c->weights[out * input->channels + in] = weight;
        }
    }
    if ((err = build(c)) < 0) { cmc_sample_converter_free(c); *error = err; return NULL; }
    *error = 0;
    return c;
}

int cmc_sample_converter_convert(cmc_sample_converter *c, uint8_t *const *output, int capacity, const uint8_t *const *input, int frames) {
    return swr_convert(c->resampler, (uint8_t **)output, capacity, (const uint8_t **)input, input ? frames : 0);
}

int cmc_sample_converter_output_bound(cmc_sample_converter *c, int frames) { return swr_get_out_samples(c->resampler, frames); }

int64_t cmc_sample_converter_delay(cmc_sample_converter *c) { return swr_get_delay(c->resampler, c->input.sample_rate); }

int cmc_sample_converter_reset(cmc_sample_converter *c) { return build(c); }

void cmc_sample_converter_free(cmc_sample_converter *c) {
    if (!c) return;
    swr_free(&c->resampler);
    av_free(c->weights);
    av_free(c);
}
