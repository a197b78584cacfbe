// The libyuv conversions and scalers the frame path uses (Debian: libyuv-dev).
#ifndef LINUXAVFOUNDATION_CYUV_SHIM_H
#define LINUXAVFOUNDATION_CYUV_SHIM_H
#include <libyuv/convert.h>
#include <libyuv/convert_argb.h>
#include <libyuv/convert_from_argb.h>
#include <libyuv/planar_functions.h>
#include <libyuv/scale.h>
#include <libyuv/scale_argb.h>
#include <libyuv/rotate.h>
#include <libyuv/rotate_argb.h>
#endif
