// See CPipeWire.h.
#include "CPipeWire.h"
#include <pipewire/pipewire.h>
#include <spa/param/video/format-utils.h>
#include <spa/pod/builder.h>
#include <spa/pod/iter.h>
#include <spa/buffer/meta.h>
#include "pipewire_library.h"
#include <errno.h>
#include <pthread.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FOURCC(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))
#define CV_24RGB 0x00000018u
#define CV_BGRA FOURCC('B', 'G', 'R', 'A')
#define CV_2VUY FOURCC('2', 'v', 'u', 'y')
#define CV_YUVS FOURCC('y', 'u', 'v', 's')
#define CV_420V FOURCC('4', '2', '0', 'v')
#define CV_MJPEG FOURCC('d', 'm', 'b', '1')

// MARK: - The library's log, handed to the client

static cpw_log_handler log_handler;
static int log_level;

static void log_message(int level, const char *topic, const char *format, va_list arguments) {
    cpw_log_handler handler = log_handler;
    if (!handler) return;
    char text[1024];
    int n = topic ? snprintf(text, sizeof text, "%s: ", topic) : 0;
    if (n < 0 || n >= (int)sizeof text) n = 0;
    vsnprintf(text + n, sizeof text - (size_t)n, format, arguments);
    size_t length = strlen(text);
    while (length > 0 && text[length - 1] == '\n') text[--length] = 0;
    handler(level, text);
}

static void log_logv(void *object, enum spa_log_level level, const char *file, int line, const char *func, const char *format, va_list arguments) {
    log_message((int)level, NULL, format, arguments);
}

static void log_log(void *object, enum spa_log_level level, const char *file, int line, const char *func, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    log_message((int)level, NULL, format, arguments);
    va_end(arguments);
}

static void log_logtv(void *object, enum spa_log_level level, const struct spa_log_topic *topic, const char *file, int line, const char *func,
                      const char *format, va_list arguments) {
    log_message((int)level, topic ? topic->topic : NULL, format, arguments);
}

static void log_logt(void *object, enum spa_log_level level, const struct spa_log_topic *topic, const char *file, int line, const char *func,
                     const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    log_message((int)level, topic ? topic->topic : NULL, format, arguments);
    va_end(arguments);
}

static const struct spa_log_methods log_methods = {
    SPA_VERSION_LOG_METHODS, .log = log_log, .logv = log_logv, .logt = log_logt, .logtv = log_logtv,
};
static struct spa_log client_log = {.iface = {SPA_TYPE_INTERFACE_Log, SPA_VERSION_LOG, {&log_methods, NULL}}, .level = SPA_LOG_LEVEL_NONE};

