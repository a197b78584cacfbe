// A libFuzzer target for the animated PNG shim (Sources/CMediaCodecs/AnimatedPNG.c): whatever
// bytes it is given are read as an APNG and its first frames decoded onto the canvas its IHDR
// chunk gives, as Image I/O's sources decode them. A crash, a sanitizer report or a run over
// libFuzzer's time limit is a bug. Built and run by scripts/fuzz.sh; the corpus kept in
// Fuzz/corpus/animated-png replays in CI.
#include "CAnimatedPNG.h"
#include <stdint.h>
#include <stdlib.h>

enum { MAX_SIDE = 256, FRAMES = 4 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    // The canvas as the IHDR chunk after the signature says, bounded as Image I/O bounds pictures.
    if (size < 24) return 0;
    uint32_t width = (uint32_t)data[16] << 24 | (uint32_t)data[17] << 16 | (uint32_t)data[18] << 8 | data[19];
    uint32_t height = (uint32_t)data[20] << 24 | (uint32_t)data[21] << 16 | (uint32_t)data[22] << 8 | data[23];
    if (width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE) return 0;
    uint8_t *bgra = malloc((size_t)width * height * 4);
    if (!bgra) return 0;
    for (int index = 0; index < FRAMES; index++) {
        if (cmc_apng_decode_frame(data, size, index, bgra, (ptrdiff_t)width * 4, (int)width, (int)height) < 0) break;
    }
    free(bgra);
    return 0;
}
