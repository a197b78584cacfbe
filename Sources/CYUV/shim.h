// The libyuv conversions and scalers the frame path uses (Debian: libyuv-dev).
#ifndef LINUXAVFOUNDATION_CYUV_SHIM_H
#define LINUXAVFOUNDATION_CYUV_SHIM_H
#include <libyuv/convert.h>
#include <libyuv/convert_argb.h>
#include <libyuv/convert_from_argb.h>
#include <libyuv/convert_from.h>
#include <libyuv/planar_functions.h>
#include <libyuv/scale.h>
#include <libyuv/scale_argb.h>
#include <libyuv/scale_uv.h>
#include <libyuv/rotate.h>
#include <libyuv/rotate_argb.h>

/// The BT.601 full-range ("JPEG") matrix, for full-range Y'CbCr.
static inline const struct YuvConstants* cyuv_full_range_bt601(void) { return &kYuvJPEGConstants; }
/// The BT.601 video-range matrix.
static inline const struct YuvConstants* cyuv_video_range_bt601(void) { return &kYuvI601Constants; }
/// The BT.709 video-range matrix, for HD video.
static inline const struct YuvConstants* cyuv_video_range_bt709(void) { return &kYuvH709Constants; }
/// The BT.709 full-range matrix.
static inline const struct YuvConstants* cyuv_full_range_bt709(void) { return &kYuvF709Constants; }
#endif
