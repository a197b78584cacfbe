// See CPulse.h.
#include "CPulse.h"
#include "pulse_library.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct cpulse_capture { pa_simple *stream; };

typedef struct listing {
    void *items;
    int max, count, done;
    char default_source[256];
    char default_sink[256];
    int server_done;
} listing;

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void on_source(pa_context *context, const pa_source_info *info, int eol, void *userdata) {
    listing *l = userdata;
    if (eol) { l->done = 1; return; }
    if (!info) return;
    if (l->count < l->max) {
        cpulse_source *s = (cpulse_source *)l->items + l->count;
        snprintf(s->name, sizeof s->name, "%s", info->name ? info->name : "");
        snprintf(s->description, sizeof s->description, "%s", info->description ? info->description : s->name);
        s->rate = info->sample_spec.rate;
        s->channels = info->sample_spec.channels;
        s->is_monitor = info->monitor_of_sink != PA_INVALID_INDEX;
        s->volume = (float)pa_sw_volume_to_linear(pa_cvolume_avg(&info->volume));
        s->is_default = strcmp(s->name, l->default_source) == 0;
    }
    l->count++;
}

/// Copies a property of `list` into `into`, or leaves it empty.
static void copy_property(char *into, size_t size, pa_proplist *list, const char *key) {
    const char *value = list ? pa_proplist_gets(list, key) : NULL;
    snprintf(into, size, "%s", value ? value : "");
}

static void on_sink(pa_context *context, const pa_sink_info *info, int eol, void *userdata) {
    listing *l = userdata;
    if (eol) { l->done = 1; return; }
    if (!info) return;
    if (l->count < l->max) {
        cpulse_sink *s = (cpulse_sink *)l->items + l->count;
        memset(s, 0, sizeof *s);
        snprintf(s->name, sizeof s->name, "%s", info->name ? info->name : "");
        snprintf(s->description, sizeof s->description, "%s", info->description ? info->description : s->name);
        if (info->active_port) {
            snprintf(s->port, sizeof s->port, "%s", info->active_port->name ? info->active_port->name : "");
            s->port_type = (int)info->active_port->type;
        }
        copy_property(s->form_factor, sizeof s->form_factor, info->proplist, PA_PROP_DEVICE_FORM_FACTOR);
        copy_property(s->bus, sizeof s->bus, info->proplist, PA_PROP_DEVICE_BUS);
        // PipeWire names the Bluetooth profile in its own key; PulseAudio in the card's profile.
        copy_property(s->profile, sizeof s->profile, info->proplist, "api.bluez5.profile");
        if (!s->profile[0]) copy_property(s->profile, sizeof s->profile, info->proplist, "bluetooth.protocol");
        if (!s->profile[0]) copy_property(s->profile, sizeof s->profile, info->proplist, PA_PROP_DEVICE_PROFILE_NAME);
        s->channels = info->sample_spec.channels;
        s->is_hardware = (info->flags & PA_SINK_HARDWARE) != 0;
        s->is_network = (info->flags & PA_SINK_NETWORK) != 0;
        s->is_default = strcmp(s->name, l->default_sink) == 0;
    }
    l->count++;
}

static void on_server(pa_context *context, const pa_server_info *info, void *userdata) {
    listing *l = userdata;
    if (info && info->default_source_name) snprintf(l->default_source, sizeof l->default_source, "%s", info->default_source_name);
    if (info && info->default_sink_name) snprintf(l->default_sink, sizeof l->default_sink, "%s", info->default_sink_name);
    l->server_done = 1;
}

/// Runs the main loop until `*flag` is set, the context fails, or time runs out; 0 when the flag was set.
static int run_until(pa_mainloop *loop, pa_context *context, int *flag, long long deadline) {
    while (!*flag) {
        pa_context_state_t state = pa_context_get_state(context);
        if (state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED) return -pa_context_errno(context);
        if (now_ms() > deadline) return -PA_ERR_TIMEOUT;
        if (pa_mainloop_prepare(loop, 50000) < 0 || pa_mainloop_poll(loop) < 0 || pa_mainloop_dispatch(loop) < 0) return -PA_ERR_INTERNAL;
    }
    return 0;
}

