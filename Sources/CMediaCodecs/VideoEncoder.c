// Encoding pictures one at a time with FFmpeg's encoders: see CVideoCoding.h.
#include "CVideoCoding.h"
#include "CMediaCodecs.h"
#include "video_encoder.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "ffmpeg_library.h"

struct cmc_video_encoder {
    AVCodecContext *context;
    int takes_nv12;          // whether the encoder reads bi-planar 4:2:0; otherwise planar 4:2:0
    int converts_frames;     // for encoders given another format (10-bit, 4:2:2, 4:4:4): libswscale converts each frame
    struct SwsContext *scaler;
    int scaler_source_format;
    AVPacket *packet;
    AVFrame *frame;          // the picture handed to the encoder, emptied and reused from one to the next
    /// Packets' memory, reused once the caller is done with a packet (for encoders that let the
    /// caller allocate it, as libx264 does): grown when a packet needs more.
    AVBufferPool *packets;
    int packet_capacity;
    int x264;
};

/// Gives an encoder a packet's memory from the encoder's pool.
static int get_packet_buffer(AVCodecContext *ctx, AVPacket *packet, int flags) {
    (void)flags;
    cmc_video_encoder *e = ctx->opaque;
    int needed = packet->size + AV_INPUT_BUFFER_PADDING_SIZE;
    if (packet->size < 0 || needed < packet->size) return AVERROR(EINVAL);
    if (!e->packets || e->packet_capacity < needed) {
        // Buffers of the old pool still held go back to it and are freed with it.
        av_buffer_pool_uninit(&e->packets);
        int capacity = needed > e->packet_capacity * 2 ? needed : e->packet_capacity * 2;
        e->packets = av_buffer_pool_init((size_t)capacity, NULL);
        if (!e->packets) return AVERROR(ENOMEM);
        e->packet_capacity = capacity;
    }
    packet->buf = av_buffer_pool_get(e->packets);
    if (!packet->buf) return AVERROR(ENOMEM);
    packet->data = packet->buf->data;
    memset(packet->data + packet->size, 0, AV_INPUT_BUFFER_PADDING_SIZE);
    return 0;
}

AVCodecContext *cmc_video_encoder_context(cmc_video_encoder *e) { return e->context; }

/// Sets the rate control: an average with limits, a constant rate, or a quality.
static void set_rate(cmc_video_encoder *e, const cmc_video_encoder_config *c) {
    AVCodecContext *ctx = e->context;
    ctx->bit_rate = c->bit_rate;
    if (c->writer_rate_control) {
        ctx->rc_max_rate = c->bit_rate * 3 / 2;
        ctx->rc_buffer_size = (int)c->bit_rate;
    } else if (c->constant_bit_rate && c->bit_rate > 0) {
        ctx->rc_max_rate = c->bit_rate;
        ctx->rc_min_rate = c->bit_rate;
        ctx->rc_buffer_size = (int)(c->buffer_bits > 0 ? c->buffer_bits : c->bit_rate);
    } else {
        ctx->rc_max_rate = c->max_bit_rate;
        ctx->rc_buffer_size = (int)c->buffer_bits;
    }
}

