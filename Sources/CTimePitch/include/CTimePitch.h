// Stretching sound in time without changing its pitch, through the libraries this field trusts:
// Rubber Band (Debian's librubberband-dev; its R3 "finer" engine) for the spectral algorithm,
// SoundTouch (libsoundtouch-dev; WSOLA) for the time-domain one. Interleaved 32-bit float in
// and out.
//
// Thread ownership: a stretcher belongs to one thread at a time.
#ifndef CTIMEPITCH_H
#define CTIMEPITCH_H
#ifdef __cplusplus
extern "C" {
#endif

/// Loads Rubber Band and SoundTouch once, from any thread; NULL when they are loaded, otherwise
/// why not. `ctp_new` calls it and makes no stretcher until it has succeeded.
const char *ctp_load(void);

typedef struct ctp_stretcher ctp_stretcher;

/// Which library stretches.
enum { CTP_SPECTRAL = 0, CTP_TIME_DOMAIN = 1 };

/// Makes a stretcher whose output lasts `time_ratio` times its input (2: twice as long, half
/// speed), at the same pitch; NULL when the library refuses the settings.
ctp_stretcher *ctp_new(int kind, int sample_rate, int channels, double time_ratio);
/// Frees a stretcher.
void ctp_free(ctp_stretcher *stretcher);
/// Gives the stretcher `frames` interleaved frames; `final` says they are the last. 0 or -1.
int ctp_process(ctp_stretcher *stretcher, const float *samples, int frames, int final);
/// Takes up to `capacity` stretched interleaved frames into `samples`; returns how many.
int ctp_retrieve(ctp_stretcher *stretcher, float *samples, int capacity);

#ifdef __cplusplus
}
#endif
#endif
