// A small C interface over FFmpeg's video encoders and decoders, frame by frame, without a
// container: pictures in, compressed packets out (libx264, libx265), and packets in, pictures out.
// Video Toolbox's compression and decompression sessions are built on it, and the movie writer
// encodes through the same encoder.
//
// Thread ownership: an encoder or a decoder belongs to one thread at a time.
#ifndef CVIDEOCODING_H
#define CVIDEOCODING_H
#include <stddef.h>
#include <stdint.h>

typedef struct cmc_video_encoder cmc_video_encoder;

/// How to encode.
typedef struct cmc_video_encoder_config {
    const char *encoder;          ///< FFmpeg's encoder: "libx264" or "libx265"
    const char *preset;           ///< such as "veryfast"; NULL for the encoder's own
    int width, height;            ///< the pictures' size
    int full_range;               ///< whether Y'CbCr uses 0...255
    int64_t bit_rate;             ///< the average bits a second asked for; 0 for a quality instead
    /// The most bits a second and the buffer they are measured over (the data rate limits); 0 for none.
    int64_t max_bit_rate, buffer_bits;
    /// The writer's rate control: at most 1.5 times the bit rate over a second's buffer.
    int writer_rate_control;
    int constant_bit_rate;        ///< whether every second carries the bit rate (x264's CBR with filler)
    /// The quality from 0 (smallest) to 1 (best) when no bit rate is asked for; negative for the encoder's own.
    double quality;
    int keyframe_interval;        ///< the most frames from one keyframe to the next; 0 for the encoder's own
    double expected_frame_rate;   ///< a hint for rate control; 0 when unknown
    int sar_num, sar_den;         ///< the pixel aspect ratio; 0 for square pixels
    /// The colour, as FFmpeg's AVCOL_PRI_*, AVCOL_TRC_* and AVCOL_SPC_* values (0 leaves one unspecified).
    int color_primaries, color_trc, colorspace;
    const char *profile;          ///< FFmpeg's name for the profile, or NULL for the encoder's choice
    int level;                    ///< the level times ten, or 0 for the encoder's choice
    int entropy_cabac;            ///< H.264's entropy coding: 1 CABAC, 0 CAVLC, -1 the encoder's choice
    int b_frames;                 ///< the most B-frames in a row; 0 keeps frames in display order
    int droppable_b_frames;       ///< whether B-frames come in a fixed pattern and are never references
    /// The most frames the encoder may hold before giving one out; negative for no limit.
    int max_frame_delay;
    /// The pixel format the encoder is given, by FFmpeg's name, converted with libswscale; NULL for 8-bit 4:2:0.
    const char *encoder_pixel_format;
    /// Parameter sets out of band (in `cmc_video_encoder_extradata`), as containers and Video
    /// Toolbox keep them, rather than before every keyframe.
    int global_header;
} cmc_video_encoder_config;

/// One compressed picture, valid until the next receive or free.
typedef struct cmc_encoded_packet {
    const uint8_t *data;          ///< as the encoder writes it: Annex B start codes for H.264 and HEVC
    int size;
    int64_t pts, dts;             ///< in microseconds
    int keyframe;
    int disposable;               ///< whether no other picture refers to it
} cmc_encoded_packet;

/// The pictures an encoder takes: bi-planar 4:2:0 Y'CbCr in 8 bits, or in 10 bits of 16 (P010),
/// or B, G, R, A (one plane), as CMC_INPUT_* in CMediaCodecs.h.
/// A callback that releases a picture's memory once the encoder is done with it.
typedef void (*cmc_picture_release)(void *opaque, uint8_t *data);

/// Opens an encoder; NULL and a negative FFmpeg error when the encoder is missing or refuses the configuration.
cmc_video_encoder *cmc_video_encoder_open(const cmc_video_encoder_config *config, int *error);
/// Frees an encoder and what it holds.
void cmc_video_encoder_free(cmc_video_encoder *encoder);
/// The out-of-band parameter sets (Annex B), or NULL when the encoder gave none.
const uint8_t *cmc_video_encoder_extradata(const cmc_video_encoder *encoder, int *size);
/// Gives the encoder one picture (`input`: CMC_INPUT_NV12, CMC_INPUT_P010 or CMC_INPUT_BGRA) at
/// `pts_us` microseconds, made a keyframe when `keyframe` is set; `release` runs when the encoder lets
/// go of the memory. With `y` NULL, tells the encoder that no picture follows. 0 or a negative error.
int cmc_video_encoder_send(cmc_video_encoder *encoder, const uint8_t *y, int y_stride, const uint8_t *uv, int uv_stride, int input,
                           int64_t pts_us, int keyframe, cmc_picture_release release, void *opaque);
/// Takes the next packet: 0 when there is one, 1 when the encoder needs another picture, 2 when it
/// has given everything, or a negative error.
int cmc_video_encoder_receive(cmc_video_encoder *encoder, cmc_encoded_packet *packet);
/// Changes the average bit rate and the limits between pictures (libx264 reconfigures itself;
/// other encoders refuse with a negative error).
int cmc_video_encoder_set_rate(cmc_video_encoder *encoder, int64_t bit_rate, int64_t max_bit_rate, int64_t buffer_bits);

typedef struct cmc_decoder cmc_decoder;
/// Opens a decoder for the codec FFmpeg names `codec_name` ("h264", "hevc"), configured by
/// `extradata` (an avcC or hvcC box's contents; NULL when the stream carries its parameter sets),
/// for the CMovieReading.h calls (send packets with stream 0; times in microseconds). With
/// `frame_threads`, pictures are decoded on several threads at once and come out a few packets
/// later; without, each comes out once its packet is sent. NULL and a negative FFmpeg error when
/// there is no such decoder or it refuses the configuration.
cmc_decoder *cmc_decoder_open_codec(const char *codec_name, const uint8_t *extradata, int extradata_size, int width, int height,
                                    int frame_threads, int *error);
#endif