void cpw_set_log_handler(cpw_log_handler handler, int level) {
    log_handler = handler;
    log_level = handler ? level : 0;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static void init_pipewire(void) {
    const char *problem = cpw_load();
    if (problem) {
        if (log_handler && log_level >= SPA_LOG_LEVEL_ERROR) log_handler(SPA_LOG_LEVEL_ERROR, problem);
        return;
    }
    pw_init(NULL, NULL);
    // The library's messages (such as a missing client.conf on machines without PipeWire) go to
    // the client's handler, at the client's level, never straight to the terminal.
    client_log.level = (enum spa_log_level)log_level;
    pw_log_set(&client_log);
    pw_log_set_level((enum spa_log_level)log_level);
}

/// The CoreVideo code of a PipeWire raw video format; 0 for formats the frame path does not carry.
static uint32_t cv_code(uint32_t format) {
    switch (format) {
    case SPA_VIDEO_FORMAT_RGB: return CV_24RGB;
    case SPA_VIDEO_FORMAT_BGRA: case SPA_VIDEO_FORMAT_BGRx: return CV_BGRA;
    case SPA_VIDEO_FORMAT_UYVY: return CV_2VUY;
    case SPA_VIDEO_FORMAT_YUY2: return CV_YUVS;
    case SPA_VIDEO_FORMAT_NV12: return CV_420V;
    default: return 0;
    }
}

static uint32_t spa_code(uint32_t code) {
    switch (code) {
    case CV_24RGB: return SPA_VIDEO_FORMAT_RGB;
    case CV_BGRA: return SPA_VIDEO_FORMAT_BGRA;
    case CV_2VUY: return SPA_VIDEO_FORMAT_UYVY;
    case CV_YUVS: return SPA_VIDEO_FORMAT_YUY2;
    case CV_420V: return SPA_VIDEO_FORMAT_NV12;
    default: return SPA_VIDEO_FORMAT_UNKNOWN;
    }
}

static cpw_choice choice_kind(uint32_t choice, uint32_t n) {
    if (choice == SPA_CHOICE_Range || choice == SPA_CHOICE_Step) return n >= 3 ? CPW_CHOICE_RANGE : CPW_CHOICE_ONE;
    if (choice == SPA_CHOICE_Enum) return CPW_CHOICE_LIST;
    return CPW_CHOICE_ONE;
}

/// Flattens one EnumFormat object; returns 0 when it is a video format the frame path can take.
static int parse_format(const struct spa_pod *param, cpw_format *out) {
    uint32_t media_type = 0, media_subtype = 0;
    if (spa_format_parse(param, &media_type, &media_subtype) < 0 || media_type != SPA_MEDIA_TYPE_video) return -1;
    if (media_subtype != SPA_MEDIA_SUBTYPE_raw && media_subtype != SPA_MEDIA_SUBTYPE_mjpg) return -1;
    memset(out, 0, sizeof *out);
    if (media_subtype == SPA_MEDIA_SUBTYPE_mjpg) out->pixel_formats[out->n_pixel_formats++] = CV_MJPEG;
    const struct spa_pod_object *object = (const struct spa_pod_object *)param;
    const struct spa_pod_prop *prop;
    SPA_POD_OBJECT_FOREACH(object, prop) {
        uint32_t n = 0, choice = 0;
        const struct spa_pod *values = spa_pod_get_values(&prop->value, &n, &choice);
        if (n > CPW_MAX_VALUES) n = CPW_MAX_VALUES;
        const void *body = SPA_POD_BODY_CONST(values);
        switch (prop->key) {
        case SPA_FORMAT_VIDEO_format:
            if (values->type != SPA_TYPE_Id || media_subtype != SPA_MEDIA_SUBTYPE_raw) break;
            // A list repeats its default among the alternatives: keep each code once.
            for (uint32_t i = 0; i < n; i++) {
                uint32_t code = cv_code(((const uint32_t *)body)[i]);
                int seen = code == 0;
                for (int j = 0; j < out->n_pixel_formats && !seen; j++) seen = out->pixel_formats[j] == code;
                if (!seen) out->pixel_formats[out->n_pixel_formats++] = code;
            }
            break;
        case SPA_FORMAT_VIDEO_size:
            if (values->type != SPA_TYPE_Rectangle) break;
            out->size_choice = choice_kind(choice, n);
            for (uint32_t i = 0; i < n; i++) {
                out->widths[i] = ((const struct spa_rectangle *)body)[i].width;
                out->heights[i] = ((const struct spa_rectangle *)body)[i].height;
            }
            out->n_sizes = (int)n;
            break;
        case SPA_FORMAT_VIDEO_framerate:
            if (values->type != SPA_TYPE_Fraction) break;
            out->rate_choice = choice_kind(choice, n);
            for (uint32_t i = 0; i < n; i++) {
                out->rate_nums[i] = ((const struct spa_fraction *)body)[i].num;
                out->rate_denoms[i] = ((const struct spa_fraction *)body)[i].denom;
            }
            out->n_rates = (int)n;
            break;
        }
    }
    return out->n_pixel_formats > 0 && out->n_sizes > 0 ? 0 : -1;
}

// MARK: - A connection on a thread of its own

typedef struct connection {
    struct pw_thread_loop *loop;
    struct pw_context *context;
    struct pw_core *core;
    struct spa_hook core_listener;
    int running;
} connection;

/// Whether a PipeWire server's socket is where a client looks for it: the remote named by
/// PIPEWIRE_REMOTE (or pipewire-0) in PIPEWIRE_RUNTIME_DIR, XDG_RUNTIME_DIR or USERPROFILE, or an
/// absolute remote, or the system server's. Without one no context is made: destroying a context
/// right after making it can leave libpipewire 0.3.65 joining a data loop thread that sleeps on,
/// its stop lost.
static int server_socket_exists(void) {
    const char *remote = getenv("PIPEWIRE_REMOTE");
    if (!remote || !remote[0]) remote = "pipewire-0";
    char path[4096];
    if (remote[0] == '/') return access(remote, F_OK) == 0;
    const char *dirs[] = {getenv("PIPEWIRE_RUNTIME_DIR"), getenv("XDG_RUNTIME_DIR"), getenv("USERPROFILE"), "/run/pipewire"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (!dirs[i] || !dirs[i][0]) continue;
        if (snprintf(path, sizeof path, "%s/%s", dirs[i], remote) < (int)sizeof path && access(path, F_OK) == 0) return 1;
    }
    return 0;
}

static int connection_open(connection *c, const char *name, const struct pw_core_events *events, void *data) {
    memset(c, 0, sizeof *c);
    // Without a server to reach, the library is not even loaded: a process that only looks for
    // cameras keeps libpipewire and its plug-ins out of its memory.
    if (!server_socket_exists()) return -EPIPE;
    pthread_once(&init_once, init_pipewire);
    if (cpw_load()) return -ENOENT;
    c->loop = pw_thread_loop_new(name, NULL);
    if (!c->loop) return -ENOMEM;
    // A library without its client configuration (client.conf, from pipewire-bin) makes no context.
    c->context = pw_context_new(pw_thread_loop_get_loop(c->loop), NULL, 0);
    if (!c->context) return errno > 0 ? -errno : -ENOENT;
    if (pw_thread_loop_start(c->loop) < 0) return -ENOMEM;
    c->running = 1;
    pw_thread_loop_lock(c->loop);
    c->core = pw_context_connect(c->context, NULL, 0);
    int result = c->core ? 0 : -EPIPE;
    if (c->core) pw_core_add_listener(c->core, &c->core_listener, events, data);
    pw_thread_loop_unlock(c->loop);
    return result;
}

/// Stops the thread, then frees whatever was made, also after a connection_open that failed
/// part-way; must not be called on the connection's thread.
static void connection_close(connection *c) {
    if (!c->loop) return;
    if (c->running) pw_thread_loop_stop(c->loop);
    if (c->core) pw_core_disconnect(c->core);
    if (c->context) pw_context_destroy(c->context);
    pw_thread_loop_destroy(c->loop);
    memset(c, 0, sizeof *c);
}

// MARK: - The monitor

enum { MAX_PORTS = 64 };

typedef struct monitor_port {
    struct cpw_monitor *monitor;
    uint32_t id, node_id;
    struct pw_proxy *proxy;
    struct spa_hook listener;
    int n_formats;
    cpw_format formats[CPW_MAX_FORMATS];
} monitor_port;

struct cpw_monitor {
    connection connection;
    struct pw_registry *registry;
    struct spa_hook registry_listener;
    cpw_camera cameras[CPW_MAX_CAMERAS];
    int n_cameras;
    monitor_port *ports[MAX_PORTS];
    int n_ports;
    int first_sync, second_sync, ready, dead;
    int ping_sync, ping_answered;
    void (*changed)(void *);
    void *context;
};

static void monitor_changed(struct cpw_monitor *m) {
    if (m->ready && m->changed) m->changed(m->context);
}

static void on_port_param(void *data, int seq, uint32_t id, uint32_t index, uint32_t next, const struct spa_pod *param) {
    monitor_port *port = data;
    if (id != SPA_PARAM_EnumFormat || !param || port->n_formats >= CPW_MAX_FORMATS) return;
    if (parse_format(param, &port->formats[port->n_formats]) == 0) port->n_formats++;
    monitor_changed(port->monitor);
}

static const struct pw_port_events port_events = {PW_VERSION_PORT_EVENTS, .param = on_port_param};

static void on_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version, const struct spa_dict *props) {
    struct cpw_monitor *m = data;
    if (!props) return;
    if (strcmp(type, PW_TYPE_INTERFACE_Node) == 0) {
        const char *class = spa_dict_lookup(props, PW_KEY_MEDIA_CLASS);
        if (!class || strcmp(class, "Video/Source") != 0 || m->n_cameras >= CPW_MAX_CAMERAS) return;
        cpw_camera *camera = &m->cameras[m->n_cameras++];
        memset(camera, 0, sizeof *camera);
        camera->id = id;
        const char *name = spa_dict_lookup(props, PW_KEY_NODE_NAME);
        const char *description = spa_dict_lookup(props, PW_KEY_NODE_DESCRIPTION);
        const char *role = spa_dict_lookup(props, PW_KEY_MEDIA_ROLE);
        const char *v4l2 = spa_dict_lookup(props, "api.v4l2.path");
        snprintf(camera->v4l2_path, sizeof camera->v4l2_path, "%s", v4l2 ? v4l2 : "");
        snprintf(camera->name, sizeof camera->name, "%s", name ? name : "");
        snprintf(camera->description, sizeof camera->description, "%s", description ? description : camera->name);
        snprintf(camera->role, sizeof camera->role, "%s", role ? role : "");
        monitor_changed(m);
    } else if (strcmp(type, PW_TYPE_INTERFACE_Port) == 0) {
        const char *direction = spa_dict_lookup(props, PW_KEY_PORT_DIRECTION);
        const char *node = spa_dict_lookup(props, PW_KEY_NODE_ID);
        if (!direction || strcmp(direction, "out") != 0 || !node || m->n_ports >= MAX_PORTS) return;
        uint32_t node_id = (uint32_t)strtoul(node, NULL, 10);
        int camera = 0;
        for (int i = 0; i < m->n_cameras; i++) camera |= m->cameras[i].id == node_id;
        if (!camera) return;
        monitor_port *port = calloc(1, sizeof *port);
        if (!port) return;
        port->monitor = m;
        port->id = id;
        port->node_id = node_id;
        port->proxy = pw_registry_bind(m->registry, id, PW_TYPE_INTERFACE_Port, PW_VERSION_PORT, 0);
        if (!port->proxy) { free(port); return; }
        pw_proxy_add_object_listener(port->proxy, &port->listener, &port_events, port);
        pw_port_enum_params((struct pw_port *)port->proxy, 0, SPA_PARAM_EnumFormat, 0, UINT32_MAX, NULL);
        m->ports[m->n_ports++] = port;
    }
}

