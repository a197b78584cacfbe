// PulseAudio's functions, called through pointers found when a PulseAudio server is first asked
// for, so a process that never uses PulseAudio does not load libpulse and the twenty libraries it
// brings (sound files, codecs, X11, D-Bus, systemd). The shims include this after PulseAudio's
// headers and call it by its own names; the names below turn those calls into calls through pointers.
#ifndef CPULSE_LIBRARY_H
#define CPULSE_LIBRARY_H

#include <pulse/error.h>
#include <pulse/pulseaudio.h>
#include <pulse/simple.h>

/// Every PulseAudio function the shims call.
#define CPULSE_FUNCTIONS(F) \
    F(pa_channel_map_init_extend) \
    F(pa_context_connect) \
    F(pa_context_disconnect) \
    F(pa_context_errno) \
    F(pa_context_get_server_info) \
    F(pa_context_get_sink_info_list) \
    F(pa_context_get_source_info_by_name) \
    F(pa_context_get_source_info_list) \
    F(pa_context_get_state) \
    F(pa_context_new) \
    F(pa_context_set_source_volume_by_name) \
    F(pa_context_set_state_callback) \
    F(pa_context_set_subscribe_callback) \
    F(pa_context_subscribe) \
    F(pa_context_unref) \
    F(pa_cvolume_avg) \
    F(pa_cvolume_set) \
    F(pa_mainloop_dispatch) \
    F(pa_mainloop_free) \
    F(pa_mainloop_get_api) \
    F(pa_mainloop_iterate) \
    F(pa_mainloop_new) \
    F(pa_mainloop_poll) \
    F(pa_mainloop_prepare) \
    F(pa_operation_get_state) \
    F(pa_operation_unref) \
    F(pa_proplist_gets) \
    F(pa_simple_free) \
    F(pa_simple_get_latency) \
    F(pa_simple_new) \
    F(pa_simple_read) \
    F(pa_stream_connect_playback) \
    F(pa_stream_disconnect) \
    F(pa_stream_drain) \
    F(pa_stream_flush) \
    F(pa_stream_get_latency) \
    F(pa_stream_get_state) \
    F(pa_stream_new) \
    F(pa_stream_unref) \
    F(pa_stream_writable_size) \
    F(pa_stream_write) \
    F(pa_sw_volume_from_linear) \
    F(pa_sw_volume_to_linear) \
    F(pa_threaded_mainloop_free) \
    F(pa_threaded_mainloop_get_api) \
    F(pa_threaded_mainloop_lock) \
    F(pa_threaded_mainloop_new) \
    F(pa_threaded_mainloop_signal) \
    F(pa_threaded_mainloop_start) \
    F(pa_threaded_mainloop_stop) \
    F(pa_threaded_mainloop_unlock) \
    F(pa_usec_to_bytes)

/// PulseAudio's functions, found by `cpulse_load`.
struct cpulse_functions {
#define CPULSE_POINTER(name) __typeof__(name) *name;
    CPULSE_FUNCTIONS(CPULSE_POINTER)
#undef CPULSE_POINTER
};
extern struct cpulse_functions cpulse_library;

/// Loads libpulse and libpulse-simple once, from any thread; 0 when every function was found,
/// otherwise -1 (the reason is in standard error's place: `cpulse_library_problem()`).
int cpulse_load(void);
/// Why PulseAudio's libraries could not be loaded, or NULL.
const char *cpulse_library_problem(void);
/// Before a connection: -PA_ERR_CONNECTIONREFUSED, libpulse left unloaded, when no server may
/// answer (`cpulse_server_may_answer`); -PA_ERR_NOTIMPLEMENTED when it cannot be loaded; else 0.
int cpulse_prepare(void);

