// A small C interface over FFmpeg's libraries (Debian: libavcodec-dev, libavformat-dev,
// libavutil-dev, libswresample-dev) for writing movies: H.264/HEVC video and AAC audio,
// muxed into QuickTime or MPEG-4, fragmented while recording, remuxed fast-start at the end;
// or published live to a streaming server (FLV over RTMP, MPEG-TS over SRT or UDP, RTSP).
#ifndef CMEDIACODECS_H
#define CMEDIACODECS_H
#include <stddef.h>
#include <stdint.h>

/// How to write a movie.
/// Receives a segment of a segmented movie: the initialization segment (ftyp and moov) once, then
/// each separable segment (moof and mdat) as it is cut. The bytes are the writer's until it returns.
typedef void (*cmc_segment_handler)(void *opaque, int initialization, const uint8_t *data, int64_t size);

typedef struct cmc_writer_config {
    const char *path;             ///< the file to write
    const char *format;           ///< "mov" or "mp4"
    int fragmented;               ///< write fragments as they are cut (cmc_writer_request_fragment)
    int faststart;                ///< for unfragmented files: move the index to the front when finishing
    /// A live stream: `path` is a network URL (rtmp://, srt://, rtsp://, udp://) the muxer opens
    /// and publishes to; every network operation gives up after `timeout_ms`.
    int live;
    int timeout_ms;
    /// Segments instead of a file: `path` is not opened; the fragmented MPEG-4 the muxer writes
    /// (CMAF, each fragment cut by cmc_writer_request_fragment) goes to `segment_handler`.
    cmc_segment_handler segment_handler;
    void *segment_opaque;

    int has_video;
    const char *video_encoder;    ///< "libx264" or "libx265"
    const char *encoder_preset;   ///< such as "veryfast"
    int width, height;            ///< encoded size; frames must have it
    int full_range;               ///< whether Y'CbCr uses 0...255
    int64_t video_bit_rate;       ///< bits per second
    int keyframe_interval;        ///< frames between keyframes
    double expected_frame_rate;   ///< a hint for rate control
    int rotation_degrees;         ///< clockwise display rotation: 0, 90, 180 or 270
    int mirrored;                 ///< whether the display is mirrored horizontally
    int sar_num, sar_den;         ///< the pixel aspect ratio (horizontal, vertical spacing); 0 for square pixels
    /// The colour the frames are in, as FFmpeg's AVCOL_PRI_*, AVCOL_TRC_* and AVCOL_SPC_* values
    /// (0 leaves one unspecified); written into the stream and the container's colour atom.
    int color_primaries, color_trc, colorspace;
    /// The encoder's profile by FFmpeg's name for it ("baseline", "main", "high", "main10"; ProRes's
    /// "proxy", "lt", "standard", "hq", "4444"), or NULL for the encoder's choice.
    const char *video_profile;
    /// The H.264 or HEVC level times ten (31 for 3.1), or 0 for the encoder's choice.
    int video_level;
    /// H.264's entropy coding: 1 CABAC, 0 CAVLC, -1 the encoder's choice for its profile.
    int entropy_cabac;
    /// The most B-frames in a row; 0 keeps frames in display order (and the encoder's latency low).
    int b_frames;
    /// Whether the B-frames come in a fixed pattern and are never references, so that a decoder may drop them.
    int droppable_b_frames;
    /// The pixel format the encoder is given, by FFmpeg's name ("yuv420p10le", "yuv422p10le",
    /// "yuv444p10le"), converted from the frames with libswscale; NULL for 8-bit 4:2:0 as the encoder takes it.
    const char *encoder_pixel_format;

    int has_audio;
    int sample_rate, channels;    ///< of the interleaved input
    int64_t audio_bit_rate;       ///< 0: the encoder's own choice (64 kbit/s a channel for AAC)
    /// FFmpeg's audio encoder: NULL for "aac"; "pcm_s16le", "pcm_f32be", "flac", "alac", ...
    const char *audio_encoder;
    /// For encoders that take more than one sample format: the bits a sample keeps (16, 24 or
    /// 32; 0 for the encoder's first format).
    int audio_bits;
    /// Whether the input samples are 32-bit floats (cmc_writer_write_audio_float) rather than 16-bit integers.
    int audio_input_float;
    /// The written channels as FFmpeg's AV_CH_* mask, in FFmpeg's order; 0 for the default layout of `channels`.
    uint64_t channel_mask;
    /// For each written channel in FFmpeg's order, the input channel it is taken from; NULL when the
    /// input is in FFmpeg's order already.
    const int *channel_map;

    /// Passthrough: already-compressed packets written as they are ("h264", "hevc"; "aac", "pcm_s16le").
    const char *video_passthrough;
    const uint8_t *video_extradata;
    int video_extradata_size;
    const char *audio_passthrough;
    const uint8_t *audio_extradata;
    int audio_extradata_size;
} cmc_writer_config;