/// Connects `context` and runs the main loop until it is ready; 0, or a negative PA_ERR_*.
static int connect_context(pa_mainloop *loop, pa_context *context, long long deadline) {
    if (pa_context_connect(context, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) < 0) return -pa_context_errno(context);
    for (;;) {
        pa_context_state_t state = pa_context_get_state(context);
        if (state == PA_CONTEXT_READY) return 0;
        if (state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED) return -pa_context_errno(context);
        if (now_ms() > deadline) return -PA_ERR_TIMEOUT;
        if (pa_mainloop_prepare(loop, 50000) < 0 || pa_mainloop_poll(loop) < 0 || pa_mainloop_dispatch(loop) < 0) return -PA_ERR_INTERNAL;
    }
}

/// Asks the server for its defaults, then lists sources or sinks through `start`; how many, or a negative PA_ERR_*.
static int list_devices(listing *l, int timeout_ms, pa_operation *(*start)(pa_context *, listing *)) {
    int prepared = cpulse_prepare();
    if (prepared != 0) return prepared;
    long long deadline = now_ms() + timeout_ms;
    pa_mainloop *loop = pa_mainloop_new();
    if (!loop) return -PA_ERR_INTERNAL;
    pa_context *context = pa_context_new(pa_mainloop_get_api(loop), "LinuxAVFoundation");
    int result = -PA_ERR_INTERNAL;
    if (!context) goto done;
    if ((result = connect_context(loop, context, deadline)) < 0) goto done;
    pa_operation *server = pa_context_get_server_info(context, on_server, l);
    if (server) { run_until(loop, context, &l->server_done, deadline); pa_operation_unref(server); }
    pa_operation *operation = start(context, l);
    if (!operation) { result = -pa_context_errno(context); goto done; }
    result = run_until(loop, context, &l->done, deadline);
    pa_operation_unref(operation);
    if (result == 0) result = l->count;
done:
    if (context) { pa_context_disconnect(context); pa_context_unref(context); }
    pa_mainloop_free(loop);
    return result;
}

static pa_operation *start_sources(pa_context *context, listing *l) { return pa_context_get_source_info_list(context, on_source, l); }
static pa_operation *start_sinks(pa_context *context, listing *l) { return pa_context_get_sink_info_list(context, on_sink, l); }

int cpulse_list_sources(cpulse_source *sources, int max, int timeout_ms) {
    listing l = {.items = sources, .max = max};
    return list_devices(&l, timeout_ms, start_sources);
}

int cpulse_list_sinks(cpulse_sink *sinks, int max, int timeout_ms) {
    listing l = {.items = sinks, .max = max};
    return list_devices(&l, timeout_ms, start_sinks);
}

typedef struct volume_change {
    int done, success, channels, found;
} volume_change;

static void on_volume_source(pa_context *context, const pa_source_info *info, int eol, void *userdata) {
    volume_change *change = userdata;
    if (eol) { change->done = 1; return; }
    if (info) { change->channels = info->volume.channels; change->found = 1; }
}

static void on_volume_set(pa_context *context, int success, void *userdata) {
    volume_change *change = userdata;
    change->success = success;
    change->done = 1;
}

