// Writing movies with FFmpeg's libraries: see CMediaCodecs.h.
#include "CMediaCodecs.h"
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "video_encoder.h"
#include "ffmpeg_library.h"
#include <stdio.h>

// MARK: - FFmpeg's log, handed to the client

static cmc_log_handler log_handler;
static int log_level;

static void on_ffmpeg_log(void *object, int level, const char *format, va_list arguments) {
    cmc_log_handler handler = log_handler;
    int ours = level <= AV_LOG_ERROR ? 1 : level <= AV_LOG_WARNING ? 2 : level <= AV_LOG_INFO ? 3 : 4;
    if (!handler || ours > log_level) return;
    char text[1024];
    int prefix = 1;
    av_log_format_line2(object, level, format, arguments, text, sizeof text, &prefix);
    size_t length = strlen(text);
    while (length > 0 && text[length - 1] == '\n') text[--length] = 0;
    if (length > 0) handler(ours, text);
}

void cmc_ffmpeg_take_log(void) { av_log_set_callback(on_ffmpeg_log); }

void cmc_set_log_handler(cmc_log_handler handler, int level) {
    log_handler = handler;
    log_level = handler ? level : 0;
}

/// Loads FFmpeg if it is not loaded; 0 or AVERROR(ENOSYS).
static int ready(void) { return cmc_ffmpeg_load(); }

struct cmc_writer {
    AVFormatContext *format;
    cmc_video_encoder *video_encoder;
    AVCodecContext *video;   // the video encoder's context
    AVCodecContext *audio;
    AVStream *video_stream;
    AVStream *audio_stream;
    SwrContext *resampler;
    AVAudioFifo *fifo;
    /// Planar float samples converted from the client's, kept and grown: none allocated per call.
    uint8_t **converted;
    int converted_capacity;
    AVFrame *audio_frame;
    int audio_block;       // frames handed to the audio encoder at a time
    int audio_input_size;  // bytes of one input sample: 2 (16-bit integers) or 4 (32-bit floats)
    AVPacket *packet;
    int64_t next_audio_pts;
    int audio_started;
    int fragmented;
    int faststart;
    int fragment_requested;
    int64_t fragment_from_us; // the cut waits for a video keyframe presented at or after this time
    int header_written;
    int64_t bytes_muxed;
    int64_t durable_bytes;
    int live;
    int64_t timeout_us;
    int64_t deadline;        // when the network operation under way gives up (av_gettime_relative), 0 for none
    /// Segmented output: the muxer writes into `segment` through a custom I/O context, and each
    /// segment is handed to the handler as it is complete.
    cmc_segment_handler segment_handler;
    void *segment_opaque;
    uint8_t *segment;
    int64_t segment_size, segment_capacity;
    int segment_failed;
    int force_keyframe;      // the next picture encoded is made a keyframe
    int64_t keyframe_from_us; // the first picture presented at or after this time is made a keyframe (segments start on time)
};

/// The custom I/O context's writer: appends the muxer's bytes to the segment being made.
static int append_to_segment(void *opaque, uint8_t *data, int size) {
    cmc_writer *w = opaque;
    if (w->segment_size + size > w->segment_capacity) {
        int64_t capacity = w->segment_capacity ? w->segment_capacity : 1 << 20;
        while (capacity < w->segment_size + size) capacity *= 2;
        uint8_t *grown = realloc(w->segment, (size_t)capacity);
        if (!grown) { w->segment_failed = 1; return AVERROR(ENOMEM); }
        w->segment = grown;
        w->segment_capacity = capacity;
    }
    memcpy(w->segment + w->segment_size, data, (size_t)size);
    w->segment_size += size;
    return size;
}

/// Hands the bytes made since the last segment to the handler, if there are any.
static int hand_over_segment(cmc_writer *w, int initialization) {
    if (!w->segment_handler) return 0;
    avio_flush(w->format->pb);
    if (w->segment_failed) return AVERROR(ENOMEM);
    if (w->segment_size > 0) w->segment_handler(w->segment_opaque, initialization, w->segment, w->segment_size);
    w->segment_size = 0;
    return 0;
}

