// A small C interface over FFmpeg's libraries for reading movies: the container's streams and
// metadata (libavformat), their packets as they are, and decoded pictures converted into
// the caller's planes (libavcodec, libswscale) and decoded sound converted into interleaved
// samples (libswresample).
//
// Thread ownership: a reader, and every decoder opened on it, belong to one thread at a time.
#ifndef CMOVIEREADING_H
#define CMOVIEREADING_H
#include <stddef.h>
#include <stdint.h>

/// The most pixels a picture may have to be decoded, as still pictures: about 100 megapixels. A
/// stream declaring more is not decoded (probing it included), so a few kilobytes cannot ask for gigabytes.
#define CMC_MAXIMUM_PIXELS 100000000
#define CMC_MAXIMUM_PIXELS_TEXT "100000000"

typedef struct cmc_reader cmc_reader;
typedef struct cmc_decoder cmc_decoder;

/// What a stream carries.
enum { CMC_STREAM_OTHER = 0, CMC_STREAM_VIDEO = 1, CMC_STREAM_AUDIO = 2 };

/// One stream of a movie, as its container describes it. Strings and bytes belong to the reader.
typedef struct cmc_stream_info {
    int kind;                       ///< CMC_STREAM_VIDEO, CMC_STREAM_AUDIO or CMC_STREAM_OTHER
    int id;                         ///< the container's track ID (1 up in QuickTime files)
    const char *codec_name;         ///< FFmpeg's name, such as "h264", "hevc", "aac"; "" when unknown
    uint32_t codec_tag;             ///< the container's four-character code for it ('apch'), big-endian; 0 when none
    int width, height;              ///< pictures' size, for video
    int sample_aspect_num, sample_aspect_den;
    int sample_rate, channels;      ///< for audio
    int time_base_num, time_base_den;
    int64_t start_time;             ///< in the time base; INT64_MIN when unknown
    int64_t duration;               ///< in the time base; INT64_MIN when unknown
    int64_t frame_count;            ///< packets the container says it holds; 0 when unknown
    int avg_rate_num, avg_rate_den; ///< average frame rate; 0/0 when unknown
    int64_t bit_rate;               ///< bits a second; 0 when unknown
    int rotation_degrees;           ///< clockwise display rotation: 0, 90, 180 or 270
    int mirrored;                   ///< whether the display matrix mirrors horizontally
    const uint8_t *extradata;       ///< the codec's configuration (avcC, hvcC, AudioSpecificConfig)
    int extradata_size;
    int is_default;                 ///< whether the container marks the stream enabled by default
    const char *language;           ///< ISO 639-2/T code, or NULL
} cmc_stream_info;

/// One packet as the container holds it; valid until the next read, seek or free.
typedef struct cmc_packet {
    int stream;
    const uint8_t *data;
    int size;
    int64_t pts, dts, duration;     ///< in the stream's time base; INT64_MIN when unknown
    int keyframe;
    /// Samples the decoder leaves out at the start (encoder delay) and end (padding) of this
    /// packet's sound, as the container says; 0 when it says nothing.
    int skip_samples, discard_padding;
    /// The reader's own packet holding `data`, which a decoder shares rather than copies; NULL
    /// when the bytes are the caller's.
    const void *origin;
} cmc_packet;

/// Opens a movie file and reads its header and enough packets to describe its streams;
/// NULL and a negative FFmpeg error on failure.
cmc_reader *cmc_reader_open(const char *path, int *error);
/// Reads up to `size` bytes at the stream's current position into `buffer`: how many were read,
/// 0 at the end, or a negative FFmpeg error.
typedef int (*cmc_stream_read)(void *opaque, uint8_t *buffer, int size);
/// Moves the stream to `offset` from its start (`whence` 0) and returns the new position, or
/// returns the stream's length (`whence` 0x10000, AVSEEK_SIZE); negative when it cannot.
typedef int64_t (*cmc_stream_seek)(void *opaque, int64_t offset, int whence);
/// Opens a movie read through `read` and `seek` (called on the caller's thread, with `opaque`)
/// rather than from a file, as `cmc_reader_open` does; `name` names it in messages.
cmc_reader *cmc_reader_open_stream(void *opaque, cmc_stream_read read, cmc_stream_seek seek, const char *name, int *error);
/// Closes the file and frees the reader (its decoders must be freed first).
void cmc_reader_free(cmc_reader *reader);
/// The container format's short names, such as "mov,mp4,m4a,3gp,3g2,mj2".
const char *cmc_reader_format_name(const cmc_reader *reader);
/// How many streams the movie has.
int cmc_reader_stream_count(const cmc_reader *reader);
/// Describes stream `index`; 0, or a negative error for an index out of range.
int cmc_reader_stream_info(const cmc_reader *reader, int index, cmc_stream_info *info);
/// The movie's length in microseconds, or INT64_MIN when the container does not say.
int64_t cmc_reader_duration_us(const cmc_reader *reader);
/// Container metadata entry `index` (key and value), or NULL past the last.
const char *cmc_reader_metadata(const cmc_reader *reader, int index, const char **value);
/// What the container's index says of stream `index` without reading its samples: how many
/// samples it lists, their total size in bytes, the shortest step between two decode times
/// (INT64_MIN when fewer than two), and whether the codec presents pictures out of decode order.
void cmc_reader_index_summary(const cmc_reader *reader, int index, int64_t *samples, int64_t *bytes, int64_t *shortest_step,
                              int *reorders);
