// espeak-ng through its C API (speak_lib.h), loaded by its soname and called through pointers.
// Its headers are not needed: the few functions and structures used are declared below as
// espeak-ng 1.x documents them.
#include "CSpeech.h"

#include "CLibraryLoading.h"
#include <pthread.h>
#include <stdint.h>
#include <string.h>

// speak_lib.h's types.
enum { AUDIO_OUTPUT_SYNCHRONOUS = 2 };
enum { POS_CHARACTER = 1 };
enum { espeakCHARS_UTF8 = 1 };
enum { espeakRATE = 1, espeakPITCH = 3 };
enum { espeakEVENT_LIST_TERMINATED = 0, espeakEVENT_WORD = 1 };
typedef struct {
    int type;
    unsigned int unique_identifier;
    int text_position;
    int length;
    int audio_position;
    int sample;
    void *user_data;
    union {
        int number;
        const char *name;
        char string[8];
    } id;
} espeak_EVENT;
typedef struct {
    const char *name;
    const char *languages;
    const char *identifier;
    unsigned char gender;
    unsigned char age;
    unsigned char variant;
    unsigned char xx1;
    int score;
    void *spare;
} espeak_VOICE;
typedef int (*espeak_callback)(short *wav, int count, espeak_EVENT *events);

static struct {
    int (*Initialize)(int output, int buffer_length, const char *path, int options);
    void (*SetSynthCallback)(espeak_callback callback);
    int (*SetParameter)(int parameter, int value, int relative);
    int (*SetVoiceByName)(const char *name);
    int (*Synth)(const void *text, size_t size, unsigned int position, int position_type, unsigned int end_position,
                 unsigned int flags, unsigned int *identifier, void *user_data);
    const espeak_VOICE **(*ListVoices)(espeak_VOICE *spec);
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const char *status;
static char problem[512];
static int rate;
static const espeak_VOICE **voices;
static int voice_count;
/// The voices' first languages, copied out of espeak-ng's list (which prefixes each with a priority byte).
static char languages[256][32];

/// The speech being made, for the synthesis callback (under `lock`).
static struct {
    csp_samples_callback samples;
    csp_word_callback word;
    void *context;
    int stopped;
} speech;

static int on_synthesis(short *wav, int count, espeak_EVENT *events) {
    for (espeak_EVENT *event = events; event && event->type != espeakEVENT_LIST_TERMINATED; event++) {
        if (event->type == espeakEVENT_WORD && speech.word) speech.word(event->text_position - 1, event->length, event->sample, speech.context);
    }
    if (speech.stopped) return 1;
    if (wav && count > 0 && speech.samples && speech.samples(wav, count, speech.context) != 0) {
        speech.stopped = 1;
        return 1;
    }
    return 0;
}

static void load(void) {
    void *library = cll_open("libespeak-ng.so.1", "libespeak-ng1", problem, sizeof problem);
    if (!library) {
        status = problem;
        return;
    }
#define FIND(field, name)                                                          \
    if (!cll_find(library, name, (void **)&lib.field, problem, sizeof problem)) { \
        status = problem;                                                      \
        return;                                                                \
    }
    FIND(Initialize, "espeak_Initialize")
    FIND(SetSynthCallback, "espeak_SetSynthCallback")
    FIND(SetParameter, "espeak_SetParameter")
    FIND(SetVoiceByName, "espeak_SetVoiceByName")
    FIND(Synth, "espeak_Synth")
    FIND(ListVoices, "espeak_ListVoices")
#undef FIND
    rate = lib.Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, 0);
    if (rate <= 0) {
        rate = 0;
        status = "espeak-ng found no voices: is espeak-ng-data installed? (apt-get install libespeak-ng1)";
        return;
    }
    lib.SetSynthCallback(on_synthesis);
    voices = lib.ListVoices(NULL);
    while (voices && voices[voice_count] && voice_count < 256) {
        const char *entry = voices[voice_count]->languages;
        // The first entry: a priority byte, then the language.
        strncpy(languages[voice_count], entry && entry[0] ? entry + 1 : "", sizeof languages[0] - 1);
        voice_count++;
    }
}

const char *csp_load(void) {
    pthread_once(&once, load);
    return status;
}

int csp_sample_rate(void) { return csp_load() ? 0 : rate; }

int csp_speak(const char *text, const char *voice, int words_per_minute, int pitch, csp_samples_callback samples,
              csp_word_callback word, void *context) {
    if (csp_load()) return -1;
    pthread_mutex_lock(&lock);
    int result = 0;
    if (voice && lib.SetVoiceByName(voice) != 0) result = -2;
    if (result == 0) {
        lib.SetParameter(espeakRATE, words_per_minute < 80 ? 80 : words_per_minute > 450 ? 450 : words_per_minute, 0);
        lib.SetParameter(espeakPITCH, pitch < 0 ? 0 : pitch > 100 ? 100 : pitch, 0);
        speech.samples = samples;
        speech.word = word;
        speech.context = context;
        speech.stopped = 0;
        int error = lib.Synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL);
        if (error != 0 && !speech.stopped) result = -3;
        speech.samples = NULL;
        speech.word = NULL;
        speech.context = NULL;
    }
    pthread_mutex_unlock(&lock);
    return result;
}

int csp_voice_count(void) { return csp_load() ? 0 : voice_count; }

int csp_voice_at(int index, csp_voice *voice) {
    if (csp_load() || index < 0 || index >= voice_count) return -1;
    voice->name = voices[index]->name;
    voice->language = languages[index];
    voice->identifier = voices[index]->identifier;
    voice->gender = voices[index]->gender;
    return 0;
}