cmc_video_encoder *cmc_video_encoder_open(const cmc_video_encoder_config *c, int *error) {
    if ((*error = cmc_ffmpeg_load()) != 0) return NULL;
    const AVCodec *codec = avcodec_find_encoder_by_name(c->encoder);
    if (!codec) { *error = AVERROR_ENCODER_NOT_FOUND; return NULL; }
    if (c->width <= 0 || c->height <= 0 || (int64_t)c->width * c->height > CMC_MAXIMUM_PIXELS) { *error = AVERROR(EINVAL); return NULL; }
    cmc_video_encoder *e = av_mallocz(sizeof *e);
    if (!e) { *error = AVERROR(ENOMEM); return NULL; }
    AVCodecContext *ctx = e->context = avcodec_alloc_context3(codec);
    e->packet = av_packet_alloc();
    e->frame = av_frame_alloc();
    if (!ctx || !e->packet || !e->frame) { cmc_video_encoder_free(e); *error = AVERROR(ENOMEM); return NULL; }
    if (codec->capabilities & AV_CODEC_CAP_DR1) {
        ctx->opaque = e;
        ctx->get_encode_buffer = get_packet_buffer;
    }
    ctx->width = c->width;
    ctx->height = c->height;
    for (const enum AVPixelFormat *f = codec->pix_fmts; f && *f != AV_PIX_FMT_NONE; f++) {
        if (*f == AV_PIX_FMT_NV12) e->takes_nv12 = 1;
    }
    ctx->pix_fmt = e->takes_nv12 ? AV_PIX_FMT_NV12 : AV_PIX_FMT_YUV420P;
    e->scaler_source_format = AV_PIX_FMT_NONE;
    if (c->encoder_pixel_format) {
        enum AVPixelFormat wanted = av_get_pix_fmt(c->encoder_pixel_format);
        int offered = 0;
        for (const enum AVPixelFormat *f = codec->pix_fmts; f && *f != AV_PIX_FMT_NONE; f++) offered |= *f == wanted;
        if (wanted == AV_PIX_FMT_NONE || !offered) { cmc_video_encoder_free(e); *error = AVERROR(EINVAL); return NULL; }
        ctx->pix_fmt = wanted;
        e->converts_frames = 1;
    }
    ctx->color_range = c->full_range ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG;
    if (c->color_primaries) ctx->color_primaries = c->color_primaries;
    if (c->color_trc) ctx->color_trc = c->color_trc;
    if (c->colorspace) ctx->colorspace = c->colorspace;
    if (c->sar_num > 0 && c->sar_den > 0) ctx->sample_aspect_ratio = (AVRational){c->sar_num, c->sar_den};
    ctx->time_base = (AVRational){1, 1000000};
    if (c->expected_frame_rate > 0) ctx->framerate = av_d2q(c->expected_frame_rate, 100000);
    set_rate(e, c);
    ctx->gop_size = c->keyframe_interval > 0 ? c->keyframe_interval : 250;
    ctx->max_b_frames = c->b_frames > 0 ? c->b_frames : 0;
    if (c->global_header) ctx->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    ctx->thread_count = 0;
    int x26x = strstr(c->encoder, "libx26") != NULL, x265 = strstr(c->encoder, "265") != NULL;
    e->x264 = x26x && !x265;
    if (c->preset && x26x) av_opt_set(ctx->priv_data, "preset", c->preset, 0);
    // Frames in display order and none held keep the encoder's latency at none; reordering needs its lookahead.
    if (x26x && (c->b_frames <= 0 || c->max_frame_delay == 0)) av_opt_set(ctx->priv_data, "tune", "zerolatency", 0);
    if (x26x && c->quality >= 0 && c->bit_rate <= 0) {
        // Quality 1 is CRF 0 (lossless steps aside), 0 is CRF 51; a half is about x264's default of 23.
        double q = c->quality > 1 ? 1 : c->quality;
        av_opt_set_int(ctx->priv_data, "crf", (int64_t)lround(51.0 * (1.0 - q) * 0.9), 0);
    }
    if (c->profile) av_opt_set(ctx->priv_data, "profile", c->profile, 0);
    if (!x265 && x26x && c->entropy_cabac >= 0) av_opt_set(ctx->priv_data, "coder", c->entropy_cabac ? "cabac" : "cavlc", 0);
    char level[16] = "";
    if (c->level > 0) snprintf(level, sizeof level, "%d.%d", c->level / 10, c->level % 10);
    if (x265) {
        char params[160];
        int length = snprintf(params, sizeof params, "log-level=error:bframes=%d", c->b_frames > 0 ? c->b_frames : 0);
        if (level[0]) snprintf(params + length, sizeof params - (size_t)length, ":level-idc=%s", level);
        av_opt_set(ctx->priv_data, "x265-params", params, 0);
    } else if (x26x) {
        if (level[0]) av_opt_set(ctx->priv_data, "level", level, 0);
        char params[160] = "";
        int length = 0;
        if (c->b_frames > 0 && c->droppable_b_frames) length += snprintf(params, sizeof params, "b-adapt=0:b-pyramid=none:");
        if (c->constant_bit_rate && c->bit_rate > 0) length += snprintf(params + length, sizeof params - (size_t)length, "nal-hrd=cbr:");
        // A bounded delay: no more lookahead than allowed, and threads that split pictures rather than hold them.
        if (c->max_frame_delay > 0)
            length += snprintf(params + length, sizeof params - (size_t)length, "rc-lookahead=%d:sync-lookahead=0:sliced-threads=1:",
                               c->max_frame_delay > c->b_frames ? c->max_frame_delay - (c->b_frames > 0 ? c->b_frames : 0) : 0);
        if (length > 0) {
            params[length - 1] = 0;
            av_opt_set(ctx->priv_data, "x264-params", params, 0);
        }
    }
    int err = avcodec_open2(ctx, codec, NULL);
    if (err < 0) { cmc_video_encoder_free(e); *error = err; return NULL; }
    *error = 0;
    return e;
}