static void on_global_remove(void *data, uint32_t id) {
    struct cpw_monitor *m = data;
    for (int i = 0; i < m->n_cameras; i++) {
        if (m->cameras[i].id != id) continue;
        m->cameras[i] = m->cameras[--m->n_cameras];
        monitor_changed(m);
        return;
    }
    for (int i = 0; i < m->n_ports; i++) {
        if (m->ports[i]->id != id) continue;
        monitor_port *port = m->ports[i];
        m->ports[i] = m->ports[--m->n_ports];
        spa_hook_remove(&port->listener);
        pw_proxy_destroy(port->proxy);
        free(port);
        monitor_changed(m);
        return;
    }
}

static const struct pw_registry_events registry_events = {PW_VERSION_REGISTRY_EVENTS, .global = on_global, .global_remove = on_global_remove};

static void on_monitor_done(void *data, uint32_t id, int seq) {
    struct cpw_monitor *m = data;
    if (id != PW_ID_CORE) return;
    if (seq == m->first_sync) {
        // Every node and port is known and their formats asked for: one more round trip brings the answers.
        m->second_sync = pw_core_sync(m->connection.core, PW_ID_CORE, 0);
    } else if (seq == m->second_sync) {
        m->ready = 1;
        pw_thread_loop_signal(m->connection.loop, false);
    } else if (seq == m->ping_sync) {
        m->ping_answered = 1;
        pw_thread_loop_signal(m->connection.loop, false);
    }
}