// MARK: - Live streams: every network operation has a deadline

static int past_deadline(void *opaque) {
    cmc_writer *w = opaque;
    return w->deadline && av_gettime_relative() > w->deadline;
}

/// Starts the clock of one network operation (a no-op for files).
static void arm(cmc_writer *w) {
    if (w->live) w->deadline = av_gettime_relative() + w->timeout_us;
}

/// The output's I/O error, if it has an I/O context (an RTSP muxer keeps its own connection).
static int io_error(cmc_writer *w) { return w->format->pb ? w->format->pb->error : 0; }

static const char *codec_name_of(const char *encoder) {
    return encoder && strstr(encoder, "265") ? "hevc" : "h264";
}

int cmc_encoder_available(const char *name) { return ready() == 0 && avcodec_find_encoder_by_name(name) != NULL; }

void cmc_error_string(int error, char *buffer, size_t size) {
    if (ready() != 0) snprintf(buffer, size, "%s", cmc_media_library_problem());
    else av_strerror(error, buffer, size);
}

int cmc_error_no_space(void) { return AVERROR(ENOSPC); }

static void set_display_matrix(AVStream *stream, int rotation_degrees, int mirrored) {
    if (rotation_degrees % 360 == 0 && !mirrored) return;
    uint8_t *side = av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, sizeof(int32_t) * 9);
    if (!side) return;
    int32_t *matrix = (int32_t *)side;
    // av_display_rotation_set describes a clockwise turn, as rotation_degrees does.
    av_display_rotation_set(matrix, (double)rotation_degrees);
    if (mirrored) av_display_matrix_flip(matrix, 1, 0);
}

static int open_video(cmc_writer *w, const cmc_writer_config *c) {
    cmc_video_encoder_config e = {
        .encoder = c->video_encoder, .preset = c->encoder_preset, .width = c->width, .height = c->height, .full_range = c->full_range,
        .bit_rate = c->video_bit_rate, .writer_rate_control = 1, .quality = -1,
        .keyframe_interval = c->keyframe_interval > 0 ? c->keyframe_interval : 30, .expected_frame_rate = c->expected_frame_rate,
        .sar_num = c->sar_num, .sar_den = c->sar_den,
        .color_primaries = c->color_primaries, .color_trc = c->color_trc, .colorspace = c->colorspace,
        .profile = c->video_profile, .level = c->video_level, .entropy_cabac = c->entropy_cabac, .b_frames = c->b_frames,
        .droppable_b_frames = c->droppable_b_frames, .max_frame_delay = -1, .encoder_pixel_format = c->encoder_pixel_format,
        .global_header = 1,
    };
    int err;
    w->video_encoder = cmc_video_encoder_open(&e, &err);
    if (!w->video_encoder) return err;
    AVCodecContext *ctx = w->video = cmc_video_encoder_context(w->video_encoder);
    AVStream *st = avformat_new_stream(w->format, NULL);
    if (!st) return AVERROR(ENOMEM);
    w->video_stream = st;
    st->time_base = (AVRational){1, 90000};
    if (ctx->framerate.num) st->avg_frame_rate = ctx->framerate;
    err = avcodec_parameters_from_context(st->codecpar, ctx);
    if (err < 0) return err;
    // The container's pixel aspect ratio (MPEG-4's pasp box) as well as the stream's own.
    st->sample_aspect_ratio = ctx->sample_aspect_ratio;
    if (strcmp(codec_name_of(c->video_encoder), "hevc") == 0) st->codecpar->codec_tag = MKTAG('h', 'v', 'c', '1');
    set_display_matrix(st, c->rotation_degrees, c->mirrored);
    return 0;
}

/// The sample format an encoder is opened with: the first it takes that keeps `bits` (0: its first).
static enum AVSampleFormat encoder_sample_format(const AVCodec *codec, int bits) {
    const enum AVSampleFormat *formats = codec->sample_fmts;
    if (!formats) return AV_SAMPLE_FMT_FLTP;
    if (bits > 0) {
        for (const enum AVSampleFormat *format = formats; *format != AV_SAMPLE_FMT_NONE; format++) {
            if (av_get_bytes_per_sample(*format) * 8 >= bits) return *format;
        }
    }
    return formats[0];
}

