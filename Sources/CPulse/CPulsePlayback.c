// See CPulse.h: a playback stream driven from one thread with its own main loop, so a write
// waits on the server's clock and nothing runs behind the caller's back.
#include "CPulse.h"
#include "pulse_library.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct cpulse_playback {
    pa_mainloop *loop;
    pa_context *context;
    pa_stream *stream;
    size_t frame_bytes;
};

static long long play_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/// Runs one pass of the loop, waiting at most `usec`; 0, or a negative PA_ERR_* when the connection is gone.
static int iterate(cpulse_playback *p, int usec) {
    if (pa_mainloop_prepare(p->loop, usec) < 0 || pa_mainloop_poll(p->loop) < 0 || pa_mainloop_dispatch(p->loop) < 0) return -PA_ERR_INTERNAL;
    pa_context_state_t cs = pa_context_get_state(p->context);
    if (cs == PA_CONTEXT_FAILED || cs == PA_CONTEXT_TERMINATED) return -PA_ERR_CONNECTIONTERMINATED;
    if (p->stream) {
        pa_stream_state_t ss = pa_stream_get_state(p->stream);
        if (ss == PA_STREAM_FAILED || ss == PA_STREAM_TERMINATED) return -PA_ERR_CONNECTIONTERMINATED;
    }
    return 0;
}

/// Runs the loop until `op` is done; 0 or a negative PA_ERR_*.
static int wait_operation(cpulse_playback *p, pa_operation *op) {
    if (!op) return -pa_context_errno(p->context);
    int result = 0;
    while (pa_operation_get_state(op) == PA_OPERATION_RUNNING) {
        if ((result = iterate(p, 100000)) < 0) break;
    }
    pa_operation_unref(op);
    return result;
}

/// Runs the loop until the context (and the stream, once there is one) is ready: 0, or a negative PA_ERR_*.
static int wait_ready(cpulse_playback *p, long long deadline) {
    for (;;) {
        pa_context_state_t context = pa_context_get_state(p->context);
        if (context == PA_CONTEXT_FAILED || context == PA_CONTEXT_TERMINATED) return -pa_context_errno(p->context);
        int ready = context == PA_CONTEXT_READY;
        if (ready && p->stream) {
            pa_stream_state_t stream = pa_stream_get_state(p->stream);
            if (stream == PA_STREAM_FAILED || stream == PA_STREAM_TERMINATED) return -pa_context_errno(p->context);
            ready = stream == PA_STREAM_READY;
        }
        if (ready) return 0;
        if (play_now_ms() > deadline) return -PA_ERR_TIMEOUT;
        if (pa_mainloop_prepare(p->loop, 50000) < 0 || pa_mainloop_poll(p->loop) < 0 || pa_mainloop_dispatch(p->loop) < 0) return -PA_ERR_INTERNAL;
    }
}

cpulse_playback *cpulse_play_open(const char *name, const char *device, unsigned rate, unsigned channels, unsigned latency_ms, int timeout_ms, int *error) {
    if ((*error = cpulse_prepare()) != 0) return NULL;
    long long deadline = play_now_ms() + timeout_ms;
    *error = -PA_ERR_INTERNAL;
    if (rate == 0 || channels == 0 || channels > PA_CHANNELS_MAX) { *error = -PA_ERR_INVALID; return NULL; }
    cpulse_playback *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->frame_bytes = channels * sizeof(float);
    if (!(p->loop = pa_mainloop_new())) goto fail;
    if (!(p->context = pa_context_new(pa_mainloop_get_api(p->loop), "LinuxAVFoundation"))) goto fail;
    if (pa_context_connect(p->context, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) < 0) { *error = -pa_context_errno(p->context); goto fail; }
    if ((*error = wait_ready(p, deadline)) < 0) goto fail;
    pa_sample_spec spec = {.format = PA_SAMPLE_FLOAT32LE, .rate = rate, .channels = (uint8_t)channels};
    pa_channel_map map;
    pa_channel_map_init_extend(&map, channels, PA_CHANNEL_MAP_DEFAULT);
    if (!(p->stream = pa_stream_new(p->context, name ? name : "playback", &spec, &map))) { *error = -pa_context_errno(p->context); goto fail; }
    uint32_t target = (uint32_t)pa_usec_to_bytes((pa_usec_t)latency_ms * 1000, &spec);
    pa_buffer_attr attr = {.maxlength = (uint32_t)-1, .tlength = target, .prebuf = (uint32_t)-1, .minreq = (uint32_t)-1, .fragsize = (uint32_t)-1};
    pa_stream_flags_t flags = PA_STREAM_ADJUST_LATENCY | PA_STREAM_AUTO_TIMING_UPDATE | PA_STREAM_INTERPOLATE_TIMING;
    if (pa_stream_connect_playback(p->stream, device, &attr, flags, NULL, NULL) < 0) { *error = -pa_context_errno(p->context); goto fail; }
    if ((*error = wait_ready(p, deadline)) < 0) goto fail;
    *error = 0;
    return p;
fail:
    cpulse_play_close(p);
    return NULL;
}

int cpulse_play_write(cpulse_playback *p, const float *samples, size_t frames) {
    const uint8_t *bytes = (const uint8_t *)samples;
    size_t left = frames * p->frame_bytes;
    while (left > 0) {
        size_t room = pa_stream_writable_size(p->stream);
        if (room == (size_t)-1) return -PA_ERR_CONNECTIONTERMINATED;
        if (room < p->frame_bytes) {
            int result = iterate(p, 100000);
            if (result < 0) return result;
            continue;
        }
        size_t chunk = left < room ? left : room;
        chunk -= chunk % p->frame_bytes;
        if (pa_stream_write(p->stream, bytes, chunk, NULL, 0, PA_SEEK_RELATIVE) < 0) return -pa_context_errno(p->context);
        bytes += chunk;
        left -= chunk;
    }
    // Let the loop send what was written.
    while (pa_mainloop_iterate(p->loop, 0, NULL) > 0) {}
    return 0;
}

int cpulse_play_flush(cpulse_playback *p) { return wait_operation(p, pa_stream_flush(p->stream, NULL, NULL)); }

int cpulse_play_drain(cpulse_playback *p) { return wait_operation(p, pa_stream_drain(p->stream, NULL, NULL)); }

long long cpulse_play_latency_usec(cpulse_playback *p) {
    pa_usec_t latency = 0;
    int negative = 0;
    if (pa_stream_get_latency(p->stream, &latency, &negative) < 0) return 0;
    return negative ? 0 : (long long)latency;
}

void cpulse_play_close(cpulse_playback *p) {
    if (!p) return;
    if (p->stream) { pa_stream_disconnect(p->stream); pa_stream_unref(p->stream); }
    if (p->context) { pa_context_disconnect(p->context); pa_context_unref(p->context); }
    if (p->loop) pa_mainloop_free(p->loop);
    free(p);
}
