// Face detection through dlib: its HOG frontal face detector, and its 68-point landmark model
// (Debian's libdlib-data) for each face's roll and yaw. A C interface over C++.
#ifndef CFACEDETECTION_H
#define CFACEDETECTION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cfd_detector cfd_detector;

/// A face found: its box in pixels, the detector's confidence, and, when the landmark model is
/// loaded, its roll (the line through the eyes, degrees clockwise in the picture) and yaw
/// (degrees, positive when the nose points to the picture's right).
typedef struct cfd_face {
    double x, y, width, height;
    double score;
    int has_angles;
    double roll, yaw;
} cfd_face;

/// A detector; NULL when dlib cannot make one (out of memory).
cfd_detector *cfd_detector_new(void);
void cfd_detector_free(cfd_detector *detector);

/// Loads dlib's 68-point landmark model from `path`; 0 on success, otherwise the reason is copied into `message`.
int cfd_detector_load_landmarks(cfd_detector *detector, const char *path, char *message, size_t message_size);

/// Finds faces in an 8-bit grey picture; returns how many were written into `faces` (at most
/// `capacity`, strongest first), or -1 when dlib failed. `threshold` is added to the
/// detector's own (0 keeps its default; higher finds fewer, surer faces).
int cfd_detect(cfd_detector *detector, const uint8_t *grey, int width, int height, int stride, double threshold,
               cfd_face *faces, int capacity);

#ifdef __cplusplus
}
#endif

#endif