static int open_audio(cmc_writer *w, const cmc_writer_config *c) {
    const AVCodec *codec = c->audio_encoder ? avcodec_find_encoder_by_name(c->audio_encoder) : avcodec_find_encoder(AV_CODEC_ID_AAC);
    if (!codec || codec->type != AVMEDIA_TYPE_AUDIO) return AVERROR_ENCODER_NOT_FOUND;
    AVCodecContext *ctx = avcodec_alloc_context3(codec);
    if (!ctx) return AVERROR(ENOMEM);
    w->audio = ctx;
    ctx->sample_fmt = encoder_sample_format(codec, c->audio_bits);
    // Encoders that keep fewer bits than their format holds (24 in 32 for FLAC and ALAC) are told so.
    if (c->audio_bits > 0 && c->audio_bits < av_get_bytes_per_sample(ctx->sample_fmt) * 8) ctx->bits_per_raw_sample = c->audio_bits;
    ctx->sample_rate = c->sample_rate;
    if (c->channel_mask) {
        int err = av_channel_layout_from_mask(&ctx->ch_layout, c->channel_mask);
        if (err < 0) return err;
        if (ctx->ch_layout.nb_channels != c->channels) return AVERROR(EINVAL);
    } else {
        av_channel_layout_default(&ctx->ch_layout, c->channels);
    }
    if (c->audio_bit_rate > 0) ctx->bit_rate = c->audio_bit_rate;
    else if (codec->id == AV_CODEC_ID_AAC) ctx->bit_rate = 64000 * c->channels;
    ctx->time_base = (AVRational){1, c->sample_rate};
    if (w->format->oformat->flags & AVFMT_GLOBALHEADER) ctx->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    int err = avcodec_open2(ctx, codec, NULL);
    if (err < 0) return err;
    // Encoders that take any number of frames (PCM) are given them a block at a time.
    w->audio_block = ctx->frame_size > 0 ? ctx->frame_size : 4096;
    AVStream *st = avformat_new_stream(w->format, NULL);
    if (!st) return AVERROR(ENOMEM);
    w->audio_stream = st;
    st->time_base = (AVRational){1, c->sample_rate};
    err = avcodec_parameters_from_context(st->codecpar, ctx);
    if (err < 0) return err;
    // The input is in the written layout, its channels perhaps in another order: mapped, never mixed.
    w->audio_input_size = c->audio_input_float ? 4 : 2;
    err = swr_alloc_set_opts2(&w->resampler, &ctx->ch_layout, ctx->sample_fmt, c->sample_rate,
                              &ctx->ch_layout, c->audio_input_float ? AV_SAMPLE_FMT_FLT : AV_SAMPLE_FMT_S16, c->sample_rate, 0, NULL);
    if (err < 0) return err;
    if (c->channel_map && (err = swr_set_channel_mapping(w->resampler, c->channel_map)) < 0) return err;
    if ((err = swr_init(w->resampler)) < 0) return err;
    w->fifo = av_audio_fifo_alloc(ctx->sample_fmt, c->channels, w->audio_block * 4);
    w->audio_frame = av_frame_alloc();
    if (!w->fifo || !w->audio_frame) return AVERROR(ENOMEM);
    w->audio_frame->nb_samples = w->audio_block;
    w->audio_frame->format = ctx->sample_fmt;
    w->audio_frame->sample_rate = c->sample_rate;
    av_channel_layout_copy(&w->audio_frame->ch_layout, &ctx->ch_layout);
    return av_frame_get_buffer(w->audio_frame, 0);
}

static enum AVCodecID codec_id_named(const char *name) {
    if (!name) return AV_CODEC_ID_NONE;
    if (strcmp(name, "h264") == 0) return AV_CODEC_ID_H264;
    if (strcmp(name, "hevc") == 0) return AV_CODEC_ID_HEVC;
    if (strcmp(name, "aac") == 0) return AV_CODEC_ID_AAC;
    if (strcmp(name, "pcm_s16le") == 0) return AV_CODEC_ID_PCM_S16LE;
    return AV_CODEC_ID_NONE;
}

