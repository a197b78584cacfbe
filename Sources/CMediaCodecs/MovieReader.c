// Reading movies with FFmpeg's libraries: see CMovieReading.h.
#include "CMovieReading.h"
#include "CVideoCoding.h"
#include <errno.h>
#include <string.h>
#include "ffmpeg_library.h"
#include <libavutil/intreadwrite.h>

struct cmc_reader {
    AVFormatContext *format;
    AVPacket *packet;
    AVIOContext *io;    // a stream's reading context, for readers opened with cmc_reader_open_stream
};

struct cmc_decoder {
    int stream;
    AVCodecContext *codec;
    AVFrame *frame;
    AVPacket *packet;        // wraps the bytes handed to cmc_decoder_send
    int drained;
    // Pictures: a scaler kept while the pictures and the target stay the same.
    struct SwsContext *scaler;
    int scaler_out_width, scaler_out_height;
    int scaler_width, scaler_height, scaler_format, scaler_target, scaler_matrix, scaler_range;
    // Sound: a resampler kept while the sound and the target stay the same, and its output.
    SwrContext *resampler;
    int resampler_in_rate, resampler_in_format, resampler_in_channels;
    int resampler_out_rate, resampler_out_format, resampler_out_channels;
    uint8_t *samples;
    int samples_capacity;   // bytes
};

/// Opens `reader->format` (allocated already when it reads a stream) and reads its streams' facts.
static cmc_reader *open_reader(cmc_reader *reader, const char *path, int *error) {
    // A movie is read from its own file by the demuxers of audiovisual files: never a playlist,
    // a concatenation or an image sequence, which would open other files or addresses a hostile
    // file names.
    AVDictionary *options = NULL;
    av_dict_set(&options, "protocol_whitelist", "file", 0);
    av_dict_set(&options, "format_whitelist", "mov,matroska,webm,avi,mpegts,mpeg,flv,mp3,aac,ac3,eac3,wav,w64,flac,ogg,aiff,caf,amr", 0);
    int result = avformat_open_input(&reader->format, path, NULL, &options);
    av_dict_free(&options);
    // A format off the list is refused as invalid: to the caller it is a file that is no movie.
    if (result == AVERROR(EINVAL)) result = AVERROR_INVALIDDATA;
    if (result < 0) {
        // avformat_open_input freed the format context on failure.
        reader->format = NULL;
        cmc_reader_free(reader);
        *error = result;
        return NULL;
    }
    // Probing a stream may decode a picture: none larger than a picture may be is decoded, so that a
    // few kilobytes declaring 16000x12000 cost nothing (the decoders are bounded the same way).
    unsigned streams = reader->format->nb_streams;
    AVDictionary **probing = streams ? av_mallocz(streams * sizeof *probing) : NULL;
    for (unsigned i = 0; probing && i < streams; i++) av_dict_set(&probing[i], "max_pixels", CMC_MAXIMUM_PIXELS_TEXT, 0);
    result = avformat_find_stream_info(reader->format, probing);
    for (unsigned i = 0; probing && i < streams; i++) av_dict_free(&probing[i]);
    av_free(probing);
    reader->packet = av_packet_alloc();
    if (result < 0 || !reader->packet) {
        *error = result < 0 ? result : AVERROR(ENOMEM);
        cmc_reader_free(reader);
        return NULL;
    }
    *error = 0;
    return reader;
}

cmc_reader *cmc_reader_open(const char *path, int *error) {
    if (cmc_ffmpeg_load() != 0) { *error = AVERROR(ENOSYS); return NULL; }
    cmc_reader *reader = av_mallocz(sizeof *reader);
    if (!reader) { *error = AVERROR(ENOMEM); return NULL; }
    return open_reader(reader, path, error);
}