/// Reads the next packet of any stream: 0, 1 at the end of the file, or a negative error.
int cmc_reader_read(cmc_reader *reader, cmc_packet *packet);
/// Moves to the last keyframe of `stream` at or before `timestamp` (in its time base).
int cmc_reader_seek(cmc_reader *reader, int stream, int64_t timestamp);

/// What decoded pictures are converted to.
enum { CMC_PICTURE_NV12_VIDEO_RANGE = 0, CMC_PICTURE_NV12_FULL_RANGE = 1, CMC_PICTURE_BGRA = 2 };
/// What decoded sound is converted to: interleaved signed 16-bit or 32-bit float samples.
enum { CMC_SAMPLES_S16 = 0, CMC_SAMPLES_FLOAT = 1 };

/// Whether this FFmpeg has a decoder for the codec FFmpeg names `codec_name`.
int cmc_decoder_available(const char *codec_name);
/// Opens a decoder for stream `index`, on frame and slice threads or (`frame_threads` 0) slice
/// threads only, which give each picture as soon as its packet is in; NULL and a negative FFmpeg
/// error when the stream's codec has no decoder here or refuses its configuration.
cmc_decoder *cmc_decoder_open(cmc_reader *reader, int index, int frame_threads, int *error);
/// Frees a decoder.
void cmc_decoder_free(cmc_decoder *decoder);
/// Gives the decoder a packet of its stream (the reader's current one, which the decoder shares,
/// or bytes kept from an earlier read, which it copies), or, with `packet` NULL, tells it the
/// stream has ended; 0 or a negative error.
int cmc_decoder_send(cmc_decoder *decoder, const cmc_packet *packet);
/// Takes the next decoded picture or block of sound: 0 when there is one, 1 when the decoder
/// needs another packet, 2 when it has given everything, or a negative error.
int cmc_decoder_receive(cmc_decoder *decoder);
/// Forgets everything buffered, after a seek.
void cmc_decoder_flush(cmc_decoder *decoder);
/// The received frame's time and length in the stream's time base (INT64_MIN when unknown).
void cmc_decoder_frame_time(const cmc_decoder *decoder, int64_t *pts, int64_t *duration);
/// The received picture's size, and its colour as FFmpeg's AVCOL_* values.
void cmc_decoder_picture_info(const cmc_decoder *decoder, int *width, int *height, int *primaries, int *transfer,
                              int *matrix, int *full_range);
/// How a received picture's 8-bit 4:2:0 samples lie in memory, for conversions done outside libswscale.
enum { CMC_PLANES_OTHER = 0, CMC_PLANES_I420 = 1, CMC_PLANES_NV12 = 2 };
/// The received picture's planes and their strides when it is 8-bit 4:2:0 in three planes
/// (`CMC_PLANES_I420`) or two (`CMC_PLANES_NV12`) in memory; `CMC_PLANES_OTHER` otherwise.
int cmc_decoder_picture_planes(const cmc_decoder *decoder, const uint8_t *planes[3], int strides[3]);
/// Converts the received picture into `planes` (NV12: two planes; BGRA: one) of `width` x `height`,
/// scaling it by area averaging when that is not its own size.
int cmc_decoder_convert_picture(cmc_decoder *decoder, int target, int width, int height, uint8_t *const planes[2], const int strides[2]);
/// Converts the received sound to `channels` channels at `sample_rate` in `format`, into memory
/// the decoder keeps until the next call; returns the frames made (0 or more) or a negative error.
int cmc_decoder_convert_samples(cmc_decoder *decoder, int format, int sample_rate, int channels, const uint8_t **samples);
/// At the end of the stream, the sound the converter still holds, as the last call's format;
/// returns the frames made (0 or more) or a negative error.
int cmc_decoder_drain_samples(cmc_decoder *decoder, const uint8_t **samples);
#endif