static int add_passthrough_stream(cmc_writer *w, const cmc_writer_config *c, int video) {
    enum AVCodecID id = codec_id_named(video ? c->video_passthrough : c->audio_passthrough);
    if (id == AV_CODEC_ID_NONE) return AVERROR(EINVAL);
    AVStream *st = avformat_new_stream(w->format, NULL);
    if (!st) return AVERROR(ENOMEM);
    AVCodecParameters *par = st->codecpar;
    par->codec_id = id;
    const uint8_t *extradata = video ? c->video_extradata : c->audio_extradata;
    int extradata_size = video ? c->video_extradata_size : c->audio_extradata_size;
    if (video) {
        if (c->color_primaries) par->color_primaries = c->color_primaries;
        if (c->color_trc) par->color_trc = c->color_trc;
        if (c->colorspace) par->color_space = c->colorspace;
    }
    if (extradata && extradata_size > 0) {
        par->extradata = av_mallocz(extradata_size + AV_INPUT_BUFFER_PADDING_SIZE);
        if (!par->extradata) return AVERROR(ENOMEM);
        memcpy(par->extradata, extradata, extradata_size);
        par->extradata_size = extradata_size;
    }
    if (video) {
        par->codec_type = AVMEDIA_TYPE_VIDEO;
        par->width = c->width;
        par->height = c->height;
        if (id == AV_CODEC_ID_HEVC) par->codec_tag = MKTAG('h', 'v', 'c', '1');
        st->time_base = (AVRational){1, 90000};
        set_display_matrix(st, c->rotation_degrees, c->mirrored);
        w->video_stream = st;
    } else {
        par->codec_type = AVMEDIA_TYPE_AUDIO;
        par->sample_rate = c->sample_rate;
        av_channel_layout_default(&par->ch_layout, c->channels);
        if (id == AV_CODEC_ID_AAC) par->frame_size = 1024;
        if (id == AV_CODEC_ID_PCM_S16LE) { par->bits_per_coded_sample = 16; par->block_align = 2 * c->channels; }
        st->time_base = (AVRational){1, c->sample_rate};
        w->audio_stream = st;
    }
    return 0;
}

/// Creates `path` as a new empty file, never through a symbolic link (a dangling one included)
/// and never over anything already there, so that the muxer's own open writes to it alone.
static int create_exclusively(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) return AVERROR(errno);
    close(fd);
    return 0;
}

cmc_writer *cmc_writer_open(const cmc_writer_config *c, int *error) {
    int err = ready();
    if (err < 0) { *error = err; return NULL; }
    cmc_writer *w = av_mallocz(sizeof(cmc_writer));
    if (!w) { *error = AVERROR(ENOMEM); return NULL; }
    w->fragmented = c->fragmented && !c->live;
    w->faststart = c->faststart && !c->live;
    w->live = c->live;
    w->keyframe_from_us = INT64_MAX;
    w->timeout_us = (int64_t)(c->timeout_ms > 0 ? c->timeout_ms : 5000) * 1000;
    w->packet = av_packet_alloc();
    if (!w->packet) { err = AVERROR(ENOMEM); goto fail; }
    if (c->live) avformat_network_init();
    if ((err = avformat_alloc_output_context2(&w->format, NULL, c->format, c->path)) < 0) goto fail;
    w->format->interrupt_callback = (AVIOInterruptCB){past_deadline, w};
    if (c->video_passthrough) { if ((err = add_passthrough_stream(w, c, 1)) < 0) goto fail; }
    else if (c->has_video && (err = open_video(w, c)) < 0) goto fail;
    if (c->audio_passthrough) { if ((err = add_passthrough_stream(w, c, 0)) < 0) goto fail; }
    else if (c->has_audio && (err = open_audio(w, c)) < 0) goto fail;
    if (c->segment_handler) {
        w->segment_handler = c->segment_handler;
        w->segment_opaque = c->segment_opaque;
        w->fragmented = 1;
        uint8_t *buffer = av_malloc(1 << 16);
        if (!buffer) { err = AVERROR(ENOMEM); goto fail; }
        w->format->pb = avio_alloc_context(buffer, 1 << 16, 1, w, NULL, append_to_segment, NULL);
        if (!w->format->pb) { av_free(buffer); err = AVERROR(ENOMEM); goto fail; }
        w->format->flags |= AVFMT_FLAG_CUSTOM_IO;
    } else if (!(w->format->oformat->flags & AVFMT_NOFILE)) {
        if (!c->live && (err = create_exclusively(c->path)) < 0) goto fail;
        arm(w);
        err = avio_open2(&w->format->pb, c->path, AVIO_FLAG_WRITE, &w->format->interrupt_callback, NULL);
        w->deadline = 0;
        if (err < 0) {
            if (!c->live) unlink(c->path);
            goto fail;
        }
    }
    *error = 0;
    return w;
fail:
    *error = err;
    cmc_writer_free(w);
    return NULL;
}