cmc_reader *cmc_reader_open_stream(void *opaque, cmc_stream_read read, cmc_stream_seek seek, const char *name, int *error) {
    if (cmc_ffmpeg_load() != 0) { *error = AVERROR(ENOSYS); return NULL; }
    cmc_reader *reader = av_mallocz(sizeof *reader);
    const int buffer_size = 1 << 16;
    uint8_t *buffer = reader ? av_malloc(buffer_size) : NULL;
    if (reader && buffer) reader->io = avio_alloc_context(buffer, buffer_size, 0, opaque, read, NULL, seek);
    if (reader && reader->io) reader->format = avformat_alloc_context();
    if (!reader || !reader->format) {
        if (reader && !reader->io) av_free(buffer);
        cmc_reader_free(reader);
        *error = AVERROR(ENOMEM);
        return NULL;
    }
    reader->format->pb = reader->io;
    reader->format->flags |= AVFMT_FLAG_CUSTOM_IO;
    return open_reader(reader, name, error);
}

void cmc_reader_free(cmc_reader *reader) {
    if (!reader) return;
    av_packet_free(&reader->packet);
    avformat_close_input(&reader->format);
    // A stream's reading context is the caller's to free, and its buffer (which FFmpeg may have replaced).
    if (reader->io) {
        av_freep(&reader->io->buffer);
        avio_context_free(&reader->io);
    }
    av_free(reader);
}

const char *cmc_reader_format_name(const cmc_reader *reader) {
    return reader->format->iformat && reader->format->iformat->name ? reader->format->iformat->name : "";
}

int cmc_reader_stream_count(const cmc_reader *reader) { return (int)reader->format->nb_streams; }

int cmc_reader_stream_info(const cmc_reader *reader, int index, cmc_stream_info *info) {
    if (index < 0 || (unsigned)index >= reader->format->nb_streams) return AVERROR(EINVAL);
    const AVStream *stream = reader->format->streams[index];
    const AVCodecParameters *parameters = stream->codecpar;
    memset(info, 0, sizeof *info);
    info->kind = parameters->codec_type == AVMEDIA_TYPE_VIDEO && !(stream->disposition & AV_DISPOSITION_ATTACHED_PIC) ? CMC_STREAM_VIDEO
               : parameters->codec_type == AVMEDIA_TYPE_AUDIO ? CMC_STREAM_AUDIO : CMC_STREAM_OTHER;
    info->id = stream->id;
    const char *name = avcodec_get_name(parameters->codec_id);
    info->codec_name = name ? name : "";
    uint32_t tag = parameters->codec_tag;  // FFmpeg packs the first character lowest
    info->codec_tag = (tag & 0xFF) << 24 | ((tag >> 8) & 0xFF) << 16 | ((tag >> 16) & 0xFF) << 8 | tag >> 24;
    info->width = parameters->width;
    info->height = parameters->height;
    info->sample_aspect_num = parameters->sample_aspect_ratio.num;
    info->sample_aspect_den = parameters->sample_aspect_ratio.den;
    info->sample_rate = parameters->sample_rate;
    info->channels = parameters->ch_layout.nb_channels;
    info->time_base_num = stream->time_base.num;
    info->time_base_den = stream->time_base.den;
    info->start_time = stream->start_time == AV_NOPTS_VALUE ? INT64_MIN : stream->start_time;
    info->duration = stream->duration == AV_NOPTS_VALUE ? INT64_MIN : stream->duration;
    info->frame_count = stream->nb_frames;
    info->avg_rate_num = stream->avg_frame_rate.num;
    info->avg_rate_den = stream->avg_frame_rate.den;
    info->bit_rate = parameters->bit_rate;
    const int32_t *matrix = (const int32_t *)av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, NULL);
    if (matrix) {
        // The determinant's sign says whether the matrix mirrors; FFmpeg's angle is counterclockwise.
        int64_t determinant = (int64_t)matrix[0] * matrix[4] - (int64_t)matrix[1] * matrix[3];
        int32_t unmirrored[9];
        memcpy(unmirrored, matrix, sizeof unmirrored);
        if (determinant < 0) {
            info->mirrored = 1;
            av_display_matrix_flip(unmirrored, 1, 0);
        }
        double angle = -av_display_rotation_get(unmirrored);
        if (angle == angle) {  // not NaN
            int quarter = (int)((angle < 0 ? angle + 360 : angle) / 90.0 + 0.5) % 4;
            info->rotation_degrees = quarter * 90;
        }
    }
    info->extradata = parameters->extradata;
    info->extradata_size = parameters->extradata_size;
    info->is_default = (stream->disposition & AV_DISPOSITION_DEFAULT) != 0;
    const AVDictionaryEntry *language = av_dict_get(stream->metadata, "language", NULL, 0);
    info->language = language && strcmp(language->value, "und") != 0 ? language->value : NULL;
    return 0;
}

