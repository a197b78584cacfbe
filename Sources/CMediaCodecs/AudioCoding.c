// Encoding and decoding sound packets with libavcodec: see CAudioCoding.h.
#include "CAudioCoding.h"
#include "CMediaCodecs.h"
#include <errno.h>
#include <string.h>
#include "ffmpeg_library.h"

struct cmc_audio_encoder {
    AVCodecContext *codec;
    AVFrame *frame;
    AVPacket *packet;
    int64_t pts;
    int ended;
    int pending;  // whether `packet` holds a packet that did not fit the caller's memory
};

void cmc_audio_encoder_free(cmc_audio_encoder *e) {
    if (!e) return;
    avcodec_free_context(&e->codec);
    av_frame_free(&e->frame);
    av_packet_free(&e->packet);
    av_free(e);
}

cmc_audio_encoder *cmc_audio_encoder_open(const char *name, int sample_rate, int channels, int64_t bit_rate, int *error) {
    int err = cmc_ffmpeg_load();
    if (err < 0) { *error = err; return NULL; }
    const AVCodec *codec = avcodec_find_encoder_by_name(name);
    if (!codec || codec->type != AVMEDIA_TYPE_AUDIO) { *error = AVERROR_ENCODER_NOT_FOUND; return NULL; }
    cmc_audio_encoder *e = av_mallocz(sizeof *e);
    if (!e) { *error = AVERROR(ENOMEM); return NULL; }
    e->codec = avcodec_alloc_context3(codec);
    e->frame = av_frame_alloc();
    e->packet = av_packet_alloc();
    if (!e->codec || !e->frame || !e->packet) { cmc_audio_encoder_free(e); *error = AVERROR(ENOMEM); return NULL; }
    e->codec->sample_fmt = AV_SAMPLE_FMT_FLTP;
    e->codec->sample_rate = sample_rate;
    av_channel_layout_default(&e->codec->ch_layout, channels);
    e->codec->bit_rate = bit_rate > 0 ? bit_rate : 64000 * channels;
    e->codec->time_base = (AVRational){1, sample_rate};
    // The configuration apart from the packets, as a magic cookie.
    e->codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if ((err = avcodec_open2(e->codec, codec, NULL)) < 0) { cmc_audio_encoder_free(e); *error = err; return NULL; }
    e->frame->format = AV_SAMPLE_FMT_FLTP;
    e->frame->sample_rate = sample_rate;
    e->frame->nb_samples = e->codec->frame_size > 0 ? e->codec->frame_size : 1024;
    av_channel_layout_copy(&e->frame->ch_layout, &e->codec->ch_layout);
    if ((err = av_frame_get_buffer(e->frame, 0)) < 0) { cmc_audio_encoder_free(e); *error = err; return NULL; }
    *error = 0;
    return e;
}

int cmc_audio_encoder_frame_size(const cmc_audio_encoder *e) { return e->codec->frame_size > 0 ? e->codec->frame_size : 1024; }

const uint8_t *cmc_audio_encoder_extradata(const cmc_audio_encoder *e, int *size) {
    *size = e->codec->extradata_size;
    return e->codec->extradata;
}

int cmc_audio_encoder_send(cmc_audio_encoder *e, const float *const *input, int frames) {
    if (!input) {
        if (e->ended) return 0;
        e->ended = 1;
        return avcodec_send_frame(e->codec, NULL);
    }
    int size = cmc_audio_encoder_frame_size(e);
    if (frames < 1 || frames > size) return AVERROR(EINVAL);
    int err = av_frame_make_writable(e->frame);
    if (err < 0) return err;
    e->frame->nb_samples = frames;
    for (int channel = 0; channel < e->codec->ch_layout.nb_channels; channel++) memcpy(e->frame->data[channel], input[channel], sizeof(float) * frames);
    e->frame->pts = e->pts;
    e->pts += frames;
    err = avcodec_send_frame(e->codec, e->frame);
    e->frame->nb_samples = size;
    return err;
}

int cmc_audio_encoder_receive(cmc_audio_encoder *e, uint8_t *data, int capacity, int *size) {
    if (!e->pending) {
        int err = avcodec_receive_packet(e->codec, e->packet);
        if (err == AVERROR(EAGAIN)) return 1;
        if (err == AVERROR_EOF) return 2;
        if (err < 0) return err;
        e->pending = 1;
    }
    // A packet that does not fit waits for the next call.
    if (e->packet->size > capacity) return AVERROR(ENOSPC);
    memcpy(data, e->packet->data, e->packet->size);
    *size = e->packet->size;
    av_packet_unref(e->packet);
    e->pending = 0;
    return 0;
}

struct cmc_audio_decoder {
    AVCodecContext *codec;
    AVFrame *frame;
    AVPacket *packet;
    SwrContext *resampler;
    int channels;
    int offset;  // frames of the received frame already taken
    int holding; // whether `frame` holds decoded frames not all taken
};