int cmc_writer_set_metadata(cmc_writer *w, const char *key, const char *value) {
    return av_dict_set(&w->format->metadata, key, value, 0);
}

/// Whether a muxer writes QuickTime's atoms (and takes its movie flags).
static int is_quicktime_family(const char *name) {
    return strcmp(name, "mov") == 0 || strcmp(name, "mp4") == 0 || strcmp(name, "ipod") == 0 || strcmp(name, "3gp") == 0;
}

static int write_header(cmc_writer *w) {
    if (w->header_written) return 0;
    AVDictionary *options = NULL;
    if (w->live) {
        // RTSP over TCP: what servers accept by default, and nothing is lost on the way.
        if (strcmp(w->format->oformat->name, "rtsp") == 0) av_dict_set(&options, "rtsp_transport", "tcp", 0);
        // FLV over RTMP cannot seek back to write the duration and size.
        if (strcmp(w->format->oformat->name, "flv") == 0) av_dict_set(&options, "flvflags", "no_duration_filesize", 0);
    } else if (!is_quicktime_family(w->format->oformat->name)) {
        // Sound files (WAV, AIFF, CAF, FLAC, ADTS) take no movie flags.
    } else if (w->segment_handler) {
        // CMAF: each segment a moof and mdat that stands alone, the moov first and empty of samples.
        av_dict_set(&options, "movflags", "+frag_custom+empty_moov+default_base_moof+cmaf+skip_trailer", 0);
    } else if (w->fragmented) av_dict_set(&options, "movflags", "+frag_custom+empty_moov+default_base_moof+use_metadata_tags", 0);
    else av_dict_set(&options, "movflags", w->faststart ? "+faststart+use_metadata_tags" : "+use_metadata_tags", 0);
    arm(w);
    int err = avformat_write_header(w->format, &options);
    w->deadline = 0;
    av_dict_free(&options);
    if (err < 0) return err;
    if (w->format->pb) avio_flush(w->format->pb);
    w->header_written = 1;
    w->bytes_muxed = w->format->pb ? avio_seek(w->format->pb, 0, SEEK_CUR) : 0;
    w->durable_bytes = w->bytes_muxed;
    if ((err = hand_over_segment(w, 1)) < 0) return err;
    return io_error(w);
}

/// Whether a video keyframe presented at `pts_us` may start the fragment asked for: one the encoder
/// placed on its own (its interval, a scene cut) just before the time asked does not.
static int cuts_at(const cmc_writer *w, int64_t pts_us) { return pts_us >= w->fragment_from_us; }

static int cut_fragment(cmc_writer *w) {
    w->fragment_requested = 0;
    // Packets still waiting to be interleaved belong before the cut: into the muxer with them first,
    // so that the next fragment starts with the keyframe that asked for it.
    int err = av_interleaved_write_frame(w->format, NULL);
    if (err < 0) return err;
    err = av_write_frame(w->format, NULL);
    if (err < 0) return err;
    avio_flush(w->format->pb);
    if (w->format->pb->error) return w->format->pb->error;
    w->durable_bytes = avio_seek(w->format->pb, 0, SEEK_CUR);
    return hand_over_segment(w, 0);
}