int64_t cmc_reader_duration_us(const cmc_reader *reader) {
    return reader->format->duration == AV_NOPTS_VALUE ? INT64_MIN : reader->format->duration;
}

const char *cmc_reader_metadata(const cmc_reader *reader, int index, const char **value) {
    const AVDictionaryEntry *entry = NULL;
    for (int i = 0; i <= index; i++) {
        entry = av_dict_get(reader->format->metadata, "", entry, AV_DICT_IGNORE_SUFFIX);
        if (!entry) return NULL;
    }
    *value = entry->value;
    return entry->key;
}

void cmc_reader_index_summary(const cmc_reader *reader, int index, int64_t *samples, int64_t *bytes, int64_t *shortest_step,
                              int *reorders) {
    *samples = 0; *bytes = 0; *shortest_step = INT64_MIN; *reorders = 0;
    if (index < 0 || (unsigned)index >= reader->format->nb_streams) return;
    AVStream *stream = reader->format->streams[index];
    int count = avformat_index_get_entries_count(stream);
    int64_t previous = INT64_MIN;
    for (int i = 0; i < count; i++) {
        const AVIndexEntry *entry = avformat_index_get_entry(stream, i);
        if (!entry) break;
        *bytes += entry->size;
        if (previous != INT64_MIN && entry->timestamp > previous) {
            int64_t step = entry->timestamp - previous;
            if (*shortest_step == INT64_MIN || step < *shortest_step) *shortest_step = step;
        }
        previous = entry->timestamp;
    }
    *samples = count;
    *reorders = stream->codecpar->video_delay > 0;
}

int cmc_reader_read(cmc_reader *reader, cmc_packet *packet) {
    av_packet_unref(reader->packet);
    int result = av_read_frame(reader->format, reader->packet);
    if (result == AVERROR_EOF) return 1;
    if (result < 0) return result;
    const AVPacket *p = reader->packet;
    packet->stream = p->stream_index;
    packet->data = p->data;
    packet->size = p->size;
    packet->pts = p->pts == AV_NOPTS_VALUE ? INT64_MIN : p->pts;
    packet->dts = p->dts == AV_NOPTS_VALUE ? INT64_MIN : p->dts;
    packet->duration = p->duration > 0 ? p->duration : INT64_MIN;
    packet->keyframe = (p->flags & AV_PKT_FLAG_KEY) != 0;
    // Encoder delay and padding the container says to leave out (AAC priming, MP3's LAME tag).
    size_t side_size = 0;
    const uint8_t *skip = av_packet_get_side_data(p, AV_PKT_DATA_SKIP_SAMPLES, &side_size);
    packet->skip_samples = skip && side_size >= 10 ? (int)AV_RL32(skip) : 0;
    packet->discard_padding = skip && side_size >= 10 ? (int)AV_RL32(skip + 4) : 0;
    packet->origin = p;
    return 0;
}

int cmc_reader_seek(cmc_reader *reader, int stream, int64_t timestamp) {
    av_packet_unref(reader->packet);
    return av_seek_frame(reader->format, stream, timestamp, AVSEEK_FLAG_BACKWARD);
}

// MARK: - Decoding

int cmc_decoder_available(const char *codec_name) {
    if (cmc_ffmpeg_load() != 0) return 0;
    const AVCodecDescriptor *descriptor = avcodec_descriptor_get_by_name(codec_name);
    return descriptor && avcodec_find_decoder(descriptor->id) != NULL;
}

