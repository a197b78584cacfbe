// Face detection through dlib: its HOG frontal face detector, its 68-point landmark model
// (Debian's libdlib-data) for each face's roll and yaw, and its correlation tracker for following
// a face between detections. A C interface over C++.
#ifndef CFACEDETECTION_H
#define CFACEDETECTION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Loads dlib and BLAS once, from any thread; NULL when they are loaded, otherwise why not. The
/// detector and the tracker are NULL until this has succeeded (they call it).
const char *cfd_load(void);

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

/// A detector; NULL when dlib cannot make one (out of memory). The first one made in a process
/// reads dlib's detector (about 0.2 s); the others copy it.
cfd_detector *cfd_detector_new(void);
void cfd_detector_free(cfd_detector *detector);

/// Loads dlib's 68-point landmark model from `path`, once per process and path (detectors share
/// it); 0 on success, otherwise the reason is copied into `message`. Any thread.
int cfd_detector_load_landmarks(cfd_detector *detector, const char *path, char *message, size_t message_size);

/// Finds faces in an 8-bit grey picture; returns how many were written into `faces` (at most
/// `capacity`, strongest first), or -1 when dlib failed. `threshold` is added to the
/// detector's own (0 keeps its default; higher finds fewer, surer faces).
int cfd_detect(cfd_detector *detector, const uint8_t *grey, int width, int height, int stride, double threshold,
               cfd_face *faces, int capacity);

/// Finds faces as `cfd_detect` does after doubling the picture's size `upsample` times (dlib's own
/// way to find faces smaller than its 80-pixel window); boxes are in the picture's own pixels.
int cfd_detect_upsampled(cfd_detector *detector, const uint8_t *grey, int width, int height, int stride, double threshold,
                         int upsample, cfd_face *faces, int capacity);

/// Measures the roll and yaw of the face in the box (pixels) with the landmark model; 0 on
/// success, -1 when no model is loaded or dlib failed.
int cfd_measure_angles(cfd_detector *detector, const uint8_t *grey, int width, int height, int stride,
                       double x, double y, double box_width, double box_height, double *roll, double *yaw);

/// Writes the 68 landmarks of the face in the box (pixels) as x, y pairs into `points` (136
/// doubles; dlib's order: jaw 0-16, brows 17-26, nose 27-35, the subject's right eye 36-41 and
/// left eye 42-47, mouth 48-67); 0 on success, -1 when no model is loaded or dlib failed.
int cfd_landmarks(cfd_detector *detector, const uint8_t *grey, int width, int height, int stride,
                  double x, double y, double box_width, double box_height, double *points);

typedef struct cfd_tracker cfd_tracker;

/// A correlation tracker (dlib's, after Danelljan et al.); NULL when it cannot be made.
cfd_tracker *cfd_tracker_new(void);
void cfd_tracker_free(cfd_tracker *tracker);

/// Starts following what is inside the box (pixels) of a grey picture; 0 on success, -1 when dlib failed.
int cfd_tracker_start(cfd_tracker *tracker, const uint8_t *grey, int width, int height, int stride,
                      double x, double y, double box_width, double box_height);

/// Follows the object into the next picture, writing its box (pixels; it moves, its size stays); returns the peak to
/// side-lobe ratio (higher is surer; below about 7 the object is usually lost), or -1 when dlib failed.
double cfd_tracker_update(cfd_tracker *tracker, const uint8_t *grey, int width, int height, int stride,
                          double *x, double *y, double *box_width, double *box_height);

#ifdef __cplusplus
}
#endif

#endif