static int drain(cmc_writer *w, AVCodecContext *ctx, AVStream *stream) {
    for (;;) {
        int err = avcodec_receive_packet(ctx, w->packet);
        if (err == AVERROR(EAGAIN) || err == AVERROR_EOF) return 0;
        if (err < 0) return err;
        int keyframe = (w->packet->flags & AV_PKT_FLAG_KEY) != 0;
        if (w->fragmented && w->fragment_requested
            && (stream == w->video_stream ? keyframe && cuts_at(w, av_rescale_q(w->packet->pts, ctx->time_base, (AVRational){1, 1000000}))
                                           : !w->video_stream)) {
            if ((err = cut_fragment(w)) < 0) { av_packet_unref(w->packet); return err; }
        }
        av_packet_rescale_ts(w->packet, ctx->time_base, stream->time_base);
        w->packet->stream_index = stream->index;
        w->bytes_muxed += w->packet->size;
        arm(w);
        err = av_interleaved_write_frame(w->format, w->packet);
        w->deadline = 0;
        if (err < 0) return err;
        if (io_error(w)) return io_error(w);
    }
}

int cmc_writer_write_video(cmc_writer *w, const uint8_t *y, int y_stride, const uint8_t *uv, int uv_stride, int input,
                           int64_t pts_us, cmc_release_callback release, void *opaque) {
    int err = write_header(w);
    if (err < 0) { if (release) release(opaque, (uint8_t *)y); return err; }
    int keyframe = w->force_keyframe;
    w->force_keyframe = 0;
    if (pts_us >= w->keyframe_from_us) {
        keyframe = 1;
        w->keyframe_from_us = INT64_MAX;
    }
    if ((err = cmc_video_encoder_send(w->video_encoder, y, y_stride, uv, uv_stride, input, pts_us, keyframe, release, opaque)) < 0) return err;
    return drain(w, w->video, w->video_stream);
}

static int encode_audio_fifo(cmc_writer *w, int flush) {
    AVCodecContext *ctx = w->audio;
    while (av_audio_fifo_size(w->fifo) >= w->audio_block || (flush && av_audio_fifo_size(w->fifo) > 0)) {
        int err = av_frame_make_writable(w->audio_frame);
        if (err < 0) return err;
        int count = av_audio_fifo_size(w->fifo) < w->audio_block ? av_audio_fifo_size(w->fifo) : w->audio_block;
        w->audio_frame->nb_samples = count;
        if (av_audio_fifo_read(w->fifo, (void **)w->audio_frame->data, count) < count) return AVERROR(EIO);
        w->audio_frame->pts = w->next_audio_pts;
        w->next_audio_pts += count;
        if ((err = avcodec_send_frame(ctx, w->audio_frame)) < 0) return err;
        if ((err = drain(w, ctx, w->audio_stream)) < 0) return err;
        w->audio_frame->nb_samples = w->audio_block;
    }
    return 0;
}

/// Encodes interleaved samples of the writer's input format (`w->audio_input_size` bytes each).
static int write_audio(cmc_writer *w, const uint8_t *samples, int frames, int64_t first_sample) {
    if (!w->audio) return AVERROR(EINVAL);
    int err = write_header(w);
    if (err < 0) return err;
    if (!w->audio_started) {
        w->audio_started = 1;
        w->next_audio_pts = first_sample;
    }
    int channels = w->audio->ch_layout.nb_channels;
    enum AVSampleFormat format = w->audio->sample_fmt;
    // Samples go in at the number they have: a gap is filled with silence, an overlap is skipped.
    int64_t expected = w->next_audio_pts + av_audio_fifo_size(w->fifo);
    if (first_sample > expected) {
        int gap = (int)(first_sample - expected);
        uint8_t **silence = NULL;
        if (av_samples_alloc_array_and_samples(&silence, NULL, channels, gap, format, 0) >= 0) {
            av_samples_set_silence(silence, 0, gap, channels, format);
            av_audio_fifo_write(w->fifo, (void **)silence, gap);
            av_freep(&silence[0]);
            av_freep(&silence);
        }
    } else if (first_sample < expected) {
        int skip = (int)(expected - first_sample);
        if (skip >= frames) return 0;
        samples += (size_t)skip * channels * w->audio_input_size;
        frames -= skip;
    }
    if (frames > w->converted_capacity) {
        if (w->converted) { av_freep(&w->converted[0]); av_freep(&w->converted); }
        w->converted_capacity = 0;
        if ((err = av_samples_alloc_array_and_samples(&w->converted, NULL, channels, frames, format, 0)) < 0) return err;
        w->converted_capacity = frames;
    }
    const uint8_t *in[1] = {samples};
    int got = swr_convert(w->resampler, w->converted, frames, in, frames);
    if (got > 0) av_audio_fifo_write(w->fifo, (void **)w->converted, got);
    if (got < 0) return got;
    return encode_audio_fifo(w, 0);
}