cmc_decoder *cmc_decoder_open(cmc_reader *reader, int index, int frame_threads, int *error) {
    if (index < 0 || (unsigned)index >= reader->format->nb_streams) { *error = AVERROR(EINVAL); return NULL; }
    const AVCodecParameters *parameters = reader->format->streams[index]->codecpar;
    const AVCodec *codec = avcodec_find_decoder(parameters->codec_id);
    if (!codec) { *error = AVERROR_DECODER_NOT_FOUND; return NULL; }
    cmc_decoder *decoder = av_mallocz(sizeof *decoder);
    if (!decoder) { *error = AVERROR(ENOMEM); return NULL; }
    decoder->stream = index;
    decoder->codec = avcodec_alloc_context3(codec);
    decoder->frame = av_frame_alloc();
    decoder->packet = av_packet_alloc();
    int result = decoder->codec && decoder->frame && decoder->packet ? avcodec_parameters_to_context(decoder->codec, parameters) : AVERROR(ENOMEM);
    if (result >= 0) {
        decoder->codec->pkt_timebase = reader->format->streams[index]->time_base;
        // Frame threads add a frame of delay each (a first picture is only out once as many packets
        // as threads are in); slices keep the order and the latency.
        decoder->codec->thread_count = 0;
        decoder->codec->thread_type = frame_threads ? FF_THREAD_SLICE | FF_THREAD_FRAME : FF_THREAD_SLICE;
        decoder->codec->max_pixels = CMC_MAXIMUM_PIXELS;
        result = avcodec_open2(decoder->codec, codec, NULL);
    }
    if (result < 0) { cmc_decoder_free(decoder); *error = result; return NULL; }
    *error = 0;
    return decoder;
}

cmc_decoder *cmc_decoder_open_codec(const char *codec_name, const uint8_t *extradata, int extradata_size, int width, int height, int frame_threads, int *error) {
    if ((*error = cmc_ffmpeg_load()) != 0) return NULL;
    const AVCodecDescriptor *descriptor = avcodec_descriptor_get_by_name(codec_name);
    const AVCodec *codec = descriptor ? avcodec_find_decoder(descriptor->id) : NULL;
    if (!codec) { *error = AVERROR_DECODER_NOT_FOUND; return NULL; }
    if (extradata_size < 0 || width < 0 || height < 0 || (int64_t)width * height > CMC_MAXIMUM_PIXELS) { *error = AVERROR(EINVAL); return NULL; }
    cmc_decoder *decoder = av_mallocz(sizeof *decoder);
    if (!decoder) { *error = AVERROR(ENOMEM); return NULL; }
    decoder->codec = avcodec_alloc_context3(codec);
    decoder->frame = av_frame_alloc();
    decoder->packet = av_packet_alloc();
    int result = decoder->codec && decoder->frame && decoder->packet ? 0 : AVERROR(ENOMEM);
    if (result == 0 && extradata && extradata_size > 0) {
        decoder->codec->extradata = av_mallocz((size_t)extradata_size + AV_INPUT_BUFFER_PADDING_SIZE);
        if (!decoder->codec->extradata) result = AVERROR(ENOMEM);
        else {
            memcpy(decoder->codec->extradata, extradata, (size_t)extradata_size);
            decoder->codec->extradata_size = extradata_size;
        }
    }
    if (result == 0) {
        decoder->codec->width = width;
        decoder->codec->height = height;
        decoder->codec->pkt_timebase = (AVRational){1, 1000000};
        // Frame threads hold a frame each: without them, pictures come out as soon as they are decoded.
        decoder->codec->thread_count = 0;
        decoder->codec->thread_type = frame_threads ? FF_THREAD_SLICE | FF_THREAD_FRAME : FF_THREAD_SLICE;
        decoder->codec->max_pixels = CMC_MAXIMUM_PIXELS;
        result = avcodec_open2(decoder->codec, codec, NULL);
    }
    if (result < 0) { cmc_decoder_free(decoder); *error = result; return NULL; }
    *error = 0;
    return decoder;
}

