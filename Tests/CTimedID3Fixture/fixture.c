// Test inputs for timed metadata: see CTimedID3Fixture.h.
#include "CTimedID3Fixture.h"

#include <id3tag.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <stdlib.h>
#include <string.h>

static int set_text(struct id3_frame *frame, unsigned int index, const char *utf8, int list) {
    id3_ucs4_t *ucs4 = id3_utf8_ucs4duplicate((const id3_utf8_t *)utf8);
    if (!ucs4) return -1;
    union id3_field *field = id3_frame_field(frame, index);
    int result = list ? id3_field_setstrings(field, 1, &ucs4) : id3_field_setstring(field, ucs4);
    free(ucs4);
    return result;
}

static int encode_utf8(struct id3_frame *frame) {
    return id3_field_settextencoding(id3_frame_field(frame, 0), ID3_FIELD_TEXTENCODING_UTF_8);
}

long ctid3_render(const char *title, const char *description, const char *value, const char *owner, const uint8_t *data, size_t size,
                  const char *picture_description, const uint8_t *picture, size_t picture_size, uint8_t *out, size_t capacity) {
    struct id3_tag *tag = id3_tag_new();
    if (!tag) return -1;
    id3_tag_options(tag, ID3_TAG_OPTION_COMPRESSION | ID3_TAG_OPTION_CRC, 0);
    int failed = 0;
    struct id3_frame *frame = id3_frame_new("TIT2");
    failed |= !frame || encode_utf8(frame) || set_text(frame, 1, title, 1) || id3_tag_attachframe(tag, frame);
    if (description && !failed) {
        frame = id3_frame_new("TXXX");
        failed |= !frame || encode_utf8(frame) || set_text(frame, 1, description, 0) || set_text(frame, 2, value ? value : "", 0) ||
                  id3_tag_attachframe(tag, frame);
    }
    if (owner && !failed) {
        frame = id3_frame_new("PRIV");
        failed |= !frame || id3_field_setlatin1(id3_frame_field(frame, 0), (const id3_latin1_t *)owner) ||
                  id3_field_setbinarydata(id3_frame_field(frame, 1), data, size) || id3_tag_attachframe(tag, frame);
    }
    if (picture && !failed) {
        frame = id3_frame_new("APIC");
        failed |= !frame || encode_utf8(frame) || id3_field_setlatin1(id3_frame_field(frame, 1), (const id3_latin1_t *)"image/png") ||
                  id3_field_setint(id3_frame_field(frame, 2), 3) ||
                  set_text(frame, 3, picture_description ? picture_description : "", 0) ||
                  id3_field_setbinarydata(id3_frame_field(frame, 4), picture, picture_size) || id3_tag_attachframe(tag, frame);
    }
    long length = -1;
    if (!failed) {
        id3_length_t needed = id3_tag_render(tag, NULL);
        if (needed <= capacity) length = (long)id3_tag_render(tag, out);
    }
    id3_tag_delete(tag);
    return length;
}

/// Writes tag `i` as a packet of `stream`.
static int write_tag(AVFormatContext *context, AVStream *stream, AVPacket *packet, const uint8_t *const *tags, const int *sizes,
                     const int64_t *milliseconds, int i) {
    int result = av_new_packet(packet, sizes[i]);
    if (result < 0) return result;
    memcpy(packet->data, tags[i], (size_t)sizes[i]);
    packet->stream_index = stream->index;
    packet->pts = packet->dts = av_rescale_q(milliseconds[i], (AVRational){1, 1000}, stream->time_base);
    packet->flags |= AV_PKT_FLAG_KEY;
    result = av_write_frame(context, packet);
    av_packet_unref(packet);
    return result;
}

int ctid3_write_stream(const char *path, const char *video, int count, const uint8_t *const *tags, const int *sizes,
                       const int64_t *milliseconds) {
    AVFormatContext *input = NULL, *context = NULL;
    AVStream *pictures = NULL, *stream = NULL;
    AVPacket *packet = NULL;
    int result = 0, video_index = -1;
    if (video) {
        if ((result = avformat_open_input(&input, video, NULL, NULL)) < 0) return result;
        if ((result = avformat_find_stream_info(input, NULL)) < 0) goto done;
        video_index = av_find_best_stream(input, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);
        if (video_index < 0) {
            result = video_index;
            goto done;
        }
    }
    if ((result = avformat_alloc_output_context2(&context, NULL, "mpegts", path)) < 0) goto done;
    if (input) {
        pictures = avformat_new_stream(context, NULL);
        if (!pictures || (result = avcodec_parameters_copy(pictures->codecpar, input->streams[video_index]->codecpar)) < 0) {
            result = result < 0 ? result : AVERROR(ENOMEM);
            goto done;
        }
        pictures->time_base = input->streams[video_index]->time_base;
    }
    stream = avformat_new_stream(context, NULL);
    if (!stream) {
        result = AVERROR(ENOMEM);
        goto done;
    }
    stream->codecpar->codec_type = AVMEDIA_TYPE_DATA;
    stream->codecpar->codec_id = AV_CODEC_ID_TIMED_ID3;
    stream->time_base = (AVRational){1, 90000};
    if ((result = avio_open(&context->pb, path, AVIO_FLAG_WRITE)) < 0) goto done;
    if ((result = avformat_write_header(context, NULL)) < 0) goto done;
    if (!(packet = av_packet_alloc())) {
        result = AVERROR(ENOMEM);
        goto done;
    }
    // The pictures from their own start, shifted to start at 0 like the tags, and each tag written
    // before the first picture after its time, so the file holds them in time order (the muxer's
    // interleaving would otherwise put every tag after ten seconds of pictures).
    int64_t first = AV_NOPTS_VALUE;
    int next = 0;
    while (input && result >= 0 && av_read_frame(input, packet) >= 0) {
        if (packet->stream_index == video_index) {
            AVRational from = input->streams[video_index]->time_base;
            if (first == AV_NOPTS_VALUE) first = packet->dts != AV_NOPTS_VALUE ? packet->dts : 0;
            if (packet->pts != AV_NOPTS_VALUE) packet->pts -= first;
            if (packet->dts != AV_NOPTS_VALUE) packet->dts -= first;
            int64_t at = packet->dts != AV_NOPTS_VALUE ? av_rescale_q(packet->dts, from, (AVRational){1, 1000}) : 0;
            AVPacket *picture = av_packet_clone(packet);
            av_packet_unref(packet);
            if (!picture) {
                result = AVERROR(ENOMEM);
                break;
            }
            while (result >= 0 && next < count && milliseconds[next] <= at) result = write_tag(context, stream, packet, tags, sizes, milliseconds, next++);
            if (result >= 0) {
                av_packet_rescale_ts(picture, from, pictures->time_base);
                picture->stream_index = pictures->index;
                result = av_write_frame(context, picture);
            }
            av_packet_free(&picture);
        } else {
            av_packet_unref(packet);
        }
    }
    while (result >= 0 && next < count) result = write_tag(context, stream, packet, tags, sizes, milliseconds, next++);
    {
        int trailer = av_write_trailer(context);
        if (result >= 0) result = trailer;
    }
done:
    av_packet_free(&packet);
    if (context) {
        if (context->pb) avio_closep(&context->pb);
        avformat_free_context(context);
    }
    if (input) avformat_close_input(&input);
    return result < 0 ? result : 0;
}
