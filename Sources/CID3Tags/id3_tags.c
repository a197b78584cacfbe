// Reading ID3v2 tags with libid3tag: see CID3Tags.h.
#include "CID3Tags.h"

#include "CLibraryLoading.h"
#include <id3tag.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static struct {
    signed long (*tag_query)(id3_byte_t const *, id3_length_t);
    struct id3_tag *(*tag_parse)(id3_byte_t const *, id3_length_t);
    void (*tag_delete)(struct id3_tag *);
    union id3_field *(*frame_field)(struct id3_frame const *, unsigned int);
    id3_latin1_t const *(*get_latin1)(union id3_field const *);
    id3_latin1_t const *(*get_full_latin1)(union id3_field const *);
    id3_ucs4_t const *(*get_string)(union id3_field const *);
    id3_ucs4_t const *(*get_full_string)(union id3_field const *);
    unsigned int (*get_nstrings)(union id3_field const *);
    id3_ucs4_t const *(*get_strings)(union id3_field const *, unsigned int);
    id3_byte_t const *(*get_binary)(union id3_field const *, id3_length_t *);
    id3_utf8_t *(*ucs4_utf8)(id3_ucs4_t const *);
    id3_ucs4_t *(*latin1_ucs4)(id3_latin1_t const *);
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *status;
static char problem[512];

static int find(void *library, const char *name, void **pointer) {
    if (cll_find(library, name, pointer, problem, sizeof problem)) return 1;
    status = problem;
    return 0;
}

static void load(void) {
    void *library = cll_open("libid3tag.so.0", "libid3tag0", problem, sizeof problem);
    if (!library) {
        status = problem;
        return;
    }
    if (!find(library, "id3_tag_query", (void **)&lib.tag_query)) return;
    if (!find(library, "id3_tag_parse", (void **)&lib.tag_parse)) return;
    if (!find(library, "id3_tag_delete", (void **)&lib.tag_delete)) return;
    if (!find(library, "id3_frame_field", (void **)&lib.frame_field)) return;
    if (!find(library, "id3_field_getlatin1", (void **)&lib.get_latin1)) return;
    if (!find(library, "id3_field_getfulllatin1", (void **)&lib.get_full_latin1)) return;
    if (!find(library, "id3_field_getstring", (void **)&lib.get_string)) return;
    if (!find(library, "id3_field_getfullstring", (void **)&lib.get_full_string)) return;
    if (!find(library, "id3_field_getnstrings", (void **)&lib.get_nstrings)) return;
    if (!find(library, "id3_field_getstrings", (void **)&lib.get_strings)) return;
    if (!find(library, "id3_field_getbinarydata", (void **)&lib.get_binary)) return;
    if (!find(library, "id3_ucs4_utf8duplicate", (void **)&lib.ucs4_utf8)) return;
    if (!find(library, "id3_latin1_ucs4duplicate", (void **)&lib.latin1_ucs4)) return;
}

const char *cid3_problem(void) {
    pthread_once(&once, load);
    return status;
}

/// A growing UTF-8 string; `failed` once memory ran out.
typedef struct {
    char *bytes;
    size_t length, capacity;
    int failed;
} text;

static void append(text *t, const char *utf8) {
    if (!utf8 || t->failed) return;
    size_t more = strlen(utf8);
    if (t->length + more + 1 > t->capacity) {
        size_t capacity = (t->length + more + 1) * 2;
        char *grown = realloc(t->bytes, capacity);
        if (!grown) {
            t->failed = 1;
            return;
        }
        t->bytes = grown;
        t->capacity = capacity;
    }
    memcpy(t->bytes + t->length, utf8, more + 1);
    t->length += more;
}

static void append_ucs4(text *t, id3_ucs4_t const *ucs4) {
    if (!ucs4) return;
    id3_utf8_t *utf8 = lib.ucs4_utf8(ucs4);
    append(t, (const char *)utf8);
    free(utf8);
}

static void append_latin1(text *t, id3_latin1_t const *latin1) {
    if (!latin1) return;
    id3_ucs4_t *ucs4 = lib.latin1_ucs4(latin1);
    append_ucs4(t, ucs4);
    free(ucs4);
}

int cid3_read(const uint8_t *bytes, size_t size, cid3_each_frame each, void *context) {
    if (cid3_problem()) return -2;
    if (!bytes || size < 10) return -1;
    signed long length = lib.tag_query(bytes, size);
    if (length <= 0 || (size_t)length > size) return -1;
    struct id3_tag *tag = lib.tag_parse(bytes, (id3_length_t)length);
    if (!tag) return -1;
    int count = 0;
    for (unsigned int index = 0; index < tag->nframes; index++) {
        struct id3_frame const *frame = tag->frames[index];
        text description = {0}, value = {0}, language = {0};
        const uint8_t *data = NULL;
        size_t data_size = 0;
        int has_value = 0, has_description = 0;
        union id3_field *field;
        for (unsigned int at = 0; (field = lib.frame_field(frame, at)) != NULL; at++) {
            switch (field->type) {
            case ID3_FIELD_TYPE_LATIN1:
                // A PRIV or UFID frame's owner, an APIC or GEOB frame's MIME type, a W frame's URL.
                if (frame->id[0] == 'W') {
                    append_latin1(&value, lib.get_latin1(field));
                    has_value = 1;
                } else if (!has_description) {
                    append_latin1(&description, lib.get_latin1(field));
                    has_description = 1;
                }
                break;
            case ID3_FIELD_TYPE_LATIN1FULL:
                append_latin1(&value, lib.get_full_latin1(field));
                has_value = 1;
                break;
            case ID3_FIELD_TYPE_STRING:
                // TXXX: description then value; WXXX and COMM: description; APIC: description.
                if (!has_description) {
                    append_ucs4(&description, lib.get_string(field));
                    has_description = 1;
                } else {
                    append_ucs4(&value, lib.get_string(field));
                    has_value = 1;
                }
                break;
            case ID3_FIELD_TYPE_STRINGFULL:
                append_ucs4(&value, lib.get_full_string(field));
                has_value = 1;
                break;
            case ID3_FIELD_TYPE_STRINGLIST: {
                unsigned int strings = lib.get_nstrings(field);
                for (unsigned int s = 0; s < strings; s++) {
                    if (s > 0) append(&value, "/");
                    append_ucs4(&value, lib.get_strings(field, s));
                }
                has_value = 1;
                break;
            }
            case ID3_FIELD_TYPE_LANGUAGE:
                append(&language, field->immediate.value);
                break;
            case ID3_FIELD_TYPE_BINARYDATA: {
                id3_length_t bytes_length = 0;
                data = lib.get_binary(field, &bytes_length);
                data_size = data ? bytes_length : 0;
                break;
            }
            default:
                break;
            }
        }
        if (!description.failed && !value.failed && !language.failed) {
            cid3_frame out;
            memcpy(out.id, frame->id, 5);
            out.description = description.bytes ? description.bytes : "";
            out.text = has_value ? (value.bytes ? value.bytes : "") : NULL;
            out.data = data;
            out.size = data_size;
            out.language = language.bytes ? language.bytes : "";
            each(context, &out);
            count++;
        }
        free(description.bytes);
        free(value.bytes);
        free(language.bytes);
    }
    lib.tag_delete(tag);
    return count;
}