void cmc_decoder_free(cmc_decoder *decoder) {
    if (!decoder) return;
    sws_freeContext(decoder->scaler);
    swr_free(&decoder->resampler);
    av_free(decoder->samples);
    av_frame_free(&decoder->frame);
    av_packet_free(&decoder->packet);
    avcodec_free_context(&decoder->codec);
    av_free(decoder);
}

int cmc_decoder_send(cmc_decoder *decoder, const cmc_packet *packet) {
    if (!packet) {
        if (decoder->drained) return 0;
        decoder->drained = 1;
        return avcodec_send_packet(decoder->codec, NULL);
    }
    if (packet->stream != decoder->stream || !packet->data || packet->size <= 0) return AVERROR(EINVAL);
    AVPacket *p = decoder->packet;
    av_packet_unref(p);
    const AVPacket *origin = packet->origin;
    if (origin && origin->buf && origin->data == packet->data && origin->size == packet->size && origin->side_data_elems == 0) {
        // The reader's reference-counted packet: the decoder keeps a reference, not a copy.
        int shared = av_packet_ref(p, origin);
        if (shared < 0) return shared;
    } else {
        p->data = (uint8_t *)packet->data;
        p->size = packet->size;
    }
    p->pts = packet->pts == INT64_MIN ? AV_NOPTS_VALUE : packet->pts;
    p->dts = packet->dts == INT64_MIN ? AV_NOPTS_VALUE : packet->dts;
    p->duration = packet->duration == INT64_MIN ? 0 : packet->duration;
    p->flags = packet->keyframe ? AV_PKT_FLAG_KEY : 0;
    p->stream_index = packet->stream;
    if (packet->skip_samples > 0 || packet->discard_padding > 0) {
        uint8_t *skip = av_packet_new_side_data(p, AV_PKT_DATA_SKIP_SAMPLES, 10);
        if (skip) {
            AV_WL32(skip, (uint32_t)packet->skip_samples);
            AV_WL32(skip + 4, (uint32_t)packet->discard_padding);
            skip[8] = skip[9] = 0;
        }
    }
    // Bytes that are the caller's are not reference counted: the decoder copies what it keeps.
    int result = avcodec_send_packet(decoder->codec, p);
    av_packet_unref(p);
    // The caller receives every frame before sending again, so a full decoder is the stream's own fault.
    return result == AVERROR(EAGAIN) ? AVERROR_INVALIDDATA : result;
}

int cmc_decoder_receive(cmc_decoder *decoder) {
    int result = avcodec_receive_frame(decoder->codec, decoder->frame);
    if (result == AVERROR(EAGAIN)) return 1;
    if (result == AVERROR_EOF) return 2;
    return result;
}

void cmc_decoder_flush(cmc_decoder *decoder) {
    avcodec_flush_buffers(decoder->codec);
    decoder->drained = 0;
    if (decoder->resampler) swr_init(decoder->resampler);
}

void cmc_decoder_frame_time(const cmc_decoder *decoder, int64_t *pts, int64_t *duration) {
    const AVFrame *frame = decoder->frame;
    int64_t time = frame->best_effort_timestamp != AV_NOPTS_VALUE ? frame->best_effort_timestamp : frame->pts;
    *pts = time == AV_NOPTS_VALUE ? INT64_MIN : time;
    *duration = frame->pkt_duration > 0 ? frame->pkt_duration : INT64_MIN;
}

void cmc_decoder_picture_info(const cmc_decoder *decoder, int *width, int *height, int *primaries, int *transfer,
                              int *matrix, int *full_range) {
    const AVFrame *frame = decoder->frame;
    *width = frame->width;
    *height = frame->height;
    *primaries = frame->color_primaries;
    *transfer = frame->color_trc;
    *matrix = frame->colorspace;
    *full_range = frame->color_range == AVCOL_RANGE_JPEG || frame->format == AV_PIX_FMT_YUVJ420P
               || frame->format == AV_PIX_FMT_YUVJ422P || frame->format == AV_PIX_FMT_YUVJ444P;
}