#ifndef CPULSE_LOADING
#define pa_channel_map_init_extend cpulse_library.pa_channel_map_init_extend
#define pa_context_connect cpulse_library.pa_context_connect
#define pa_context_disconnect cpulse_library.pa_context_disconnect
#define pa_context_errno cpulse_library.pa_context_errno
#define pa_context_get_server_info cpulse_library.pa_context_get_server_info
#define pa_context_get_sink_info_list cpulse_library.pa_context_get_sink_info_list
#define pa_context_get_source_info_by_name cpulse_library.pa_context_get_source_info_by_name
#define pa_context_get_source_info_list cpulse_library.pa_context_get_source_info_list
#define pa_context_get_state cpulse_library.pa_context_get_state
#define pa_context_new cpulse_library.pa_context_new
#define pa_context_set_source_volume_by_name cpulse_library.pa_context_set_source_volume_by_name
#define pa_context_set_state_callback cpulse_library.pa_context_set_state_callback
#define pa_context_set_subscribe_callback cpulse_library.pa_context_set_subscribe_callback
#define pa_context_subscribe cpulse_library.pa_context_subscribe
#define pa_context_unref cpulse_library.pa_context_unref
#define pa_cvolume_avg cpulse_library.pa_cvolume_avg
#define pa_cvolume_set cpulse_library.pa_cvolume_set
#define pa_mainloop_dispatch cpulse_library.pa_mainloop_dispatch
#define pa_mainloop_free cpulse_library.pa_mainloop_free
#define pa_mainloop_get_api cpulse_library.pa_mainloop_get_api
#define pa_mainloop_iterate cpulse_library.pa_mainloop_iterate
#define pa_mainloop_new cpulse_library.pa_mainloop_new
#define pa_mainloop_poll cpulse_library.pa_mainloop_poll
#define pa_mainloop_prepare cpulse_library.pa_mainloop_prepare
#define pa_operation_get_state cpulse_library.pa_operation_get_state
#define pa_operation_unref cpulse_library.pa_operation_unref
#define pa_proplist_gets cpulse_library.pa_proplist_gets
#define pa_simple_free cpulse_library.pa_simple_free
#define pa_simple_get_latency cpulse_library.pa_simple_get_latency
#define pa_simple_new cpulse_library.pa_simple_new
#define pa_simple_read cpulse_library.pa_simple_read
#define pa_stream_connect_playback cpulse_library.pa_stream_connect_playback
#define pa_stream_disconnect cpulse_library.pa_stream_disconnect
#define pa_stream_drain cpulse_library.pa_stream_drain
#define pa_stream_flush cpulse_library.pa_stream_flush
#define pa_stream_get_latency cpulse_library.pa_stream_get_latency
#define pa_stream_get_state cpulse_library.pa_stream_get_state
#define pa_stream_new cpulse_library.pa_stream_new
#define pa_stream_unref cpulse_library.pa_stream_unref
#define pa_stream_writable_size cpulse_library.pa_stream_writable_size
#define pa_stream_write cpulse_library.pa_stream_write
#define pa_sw_volume_from_linear cpulse_library.pa_sw_volume_from_linear
#define pa_sw_volume_to_linear cpulse_library.pa_sw_volume_to_linear
#define pa_threaded_mainloop_free cpulse_library.pa_threaded_mainloop_free
#define pa_threaded_mainloop_get_api cpulse_library.pa_threaded_mainloop_get_api
#define pa_threaded_mainloop_lock cpulse_library.pa_threaded_mainloop_lock
#define pa_threaded_mainloop_new cpulse_library.pa_threaded_mainloop_new
#define pa_threaded_mainloop_signal cpulse_library.pa_threaded_mainloop_signal
#define pa_threaded_mainloop_start cpulse_library.pa_threaded_mainloop_start
#define pa_threaded_mainloop_stop cpulse_library.pa_threaded_mainloop_stop
#define pa_threaded_mainloop_unlock cpulse_library.pa_threaded_mainloop_unlock
#define pa_usec_to_bytes cpulse_library.pa_usec_to_bytes
#endif

#endif
