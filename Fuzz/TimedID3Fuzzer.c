// A libFuzzer target for the timed metadata tag shim (Sources/CID3Tags/id3_tags.c): whatever
// bytes it is given are read as the ID3v2 tag an MPEG-TS or HLS stream carries, and every frame's
// strings and payload are touched, as AVMetadataItem's values would be. Damaged, cut, huge and
// nested (CHAP/CTOC) frames are in its corpus. A crash, a sanitizer report or a run over libFuzzer's
// time limit is a bug. Built and run by scripts/fuzz.sh; the corpus kept in Fuzz/corpus/timed-id3
// replays in CI.
#include "CID3Tags.h"
#include <stdint.h>
#include <string.h>

static void touch(void *context, const cid3_frame *frame) {
    size_t *sum = context;
    *sum += strlen(frame->id) + strlen(frame->description) + strlen(frame->language);
    if (frame->text) *sum += strlen(frame->text);
    for (size_t at = 0; frame->data && at < frame->size; at++) *sum += frame->data[at];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t sum = 0;
    cid3_read(data, size, touch, &sum);
    return 0;
}