static void on_monitor_error(void *data, uint32_t id, int seq, int res, const char *message) {
    struct cpw_monitor *m = data;
    if (id != PW_ID_CORE || res != -EPIPE) return;
    m->dead = 1;
    pw_thread_loop_signal(m->connection.loop, false);
    if (m->changed) m->changed(m->context);
}

static const struct pw_core_events monitor_core_events = {PW_VERSION_CORE_EVENTS, .done = on_monitor_done, .error = on_monitor_error};

cpw_monitor *cpw_monitor_new(void (*changed)(void *context), void *context, int timeout_ms, int *error) {
    struct cpw_monitor *m = calloc(1, sizeof *m);
    if (!m) { *error = -ENOMEM; return NULL; }
    int result = connection_open(&m->connection, "pipewire-cameras", &monitor_core_events, m);
    if (result < 0) { connection_close(&m->connection); free(m); *error = result; return NULL; }
    pw_thread_loop_lock(m->connection.loop);
    m->registry = pw_core_get_registry(m->connection.core, PW_VERSION_REGISTRY, 0);
    if (!m->registry) {
        pw_thread_loop_unlock(m->connection.loop);
        cpw_monitor_free(m);
        *error = -ENOMEM;
        return NULL;
    }
    pw_registry_add_listener(m->registry, &m->registry_listener, &registry_events, m);
    m->first_sync = pw_core_sync(m->connection.core, PW_ID_CORE, 0);
    struct timespec deadline;
    pw_thread_loop_get_time(m->connection.loop, &deadline, (int64_t)timeout_ms * SPA_NSEC_PER_MSEC);
    while (!m->ready && !m->dead) {
        if (pw_thread_loop_timed_wait_full(m->connection.loop, &deadline) != 0) break;
    }
    result = m->ready ? 0 : m->dead ? -EPIPE : -ETIMEDOUT;
    if (result == 0) {
        m->changed = changed;
        m->context = context;
    }
    pw_thread_loop_unlock(m->connection.loop);
    if (result < 0) { cpw_monitor_free(m); *error = result; return NULL; }
    *error = 0;
    return m;
}