int cpulse_set_source_volume(const char *name, float linear, int timeout_ms) {
    int prepared = cpulse_prepare();
    if (prepared != 0) return prepared;
    long long deadline = now_ms() + timeout_ms;
    pa_mainloop *loop = pa_mainloop_new();
    if (!loop) return -PA_ERR_INTERNAL;
    pa_context *context = pa_context_new(pa_mainloop_get_api(loop), "LinuxAVFoundation");
    int result = -PA_ERR_INTERNAL;
    if (!context) goto done;
    if ((result = connect_context(loop, context, deadline)) < 0) goto done;
    // The volume has one value per channel of the source: learn how many, then set them all.
    volume_change change = {0};
    pa_operation *operation = pa_context_get_source_info_by_name(context, name, on_volume_source, &change);
    if (!operation) { result = -pa_context_errno(context); goto done; }
    result = run_until(loop, context, &change.done, deadline);
    pa_operation_unref(operation);
    if (result < 0) goto done;
    if (!change.found) { result = -PA_ERR_NOENTITY; goto done; }
    pa_cvolume volume;
    pa_cvolume_set(&volume, change.channels, pa_sw_volume_from_linear(linear));
    change.done = 0;
    operation = pa_context_set_source_volume_by_name(context, name, &volume, on_volume_set, &change);
    if (!operation) { result = -pa_context_errno(context); goto done; }
    result = run_until(loop, context, &change.done, deadline);
    pa_operation_unref(operation);
    if (result == 0 && !change.success) result = -pa_context_errno(context);
done:
    if (context) { pa_context_disconnect(context); pa_context_unref(context); }
    pa_mainloop_free(loop);
    return result;
}

cpulse_capture *cpulse_open(const char *source, unsigned rate, unsigned channels, unsigned fragment_frames, int *error) {
    if ((*error = cpulse_prepare()) != 0) return NULL;
    pa_sample_spec spec = {.format = PA_SAMPLE_S16LE, .rate = rate, .channels = (uint8_t)channels};
    pa_buffer_attr attr = {.maxlength = (uint32_t)-1, .tlength = (uint32_t)-1, .prebuf = (uint32_t)-1, .minreq = (uint32_t)-1,
                           .fragsize = fragment_frames * channels * 2};
    int err = 0;
    pa_simple *stream = pa_simple_new(NULL, "LinuxAVFoundation", PA_STREAM_RECORD, source, "capture", &spec, NULL, &attr, &err);
    if (!stream) { *error = -err; return NULL; }
    cpulse_capture *capture = calloc(1, sizeof *capture);
    if (!capture) { pa_simple_free(stream); *error = -PA_ERR_INTERNAL; return NULL; }
    capture->stream = stream;
    *error = 0;
    return capture;
}

int cpulse_read(cpulse_capture *capture, void *buffer, size_t bytes) {
    int err = 0;
    return pa_simple_read(capture->stream, buffer, bytes, &err) < 0 ? -err : 0;
}

long long cpulse_latency_usec(cpulse_capture *capture) {
    int err = 0;
    pa_usec_t latency = pa_simple_get_latency(capture->stream, &err);
    return latency == (pa_usec_t)-1 ? 0 : (long long)latency;
}

void cpulse_close(cpulse_capture *capture) {
    if (!capture) return;
    pa_simple_free(capture->stream);
    free(capture);
}

struct cpulse_monitor {
    pa_threaded_mainloop *loop;
    pa_context *context;
    void (*changed)(void *);
    void *changed_context;
    /// Set on the loop's thread, read on any: the monitor's owner asks whether it still stands
    /// without the loop's lock (which a thread of the loop's own may not take).
    atomic_int ready, dead;
};

static void on_monitor_event(pa_context *context, pa_subscription_event_type_t type, uint32_t index, void *userdata) {
    cpulse_monitor *m = userdata;
    pa_subscription_event_type_t facility = type & PA_SUBSCRIPTION_EVENT_FACILITY_MASK;
    if ((facility == PA_SUBSCRIPTION_EVENT_SOURCE || facility == PA_SUBSCRIPTION_EVENT_SINK || facility == PA_SUBSCRIPTION_EVENT_SERVER) && m->changed) m->changed(m->changed_context);
}

