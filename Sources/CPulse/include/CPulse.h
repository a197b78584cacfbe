// A small C interface over libpulse (Debian: libpulse-dev) for listing a PulseAudio server's
// sources and capturing 16-bit interleaved PCM from one. PipeWire systems serve it through
// pipewire-pulse. The server is found as every PulseAudio client finds it (PULSE_SERVER, ...).
#ifndef CPULSE_H
#define CPULSE_H
#include <stddef.h>
#include <stdint.h>

/// One source of the server.
typedef struct cpulse_source {
    char name[256];
    char description[256];
    unsigned rate;
    unsigned channels;
    int is_monitor;      ///< whether it is a sink's monitor rather than an input
    int is_default;      ///< whether it is the server's default source
    float volume;        ///< the source's volume as a linear factor (1 is the source's full level)
} cpulse_source;

/// Lists up to `max` sources, waiting at most `timeout_ms` for the server; returns how many, or a negative PA_ERR_*.
int cpulse_list_sources(cpulse_source *sources, int max, int timeout_ms);

/// One sink (output) of the server, with what it says of the kind of device it plays to.
typedef struct cpulse_sink {
    char name[256];
    char description[256];
    char port[128];        ///< the active port's name ("analog-output-headphones"), or empty
    char form_factor[32];  ///< device.form_factor ("headphone", "speaker", "car", ...), or empty
    char bus[32];          ///< device.bus ("usb", "bluetooth", "pci", ...), or empty
    char profile[64];      ///< the Bluetooth profile or card profile ("a2dp-sink", "headset-head-unit"), or empty
    int port_type;         ///< the active port's pa_device_port_type_t, 0 when unknown or portless
    unsigned channels;
    int is_hardware;       ///< whether it is a real device rather than a null, remapped or network sink
    int is_network;        ///< whether it plays over the network (RAOP, tunnels)
    int is_default;        ///< whether it is the server's default sink
} cpulse_sink;

/// Lists up to `max` sinks, waiting at most `timeout_ms` for the server; returns how many, or a negative PA_ERR_*.
int cpulse_list_sinks(cpulse_sink *sinks, int max, int timeout_ms);

typedef struct cpulse_capture cpulse_capture;

/// Opens a record stream from `source` with 16-bit samples; reads come in `fragment_frames` pieces. NULL and PA_ERR_* on failure.
cpulse_capture *cpulse_open(const char *source, unsigned rate, unsigned channels, unsigned fragment_frames, int *error);
/// Reads exactly `bytes` bytes, waiting for them; 0, or a negative PA_ERR_* (such as the connection ending).
int cpulse_read(cpulse_capture *capture, void *buffer, size_t bytes);
/// How long ago, in microseconds, the next sample to read was captured.
long long cpulse_latency_usec(cpulse_capture *capture);
/// Closes the stream.
void cpulse_close(cpulse_capture *capture);
/// Sets the volume of the source `name` (all channels) to a linear factor; 0 or a negative PA_ERR_*.
int cpulse_set_source_volume(const char *name, float linear, int timeout_ms);

typedef struct cpulse_monitor cpulse_monitor;

/// Connects to the server and follows its sources: `changed` is called on the monitor's own
/// thread when a source, a sink or the server's defaults change, and once when the server goes away.
/// NULL and a negative PA_ERR_* when the server cannot be reached within `timeout_ms`.
cpulse_monitor *cpulse_monitor_new(void (*changed)(void *context), void *context, int timeout_ms, int *error);
/// Whether the monitor's connection to the server still stands.
int cpulse_monitor_is_alive(cpulse_monitor *monitor);
/// Disconnects; no `changed` call begins after this returns. Must not be called from `changed`.
void cpulse_monitor_free(cpulse_monitor *monitor);
/// The places a PulseAudio client looks for its server, as libpulse looks for it.
typedef struct cpulse_server_places {
    const char *server;           ///< $PULSE_SERVER: the servers named, the only ones tried when set
    const char *display;          ///< $DISPLAY: an X11 display whose root window may name a server
    const char *runtime_path;     ///< $PULSE_RUNTIME_PATH: the user's server's folder
    const char *xdg_runtime_dir;  ///< $XDG_RUNTIME_DIR, whose pulse folder is the user's server's otherwise
    const char *client_config;    ///< $PULSE_CLIENTCONFIG: a client configuration file
    const char *config_path;      ///< $PULSE_CONFIG_PATH: a folder of configuration files
    const char *config_home;      ///< $XDG_CONFIG_HOME, or $HOME/.config
    const char *home;             ///< $HOME, for the older ~/.pulse folder
    const char *system_config;    ///< the system's configuration folder (/etc/pulse)
    const char *system_runtime;   ///< the system-wide server's folder (/run/pulse)
    const char *daemon;           ///< the server program a client may start (/usr/bin/pulseaudio)
    int root;                     ///< whether the process runs as root, for which no server is started
} cpulse_server_places;

/// Whether a server may answer a client that looks in `places`: 0 when none can (no named server
/// but sockets that are absent, no display, no configuration naming one, no server to start).
int cpulse_server_may_answer_at(const cpulse_server_places *places);
/// The same for this process's environment; until it says yes, libpulse is not loaded.
int cpulse_server_may_answer(void);

/// PulseAudio's error codes the backend tells apart.
int cpulse_error_connection_terminated(void);
int cpulse_error_no_entity(void);
int cpulse_error_connection_refused(void);
int cpulse_error_access(void);

typedef struct cpulse_playback cpulse_playback;

/// Opens a playback stream of interleaved 32-bit float samples to the sink `device` (NULL: the
/// server's default sink), buffering about `latency_ms`; NULL and a negative PA_ERR_* when no
/// server answers within `timeout_ms` (no server is ever started for it).
cpulse_playback *cpulse_play_open(const char *name, const char *device, unsigned rate, unsigned channels, unsigned latency_ms, int timeout_ms, int *error);
/// Writes `frames` frames, waiting while the server's buffer is full; 0, or a negative PA_ERR_*.
int cpulse_play_write(cpulse_playback *playback, const float *samples, size_t frames);
/// Drops what the server has not played yet (after a seek or a change of rate); 0 or a negative PA_ERR_*.
int cpulse_play_flush(cpulse_playback *playback);
/// Waits until everything written has been played; 0 or a negative PA_ERR_*.
int cpulse_play_drain(cpulse_playback *playback);
/// How long, in microseconds, a sample written now waits before it is heard.
long long cpulse_play_latency_usec(cpulse_playback *playback);
/// Closes the stream and its connection.
void cpulse_play_close(cpulse_playback *playback);
#endif