void cmc_video_encoder_free(cmc_video_encoder *e) {
    if (!e) return;
    avcodec_free_context(&e->context);
    sws_freeContext(e->scaler);
    av_packet_free(&e->packet);
    av_frame_free(&e->frame);
    av_buffer_pool_uninit(&e->packets);
    av_free(e);
}

const uint8_t *cmc_video_encoder_extradata(const cmc_video_encoder *e, int *size) {
    *size = e->context->extradata ? e->context->extradata_size : 0;
    return e->context->extradata_size > 0 ? e->context->extradata : NULL;
}

/// libswscale's coefficients for the matrix the stream is tagged with (BT.601 when untagged).
static int sws_colorspace_of(enum AVColorSpace space) {
    switch (space) {
    case AVCOL_SPC_BT709: return SWS_CS_ITU709;
    case AVCOL_SPC_BT2020_NCL: case AVCOL_SPC_BT2020_CL: return SWS_CS_BT2020;
    case AVCOL_SPC_SMPTE240M: return SWS_CS_SMPTE240M;
    default: return SWS_CS_ITU601;
    }
}

/// Converts a picture (NV12, P010 or BGRA) into `frame`, in the encoder's format.
static int convert_frame(cmc_video_encoder *e, AVFrame *frame, const uint8_t *y, int y_stride, const uint8_t *uv, int uv_stride, int input) {
    AVCodecContext *ctx = e->context;
    int source = input == CMC_INPUT_P010 ? AV_PIX_FMT_P010LE : input == CMC_INPUT_BGRA ? AV_PIX_FMT_BGRA : AV_PIX_FMT_NV12;
    if (!e->scaler || e->scaler_source_format != source) {
        sws_freeContext(e->scaler);
        e->scaler = sws_alloc_context();
        if (!e->scaler) return AVERROR(ENOMEM);
        int full = ctx->color_range == AVCOL_RANGE_JPEG, rgb = source == AV_PIX_FMT_BGRA;
        av_opt_set_int(e->scaler, "srcw", frame->width, 0);
        av_opt_set_int(e->scaler, "srch", frame->height, 0);
        av_opt_set_int(e->scaler, "src_format", source, 0);
        av_opt_set_int(e->scaler, "dstw", frame->width, 0);
        av_opt_set_int(e->scaler, "dsth", frame->height, 0);
        av_opt_set_int(e->scaler, "dst_format", ctx->pix_fmt, 0);
        av_opt_set_int(e->scaler, "src_range", rgb ? 1 : full, 0);
        av_opt_set_int(e->scaler, "dst_range", full, 0);
        // The same size: only depth, chroma placement or R'G'B' to Y'CbCr change, which point sampling does exactly.
        av_opt_set_int(e->scaler, "sws_flags", SWS_POINT | SWS_ACCURATE_RND | (rgb ? SWS_FULL_CHR_H_INP : 0), 0);
        if (sws_init_context(e->scaler, NULL, NULL) < 0) {
            sws_freeContext(e->scaler);
            e->scaler = NULL;
            return AVERROR(EINVAL);
        }
        if (rgb) {
            // R'G'B' into Y'CbCr with the matrix the stream says it uses.
            const int *coefficients = sws_getCoefficients(sws_colorspace_of(ctx->colorspace));
            sws_setColorspaceDetails(e->scaler, coefficients, 1, coefficients, full, 0, 1 << 16, 1 << 16);
        }
        e->scaler_source_format = source;
    }
    frame->format = ctx->pix_fmt;
    int err = av_frame_get_buffer(frame, 0);
    if (err < 0) return err;
    const uint8_t *planes[4] = {y, input == CMC_INPUT_BGRA ? NULL : uv, NULL, NULL};
    const int strides[4] = {y_stride, input == CMC_INPUT_BGRA ? 0 : uv_stride, 0, 0};
    return sws_scale(e->scaler, planes, strides, 0, frame->height, frame->data, frame->linesize) > 0 ? 0 : AVERROR_EXTERNAL;
}