static void on_monitor_state(pa_context *context, void *userdata) {
    cpulse_monitor *m = userdata;
    switch (pa_context_get_state(context)) {
    case PA_CONTEXT_READY: {
        pa_context_set_subscribe_callback(context, on_monitor_event, m);
        pa_operation *operation = pa_context_subscribe(context, PA_SUBSCRIPTION_MASK_SOURCE | PA_SUBSCRIPTION_MASK_SINK | PA_SUBSCRIPTION_MASK_SERVER, NULL, NULL);
        if (operation) pa_operation_unref(operation);
        atomic_store(&m->ready, 1);
        pa_threaded_mainloop_signal(m->loop, 0);
        break;
    }
    case PA_CONTEXT_FAILED:
    case PA_CONTEXT_TERMINATED:
        atomic_store(&m->dead, 1);
        pa_threaded_mainloop_signal(m->loop, 0);
        if (atomic_load(&m->ready) && m->changed) m->changed(m->changed_context);
        break;
    default:
        break;
    }
}

cpulse_monitor *cpulse_monitor_new(void (*changed)(void *context), void *context, int timeout_ms, int *error) {
    if ((*error = cpulse_prepare()) != 0) return NULL;
    cpulse_monitor *m = calloc(1, sizeof *m);
    if (!m) { *error = -PA_ERR_INTERNAL; return NULL; }
    m->loop = pa_threaded_mainloop_new();
    if (!m->loop) { free(m); *error = -PA_ERR_INTERNAL; return NULL; }
    m->context = pa_context_new(pa_threaded_mainloop_get_api(m->loop), "LinuxAVFoundation devices");
    if (!m->context) { pa_threaded_mainloop_free(m->loop); free(m); *error = -PA_ERR_INTERNAL; return NULL; }
    pa_context_set_state_callback(m->context, on_monitor_state, m);
    if (pa_context_connect(m->context, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) < 0 || pa_threaded_mainloop_start(m->loop) < 0) {
        *error = -pa_context_errno(m->context);
        if (*error == 0) *error = -PA_ERR_CONNECTIONREFUSED;
        pa_context_unref(m->context);
        pa_threaded_mainloop_free(m->loop);
        free(m);
        return NULL;
    }
    long long deadline = now_ms() + timeout_ms;
    pa_threaded_mainloop_lock(m->loop);
    while (!atomic_load(&m->ready) && !atomic_load(&m->dead) && now_ms() < deadline) {
        // The loop's wait has no deadline: look again every few milliseconds.
        pa_threaded_mainloop_unlock(m->loop);
        struct timespec pause = {0, 5 * 1000 * 1000};
        nanosleep(&pause, NULL);
        pa_threaded_mainloop_lock(m->loop);
    }
    int ready = atomic_load(&m->ready) && !atomic_load(&m->dead);
    if (ready) { m->changed = changed; m->changed_context = context; }
    else *error = atomic_load(&m->dead) ? -pa_context_errno(m->context) : -PA_ERR_TIMEOUT;
    pa_threaded_mainloop_unlock(m->loop);
    if (!ready) {
        if (*error == 0) *error = -PA_ERR_CONNECTIONREFUSED;
        cpulse_monitor_free(m);
        return NULL;
    }
    *error = 0;
    return m;
}

int cpulse_monitor_is_alive(cpulse_monitor *m) { return !atomic_load(&m->dead); }

void cpulse_monitor_free(cpulse_monitor *m) {
    if (!m) return;
    pa_threaded_mainloop_stop(m->loop);
    pa_context_set_state_callback(m->context, NULL, NULL);
    pa_context_set_subscribe_callback(m->context, NULL, NULL);
    pa_context_disconnect(m->context);
    pa_context_unref(m->context);
    pa_threaded_mainloop_free(m->loop);
    free(m);
}

int cpulse_error_connection_terminated(void) { return PA_ERR_CONNECTIONTERMINATED; }
int cpulse_error_no_entity(void) { return PA_ERR_NOENTITY; }
int cpulse_error_connection_refused(void) { return PA_ERR_CONNECTIONREFUSED; }
int cpulse_error_access(void) { return PA_ERR_ACCESS; }
