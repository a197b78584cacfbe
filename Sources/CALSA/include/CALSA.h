// A small C interface over ALSA's libasound (Debian: libasound2-dev) for capturing 16-bit
// interleaved PCM from sound cards directly, on machines with no sound server. libasound is
// loaded by its soname the first time devices are listed or one is opened (alsa_library.h); when
// it cannot be, there are no devices, and the reason goes once to the log handler.
#ifndef CALSA_H
#define CALSA_H
#include <stddef.h>
#include <stdint.h>

/// One capture device: its ALSA name (such as "hw:CARD=Loopback,DEV=1") and a name to show.
typedef struct calsa_device {
    char id[64];
    char name[128];
} calsa_device;

/// Lists up to `max` capture devices; returns how many there are. Without a card's control
/// device in /dev/snd, none, and libasound is not loaded.
int calsa_capture_devices(calsa_device *devices, int max);
/// Whether `folder` (/dev/snd) holds a sound card's control device (controlC0, ...), as every card has.
int calsa_cards_present_in(const char *folder);

/// Receives one line the library logs, with its level (1, an error: ALSA reports nothing else).
typedef void (*calsa_log_handler)(int level, const char *message);
/// Sends libasound's error messages to `handler` (NULL: nowhere) instead of standard error.
void calsa_set_log_handler(calsa_log_handler handler);

typedef struct calsa_capture calsa_capture;

/// Opens a device for 16-bit interleaved capture near `*rate` and `*channels`, which return what was granted.
/// `period_frames` is the size of each read. NULL and a negative errno on failure.
calsa_capture *calsa_open(const char *id, unsigned *rate, unsigned *channels, unsigned period_frames, int *error);
/// Reads exactly `frames` frames, waiting for them; returns `frames`, -EPIPE after an overrun (the stream is
/// restarted and samples were lost), or another negative errno.
long calsa_read(calsa_capture *capture, int16_t *buffer, unsigned long frames);
/// Frames captured but not yet read.
long calsa_delay(calsa_capture *capture);
/// Stops and closes the device.
void calsa_close(calsa_capture *capture);
#endif
