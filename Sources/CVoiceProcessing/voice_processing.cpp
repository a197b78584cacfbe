// WebRTC's audio processing module behind a C interface: see CVoiceProcessing.h. Only the factory
// is looked up by name; everything else is the module's virtual interface, from its header.
#include "CVoiceProcessing.h"
#include "CLibraryLoading.h"

#if LAVF_VOICE_PROCESSING
#include <webrtc/modules/audio_processing/include/audio_processing.h>

#include <mutex>
#include <new>

namespace {

using Create = webrtc::AudioProcessing *(*)();

std::once_flag once;
Create create = nullptr;
char problem[512] = {0};

void load() {
    void *library = cll_open("libwebrtc_audio_processing.so.1", "libwebrtc-audio-processing1", problem, sizeof problem);
    if (!library) return;
    // webrtc::AudioProcessing::Create()
    if (!cll_find(library, "_ZN6webrtc15AudioProcessing6CreateEv", reinterpret_cast<void **>(&create), problem, sizeof problem)) create = nullptr;
}

}  // namespace

struct cvp_processor {
    webrtc::AudioProcessing *module;
    webrtc::StreamConfig capture;
    webrtc::StreamConfig render;
};

extern "C" const char *cvp_problem(void) {
    std::call_once(once, load);
    return create ? nullptr : problem;
}

extern "C" cvp_processor *cvp_open(int capture_rate, int capture_channels, int render_rate, int render_channels) {
    if (cvp_problem()) return nullptr;
    if (capture_rate < 8000 || capture_rate > 192000 || render_rate < 8000 || render_rate > 192000) return nullptr;
    // The reverse stream is mono or stereo (the caller mixes more channels down).
    if (capture_channels < 1 || capture_channels > 8 || render_channels < 1 || render_channels > 2) return nullptr;
    webrtc::AudioProcessing *module = create();
    if (!module) return nullptr;
    auto *processor = new (std::nothrow) cvp_processor{module, webrtc::StreamConfig(capture_rate, capture_channels),
                                                       webrtc::StreamConfig(render_rate, render_channels)};
    if (!processor) {
        delete module;
        return nullptr;
    }
    webrtc::ProcessingConfig config = {{processor->capture, processor->capture, processor->render, processor->render}};
    if (module->Initialize(config) != webrtc::AudioProcessing::kNoError) {
        cvp_free(processor);
        return nullptr;
    }
    module->high_pass_filter()->Enable(true);
    cvp_configure(processor, 1, 1, 1);
    return processor;
}

extern "C" void cvp_free(cvp_processor *processor) {
    if (!processor) return;
    delete processor->module;
    delete processor;
}

extern "C" void cvp_configure(cvp_processor *processor, int echo_cancellation, int noise_suppression, int automatic_gain) {
    webrtc::AudioProcessing *module = processor->module;
    module->echo_cancellation()->enable_drift_compensation(false);
    module->echo_cancellation()->set_suppression_level(webrtc::EchoCancellation::kHighSuppression);
    module->echo_cancellation()->Enable(echo_cancellation != 0);
    module->noise_suppression()->set_level(webrtc::NoiseSuppression::kHigh);
    module->noise_suppression()->Enable(noise_suppression != 0);
    module->gain_control()->set_mode(webrtc::GainControl::kAdaptiveDigital);
    module->gain_control()->Enable(automatic_gain != 0);
}

extern "C" int cvp_render(cvp_processor *processor, const float *const *channels) {
    // The reverse stream is analysed, not changed: its output goes to scratch the module owns.
    return processor->module->AnalyzeReverseStream(channels, processor->render.num_frames(), processor->render.sample_rate_hz(),
                                                   processor->render.num_channels() == 1 ? webrtc::AudioProcessing::kMono
                                                                                          : webrtc::AudioProcessing::kStereo);
}

extern "C" int cvp_capture(cvp_processor *processor, float *const *channels, int delay_ms) {
    webrtc::AudioProcessing *module = processor->module;
    if (module->echo_cancellation()->is_enabled()) module->set_stream_delay_ms(delay_ms < 0 ? 0 : delay_ms > 500 ? 500 : delay_ms);
    return module->ProcessStream(channels, processor->capture, processor->capture, channels);
}

#else
// Built without the VoiceProcessing trait, which brings WebRTC's audio processing: no processor can be made.
extern "C" const char *cvp_problem(void) { return "LinuxAVFoundation was built without its VoiceProcessing trait, which brings WebRTC's audio processing"; }
extern "C" cvp_processor *cvp_open(int, int, int, int) { return nullptr; }
extern "C" void cvp_free(cvp_processor *) {}
extern "C" void cvp_configure(cvp_processor *, int, int, int) {}
extern "C" int cvp_render(cvp_processor *, const float *const *) { return -1; }
extern "C" int cvp_capture(cvp_processor *, float *const *, int) { return -1; }
#endif
