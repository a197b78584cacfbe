// Stretching sound with Rubber Band and SoundTouch: see CTimePitch.h.
#include "CTimePitch.h"
#include <rubberband/rubberband-c.h>
#include <soundtouch/SoundTouch.h>
#include <algorithm>
#include <new>
#include <vector>

struct ctp_stretcher {
    int kind = CTP_SPECTRAL;
    int channels = 1;
    // Rubber Band: planar scratch kept between calls, and the start delay still to drop.
    RubberBandState band = nullptr;
    std::vector<std::vector<float>> planes;
    std::vector<float *> pointers;
    unsigned int delay = 0;
    // SoundTouch.
    soundtouch::SoundTouch *touch = nullptr;
};

static void reserve(ctp_stretcher *s, int frames) {
    if ((int)s->planes[0].size() >= frames) return;
    for (int c = 0; c < s->channels; c++) {
        s->planes[c].resize(frames);
        s->pointers[c] = s->planes[c].data();
    }
}

extern "C" ctp_stretcher *ctp_new(int kind, int sample_rate, int channels, double time_ratio) {
    if (sample_rate <= 0 || channels <= 0 || channels > 16 || !(time_ratio > 0) || ctp_load()) return nullptr;
    ctp_stretcher *s = new (std::nothrow) ctp_stretcher();
    if (!s) return nullptr;
    s->kind = kind;
    s->channels = channels;
    if (kind == CTP_SPECTRAL) {
        RubberBandOptions options = RubberBandOptionProcessRealTime | RubberBandOptionEngineFiner | RubberBandOptionPitchHighQuality;
        s->band = rubberband_new((unsigned)sample_rate, (unsigned)channels, options, time_ratio, 1.0);
        if (!s->band) { delete s; return nullptr; }
        rubberband_set_max_process_size(s->band, 8192);
        s->delay = rubberband_get_start_delay(s->band);
        s->planes.assign(channels, std::vector<float>());
        s->pointers.assign(channels, nullptr);
        reserve(s, 8192);
        // Real-time mode wants its start padded: feed the silence it asks for, which it then delays by.
        unsigned pad = rubberband_get_preferred_start_pad(s->band);
        while (pad > 0) {
            unsigned chunk = std::min(pad, 8192u);
            for (int c = 0; c < channels; c++) std::fill(s->planes[c].begin(), s->planes[c].begin() + chunk, 0.0f);
            rubberband_process(s->band, s->pointers.data(), chunk, 0);
            pad -= chunk;
        }
    } else {
        s->touch = new (std::nothrow) soundtouch::SoundTouch();
        if (!s->touch) { delete s; return nullptr; }
        s->touch->setSampleRate((unsigned)sample_rate);
        s->touch->setChannels((unsigned)channels);
        s->touch->setTempo(1.0 / time_ratio);
        s->touch->setPitch(1.0);
    }
    return s;
}

extern "C" void ctp_free(ctp_stretcher *s) {
    if (!s) return;
    if (s->band) rubberband_delete(s->band);
    delete s->touch;
    delete s;
}

extern "C" int ctp_process(ctp_stretcher *s, const float *samples, int frames, int final) {
    if (frames < 0 || (frames > 0 && !samples)) return -1;
    if (s->touch) {
        if (frames > 0) s->touch->putSamples(samples, (unsigned)frames);
        if (final) s->touch->flush();
        return 0;
    }
    int done = 0;
    do {
        int chunk = std::min(frames - done, 8192);
        for (int c = 0; c < s->channels; c++)
            for (int i = 0; i < chunk; i++) s->planes[c][i] = samples[(done + i) * s->channels + c];
        rubberband_process(s->band, s->pointers.data(), (unsigned)chunk, final && done + chunk == frames);
        done += chunk;
    } while (done < frames);
    return 0;
}

extern "C" int ctp_retrieve(ctp_stretcher *s, float *samples, int capacity) {
    if (capacity <= 0 || !samples) return 0;
    if (s->touch) return (int)s->touch->receiveSamples(samples, (unsigned)capacity);
    int made = 0;
    while (made < capacity) {
        int available = rubberband_available(s->band);
        if (available <= 0) break;
        int chunk = std::min({available, capacity - made, 8192});
        unsigned got = rubberband_retrieve(s->band, s->pointers.data(), (unsigned)chunk);
        if (got == 0) break;
        // The first `delay` frames are the padding's: dropped.
        unsigned skip = std::min(s->delay, got);
        s->delay -= skip;
        for (unsigned i = skip; i < got; i++)
            for (int c = 0; c < s->channels; c++) samples[(made + (int)(i - skip)) * s->channels + c] = s->planes[c][i];
        made += (int)(got - skip);
    }
    return made;
}
