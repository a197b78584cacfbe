// Rubber Band and SoundTouch, loaded by their sonames when the first stretcher is made, so a
// process that stretches no sound does not load them at every start.
//
// Each symbol time_pitch.cpp calls is defined here under its own name (for SoundTouch's class,
// its Itanium-mangled name) as a function that calls the library's definition through the pointer
// found. SoundTouch's other members are virtual, reached through the object's own table. A symbol
// time_pitch.cpp starts to call and this file does not define fails the link, not a run.
#include "CTimePitch.h"

#include "CLibraryLoading.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <rubberband/rubberband-c.h>

static struct {
    RubberBandState (*band_new)(unsigned int, unsigned int, RubberBandOptions, double, double);
    void (*band_delete)(RubberBandState);
    unsigned int (*band_preferred_start_pad)(const RubberBandState);
    unsigned int (*band_start_delay)(const RubberBandState);
    void (*band_set_max_process_size)(RubberBandState, unsigned int);
    void (*band_process)(RubberBandState, const float *const *, unsigned int, int);
    int (*band_available)(const RubberBandState);
    unsigned int (*band_retrieve)(const RubberBandState, float *const *, unsigned int);
    void (*touch_construct)(void *self);
    void (*touch_set_channels)(void *self, unsigned int channels);
    void (*touch_set_sample_rate)(void *self, unsigned int rate);
    void (*touch_flush)(void *self);
    void (*touch_set_pitch)(void *self, double pitch);
    void (*touch_set_tempo)(void *self, double tempo);
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *status;
static char problem[512];

/// Finds a symbol, noting why when it is missing.
static int find(void *library, const char *name, void **pointer) {
    if (cll_find(library, name, pointer, problem, sizeof problem)) return 1;
    status = problem;
    return 0;
}

static void load(void) {
    // The sonames of the Rubber Band 2 (3.x releases) and SoundTouch 2 the shim was compiled against.
    void *band = cll_open("librubberband.so.2", "librubberband2", problem, sizeof problem);
    void *touch = band ? cll_open("libSoundTouch.so.1", "libsoundtouch1", problem, sizeof problem) : NULL;
    if (!touch) {
        status = problem;
        return;
    }
    if (!find(band, "rubberband_new", (void **)&lib.band_new)) return;
    if (!find(band, "rubberband_delete", (void **)&lib.band_delete)) return;
    if (!find(band, "rubberband_get_preferred_start_pad", (void **)&lib.band_preferred_start_pad)) return;
    if (!find(band, "rubberband_get_start_delay", (void **)&lib.band_start_delay)) return;
    if (!find(band, "rubberband_set_max_process_size", (void **)&lib.band_set_max_process_size)) return;
    if (!find(band, "rubberband_process", (void **)&lib.band_process)) return;
    if (!find(band, "rubberband_available", (void **)&lib.band_available)) return;
    if (!find(band, "rubberband_retrieve", (void **)&lib.band_retrieve)) return;
    if (!find(touch, "_ZN10soundtouch10SoundTouchC1Ev", (void **)&lib.touch_construct)) return;
    if (!find(touch, "_ZN10soundtouch10SoundTouch11setChannelsEj", (void **)&lib.touch_set_channels)) return;
    if (!find(touch, "_ZN10soundtouch10SoundTouch13setSampleRateEj", (void **)&lib.touch_set_sample_rate)) return;
    if (!find(touch, "_ZN10soundtouch10SoundTouch5flushEv", (void **)&lib.touch_flush)) return;
    if (!find(touch, "_ZN10soundtouch10SoundTouch8setPitchEd", (void **)&lib.touch_set_pitch)) return;
    if (!find(touch, "_ZN10soundtouch10SoundTouch8setTempoEd", (void **)&lib.touch_set_tempo)) return;
}

const char *ctp_load(void) {
    pthread_once(&once, load);
    return status;
}

// The symbols time_pitch.cpp calls, reached through a stretcher, which `ctp_load` has made
// possible; a program whose own code binds to these names first loads the libraries here, and
// stops with why if it cannot.

/// The function behind a symbol, loading the libraries if that was not done yet.
#define CTP_CALL(field) (lib.field ? lib.field : (ensure_loaded(#field), lib.field))

static void ensure_loaded(const char *field) {
    if (ctp_load()) {
        fprintf(stderr, "The stretchers' %s was called, but %s\n", field, status);
        abort();
    }
}

RubberBandState rubberband_new(unsigned int rate, unsigned int channels, RubberBandOptions options, double time, double pitch) {
    return CTP_CALL(band_new)(rate, channels, options, time, pitch);
}
void rubberband_delete(RubberBandState state) { CTP_CALL(band_delete)(state); }
unsigned int rubberband_get_preferred_start_pad(const RubberBandState state) { return CTP_CALL(band_preferred_start_pad)(state); }
unsigned int rubberband_get_start_delay(const RubberBandState state) { return CTP_CALL(band_start_delay)(state); }
void rubberband_set_max_process_size(RubberBandState state, unsigned int samples) { CTP_CALL(band_set_max_process_size)(state, samples); }
void rubberband_process(RubberBandState state, const float *const *input, unsigned int samples, int final) {
    CTP_CALL(band_process)(state, input, samples, final);
}
int rubberband_available(const RubberBandState state) { return CTP_CALL(band_available)(state); }
unsigned int rubberband_retrieve(const RubberBandState state, float *const *output, unsigned int samples) {
    return CTP_CALL(band_retrieve)(state, output, samples);
}

void ctp_touch_construct(void *self) __asm__("_ZN10soundtouch10SoundTouchC1Ev");
void ctp_touch_construct(void *self) { CTP_CALL(touch_construct)(self); }
void ctp_touch_set_channels(void *self, unsigned int channels) __asm__("_ZN10soundtouch10SoundTouch11setChannelsEj");
void ctp_touch_set_channels(void *self, unsigned int channels) { CTP_CALL(touch_set_channels)(self, channels); }
void ctp_touch_set_sample_rate(void *self, unsigned int rate) __asm__("_ZN10soundtouch10SoundTouch13setSampleRateEj");
void ctp_touch_set_sample_rate(void *self, unsigned int rate) { CTP_CALL(touch_set_sample_rate)(self, rate); }
void ctp_touch_flush(void *self) __asm__("_ZN10soundtouch10SoundTouch5flushEv");
void ctp_touch_flush(void *self) { CTP_CALL(touch_flush)(self); }
void ctp_touch_set_pitch(void *self, double pitch) __asm__("_ZN10soundtouch10SoundTouch8setPitchEd");
void ctp_touch_set_pitch(void *self, double pitch) { CTP_CALL(touch_set_pitch)(self, pitch); }
void ctp_touch_set_tempo(void *self, double tempo) __asm__("_ZN10soundtouch10SoundTouch8setTempoEd");
void ctp_touch_set_tempo(void *self, double tempo) { CTP_CALL(touch_set_tempo)(self, tempo); }
