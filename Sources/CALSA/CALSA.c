// See CALSA.h.
#include "CALSA.h"
#include <alsa/asoundlib.h>
#include "alsa_library.h"
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct calsa_capture { snd_pcm_t *pcm; };

static calsa_log_handler log_handler;

static void on_alsa_error(const char *file, int line, const char *function, int err, const char *format, ...) {
    calsa_log_handler handler = log_handler;
    if (!handler) return;
    char text[1024];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    if (err) {
        size_t length = strlen(text);
        snprintf(text + length, sizeof text - length, ": %s", snd_strerror(err));
    }
    handler(1, text);
}

void calsa_set_log_handler(calsa_log_handler handler) { log_handler = handler; }

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    const char *problem = calsa_load();
    if (!problem) {
        snd_lib_error_set_handler(on_alsa_error);
    } else if (log_handler) {
        log_handler(1, problem);
    }
}

/// Loads libasound the first time ALSA is used; 0 when it cannot be (the reason is logged once).
static int ready(void) {
    pthread_once(&once, load);
    return calsa_load() == NULL;
}

int calsa_cards_present_in(const char *folder) {
    DIR *directory = opendir(folder);
    if (!directory) return 0;
    int present = 0;
    for (struct dirent *entry; !present && (entry = readdir(directory));) present = strncmp(entry->d_name, "controlC", 8) == 0;
    closedir(directory);
    return present;
}

int calsa_capture_devices(calsa_device *devices, int max) {
    // The cards are those whose control devices are there; with none, libasound stays unloaded.
    if (!calsa_cards_present_in("/dev/snd") || !ready()) return 0;
    int count = 0, card = -1;
    while (snd_card_next(&card) == 0 && card >= 0) {
        char control_name[32];
        snprintf(control_name, sizeof control_name, "hw:%d", card);
        snd_ctl_t *control = NULL;
        if (snd_ctl_open(&control, control_name, 0) < 0) continue;
        snd_ctl_card_info_t *card_info;
        snd_ctl_card_info_alloca(&card_info);
        if (snd_ctl_card_info(control, card_info) < 0) { snd_ctl_close(control); continue; }
        int device = -1;
        while (snd_ctl_pcm_next_device(control, &device) == 0 && device >= 0) {
            snd_pcm_info_t *info;
            snd_pcm_info_alloca(&info);
            snd_pcm_info_set_device(info, device);
            snd_pcm_info_set_subdevice(info, 0);
            snd_pcm_info_set_stream(info, SND_PCM_STREAM_CAPTURE);
            if (snd_ctl_pcm_info(control, info) < 0) continue;
            if (count < max) {
                snprintf(devices[count].id, sizeof devices[count].id, "hw:CARD=%s,DEV=%d", snd_ctl_card_info_get_id(card_info), device);
                snprintf(devices[count].name, sizeof devices[count].name, "%s: %s", snd_ctl_card_info_get_name(card_info), snd_pcm_info_get_name(info));
            }
            count++;
        }
        snd_ctl_close(control);
    }
    return count;
}

calsa_capture *calsa_open(const char *id, unsigned *rate, unsigned *channels, unsigned period_frames, int *error) {
    if (!ready()) { *error = -ENOENT; return NULL; }
    snd_pcm_t *pcm = NULL;
    int err = snd_pcm_open(&pcm, id, SND_PCM_STREAM_CAPTURE, 0);
    if (err < 0) { *error = err; return NULL; }
    snd_pcm_hw_params_t *hw;
    snd_pcm_hw_params_alloca(&hw);
    snd_pcm_uframes_t period = period_frames, buffer = (snd_pcm_uframes_t)period_frames * 8;
    if ((err = snd_pcm_hw_params_any(pcm, hw)) < 0 ||
        (err = snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED)) < 0 ||
        (err = snd_pcm_hw_params_set_format(pcm, hw, SND_PCM_FORMAT_S16_LE)) < 0 ||
        (err = snd_pcm_hw_params_set_channels_near(pcm, hw, channels)) < 0 ||
        (err = snd_pcm_hw_params_set_rate_near(pcm, hw, rate, NULL)) < 0 ||
        (err = snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, NULL)) < 0 ||
        (err = snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer)) < 0 ||
        (err = snd_pcm_hw_params(pcm, hw)) < 0 ||
        (err = snd_pcm_prepare(pcm)) < 0 ||
        (err = snd_pcm_start(pcm)) < 0) {
        snd_pcm_close(pcm);
        *error = err;
        return NULL;
    }
    calsa_capture *capture = calloc(1, sizeof *capture);
    if (!capture) { snd_pcm_close(pcm); *error = -ENOMEM; return NULL; }
    capture->pcm = pcm;
    *error = 0;
    return capture;
}

long calsa_read(calsa_capture *capture, int16_t *buffer, unsigned long frames) {
    unsigned long done = 0;
    unsigned channels = 0;
    snd_pcm_hw_params_t *hw;
    snd_pcm_hw_params_alloca(&hw);
    if (snd_pcm_hw_params_current(capture->pcm, hw) == 0) snd_pcm_hw_params_get_channels(hw, &channels);
    if (!channels) channels = 1;
    while (done < frames) {
        snd_pcm_sframes_t got = snd_pcm_readi(capture->pcm, buffer + done * channels, frames - done);
        if (got == -EPIPE) {
            // An overrun: samples were lost. Start again, and say so.
            snd_pcm_prepare(capture->pcm);
            snd_pcm_start(capture->pcm);
            return -EPIPE;
        }
        if (got == -EAGAIN || got == -EINTR) continue;
        if (got < 0) return got;
        done += (unsigned long)got;
    }
    return (long)done;
}

long calsa_delay(calsa_capture *capture) {
    snd_pcm_sframes_t delay = 0;
    return snd_pcm_delay(capture->pcm, &delay) == 0 ? (long)delay : 0;
}

void calsa_close(calsa_capture *capture) {
    if (!capture) return;
    snd_pcm_drop(capture->pcm);
    snd_pcm_close(capture->pcm);
    free(capture);
}
