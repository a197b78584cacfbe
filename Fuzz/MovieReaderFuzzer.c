// A libFuzzer target for the movie reading shim (Sources/CMediaCodecs/MovieReader.c): whatever
// bytes it is given are opened as a movie file, every stream described, and every picture and
// block of sound decoded and converted, as an asset reader would. A crash, a sanitizer report or a
// run over libFuzzer's time limit is a bug. Built and run by scripts/fuzz.sh; the corpus kept in
// Fuzz/corpus/movie-reader replays in CI.
#define _GNU_SOURCE
#include "CMovieReading.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

enum { MAX_PACKETS = 400, MAX_STREAMS = 4, PICTURE_SIDE = 64 };

static void decode(cmc_decoder *decoder, int kind, uint8_t *luma, uint8_t *chroma, uint8_t *bgra) {
    for (int guard = 0; guard < 64; guard++) {
        int received = cmc_decoder_receive(decoder);
        if (received != 0) return;
        int64_t pts = 0, duration = 0;
        cmc_decoder_frame_time(decoder, &pts, &duration);
        if (kind == CMC_STREAM_VIDEO) {
            int width = 0, height = 0, primaries = 0, transfer = 0, matrix = 0, full = 0;
            cmc_decoder_picture_info(decoder, &width, &height, &primaries, &transfer, &matrix, &full);
            if (width <= 0 || height <= 0 || width > 16384 || height > 16384) continue;
            // Scaled into small planes, as a reader asked for a size converts.
            uint8_t *nv12[2] = {luma, chroma};
            int nv12_strides[2] = {PICTURE_SIDE, PICTURE_SIDE};
            cmc_decoder_convert_picture(decoder, CMC_PICTURE_NV12_VIDEO_RANGE, PICTURE_SIDE, PICTURE_SIDE, nv12, nv12_strides);
            uint8_t *packed[2] = {bgra, bgra};
            int packed_strides[2] = {PICTURE_SIDE * 4, PICTURE_SIDE * 4};
            cmc_decoder_convert_picture(decoder, CMC_PICTURE_BGRA, PICTURE_SIDE, PICTURE_SIDE, packed, packed_strides);
        } else if (kind == CMC_STREAM_AUDIO) {
            const uint8_t *samples = NULL;
            cmc_decoder_convert_samples(decoder, CMC_SAMPLES_FLOAT, 48000, 2, &samples);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    int fd = memfd_create("movie", 0);
    if (fd < 0) return 0;
    if (write(fd, data, size) != (ssize_t)size) { close(fd); return 0; }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    int error = 0;
    cmc_reader *reader = cmc_reader_open(path, &error);
    if (!reader) { close(fd); return 0; }
    (void)cmc_reader_format_name(reader);
    (void)cmc_reader_duration_us(reader);
    const char *value = NULL;
    for (int index = 0; index < 64 && cmc_reader_metadata(reader, index, &value); index++) {}

    int count = cmc_reader_stream_count(reader);
    cmc_decoder *decoders[MAX_STREAMS] = {0};
    int kinds[MAX_STREAMS] = {0};
    for (int index = 0; index < count && index < MAX_STREAMS; index++) {
        cmc_stream_info info;
        if (cmc_reader_stream_info(reader, index, &info) != 0) continue;
        int64_t samples = 0, bytes = 0, shortest = 0;
        int reorders = 0;
        cmc_reader_index_summary(reader, index, &samples, &bytes, &shortest, &reorders);
        kinds[index] = info.kind;
        if (info.kind == CMC_STREAM_VIDEO || info.kind == CMC_STREAM_AUDIO) decoders[index] = cmc_decoder_open(reader, index, 1, &error);
    }
    static uint8_t luma[PICTURE_SIDE * PICTURE_SIDE], chroma[PICTURE_SIDE * PICTURE_SIDE / 2], bgra[PICTURE_SIDE * PICTURE_SIDE * 4];
    cmc_packet packet;
    for (int read = 0; read < MAX_PACKETS; read++) {
        if (cmc_reader_read(reader, &packet) != 0) break;
        if (packet.stream < 0 || packet.stream >= MAX_STREAMS || !decoders[packet.stream]) continue;
        cmc_decoder_send(decoders[packet.stream], &packet);
        decode(decoders[packet.stream], kinds[packet.stream], luma, chroma, bgra);
    }
    // A seek back to the start, then the end of every stream and what the decoders still hold.
    if (count > 0) cmc_reader_seek(reader, 0, 0);
    for (int index = 0; index < MAX_STREAMS; index++) {
        if (!decoders[index]) continue;
        cmc_decoder_send(decoders[index], NULL);
        decode(decoders[index], kinds[index], luma, chroma, bgra);
        if (kinds[index] == CMC_STREAM_AUDIO) {
            const uint8_t *samples = NULL;
            cmc_decoder_drain_samples(decoders[index], &samples);
        }
        cmc_decoder_free(decoders[index]);
    }
    cmc_reader_free(reader);
    close(fd);
    return 0;
}
