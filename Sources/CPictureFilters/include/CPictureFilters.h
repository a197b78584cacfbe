// Grey-picture filters from dlib behind a C interface: turning a picture about its centre and
// sharpening it (an unsharp mask over dlib's Gaussian blur), for reading codes from still
// pictures a first attempt could not read.
#ifndef CPICTUREFILTERS_H
#define CPICTUREFILTERS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Turns `pixels` (width x height, `stride` bytes a row) by `radians` (clockwise as the picture
/// is seen) about its centre into `out` (out_width x out_height, tightly packed, the two centres
/// matched), with bilinear interpolation; what no input pixel covers is `fill`. 0 on success,
/// -1 when dlib could not allocate.
int cpf_rotate_grey(const uint8_t *pixels, int width, int height, int stride, double radians, uint8_t fill,
                    uint8_t *out, int out_width, int out_height);

/// Sharpens `pixels` into `out` (tightly packed, width x height): each pixel plus `amount` times
/// its difference from a Gaussian blur of `sigma` pixels, saturated. 0 on success, -1 when dlib
/// could not allocate.
int cpf_sharpen_grey(const uint8_t *pixels, int width, int height, int stride, double sigma, double amount, uint8_t *out);

#ifdef __cplusplus
}
#endif

#endif