int cmc_writer_write_audio(cmc_writer *w, const int16_t *samples, int frames, int64_t first_sample) {
    if (w->audio_input_size != 2) return AVERROR(EINVAL);
    return write_audio(w, (const uint8_t *)samples, frames, first_sample);
}

int cmc_writer_write_audio_float(cmc_writer *w, const float *samples, int frames, int64_t first_sample) {
    if (w->audio_input_size != 4) return AVERROR(EINVAL);
    return write_audio(w, (const uint8_t *)samples, frames, first_sample);
}

int cmc_writer_write_packet(cmc_writer *w, int video, const uint8_t *data, int size, int64_t pts_us, int64_t dts_us, int keyframe) {
    int err = write_header(w);
    if (err < 0) return err;
    AVStream *stream = video ? w->video_stream : w->audio_stream;
    if (!stream) return AVERROR(EINVAL);
    if ((err = av_new_packet(w->packet, size)) < 0) return err;
    memcpy(w->packet->data, data, size);
    w->packet->pts = av_rescale_q(pts_us, (AVRational){1, 1000000}, stream->time_base);
    w->packet->dts = av_rescale_q(dts_us, (AVRational){1, 1000000}, stream->time_base);
    w->packet->flags = keyframe ? AV_PKT_FLAG_KEY : 0;
    w->packet->stream_index = stream->index;
    if (w->fragmented && w->fragment_requested && (video ? keyframe && cuts_at(w, pts_us) : !w->video_stream)) {
        if ((err = cut_fragment(w)) < 0) { av_packet_unref(w->packet); return err; }
    }
    w->bytes_muxed += size;
    arm(w);
    err = av_interleaved_write_frame(w->format, w->packet);
    w->deadline = 0;
    if (err < 0) return err;
    return io_error(w);
}

void cmc_writer_force_keyframe(cmc_writer *w) { w->force_keyframe = 1; }

void cmc_writer_request_fragment(cmc_writer *w, int64_t from_us) {
    w->fragment_requested = 1;
    w->fragment_from_us = from_us;
    // A segment should be as long as asked: its first picture is made a keyframe rather than waited for.
    if (w->segment_handler) w->keyframe_from_us = from_us;
}

int64_t cmc_writer_bytes_muxed(const cmc_writer *w) { return w->bytes_muxed; }

int64_t cmc_writer_durable_bytes(const cmc_writer *w) { return w->durable_bytes; }

int cmc_writer_finish(cmc_writer *w) {
    int err = write_header(w);
    if (err < 0) return err;
    if (w->video) {
        if ((err = avcodec_send_frame(w->video, NULL)) < 0 && err != AVERROR_EOF) return err;
        if ((err = drain(w, w->video, w->video_stream)) < 0) return err;
    }
    if (w->audio) {
        if ((err = encode_audio_fifo(w, 1)) < 0) return err;
        if ((err = avcodec_send_frame(w->audio, NULL)) < 0 && err != AVERROR_EOF) return err;
        if ((err = drain(w, w->audio, w->audio_stream)) < 0) return err;
    }
    arm(w);
    err = av_write_trailer(w->format);
    w->deadline = 0;
    if (err < 0) return err;
    if (!w->format->pb) return 0;
    avio_flush(w->format->pb);
    if (w->format->pb->error) return w->format->pb->error;
    w->durable_bytes = avio_seek(w->format->pb, 0, SEEK_CUR);
    return hand_over_segment(w, 0);
}

