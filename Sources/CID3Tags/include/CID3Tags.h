// Reading ID3v2 tags, the timed metadata MPEG-TS and HLS streams carry, with libid3tag, loaded by
// its soname when the first tag is read (a process that reads none does not load it).
//
// Thread ownership: none; any thread may read a tag at any time.
#ifndef CID3TAGS_H
#define CID3TAGS_H
#include <stddef.h>
#include <stdint.h>

/// One frame of a tag, valid only inside the call that hands it over.
typedef struct cid3_frame {
    char id[5];               ///< the frame's identifier, such as "TIT2", "TXXX" or "PRIV"
    const char *description;  ///< UTF-8: a TXXX, WXXX or COMM frame's description, a PRIV frame's owner; "" when none
    const char *text;         ///< UTF-8: a text frame's strings (several joined by '/'), a URL, a comment; NULL when none
    const uint8_t *data;      ///< the frame's binary payload (PRIV, APIC, GEOB); NULL when none
    size_t size;              ///< the payload's length in bytes
    const char *language;     ///< a COMM or USLT frame's ISO 639-2 language; "" when none
} cid3_frame;

/// Called once for each frame of a tag, in the tag's order.
typedef void (*cid3_each_frame)(void *context, const cid3_frame *frame);

/// Reads the ID3v2 tag at the start of `bytes` and calls `each` for its frames: returns how many
/// frames there were, -1 when the bytes hold no whole ID3v2 tag, -2 when libid3tag cannot be
/// loaded (`cid3_problem` says why).
int cid3_read(const uint8_t *bytes, size_t size, cid3_each_frame each, void *context);

/// Why libid3tag cannot be loaded, or NULL when it can.
const char *cid3_problem(void);
#endif