int cpw_monitor_cameras(cpw_monitor *m, cpw_camera *cameras, int max) {
    pw_thread_loop_lock(m->connection.loop);
    int count = m->dead ? -EPIPE : 0;
    for (int i = 0; i < m->n_cameras && count >= 0 && count < max; i++) {
        cpw_camera *camera = &cameras[count++];
        *camera = m->cameras[i];
        camera->n_formats = 0;
        for (int p = 0; p < m->n_ports; p++) {
            if (m->ports[p]->node_id != camera->id) continue;
            for (int f = 0; f < m->ports[p]->n_formats && camera->n_formats < CPW_MAX_FORMATS; f++)
                camera->formats[camera->n_formats++] = m->ports[p]->formats[f];
        }
    }
    pw_thread_loop_unlock(m->connection.loop);
    return count;
}

int cpw_monitor_ping(cpw_monitor *m, int timeout_ms) {
    pw_thread_loop_lock(m->connection.loop);
    int result = -EPIPE;
    if (!m->dead) {
        m->ping_answered = 0;
        m->ping_sync = pw_core_sync(m->connection.core, PW_ID_CORE, 0);
        struct timespec deadline;
        pw_thread_loop_get_time(m->connection.loop, &deadline, (int64_t)timeout_ms * SPA_NSEC_PER_MSEC);
        while (m->ping_sync >= 0 && !m->ping_answered && !m->dead) {
            if (pw_thread_loop_timed_wait_full(m->connection.loop, &deadline) != 0) break;
        }
        result = m->ping_answered && !m->dead ? 0 : m->dead ? -EPIPE : -ETIMEDOUT;
    }
    pw_thread_loop_unlock(m->connection.loop);
    return result;
}

void cpw_monitor_free(cpw_monitor *m) {
    if (!m) return;
    connection_close(&m->connection);
    for (int i = 0; i < m->n_ports; i++) free(m->ports[i]);
    free(m);
}

// MARK: - Streams