int cmc_video_encoder_send(cmc_video_encoder *e, const uint8_t *y, int y_stride, const uint8_t *uv, int uv_stride, int input,
                           int64_t pts_us, int keyframe, cmc_picture_release release, void *opaque) {
    if (!y) {
        int err = avcodec_send_frame(e->context, NULL);
        return err == AVERROR_EOF ? 0 : err;
    }
    AVCodecContext *ctx = e->context;
    AVFrame *frame = e->frame;
    av_frame_unref(frame);
    frame->width = ctx->width;
    frame->height = ctx->height;
    frame->color_range = ctx->color_range;
    int err = 0;
    if (e->converts_frames || input != CMC_INPUT_NV12) {
        // The encoder takes another depth or chroma layout, or the picture is R'G'B': a conversion the format forces.
        err = convert_frame(e, frame, y, y_stride, uv, uv_stride, input);
        if (release) release(opaque, (uint8_t *)y);
        if (err < 0) { av_frame_unref(frame); return err; }
    } else if (e->takes_nv12) {
        frame->format = AV_PIX_FMT_NV12;
        frame->data[0] = (uint8_t *)y;
        frame->data[1] = (uint8_t *)uv;
        frame->linesize[0] = y_stride;
        frame->linesize[1] = uv_stride;
        // The frame's memory belongs to the caller: a reference that releases it, so the encoder need not copy it.
        size_t span = (size_t)(uv > y ? (uv - y) + (size_t)uv_stride * ((ctx->height + 1) / 2) : (size_t)y_stride * ctx->height);
        frame->buf[0] = av_buffer_create((uint8_t *)y, span, release, opaque, AV_BUFFER_FLAG_READONLY);
        if (!frame->buf[0]) { av_frame_unref(frame); if (release) release(opaque, (uint8_t *)y); return AVERROR(ENOMEM); }
    } else {
        // The encoder reads planar chroma: split the interleaved plane, a copy the format forces.
        frame->format = AV_PIX_FMT_YUV420P;
        if ((err = av_frame_get_buffer(frame, 0)) < 0) { av_frame_unref(frame); if (release) release(opaque, (uint8_t *)y); return err; }
        for (int row = 0; row < frame->height; row++) memcpy(frame->data[0] + row * frame->linesize[0], y + (size_t)row * y_stride, frame->width);
        for (int row = 0; row < (frame->height + 1) / 2; row++) {
            const uint8_t *pair = uv + (size_t)row * uv_stride;
            uint8_t *u = frame->data[1] + row * frame->linesize[1], *v = frame->data[2] + row * frame->linesize[2];
            for (int x = 0; x < (frame->width + 1) / 2; x++) { u[x] = pair[2 * x]; v[x] = pair[2 * x + 1]; }
        }
        if (release) release(opaque, (uint8_t *)y);
    }
    frame->pts = pts_us;
    if (keyframe) frame->pict_type = AV_PICTURE_TYPE_I;
    err = avcodec_send_frame(ctx, frame);
    // The encoder holds references of its own to what it keeps.
    av_frame_unref(frame);
    return err;
}

int cmc_video_encoder_receive(cmc_video_encoder *e, cmc_encoded_packet *packet) {
    av_packet_unref(e->packet);
    int err = avcodec_receive_packet(e->context, e->packet);
    if (err == AVERROR(EAGAIN)) return 1;
    if (err == AVERROR_EOF) return 2;
    if (err < 0) return err;
    packet->data = e->packet->data;
    packet->size = e->packet->size;
    packet->pts = e->packet->pts;
    packet->dts = e->packet->dts;
    packet->keyframe = (e->packet->flags & AV_PKT_FLAG_KEY) != 0;
    packet->disposable = (e->packet->flags & AV_PKT_FLAG_DISPOSABLE) != 0;
    return 0;
}

int cmc_video_encoder_set_rate(cmc_video_encoder *e, int64_t bit_rate, int64_t max_bit_rate, int64_t buffer_bits) {
    // libx264's wrapper compares these with its own before each picture and reconfigures x264 when they differ.
    if (!e->x264) return AVERROR(ENOSYS);
    e->context->bit_rate = bit_rate;
    e->context->rc_max_rate = max_bit_rate;
    e->context->rc_buffer_size = (int)buffer_bits;
    return 0;
}