int cmc_decoder_picture_planes(const cmc_decoder *decoder, const uint8_t *planes[3], int strides[3]) {
    const AVFrame *frame = decoder->frame;
    int layout;
    switch (frame->format) {
    case AV_PIX_FMT_YUV420P: case AV_PIX_FMT_YUVJ420P: layout = CMC_PLANES_I420; break;
    case AV_PIX_FMT_NV12: layout = CMC_PLANES_NV12; break;
    default: return CMC_PLANES_OTHER;
    }
    int count = layout == CMC_PLANES_I420 ? 3 : 2;
    if (frame->width <= 0 || frame->height <= 0) return CMC_PLANES_OTHER;
    for (int index = 0; index < 3; index++) {
        if (index < count && !frame->data[index]) return CMC_PLANES_OTHER;
        planes[index] = index < count ? frame->data[index] : NULL;
        strides[index] = index < count ? frame->linesize[index] : 0;
    }
    return layout;
}

/// The libswscale matrix for FFmpeg's colour space value: BT.709 as tagged, BT.601 otherwise
/// (video's convention for unspecified matrices below HD; above it, BT.709).
static int scaler_matrix(const AVFrame *frame) {
    switch (frame->colorspace) {
    case AVCOL_SPC_BT709: return SWS_CS_ITU709;
    case AVCOL_SPC_BT2020_NCL: case AVCOL_SPC_BT2020_CL: return SWS_CS_BT2020;
    case AVCOL_SPC_SMPTE240M: return SWS_CS_SMPTE240M;
    case AVCOL_SPC_UNSPECIFIED: return frame->height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601;
    default: return SWS_CS_ITU601;
    }
}

