// dlib's HOG face detector, landmark model and correlation tracker behind a C interface;
// pictures are read in place.
#include "CFaceDetection.h"

#if LAVF_FACE_DETECTION
#include <dlib/image_processing.h>
#include <dlib/image_processing/correlation_tracker.h>
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_transforms.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>

namespace cfd {
/// An 8-bit grey picture in memory the caller owns, as dlib's generic image interface reads it
/// (its functions found by argument-dependent lookup).
struct grey_view {
    const unsigned char *data;
    long rows, columns, stride;
};
inline long num_rows(const grey_view &view) { return view.rows; }
inline long num_columns(const grey_view &view) { return view.columns; }
inline const void *image_data(const grey_view &view) { return view.data; }
inline long width_step(const grey_view &view) { return view.stride; }
}  // namespace cfd

namespace dlib {
template <> struct image_traits<cfd::grey_view> { typedef unsigned char pixel_type; };
}  // namespace dlib

namespace {
/// dlib's detector as it ships, read once per process (it is decoded from text, about 0.2 s);
/// each detector is a copy, as a detector's scanner keeps scratch state of its own.
const dlib::frontal_face_detector &prototype() {
    static const dlib::frontal_face_detector detector = dlib::get_frontal_face_detector();
    return detector;
}

/// The landmark models loaded, by path: one copy per process (about 100 MB and 0.6 s to read),
/// shared by every detector, as a shape predictor is only read when used.
std::mutex models_lock;
std::map<std::string, std::shared_ptr<const dlib::shape_predictor>> models;
}  // namespace

struct cfd_detector {
    dlib::frontal_face_detector detector = prototype();
    std::shared_ptr<const dlib::shape_predictor> landmarks;
    std::vector<std::pair<double, dlib::rectangle>> found;
};

extern "C" cfd_detector *cfd_detector_new(void) {
    if (cfd_load()) return nullptr;
    try {
        return new cfd_detector();
    } catch (...) {
        return nullptr;
    }
}

extern "C" void cfd_detector_free(cfd_detector *detector) { delete detector; }

extern "C" int cfd_detector_load_landmarks(cfd_detector *detector, const char *path, char *message, size_t message_size) {
    try {
        // Held while reading, so that detectors made at once read a model once.
        const std::lock_guard<std::mutex> held(models_lock);
        std::shared_ptr<const dlib::shape_predictor> &shared = models[path];
        if (!shared) {
            auto model = std::make_shared<dlib::shape_predictor>();
            dlib::deserialize(path) >> *model;
            if (model->num_parts() != 68) {
                std::snprintf(message, message_size, "%s has %lu landmarks, not 68", path, (unsigned long)model->num_parts());
                models.erase(path);
                return -1;
            }
            shared = std::move(model);
        }
        detector->landmarks = shared;
        return 0;
    } catch (const std::exception &error) {
        std::snprintf(message, message_size, "%s", error.what());
        return -1;
    }
}

namespace {
dlib::dpoint centre(const dlib::full_object_detection &shape, unsigned long first, unsigned long last) {
    dlib::dpoint sum(0, 0);
    for (unsigned long index = first; index <= last; ++index) sum += shape.part(index);
    return sum / double(last - first + 1);
}

double normalized(double degrees) { return std::fmod(std::fmod(degrees, 360.0) + 360.0, 360.0); }
}  // namespace

