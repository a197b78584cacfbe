// Animated PNGs through FFmpeg: see CAnimatedPNG.h.
#include "CAnimatedPNG.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ffmpeg_library.h"

/// Bytes in memory read as a file.
typedef struct memory_file {
    const uint8_t *data;
    size_t size, position;
} memory_file;

static int read_memory(void *opaque, uint8_t *buffer, int size) {
    memory_file *file = opaque;
    size_t left = file->size - file->position;
    if (left == 0) return AVERROR_EOF;
    size_t count = (size_t)size < left ? (size_t)size : left;
    memcpy(buffer, file->data + file->position, count);
    file->position += count;
    return (int)count;
}

/// Moves a position in `size` bytes as FFmpeg's seek callbacks ask (AVSEEK_SIZE answers the size).
static int64_t seek_within(size_t *position, size_t size, int64_t offset, int whence) {
    if (whence & AVSEEK_SIZE) return (int64_t)size;
    int64_t base = (whence & ~AVSEEK_FORCE) == SEEK_CUR ? (int64_t)*position : (whence & ~AVSEEK_FORCE) == SEEK_END ? (int64_t)size : 0;
    int64_t target = base + offset;
    if (target < 0 || target > (int64_t)size) return AVERROR(EINVAL);
    *position = (size_t)target;
    return target;
}

static int64_t seek_memory(void *opaque, int64_t offset, int whence) {
    memory_file *file = opaque;
    return seek_within(&file->position, file->size, offset, whence);
}

/// A file written in memory, which the muxer may seek back in (to count the frames in `acTL`).
typedef struct memory_output {
    uint8_t *data;
    size_t size, capacity, position;
} memory_output;

static int write_memory(void *opaque, uint8_t *buffer, int size) {
    memory_output *file = opaque;
    if (size < 0) return AVERROR(EINVAL);
    size_t end = file->position + (size_t)size;
    if (end > file->capacity) {
        size_t capacity = file->capacity ? file->capacity : 4096;
        while (capacity < end) capacity *= 2;
        uint8_t *grown = realloc(file->data, capacity);
        if (!grown) return AVERROR(ENOMEM);
        file->data = grown;
        file->capacity = capacity;
    }
    memcpy(file->data + file->position, buffer, (size_t)size);
    file->position = end;
    if (end > file->size) file->size = end;
    return size;
}

static int64_t seek_output(void *opaque, int64_t offset, int whence) {
    memory_output *file = opaque;
    return seek_within(&file->position, file->size, offset, whence);
}

/// Converts a decoded frame (any of the PNG decoder's formats) into premultiplied BGRA.
static int store_bgra(const AVFrame *frame, uint8_t *bgra, ptrdiff_t stride, int width, int height) {
    if (frame->width != width || frame->height != height) return AVERROR(EINVAL);
    struct SwsContext *scaler = sws_alloc_context();
    if (!scaler) return AVERROR(ENOMEM);
    av_opt_set_int(scaler, "srcw", width, 0);
    av_opt_set_int(scaler, "srch", height, 0);
    av_opt_set_int(scaler, "src_format", frame->format, 0);
    av_opt_set_int(scaler, "dstw", width, 0);
    av_opt_set_int(scaler, "dsth", height, 0);
    av_opt_set_int(scaler, "dst_format", AV_PIX_FMT_BGRA, 0);
    av_opt_set_int(scaler, "sws_flags", SWS_POINT, 0);
    int err = sws_init_context(scaler, NULL, NULL);
    if (err >= 0) {
        uint8_t *planes[4] = {bgra, NULL, NULL, NULL};
        const int strides[4] = {(int)stride, 0, 0, 0};
        err = sws_scale(scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, height, planes, strides) == height ? 0 : AVERROR_EXTERNAL;
    }
    sws_freeContext(scaler);
    if (err < 0) return err;
    // Image I/O's pictures are premultiplied, as Core Graphics draws them.
    for (int y = 0; y < height; y++) {
        uint8_t *pixel = bgra + (ptrdiff_t)y * stride;
        for (int x = 0; x < width; x++, pixel += 4) {
            unsigned alpha = pixel[3];
            if (alpha == 255) continue;
            for (int c = 0; c < 3; c++) pixel[c] = (uint8_t)((pixel[c] * alpha + 127) / 255);
        }
    }
    return 0;
}

