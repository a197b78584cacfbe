// Encoding deinterleaved float sound into packets, and decoding packets into it, with
// libavcodec's audio codecs (AAC, ...): the compressed side of an audio converter.
//
// Thread ownership: an encoder or decoder belongs to one thread at a time.
#ifndef CAUDIOCODING_H
#define CAUDIOCODING_H
#include <stdint.h>

typedef struct cmc_audio_encoder cmc_audio_encoder;
typedef struct cmc_audio_decoder cmc_audio_decoder;

/// Opens FFmpeg's encoder `name` ("aac") for deinterleaved floats at a rate and channel count;
/// NULL and a negative FFmpeg error on failure.
cmc_audio_encoder *cmc_audio_encoder_open(const char *name, int sample_rate, int channels, int64_t bit_rate, int *error);
/// The frames each packet holds (1024 for AAC).
int cmc_audio_encoder_frame_size(const cmc_audio_encoder *encoder);
/// The codec's configuration (AAC's AudioSpecificConfig, the magic cookie); its size in `size`.
const uint8_t *cmc_audio_encoder_extradata(const cmc_audio_encoder *encoder, int *size);
/// Encodes `frames` frames (at most the frame size; fewer only for the last), or with NULL ends the stream; 0 or an error.
int cmc_audio_encoder_send(cmc_audio_encoder *encoder, const float *const *input, int frames);
/// Takes the next packet into `data` (of `capacity` bytes): 0 with its size in `size`, 1 when the
/// encoder needs more input, 2 at the end, or a negative error (AVERROR(ENOSPC) when it does not
/// fit: it waits for the next call).
int cmc_audio_encoder_receive(cmc_audio_encoder *encoder, uint8_t *data, int capacity, int *size);
void cmc_audio_encoder_free(cmc_audio_encoder *encoder);

/// Opens a decoder for FFmpeg's codec `name` ("aac") at a rate and channel count, with the codec's
/// configuration (may be NULL); NULL and a negative FFmpeg error on failure.
cmc_audio_decoder *cmc_audio_decoder_open(const char *name, int sample_rate, int channels, const uint8_t *extradata, int extradata_size,
                                          int *error);
/// Decodes a packet, or with NULL ends the stream; 0 or a negative error (a damaged packet's).
int cmc_audio_decoder_send(cmc_audio_decoder *decoder, const uint8_t *data, int size);
/// Takes the next decoded frames as deinterleaved floats into `output` (one pointer per channel, room
/// for `capacity` frames): 0 with their number in `frames`, 1 when it needs another packet, 2 at the end, or an error.
int cmc_audio_decoder_receive(cmc_audio_decoder *decoder, float *const *output, int capacity, int *frames);
void cmc_audio_decoder_free(cmc_audio_decoder *decoder);

#endif