struct cpw_stream {
    connection connection;
    struct pw_stream *stream;
    struct spa_hook stream_listener;
    void (*frame)(void *, const cpw_frame *);
    void (*event)(void *, cpw_event);
    void *context;
    cpw_negotiated negotiated;
    volatile int started, finished;
    int connecting, closing, server_gone, result;
    uint64_t count;
    pthread_t process_thread;
    volatile int has_process_thread;
    int sync;
    volatile int synced;
    int ended_sync;
    cpw_event ended_with;
};

static void stream_event(struct cpw_stream *s, cpw_event event) {
    if (s->started && !s->closing && s->event) s->event(s->context, event);
    s->closing = 1;
}

static void on_state_changed(void *data, enum pw_stream_state old, enum pw_stream_state state, const char *message) {
    struct cpw_stream *s = data;
    switch (state) {
    case PW_STREAM_STATE_CONNECTING:
        s->connecting = 1;
        break;
    case PW_STREAM_STATE_STREAMING:
        s->started = 1;
        pw_thread_loop_signal(s->connection.loop, false);
        break;
    case PW_STREAM_STATE_ERROR:
    case PW_STREAM_STATE_UNCONNECTED:
        // With node.dont-reconnect, a camera that goes away leaves the stream unconnected.
        if (state == PW_STREAM_STATE_UNCONNECTED && !s->connecting) break;
        if (!s->started || s->server_gone || s->closing) {
            s->result = s->server_gone ? -EPIPE : state == PW_STREAM_STATE_ERROR ? -EIO : -ENOENT;
            stream_event(s, s->server_gone ? CPW_EVENT_SERVER_GONE : state == PW_STREAM_STATE_ERROR ? CPW_EVENT_ERROR : CPW_EVENT_DISCONNECTED);
        } else {
            // The camera went away, or the whole server did (whose error may come just after):
            // a server that still answers a round trip is there.
            s->ended_with = state == PW_STREAM_STATE_ERROR ? CPW_EVENT_ERROR : CPW_EVENT_DISCONNECTED;
            s->ended_sync = pw_core_sync(s->connection.core, PW_ID_CORE, 0);
            if (s->ended_sync < 0) stream_event(s, CPW_EVENT_SERVER_GONE);
        }
        s->finished = 1;
        pw_thread_loop_signal(s->connection.loop, false);
        break;
    default:
        break;
    }
}