int cmc_apng_decode_frame(const uint8_t *data, size_t size, int index, uint8_t *bgra, ptrdiff_t stride, int width, int height) {
    int err = cmc_ffmpeg_load();
    if (err < 0) return err;
    if (!data || size == 0 || index < 0 || !bgra || width <= 0 || height <= 0) return AVERROR(EINVAL);
    memory_file file = {data, size, 0};
    AVFormatContext *format = avformat_alloc_context();
    uint8_t *buffer = av_malloc(1 << 16);
    AVIOContext *io = buffer ? avio_alloc_context(buffer, 1 << 16, 0, &file, read_memory, NULL, seek_memory) : NULL;
    AVCodecContext *codec = NULL;
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    if (!format || !io || !packet || !frame) {
        if (!io) av_free(buffer);
        err = AVERROR(ENOMEM);
        goto done;
    }
    format->pb = io;
    format->flags |= AVFMT_FLAG_CUSTOM_IO;
    if ((err = avformat_open_input(&format, NULL, av_find_input_format("apng"), NULL)) < 0) {
        format = NULL;  // freed by avformat_open_input
        goto done;
    }
    if (format->nb_streams < 1) { err = AVERROR_INVALIDDATA; goto done; }
    const AVCodec *decoder = avcodec_find_decoder(format->streams[0]->codecpar->codec_id);
    if (!decoder || !(codec = avcodec_alloc_context3(decoder))) { err = AVERROR_DECODER_NOT_FOUND; goto done; }
    if ((err = avcodec_parameters_to_context(codec, format->streams[0]->codecpar)) < 0) goto done;
    codec->thread_count = 1;
    if ((err = avcodec_open2(codec, decoder, NULL)) < 0) goto done;
    int seen = 0, draining = 0;
    err = AVERROR_INVALIDDATA;
    while (1) {
        int received = avcodec_receive_frame(codec, frame);
        if (received == 0) {
            if (seen++ == index) { err = store_bgra(frame, bgra, stride, width, height); break; }
            av_frame_unref(frame);
            continue;
        }
        if (received != AVERROR(EAGAIN) || draining) break;
        int read = av_read_frame(format, packet);
        if (read < 0) {
            draining = 1;
            avcodec_send_packet(codec, NULL);
            continue;
        }
        int sent = packet->stream_index == 0 ? avcodec_send_packet(codec, packet) : 0;
        av_packet_unref(packet);
        if (sent < 0 && sent != AVERROR(EAGAIN)) { err = sent; break; }
    }
done:
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&codec);
    if (format) avformat_close_input(&format);
    if (io) {
        av_freep(&io->buffer);
        avio_context_free(&io);
    }
    return err;
}

/// Takes every packet the encoder has ready into the muxer.
static int write_packets(AVCodecContext *codec, AVFormatContext *format, AVPacket *packet) {
    while (1) {
        int err = avcodec_receive_packet(codec, packet);
        if (err == AVERROR(EAGAIN) || err == AVERROR_EOF) return 0;
        if (err < 0) return err;
        packet->stream_index = 0;
        av_packet_rescale_ts(packet, codec->time_base, format->streams[0]->time_base);
        if ((err = av_interleaved_write_frame(format, packet)) < 0) return err;
    }
}