void cmc_writer_free(cmc_writer *w) {
    if (!w) return;
    // Closing a connection that is gone must not wait long either.
    arm(w);
    if (w->segment_handler && w->format && w->format->pb) {
        av_freep(&w->format->pb->buffer);
        avio_context_free(&w->format->pb);
    } else if (w->format && w->format->pb) avio_closep(&w->format->pb);
    free(w->segment);
    if (w->format) avformat_free_context(w->format);
    cmc_video_encoder_free(w->video_encoder);
    w->video = NULL;
    avcodec_free_context(&w->audio);
    swr_free(&w->resampler);
    if (w->fifo) av_audio_fifo_free(w->fifo);
    if (w->converted) { av_freep(&w->converted[0]); av_freep(&w->converted); }
    av_frame_free(&w->audio_frame);
    av_packet_free(&w->packet);
    av_free(w);
}

int cmc_remux(const char *source, const char *destination, const char *format,
              const char *const *metadata, int rotation_degrees, int mirrored) {
    if (ready() != 0) return AVERROR(ENOSYS);
    AVFormatContext *in = NULL, *out = NULL;
    AVPacket *packet = av_packet_alloc();
    AVDictionary *options = NULL;
    int err = packet ? avformat_open_input(&in, source, NULL, NULL) : AVERROR(ENOMEM);
    if (err < 0) goto done;
    if ((err = avformat_find_stream_info(in, NULL)) < 0) goto done;
    if ((err = avformat_alloc_output_context2(&out, NULL, format, destination)) < 0) goto done;
    av_dict_copy(&out->metadata, in->metadata, 0);
    for (const char *const *entry = metadata; entry && entry[0] && entry[1]; entry += 2) av_dict_set(&out->metadata, entry[0], entry[1], 0);
    for (unsigned i = 0; i < in->nb_streams; i++) {
        AVStream *source_stream = in->streams[i];
        AVStream *stream = avformat_new_stream(out, NULL);
        if (!stream) { err = AVERROR(ENOMEM); goto done; }
        if ((err = avcodec_parameters_copy(stream->codecpar, source_stream->codecpar)) < 0) goto done;
        stream->codecpar->codec_tag = 0;
        if (stream->codecpar->codec_id == AV_CODEC_ID_HEVC) stream->codecpar->codec_tag = MKTAG('h', 'v', 'c', '1');
        stream->time_base = source_stream->time_base;
        stream->avg_frame_rate = source_stream->avg_frame_rate;
        if (stream->codecpar->codec_type == AVMEDIA_TYPE_VIDEO) set_display_matrix(stream, rotation_degrees, mirrored);
    }
    if ((err = create_exclusively(destination)) < 0) goto done;
    if ((err = avio_open(&out->pb, destination, AVIO_FLAG_WRITE)) < 0) goto done;
    av_dict_set(&options, "movflags", "+faststart+use_metadata_tags", 0);
    if ((err = avformat_write_header(out, &options)) < 0) goto done;
    while ((err = av_read_frame(in, packet)) >= 0) {
        AVStream *from = in->streams[packet->stream_index], *to = out->streams[packet->stream_index];
        av_packet_rescale_ts(packet, from->time_base, to->time_base);
        packet->pos = -1;
        err = av_interleaved_write_frame(out, packet);
        if (err < 0) goto done;
    }
    if (err == AVERROR_EOF) err = 0;
    if (err < 0) goto done;
    err = av_write_trailer(out);
    if (err >= 0 && out->pb->error) err = out->pb->error;
done:
    av_dict_free(&options);
    av_packet_free(&packet);
    if (in) avformat_close_input(&in);
    if (out) {
        if (out->pb) avio_closep(&out->pb);
        avformat_free_context(out);
    }
    return err;
}
