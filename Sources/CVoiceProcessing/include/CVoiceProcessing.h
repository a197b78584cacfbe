// Voice processing: WebRTC's audio processing module (Debian's libwebrtc-audio-processing, the
// library PipeWire's and PulseAudio's echo cancellers use), loaded by its soname when the first
// processor is made: echo cancellation against what is played, noise suppression, automatic gain
// and a high-pass filter, on 10 ms blocks of deinterleaved 32-bit floats.
//
// Thread ownership: a processor's capture side and render side may run on two threads (WebRTC's
// module locks between them); each side belongs to one thread at a time.
#ifndef CVOICEPROCESSING_H
#define CVOICEPROCESSING_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cvp_processor cvp_processor;

/// Why the library could not be loaded, or NULL when it is loaded.
const char *cvp_problem(void);

/// A processor for a microphone of `capture_rate` Hz and `capture_channels`, cancelling the echo
/// of what is played at `render_rate` Hz in `render_channels`; NULL when it cannot be made.
cvp_processor *cvp_open(int capture_rate, int capture_channels, int render_rate, int render_channels);
void cvp_free(cvp_processor *processor);

/// Turns echo cancellation, noise suppression and automatic gain on or off (all on when made).
void cvp_configure(cvp_processor *processor, int echo_cancellation, int noise_suppression, int automatic_gain);

/// Tells the processor 10 ms of what is played (`render_rate` / 100 frames, one pointer a channel); 0 or an error.
int cvp_render(cvp_processor *processor, const float *const *channels);

/// Processes 10 ms of what the microphone heard in place (`capture_rate` / 100 frames, one
/// pointer a channel), with `delay_ms` between its being played and heard; 0 or an error.
int cvp_capture(cvp_processor *processor, float *const *channels, int delay_ms);

#ifdef __cplusplus
}
#endif
#endif
