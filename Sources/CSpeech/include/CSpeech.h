// espeak-ng, loaded by its soname (Debian's libespeak-ng1) the first time speech is made: text
// synthesised into 16-bit mono samples with the words' places, in voices listed by language.
//
// Thread ownership: espeak-ng keeps global state, so every call here holds one lock; callbacks
// run on the caller's thread, inside `csp_speak`.
#ifndef CSPEECH_H
#define CSPEECH_H
#include <stddef.h>

/// Loads espeak-ng and its voices once; NULL when they are loaded, otherwise why not.
const char *csp_load(void);

/// The rate espeak-ng synthesises at, in hertz (22050 for its voices); 0 when it cannot be loaded.
int csp_sample_rate(void);

/// Receives synthesised samples; returns nonzero to stop the speech.
typedef int (*csp_samples_callback)(const short *samples, int count, void *context);
/// Told that a word starts: its place in the text in Unicode scalars from 0, its length, and
/// the sample (counted from the start of the speech) it is heard at.
typedef void (*csp_word_callback)(int position, int length, int sample, void *context);

/// Speaks UTF-8 text in a voice (espeak-ng's identifier or name, such as "en-us"; NULL for the
/// default) at a speed in words a minute (80 to 450) and a pitch (0 to 100, 50 normal),
/// handing samples and words to the callbacks as they are made; 0, or a negative error.
int csp_speak(const char *text, const char *voice, int words_per_minute, int pitch, csp_samples_callback samples,
              csp_word_callback word, void *context);

/// One of espeak-ng's voices: its name, first language, identifier, and gender (1 male, 2 female, 0 unknown).
typedef struct csp_voice {
    const char *name;
    const char *language;
    const char *identifier;
    int gender;
} csp_voice;

/// The number of voices.
int csp_voice_count(void);
/// The voice at an index; 0, or -1 when there is none there. Its strings live as long as the library.
int csp_voice_at(int index, csp_voice *voice);

#endif