/// Receives one line FFmpeg logs, with its level: 1 error, 2 warning, 3 information, 4 debugging.
typedef void (*cmc_log_handler)(int level, const char *message);
/// Sends FFmpeg's log to `handler` (NULL: nowhere, the default) up to `level`, instead of standard error.
void cmc_set_log_handler(cmc_log_handler handler, int level);

/// Why FFmpeg's libraries could not be loaded (they are loaded when a movie is first opened or
/// written, not at start), or NULL when they are loaded.
const char *cmc_media_library_problem(void);

typedef struct cmc_writer cmc_writer;

/// A callback that releases a frame's memory once the encoder is done with it (FFmpeg's buffer free signature).
typedef void (*cmc_release_callback)(void *opaque, uint8_t *data);

/// Opens a writer and writes the file's header; NULL and a negative error on failure.
cmc_writer *cmc_writer_open(const cmc_writer_config *config, int *error);
/// Sets a container metadata entry; entries set before the first frame go in the header.
int cmc_writer_set_metadata(cmc_writer *writer, const char *key, const char *value);
/// The pictures cmc_writer_write_video takes: bi-planar 4:2:0 Y'CbCr in 8 bits, or in 10 bits
/// of 16 (P010), or B, G, R, A (one plane, `uv` unused), which libswscale turns into Y'CbCr with
/// the matrix the stream is tagged with.
enum { CMC_INPUT_NV12 = 0, CMC_INPUT_P010 = 1, CMC_INPUT_BGRA = 2 };

/// Encodes one picture (`input`: a CMC_INPUT_* value) at `pts_us` microseconds; `release` runs
/// when the encoder lets go of it.
int cmc_writer_write_video(cmc_writer *writer, const uint8_t *y, int y_stride, const uint8_t *uv, int uv_stride, int input,
                           int64_t pts_us, cmc_release_callback release, void *opaque);
/// Encodes 16-bit interleaved samples whose first sample is number `first_sample` of the recording.
int cmc_writer_write_audio(cmc_writer *writer, const int16_t *samples, int frames, int64_t first_sample);
/// As cmc_writer_write_audio, for a writer whose input is 32-bit floats.
int cmc_writer_write_audio_float(cmc_writer *writer, const float *samples, int frames, int64_t first_sample);
/// Writes one already-compressed packet of a passthrough stream, at `pts_us` and `dts_us` microseconds.
int cmc_writer_write_packet(cmc_writer *writer, int video, const uint8_t *data, int size, int64_t pts_us, int64_t dts_us, int keyframe);
/// Makes the next picture encoded a keyframe.
void cmc_writer_force_keyframe(cmc_writer *writer);
/// Asks for a fragment to be cut at the next video keyframe presented at or after `from_us`
/// microseconds (INT64_MIN: the next one; audio only: at once); a segmenting writer makes its first
/// picture at or after that time a keyframe.
void cmc_writer_request_fragment(cmc_writer *writer, int64_t from_us);
/// Bytes handed to the container so far, an estimate of the finished file's size.
int64_t cmc_writer_bytes_muxed(const cmc_writer *writer);
/// The length of the file up to the end of its last complete fragment.
int64_t cmc_writer_durable_bytes(const cmc_writer *writer);
/// Flushes the encoders, writes the trailer and closes the file.
int cmc_writer_finish(cmc_writer *writer);
/// Closes the file without a trailer, keeping what was written, and frees the writer.
void cmc_writer_free(cmc_writer *writer);

/// Copies a movie's streams into a new, unfragmented file, moov first, with metadata
/// (`metadata` is key, value, key, value, ..., NULL) and a display rotation.
int cmc_remux(const char *source, const char *destination, const char *format,
              const char *const *metadata, int rotation_degrees, int mirrored);

/// Whether an encoder is available in this FFmpeg.
int cmc_encoder_available(const char *name);
/// Describes an FFmpeg error.
void cmc_error_string(int error, char *buffer, size_t size);
/// FFmpeg's error for "no space left on device".
int cmc_error_no_space(void);
#include "CMovieReading.h"
#include "CSampleConverting.h"
#include "CAudioFiltering.h"
#include "CAudioCoding.h"
#include "CVideoFiltering.h"
#include "CVideoCoding.h"
#include "CAnimatedPNG.h"
#endif