static void on_param_changed(void *data, uint32_t id, const struct spa_pod *param) {
    struct cpw_stream *s = data;
    if (id != SPA_PARAM_Format || !param) return;
    uint32_t media_type = 0, media_subtype = 0;
    if (spa_format_parse(param, &media_type, &media_subtype) < 0 || media_type != SPA_MEDIA_TYPE_video) return;
    if (media_subtype == SPA_MEDIA_SUBTYPE_raw) {
        struct spa_video_info_raw info;
        if (spa_format_video_raw_parse(param, &info) < 0) return;
        s->negotiated = (cpw_negotiated){cv_code(info.format), info.size.width, info.size.height, info.framerate.num, info.framerate.denom};
    } else if (media_subtype == SPA_MEDIA_SUBTYPE_mjpg) {
        struct spa_video_info_mjpg info;
        if (spa_format_video_mjpg_parse(param, &info) < 0) return;
        s->negotiated = (cpw_negotiated){CV_MJPEG, info.size.width, info.size.height, info.framerate.num, info.framerate.denom};
    }
    // Ask for enough buffers that the server always has one free while the client converts the
    // last (one buffer halves the rate: a returned buffer is reused a cycle later), and for the
    // header that carries each frame's capture time and sequence number.
    uint8_t buffer[512];
    struct spa_pod_builder builder = SPA_POD_BUILDER_INIT(buffer, sizeof buffer);
    const struct spa_pod *params[2];
    params[0] = spa_pod_builder_add_object(&builder, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
                                           SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(8, 2, 16));
    params[1] = spa_pod_builder_add_object(&builder, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
                                           SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
                                           SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
    pw_stream_update_params(s->stream, params, 2);
}

static void on_process(void *data) {
    struct cpw_stream *s = data;
    if (!s->has_process_thread) { s->process_thread = pthread_self(); s->has_process_thread = 1; }
    struct pw_buffer *newest = NULL, *buffer;
    uint32_t skipped = 0;
    // Take every frame that is ready and keep only the newest.
    while ((buffer = pw_stream_dequeue_buffer(s->stream)) != NULL) {
        if (newest) { pw_stream_queue_buffer(s->stream, newest); skipped++; }
        newest = buffer;
    }
    if (!newest) return;
    struct spa_buffer *b = newest->buffer;
    struct spa_data *d = b->n_datas > 0 ? &b->datas[0] : NULL;
    if (s->started && !s->closing && s->frame && d && d->data && d->chunk) {
        uint32_t offset = d->chunk->offset < d->maxsize ? d->chunk->offset : 0;
        uint32_t size = d->chunk->size <= d->maxsize - offset ? d->chunk->size : d->maxsize - offset;
        cpw_frame frame = {.data = (const uint8_t *)d->data + offset, .size = size, .stride = d->chunk->stride,
                           .sequence = s->count, .skipped = skipped};
        frame.corrupted = (d->chunk->flags & SPA_CHUNK_FLAG_CORRUPTED) != 0;
        struct spa_meta_header *header = spa_buffer_find_meta_data(b, SPA_META_Header, sizeof *header);
        if (header) {
            frame.pts_ns = header->pts;
            frame.sequence = header->seq;
            frame.corrupted |= (header->flags & SPA_META_HEADER_FLAG_CORRUPTED) != 0;
        }
        s->count++;
        s->frame(s->context, &frame);
    }
    pw_stream_queue_buffer(s->stream, newest);
}

static const struct pw_stream_events stream_events = {
    PW_VERSION_STREAM_EVENTS, .state_changed = on_state_changed, .param_changed = on_param_changed, .process = on_process,
};

static void on_stream_core_error(void *data, uint32_t id, int seq, int res, const char *message) {
    struct cpw_stream *s = data;
    if (id != PW_ID_CORE || res != -EPIPE) return;
    s->server_gone = 1;
    s->result = -EPIPE;
    stream_event(s, CPW_EVENT_SERVER_GONE);
    s->finished = 1;
    pw_thread_loop_signal(s->connection.loop, false);
}

static void on_stream_done(void *data, uint32_t id, int seq) {
    struct cpw_stream *s = data;
    if (id != PW_ID_CORE) return;
    if (s->ended_sync > 0 && seq == s->ended_sync) {
        s->ended_sync = 0;
        stream_event(s, s->ended_with);
        return;
    }
    if (seq != s->sync) return;
    s->synced = 1;
    pw_thread_loop_signal(s->connection.loop, false);
}

static const struct pw_core_events stream_core_events = {PW_VERSION_CORE_EVENTS, .done = on_stream_done, .error = on_stream_core_error};

cpw_stream *cpw_stream_open(const char *name, uint32_t pixel_format, uint32_t width, uint32_t height, uint32_t rate_num,
                            uint32_t rate_denom, void (*frame)(void *context, const cpw_frame *frame),
                            void (*event)(void *context, cpw_event event), void *context, int timeout_ms,
                            cpw_negotiated *negotiated, int *error) {
    uint32_t format = spa_code(pixel_format);
    if (format == SPA_VIDEO_FORMAT_UNKNOWN && pixel_format != CV_MJPEG) { *error = -EINVAL; return NULL; }
    struct cpw_stream *s = calloc(1, sizeof *s);
    if (!s) { *error = -ENOMEM; return NULL; }
    s->frame = frame;
    s->event = event;
    s->context = context;
    int result = connection_open(&s->connection, "pipewire-camera", &stream_core_events, s);
    if (result < 0) { connection_close(&s->connection); free(s); *error = result; return NULL; }
    pw_thread_loop_lock(s->connection.loop);
    struct pw_properties *props = pw_properties_new(
        PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture", PW_KEY_MEDIA_ROLE, "Camera",
        PW_KEY_TARGET_OBJECT, name, PW_KEY_NODE_DONT_RECONNECT, "true", NULL);
    s->stream = pw_stream_new(s->connection.core, "LinuxAVFoundation", props);
    if (!s->stream) {
        pw_thread_loop_unlock(s->connection.loop);
        connection_close(&s->connection);
        free(s);
        *error = -ENOMEM;
        return NULL;
    }
    pw_stream_add_listener(s->stream, &s->stream_listener, &stream_events, s);
    uint8_t buffer[512];
    struct spa_pod_builder builder = SPA_POD_BUILDER_INIT(buffer, sizeof buffer);
    const struct spa_pod *params[1];
    struct spa_rectangle size = SPA_RECTANGLE(width, height);
    struct spa_fraction rate = SPA_FRACTION(rate_num, rate_denom);
    if (pixel_format == CV_MJPEG) {
        params[0] = spa_pod_builder_add_object(&builder, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat,
            SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video), SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_mjpg),
            SPA_FORMAT_VIDEO_size, SPA_POD_Rectangle(&size), SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&rate));
    } else {
        params[0] = spa_pod_builder_add_object(&builder, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat,
            SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video), SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw),
            SPA_FORMAT_VIDEO_format, SPA_POD_Id(format),
            SPA_FORMAT_VIDEO_size, SPA_POD_Rectangle(&size), SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&rate));
    }
    result = pw_stream_connect(s->stream, PW_DIRECTION_INPUT, PW_ID_ANY,
                               PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS | PW_STREAM_FLAG_RT_PROCESS, params, 1);
    if (result >= 0) {
        // A format the camera cannot agree to never fails: it only never starts. Hence the deadline.
        struct timespec deadline;
        pw_thread_loop_get_time(s->connection.loop, &deadline, (int64_t)timeout_ms * SPA_NSEC_PER_MSEC);
        while (!s->started && !s->finished) {
            if (pw_thread_loop_timed_wait_full(s->connection.loop, &deadline) != 0) break;
        }
        result = s->started ? 0 : s->finished ? (s->result ? s->result : -EIO) : -ETIMEDOUT;
    }
    if (result == 0) *negotiated = s->negotiated;
    else s->closing = 1;
    pw_thread_loop_unlock(s->connection.loop);
    if (result < 0) { cpw_stream_close(s); *error = result; return NULL; }
    *error = 0;
    return s;
}

