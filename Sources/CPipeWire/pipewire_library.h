// libpipewire's functions, called through pointers found when a PipeWire server is first asked
// for, so a process that opens no PipeWire camera does not load libpipewire at every start.
// CPipeWire.c includes this after PipeWire's headers and calls it by its own names; the names
// below turn those calls into calls through pointers. (The headers' inline functions and their
// interface macros call through the objects' own method tables, not through linked symbols.)
#ifndef CPW_LIBRARY_H
#define CPW_LIBRARY_H

#include <pipewire/pipewire.h>

/// Every libpipewire function CPipeWire.c calls.
#define CPW_FUNCTIONS(F) \
    F(pw_context_connect) \
    F(pw_context_destroy) \
    F(pw_context_new) \
    F(pw_core_disconnect) \
    F(pw_init) \
    F(pw_log_set) \
    F(pw_log_set_level) \
    F(pw_properties_new) \
    F(pw_proxy_add_object_listener) \
    F(pw_proxy_destroy) \
    F(pw_stream_add_listener) \
    F(pw_stream_connect) \
    F(pw_stream_dequeue_buffer) \
    F(pw_stream_destroy) \
    F(pw_stream_new) \
    F(pw_stream_queue_buffer) \
    F(pw_stream_update_params) \
    F(pw_thread_loop_destroy) \
    F(pw_thread_loop_get_loop) \
    F(pw_thread_loop_get_time) \
    F(pw_thread_loop_in_thread) \
    F(pw_thread_loop_lock) \
    F(pw_thread_loop_new) \
    F(pw_thread_loop_signal) \
    F(pw_thread_loop_start) \
    F(pw_thread_loop_stop) \
    F(pw_thread_loop_timed_wait_full) \
    F(pw_thread_loop_unlock)

/// libpipewire's functions, found by `cpw_load`.
struct cpw_functions {
#define CPW_POINTER(name) __typeof__(name) *name;
    CPW_FUNCTIONS(CPW_POINTER)
#undef CPW_POINTER
};
extern struct cpw_functions cpw_library;

/// Loads libpipewire once, from any thread; NULL when every function was found, otherwise why not.
const char *cpw_load(void);

#ifndef CPW_LOADING
#define pw_context_connect cpw_library.pw_context_connect
#define pw_context_destroy cpw_library.pw_context_destroy
#define pw_context_new cpw_library.pw_context_new
#define pw_core_disconnect cpw_library.pw_core_disconnect
#define pw_init cpw_library.pw_init
#define pw_log_set cpw_library.pw_log_set
#define pw_log_set_level cpw_library.pw_log_set_level
#define pw_properties_new cpw_library.pw_properties_new
#define pw_proxy_add_object_listener cpw_library.pw_proxy_add_object_listener
#define pw_proxy_destroy cpw_library.pw_proxy_destroy
#define pw_stream_add_listener cpw_library.pw_stream_add_listener
#define pw_stream_connect cpw_library.pw_stream_connect
#define pw_stream_dequeue_buffer cpw_library.pw_stream_dequeue_buffer
#define pw_stream_destroy cpw_library.pw_stream_destroy
#define pw_stream_new cpw_library.pw_stream_new
#define pw_stream_queue_buffer cpw_library.pw_stream_queue_buffer
#define pw_stream_update_params cpw_library.pw_stream_update_params
#define pw_thread_loop_destroy cpw_library.pw_thread_loop_destroy
#define pw_thread_loop_get_loop cpw_library.pw_thread_loop_get_loop
#define pw_thread_loop_get_time cpw_library.pw_thread_loop_get_time
#define pw_thread_loop_in_thread cpw_library.pw_thread_loop_in_thread
#define pw_thread_loop_lock cpw_library.pw_thread_loop_lock
#define pw_thread_loop_new cpw_library.pw_thread_loop_new
#define pw_thread_loop_signal cpw_library.pw_thread_loop_signal
#define pw_thread_loop_start cpw_library.pw_thread_loop_start
#define pw_thread_loop_stop cpw_library.pw_thread_loop_stop
#define pw_thread_loop_timed_wait_full cpw_library.pw_thread_loop_timed_wait_full
#define pw_thread_loop_unlock cpw_library.pw_thread_loop_unlock
#endif

#endif