void cmc_audio_decoder_free(cmc_audio_decoder *d) {
    if (!d) return;
    avcodec_free_context(&d->codec);
    av_frame_free(&d->frame);
    av_packet_free(&d->packet);
    swr_free(&d->resampler);
    av_free(d);
}

cmc_audio_decoder *cmc_audio_decoder_open(const char *name, int sample_rate, int channels, const uint8_t *extradata, int extradata_size,
                                          int *error) {
    int err = cmc_ffmpeg_load();
    if (err < 0) { *error = err; return NULL; }
    const AVCodecDescriptor *descriptor = avcodec_descriptor_get_by_name(name);
    const AVCodec *codec = descriptor ? avcodec_find_decoder(descriptor->id) : NULL;
    if (!codec) { *error = AVERROR_DECODER_NOT_FOUND; return NULL; }
    cmc_audio_decoder *d = av_mallocz(sizeof *d);
    if (!d) { *error = AVERROR(ENOMEM); return NULL; }
    d->codec = avcodec_alloc_context3(codec);
    d->frame = av_frame_alloc();
    d->packet = av_packet_alloc();
    if (!d->codec || !d->frame || !d->packet) { cmc_audio_decoder_free(d); *error = AVERROR(ENOMEM); return NULL; }
    d->channels = channels;
    d->codec->sample_rate = sample_rate;
    av_channel_layout_default(&d->codec->ch_layout, channels);
    if (extradata && extradata_size > 0) {
        d->codec->extradata = av_mallocz(extradata_size + AV_INPUT_BUFFER_PADDING_SIZE);
        if (!d->codec->extradata) { cmc_audio_decoder_free(d); *error = AVERROR(ENOMEM); return NULL; }
        memcpy(d->codec->extradata, extradata, extradata_size);
        d->codec->extradata_size = extradata_size;
    }
    if ((err = avcodec_open2(d->codec, codec, NULL)) < 0) { cmc_audio_decoder_free(d); *error = err; return NULL; }
    *error = 0;
    return d;
}

int cmc_audio_decoder_send(cmc_audio_decoder *d, const uint8_t *data, int size) {
    if (!data) return avcodec_send_packet(d->codec, NULL);
    if (av_new_packet(d->packet, size) < 0) return AVERROR(ENOMEM);
    memcpy(d->packet->data, data, size);
    int err = avcodec_send_packet(d->codec, d->packet);
    av_packet_unref(d->packet);
    return err == AVERROR(EAGAIN) ? AVERROR_INVALIDDATA : err;
}

int cmc_audio_decoder_receive(cmc_audio_decoder *d, float *const *output, int capacity, int *frames) {
    *frames = 0;
    if (!d->holding) {
        int err = avcodec_receive_frame(d->codec, d->frame);
        if (err == AVERROR(EAGAIN)) return 1;
        if (err == AVERROR_EOF) return 2;
        if (err < 0) return err;
        d->holding = 1;
        d->offset = 0;
    }
    AVFrame *f = d->frame;
    int left = f->nb_samples - d->offset;
    int count = left < capacity ? left : capacity;
    if (f->format == AV_SAMPLE_FMT_FLTP && f->ch_layout.nb_channels == d->channels) {
        for (int channel = 0; channel < d->channels; channel++) memcpy(output[channel], (float *)f->extended_data[channel] + d->offset, sizeof(float) * count);
    } else {
        // Another sample format or channel count: converted with libswresample (made once).
        if (!d->resampler) {
            AVChannelLayout layout;
            av_channel_layout_default(&layout, d->channels);
            int err = swr_alloc_set_opts2(&d->resampler, &layout, AV_SAMPLE_FMT_FLTP, f->sample_rate, &f->ch_layout, f->format, f->sample_rate, 0, NULL);
            av_channel_layout_uninit(&layout);
            if (err < 0 || (err = swr_init(d->resampler)) < 0) return err;
        }
        int bytes = av_get_bytes_per_sample(f->format);
        int planar = f->format == AV_SAMPLE_FMT_FLTP || f->format == AV_SAMPLE_FMT_S16P || f->format == AV_SAMPLE_FMT_S32P || f->format == AV_SAMPLE_FMT_DBLP;
        const uint8_t *in[64];
        for (int channel = 0; channel < f->ch_layout.nb_channels && channel < 64; channel++) {
            in[channel] = planar ? f->extended_data[channel] + (size_t)d->offset * bytes
                                 : f->extended_data[0] + (size_t)d->offset * bytes * f->ch_layout.nb_channels;
        }
        count = swr_convert(d->resampler, (uint8_t **)output, count, in, count);
        if (count < 0) return count;
    }
    d->offset += count;
    if (d->offset >= f->nb_samples) {
        av_frame_unref(f);
        d->holding = 0;
    }
    *frames = count;
    return 0;
}
