// dlib's interpolation and Gaussian blur behind a C interface; pictures are read and written in place.
#include "CPictureFilters.h"

#if LAVF_FACE_DETECTION
#include <dlib/image_transforms.h>

#include <algorithm>
#include <cmath>

namespace cpf {
/// An 8-bit grey picture in memory the caller owns, as dlib's generic image interface reads and
/// writes it (its functions found by argument-dependent lookup).
struct grey_image {
    uint8_t *data;
    long rows, columns, stride;
};
inline long num_rows(const grey_image &image) { return image.rows; }
inline long num_columns(const grey_image &image) { return image.columns; }
inline void *image_data(grey_image &image) { return image.data; }
inline const void *image_data(const grey_image &image) { return image.data; }
inline long width_step(const grey_image &image) { return image.stride; }
inline void set_image_size(grey_image &, long, long) {}
}  // namespace cpf

namespace dlib {
template <> struct image_traits<cpf::grey_image> { typedef unsigned char pixel_type; };
}  // namespace dlib

extern "C" int cpf_rotate_grey(const uint8_t *pixels, int width, int height, int stride, double radians, uint8_t fill,
                               uint8_t *out, int out_width, int out_height) {
    try {
        const cpf::grey_image input{const_cast<uint8_t *>(pixels), height, width, stride};
        cpf::grey_image output{out, out_height, out_width, out_width};
        std::fill(out, out + long(out_width) * out_height, fill);
        // Each output pixel is looked up where the inverse turn takes it in the input.
        const double c = std::cos(radians), s = std::sin(radians);
        dlib::matrix<double, 2, 2> inverse;
        inverse = c, s, -s, c;
        const dlib::vector<double, 2> from(out_width / 2.0, out_height / 2.0), to(width / 2.0, height / 2.0);
        const dlib::point_transform_affine map(inverse, to - inverse * from);
        dlib::transform_image(input, output, dlib::interpolate_bilinear(), map, dlib::no_background(), dlib::get_rect(output));
        return 0;
    } catch (...) {
        return -1;
    }
}

extern "C" int cpf_sharpen_grey(const uint8_t *pixels, int width, int height, int stride, double sigma, double amount, uint8_t *out) {
    try {
        const cpf::grey_image input{const_cast<uint8_t *>(pixels), height, width, stride};
        dlib::array2d<float> blurred;
        dlib::gaussian_blur(input, blurred, sigma);
        for (long y = 0; y < height; y++) {
            const uint8_t *row = pixels + y * long(stride);
            for (long x = 0; x < width; x++) {
                const float value = row[x] + float(amount) * (row[x] - blurred[y][x]);
                out[y * long(width) + x] = uint8_t(std::clamp(std::lround(value), 0L, 255L));
            }
        }
        return 0;
    } catch (...) {
        return -1;
    }
}

#else
// Built without the FaceDetection trait, which brings dlib: no filter runs.
extern "C" int cpf_rotate_grey(const uint8_t *, int, int, int, double, uint8_t, uint8_t *, int, int) { return -1; }
extern "C" int cpf_sharpen_grey(const uint8_t *, int, int, int, double, double, uint8_t *) { return -1; }
#endif