namespace {
/// Roll and yaw of the face in `box`, from its landmarks.
void angles(const dlib::shape_predictor &model, const cfd::grey_view &view, const dlib::rectangle &box, double &roll, double &yaw) {
    const dlib::full_object_detection shape = model(view, box);
    // The subject's right eye is on the picture's left (points 36-41), the left eye 42-47.
    const dlib::dpoint right = centre(shape, 36, 41), left = centre(shape, 42, 47);
    roll = normalized(std::atan2(left.y() - right.y(), left.x() - right.x()) * 180 / M_PI);
    // The nose tip (30) between the jaw's ends (0 and 16): centred facing the camera.
    const double toLeft = shape.part(30).x() - shape.part(0).x(), toRight = shape.part(16).x() - shape.part(30).x();
    const double balance = (toLeft - toRight) / std::max(1.0, toLeft + toRight);
    yaw = normalized(std::asin(std::clamp(balance, -1.0, 1.0)) * 180 / M_PI);
}

/// Writes the strongest of the detector's last findings into `faces`, boxes divided by `scale`.
int report(cfd_detector *detector, const cfd::grey_view *view, double scale, cfd_face *faces, int capacity) {
    std::sort(detector->found.begin(), detector->found.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    int count = 0;
    for (const auto &[score, found] : detector->found) {
        if (count == capacity) break;
        const dlib::rectangle box(std::lround(found.left() / scale), std::lround(found.top() / scale),
                                  std::lround(found.right() / scale), std::lround(found.bottom() / scale));
        cfd_face &face = faces[count++];
        face.x = box.left();
        face.y = box.top();
        face.width = box.width();
        face.height = box.height();
        face.score = score;
        face.has_angles = 0;
        face.roll = face.yaw = 0;
        if (!detector->landmarks || !view) continue;
        angles(*detector->landmarks, *view, box, face.roll, face.yaw);
        face.has_angles = 1;
    }
    return count;
}
}  // namespace

extern "C" int cfd_detect(cfd_detector *detector, const uint8_t *grey, int width, int height, int stride, double threshold,
                          cfd_face *faces, int capacity) {
    try {
        const cfd::grey_view view{grey, height, width, stride};
        detector->found.clear();
        detector->detector(view, detector->found, threshold);
        return report(detector, &view, 1, faces, capacity);
    } catch (...) {
        return -1;
    }
}

extern "C" int cfd_detect_upsampled(cfd_detector *detector, const uint8_t *grey, int width, int height, int stride, double threshold,
                                    int upsample, cfd_face *faces, int capacity) {
    try {
        const cfd::grey_view view{grey, height, width, stride};
        dlib::array2d<unsigned char> larger;
        dlib::assign_image(larger, view);
        double scale = 1;
        for (int step = 0; step < upsample; ++step) {
            dlib::pyramid_up(larger);
            scale *= 2;
        }
        detector->found.clear();
        detector->detector(larger, detector->found, threshold);
        return report(detector, &view, scale, faces, capacity);
    } catch (...) {
        return -1;
    }
}

extern "C" int cfd_measure_angles(cfd_detector *detector, const uint8_t *grey, int width, int height, int stride,
                                  double x, double y, double box_width, double box_height, double *roll, double *yaw) {
    if (!detector->landmarks) return -1;
    try {
        const cfd::grey_view view{grey, height, width, stride};
        const dlib::rectangle box(std::lround(x), std::lround(y), std::lround(x + box_width) - 1, std::lround(y + box_height) - 1);
        angles(*detector->landmarks, view, box, *roll, *yaw);
        return 0;
    } catch (...) {
        return -1;
    }
}

extern "C" int cfd_landmarks(cfd_detector *detector, const uint8_t *grey, int width, int height, int stride,
                             double x, double y, double box_width, double box_height, double *points) {
    if (!detector->landmarks || !(box_width >= 1 && box_height >= 1)) return -1;
    try {
        const cfd::grey_view view{grey, height, width, stride};
        const dlib::rectangle box(std::lround(x), std::lround(y), std::lround(x + box_width) - 1, std::lround(y + box_height) - 1);
        const dlib::full_object_detection shape = (*detector->landmarks)(view, box);
        if (shape.num_parts() != 68) return -1;
        for (unsigned long part = 0; part < 68; ++part) {
            points[2 * part] = shape.part(part).x();
            points[2 * part + 1] = shape.part(part).y();
        }
        return 0;
    } catch (...) {
        return -1;
    }
}

struct cfd_tracker {
    // A 32x32 filter (dlib's default is 64x64) costs a quarter as much and follows a face as well.
    dlib::correlation_tracker tracker{5};
};

extern "C" cfd_tracker *cfd_tracker_new(void) {
    if (cfd_load()) return nullptr;
    try {
        return new cfd_tracker();
    } catch (...) {
        return nullptr;
    }
}

extern "C" void cfd_tracker_free(cfd_tracker *tracker) { delete tracker; }

extern "C" int cfd_tracker_start(cfd_tracker *tracker, const uint8_t *grey, int width, int height, int stride,
                                 double x, double y, double box_width, double box_height) {
    if (!(box_width >= 1 && box_height >= 1)) return -1;
    try {
        const cfd::grey_view view{grey, height, width, stride};
        tracker->tracker.start_track(view, dlib::drectangle(x, y, x + box_width - 1, y + box_height - 1));
        return 0;
    } catch (...) {
        return -1;
    }
}

extern "C" double cfd_tracker_update(cfd_tracker *tracker, const uint8_t *grey, int width, int height, int stride,
                                     double *x, double *y, double *box_width, double *box_height) {
    try {
        const cfd::grey_view view{grey, height, width, stride};
        // Position only: the face's size is set again by each detection, and scale search costs more than the rest.
        const double confidence = tracker->tracker.update_noscale(view);
        const dlib::drectangle box = tracker->tracker.get_position();
        *x = box.left();
        *y = box.top();
        *box_width = box.width();
        *box_height = box.height();
        return std::isfinite(confidence) ? confidence : -1;
    } catch (...) {
        return -1;
    }
}

#else
// Built without the FaceDetection trait: no detector or tracker can be made (cfd_load says why).
extern "C" cfd_detector *cfd_detector_new(void) { return nullptr; }
extern "C" void cfd_detector_free(cfd_detector *) {}
extern "C" int cfd_detector_load_landmarks(cfd_detector *, const char *, char *, size_t) { return -1; }
extern "C" int cfd_detect(cfd_detector *, const uint8_t *, int, int, int, double, cfd_face *, int) { return -1; }
extern "C" int cfd_detect_upsampled(cfd_detector *, const uint8_t *, int, int, int, double, int, cfd_face *, int) { return -1; }
extern "C" int cfd_measure_angles(cfd_detector *, const uint8_t *, int, int, int, double, double, double, double, double *, double *) {
    return -1;
}
extern "C" int cfd_landmarks(cfd_detector *, const uint8_t *, int, int, int, double, double, double, double, double *) { return -1; }
extern "C" cfd_tracker *cfd_tracker_new(void) { return nullptr; }
extern "C" void cfd_tracker_free(cfd_tracker *) {}
extern "C" int cfd_tracker_start(cfd_tracker *, const uint8_t *, int, int, int, double, double, double, double) { return -1; }
extern "C" double cfd_tracker_update(cfd_tracker *, const uint8_t *, int, int, int, double *, double *, double *, double *) { return -1; }
#endif