static void stream_free(struct cpw_stream *s) {
    // The stream leaves the graph while the connection still runs, so that the server hears of it
    // in order and takes its buffers back; then the connection ends.
    pw_thread_loop_lock(s->connection.loop);
    s->closing = 1;
    if (s->stream) {
        spa_hook_remove(&s->stream_listener);
        pw_stream_destroy(s->stream);
        s->stream = NULL;
    }
    if (s->connection.core && !s->server_gone) {
        // Wait (briefly) until the server has handled the removal.
        s->sync = pw_core_sync(s->connection.core, PW_ID_CORE, 0);
        struct timespec deadline;
        pw_thread_loop_get_time(s->connection.loop, &deadline, 500 * SPA_NSEC_PER_MSEC);
        while (!s->synced) {
            if (pw_thread_loop_timed_wait_full(s->connection.loop, &deadline) != 0) break;
        }
    }
    pw_thread_loop_unlock(s->connection.loop);
    connection_close(&s->connection);
    free(s);
}

static void *stream_free_later(void *data) {
    stream_free(data);
    return NULL;
}

int cpw_stream_close(cpw_stream *s) {
    if (!s) return 0;
    int on_process_thread = s->has_process_thread && pthread_equal(s->process_thread, pthread_self());
    if (pw_thread_loop_in_thread(s->connection.loop) || on_process_thread) {
        // Called from a callback: the stream's own thread cannot stop itself, another one does.
        s->closing = 1;
        pthread_t thread;
        pthread_attr_t attributes;
        pthread_attr_init(&attributes);
        pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&thread, &attributes, stream_free_later, s) != 0) { /* leaked rather than deadlocked */ }
        pthread_attr_destroy(&attributes);
        return 1;
    }
    stream_free(s);
    return 0;
}
