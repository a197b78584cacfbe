// A small C interface over libpipewire (Debian: libpipewire-0.3-dev) for finding a PipeWire
// server's cameras (Video/Source nodes), following them as they come and go, and streaming
// frames from one. The server is found as every PipeWire client finds it
// (PIPEWIRE_REMOTE, PIPEWIRE_RUNTIME_DIR, XDG_RUNTIME_DIR).
#ifndef CPIPEWIRE_H
#define CPIPEWIRE_H
#include <stddef.h>
#include <stdint.h>

/// The most formats, choices and cameras the interface reports.
enum { CPW_MAX_VALUES = 24, CPW_MAX_FORMATS = 16, CPW_MAX_CAMERAS = 16 };

/// How a choice offers its values.
typedef enum cpw_choice {
    CPW_CHOICE_ONE = 0,    ///< one value
    CPW_CHOICE_RANGE = 1,  ///< values[0] is the default, values[1] the minimum, values[2] the maximum
    CPW_CHOICE_LIST = 2,   ///< values[0] is the default, the rest the alternatives
} cpw_choice;

/// One format a camera's output port offers (one EnumFormat object).
typedef struct cpw_format {
    /// The pixel formats as CoreVideo four-character codes, or 'dmb1' for MJPEG; unknown ones are left out.
    uint32_t pixel_formats[CPW_MAX_VALUES];
    int n_pixel_formats;
    cpw_choice size_choice;
    uint32_t widths[CPW_MAX_VALUES], heights[CPW_MAX_VALUES];
    int n_sizes;
    cpw_choice rate_choice;
    uint32_t rate_nums[CPW_MAX_VALUES], rate_denoms[CPW_MAX_VALUES];
    int n_rates;
} cpw_format;

/// One camera of the server.
typedef struct cpw_camera {
    uint32_t id;
    char name[256];         ///< node.name: stable across restarts
    char description[256];  ///< node.description
    char role[64];          ///< media.role
    char v4l2_path[64];     ///< api.v4l2.path when the server reads a V4L2 device, else empty
    int n_formats;          ///< 0 until the camera's port has said what it offers
    cpw_format formats[CPW_MAX_FORMATS];
} cpw_camera;

/// Receives one line the library logs, with its level: 1 error, 2 warning, 3 information, 4 and 5 debugging.
typedef void (*cpw_log_handler)(int level, const char *message);
/// Sends the library's log to `handler` (NULL: nowhere), up to `level`; call before the first connection.
void cpw_set_log_handler(cpw_log_handler handler, int level);

typedef struct cpw_monitor cpw_monitor;

/// Connects to the server and follows its cameras; `changed` is called on the monitor's own
/// thread whenever a camera, its formats or the connection change. NULL and a negative errno
/// when the server cannot be reached or does not answer within `timeout_ms`.
cpw_monitor *cpw_monitor_new(void (*changed)(void *context), void *context, int timeout_ms, int *error);
/// Copies up to `max` cameras; returns how many, or -EPIPE once the server has gone away.
int cpw_monitor_cameras(cpw_monitor *monitor, cpw_camera *cameras, int max);
/// Makes a round trip to the server; 0 when it answered within `timeout_ms`, -EPIPE when it is
/// gone, -ETIMEDOUT when it did not answer. Must not be called from `changed`.
int cpw_monitor_ping(cpw_monitor *monitor, int timeout_ms);
/// Disconnects; no `changed` call begins after this returns. Must not be called from `changed`.
void cpw_monitor_free(cpw_monitor *monitor);

/// One frame, valid only during the frame callback.
typedef struct cpw_frame {
    const uint8_t *data;
    uint32_t size;
    int32_t stride;
    int64_t pts_ns;       ///< capture time on CLOCK_MONOTONIC, or 0 when the server gave none
    uint64_t sequence;    ///< the server's frame counter, or a count of frames seen
    uint32_t skipped;     ///< frames replaced by this newer one before the client saw them
    int corrupted;        ///< whether the server marked the frame corrupted
} cpw_frame;

/// What happened to a stream after it started.
typedef enum cpw_event {
    CPW_EVENT_DISCONNECTED = 1,  ///< the camera went away
    CPW_EVENT_SERVER_GONE = 2,   ///< the connection to the server ended
    CPW_EVENT_ERROR = 3,         ///< the stream failed
} cpw_event;

/// The format a stream agreed with the camera.
typedef struct cpw_negotiated {
    uint32_t pixel_format;
    uint32_t width, height;
    uint32_t rate_num, rate_denom;
} cpw_negotiated;

typedef struct cpw_stream cpw_stream;

/// Streams from the camera named `name` in `pixel_format` (a CoreVideo code, or 'dmb1') at the
/// given size and rate, waiting at most `timeout_ms` for frames to flow. `frame` and `event`
/// are called on the stream's own thread. NULL and a negative errno on failure: -EPIPE when
/// the server cannot be reached, -ENOENT when the camera is not there, -ETIMEDOUT when the
/// format could not be agreed, -EINVAL for a format the interface cannot ask for.
cpw_stream *cpw_stream_open(const char *name, uint32_t pixel_format, uint32_t width, uint32_t height, uint32_t rate_num,
                            uint32_t rate_denom, void (*frame)(void *context, const cpw_frame *frame),
                            void (*event)(void *context, cpw_event event), void *context, int timeout_ms,
                            cpw_negotiated *negotiated, int *error);
/// Stops and frees the stream; no callback begins after this returns. Returns 0, or 1 when
/// called from a callback: then the stream is freed on another thread once that callback has
/// returned, and its context must stay valid until then.
int cpw_stream_close(cpw_stream *stream);
#endif
