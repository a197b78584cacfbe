// What the movie writer reaches inside a video encoder (CVideoCoding.h): the codec context it
// muxes from.
#ifndef CMC_VIDEO_ENCODER_H
#define CMC_VIDEO_ENCODER_H
#include "CVideoCoding.h"
#include <libavcodec/avcodec.h>

/// The encoder's codec context, which the writer's stream is described from and drained of.
AVCodecContext *cmc_video_encoder_context(cmc_video_encoder *encoder);
#endif