int cmc_apng_encode(const uint8_t *const *frames, int count, int width, int height, ptrdiff_t stride, const int *delays_ms, int plays,
                    uint8_t **out, size_t *out_size) {
    int err = cmc_ffmpeg_load();
    if (err < 0) return err;
    if (!frames || count < 1 || width <= 0 || height <= 0 || !delays_ms || !out || !out_size) return AVERROR(EINVAL);
    *out = NULL;
    *out_size = 0;
    AVFormatContext *format = NULL;
    AVCodecContext *codec = NULL;
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    const AVCodec *encoder = avcodec_find_encoder_by_name("apng");
    memory_output output = {NULL, 0, 0, 0};
    int opened = 0;
    if (!packet || !frame) { err = AVERROR(ENOMEM); goto done; }
    if (!encoder) { err = AVERROR_ENCODER_NOT_FOUND; goto done; }
    if ((err = avformat_alloc_output_context2(&format, NULL, "apng", NULL)) < 0) goto done;
    AVStream *stream = avformat_new_stream(format, NULL);
    if (!stream || !(codec = avcodec_alloc_context3(encoder))) { err = AVERROR(ENOMEM); goto done; }
    codec->width = width;
    codec->height = height;
    codec->pix_fmt = AV_PIX_FMT_RGB24;
    codec->time_base = (AVRational){1, 1000};
    if ((err = avcodec_open2(codec, encoder, NULL)) < 0) goto done;
    if ((err = avcodec_parameters_from_context(stream->codecpar, codec)) < 0) goto done;
    stream->time_base = codec->time_base;
    av_opt_set_int(format->priv_data, "plays", plays < 0 ? 0 : plays > 65535 ? 65535 : plays, 0);
    // The last frame's delay is not the distance to a next one: the muxer is told it.
    char last[32];
    snprintf(last, sizeof last, "%d/1000", delays_ms[count - 1] < 0 ? 0 : delays_ms[count - 1]);
    av_opt_set(format->priv_data, "final_delay", last, 0);
    uint8_t *buffer = av_malloc(1 << 16);
    if (!buffer || !(format->pb = avio_alloc_context(buffer, 1 << 16, 1, &output, NULL, write_memory, seek_output))) {
        av_free(buffer);
        err = AVERROR(ENOMEM);
        goto done;
    }
    format->flags |= AVFMT_FLAG_CUSTOM_IO;
    opened = 1;
    if ((err = avformat_write_header(format, NULL)) < 0) goto done;
    frame->format = AV_PIX_FMT_RGB24;
    frame->width = width;
    frame->height = height;
    if ((err = av_frame_get_buffer(frame, 0)) < 0) goto done;
    int64_t time = 0;
    for (int index = 0; index < count; index++) {
        if ((err = av_frame_make_writable(frame)) < 0) goto done;
        for (int y = 0; y < height; y++) {
            const uint8_t *source = frames[index] + (ptrdiff_t)y * stride;
            uint8_t *target = frame->data[0] + (ptrdiff_t)y * frame->linesize[0];
            for (int x = 0; x < width; x++, source += 4, target += 3) {
                target[0] = source[2];
                target[1] = source[1];
                target[2] = source[0];
            }
        }
        frame->pts = time;
        time += delays_ms[index] < 0 ? 0 : delays_ms[index];
        if ((err = avcodec_send_frame(codec, frame)) < 0) goto done;
        if ((err = write_packets(codec, format, packet)) < 0) goto done;
    }
    if ((err = avcodec_send_frame(codec, NULL)) < 0) goto done;
    if ((err = write_packets(codec, format, packet)) < 0) goto done;
    err = av_write_trailer(format);
done:
    if (opened) {
        avio_flush(format->pb);
        av_freep(&format->pb->buffer);
        avio_context_free(&format->pb);
    }
    if (err >= 0 && output.size > 0) {
        *out = output.data;
        *out_size = output.size;
    } else {
        free(output.data);
        if (err >= 0) err = AVERROR(EINVAL);
    }
    avcodec_free_context(&codec);
    avformat_free_context(format);
    av_frame_free(&frame);
    av_packet_free(&packet);
    return err < 0 ? err : 0;
}