int cmc_decoder_convert_picture(cmc_decoder *decoder, int target, int width, int height, uint8_t *const planes[2], const int strides[2]) {
    const AVFrame *frame = decoder->frame;
    if (frame->width <= 0 || frame->height <= 0 || frame->format < 0) return AVERROR_INVALIDDATA;
    if (width <= 0 || height <= 0) return AVERROR(EINVAL);
    int full_in = 0, full_out = target != CMC_PICTURE_NV12_VIDEO_RANGE;
    int w, h, p, t, m;
    cmc_decoder_picture_info(decoder, &w, &h, &p, &t, &m, &full_in);
    int matrix = scaler_matrix(frame);
    if (!decoder->scaler || decoder->scaler_width != frame->width || decoder->scaler_height != frame->height
        || decoder->scaler_out_width != width || decoder->scaler_out_height != height
        || decoder->scaler_format != frame->format || decoder->scaler_target != target
        || decoder->scaler_matrix != matrix || decoder->scaler_range != full_in) {
        sws_freeContext(decoder->scaler);
        enum AVPixelFormat out = target == CMC_PICTURE_BGRA ? AV_PIX_FMT_BGRA : AV_PIX_FMT_NV12;
        // At the same size, no scaling, only the format (point sampling is exact there, and fastest);
        // smaller, an area average. The
        // ranges are set before the scaler is made: libswscale picks its unscaled copy between
        // Y'CbCr formats only when they agree, and would otherwise ignore a change of range.
        decoder->scaler = sws_alloc_context();
        if (!decoder->scaler) return AVERROR(ENOMEM);
        av_opt_set_int(decoder->scaler, "srcw", frame->width, 0);
        av_opt_set_int(decoder->scaler, "srch", frame->height, 0);
        av_opt_set_int(decoder->scaler, "src_format", frame->format, 0);
        av_opt_set_int(decoder->scaler, "dstw", width, 0);
        av_opt_set_int(decoder->scaler, "dsth", height, 0);
        av_opt_set_int(decoder->scaler, "dst_format", out, 0);
        av_opt_set_int(decoder->scaler, "src_range", full_in, 0);
        av_opt_set_int(decoder->scaler, "dst_range", full_out, 0);
        int same_size = width == frame->width && height == frame->height;
        av_opt_set_int(decoder->scaler, "sws_flags", (same_size ? SWS_POINT : SWS_AREA) | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, 0);
        if (sws_init_context(decoder->scaler, NULL, NULL) < 0) {
            sws_freeContext(decoder->scaler);
            decoder->scaler = NULL;
            return AVERROR(EINVAL);
        }
        const int *coefficients = sws_getCoefficients(matrix);
        sws_setColorspaceDetails(decoder->scaler, coefficients, full_in, coefficients, full_out, 0, 1 << 16, 1 << 16);
        decoder->scaler_out_width = width;
        decoder->scaler_out_height = height;
        decoder->scaler_width = frame->width;
        decoder->scaler_height = frame->height;
        decoder->scaler_format = frame->format;
        decoder->scaler_target = target;
        decoder->scaler_matrix = matrix;
        decoder->scaler_range = full_in;
    }
    int result = sws_scale(decoder->scaler, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
    return result > 0 ? 0 : AVERROR_EXTERNAL;
}

/// Makes room for `frames` frames of the converter's output.
static int reserve_samples(cmc_decoder *decoder, int frames) {
    int bytes = frames * decoder->resampler_out_channels * av_get_bytes_per_sample(decoder->resampler_out_format);
    if (bytes > decoder->samples_capacity) {
        av_free(decoder->samples);
        decoder->samples = av_malloc(bytes > 0 ? bytes : 1);
        decoder->samples_capacity = decoder->samples ? bytes : 0;
        if (!decoder->samples) return AVERROR(ENOMEM);
    }
    return 0;
}

int cmc_decoder_convert_samples(cmc_decoder *decoder, int format, int sample_rate, int channels, const uint8_t **samples) {
    const AVFrame *frame = decoder->frame;
    enum AVSampleFormat out_format = format == CMC_SAMPLES_FLOAT ? AV_SAMPLE_FMT_FLT : AV_SAMPLE_FMT_S16;
    if (sample_rate <= 0 || channels <= 0 || channels > 64) return AVERROR(EINVAL);
    if (frame->sample_rate <= 0 || frame->ch_layout.nb_channels <= 0 || frame->nb_samples < 0) return AVERROR_INVALIDDATA;
    if (!decoder->resampler || decoder->resampler_in_rate != frame->sample_rate
        || decoder->resampler_in_format != frame->format || decoder->resampler_in_channels != frame->ch_layout.nb_channels
        || decoder->resampler_out_rate != sample_rate || decoder->resampler_out_format != (int)out_format
        || decoder->resampler_out_channels != channels) {
        swr_free(&decoder->resampler);
        AVChannelLayout out_layout;
        av_channel_layout_default(&out_layout, channels);
        int result = swr_alloc_set_opts2(&decoder->resampler, &out_layout, out_format, sample_rate,
                                         (AVChannelLayout *)&frame->ch_layout, frame->format, frame->sample_rate, 0, NULL);
        av_channel_layout_uninit(&out_layout);
        if (result < 0 || (result = swr_init(decoder->resampler)) < 0) { swr_free(&decoder->resampler); return result; }
        decoder->resampler_in_rate = frame->sample_rate;
        decoder->resampler_in_format = frame->format;
        decoder->resampler_in_channels = frame->ch_layout.nb_channels;
        decoder->resampler_out_rate = sample_rate;
        decoder->resampler_out_format = out_format;
        decoder->resampler_out_channels = channels;
    }
    int capacity = swr_get_out_samples(decoder->resampler, frame->nb_samples);
    if (capacity < 0) return capacity;
    int result = reserve_samples(decoder, capacity);
    if (result < 0) return result;
    uint8_t *out[1] = { decoder->samples };
    int made = swr_convert(decoder->resampler, out, capacity, (const uint8_t **)frame->extended_data, frame->nb_samples);
    *samples = decoder->samples;
    return made;
}

int cmc_decoder_drain_samples(cmc_decoder *decoder, const uint8_t **samples) {
    if (!decoder->resampler) return 0;
    int capacity = swr_get_out_samples(decoder->resampler, 0);
    if (capacity <= 0) return capacity;
    int result = reserve_samples(decoder, capacity);
    if (result < 0) return result;
    uint8_t *out[1] = { decoder->samples };
    int made = swr_convert(decoder->resampler, out, capacity, NULL, 0);
    *samples = decoder->samples;
    return made;
}
