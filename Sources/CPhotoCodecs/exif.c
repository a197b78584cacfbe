// EXIF blocks through libexif: tags set one by one, saved in Intel byte order.
#include "CPhotoCodecs.h"
#include <libexif/exif-data.h>
#include <stdlib.h>
#include <string.h>

struct cpc_exif { ExifData *data; ExifMem *mem; };

cpc_exif *cpc_exif_new(void) {
    cpc_exif *exif = calloc(1, sizeof *exif);
    if (!exif) return NULL;
    exif->mem = exif_mem_new_default();
    exif->data = exif->mem ? exif_data_new_mem(exif->mem) : NULL;
    if (!exif->data) {
        if (exif->mem) exif_mem_unref(exif->mem);
        free(exif);
        return NULL;
    }
    exif_data_set_byte_order(exif->data, EXIF_BYTE_ORDER_INTEL);
    exif_data_set_data_type(exif->data, EXIF_DATA_TYPE_COMPRESSED);
    return exif;
}

void cpc_exif_free(cpc_exif *exif) {
    if (!exif) return;
    exif_data_unref(exif->data);
    exif_mem_unref(exif->mem);
    free(exif);
}

/// A new entry of `size` bytes replacing any entry with the tag; its data is zeroed. NULL when out of memory.
static ExifEntry *entry(cpc_exif *exif, cpc_exif_ifd ifd, uint16_t tag, ExifFormat format, unsigned components) {
    if (!exif || (ifd != CPC_IFD_0 && ifd != CPC_IFD_EXIF && ifd != CPC_IFD_GPS) || components == 0) return NULL;
    ExifContent *content = exif->data->ifd[ifd];
    ExifEntry *old = exif_content_get_entry(content, (ExifTag)tag);
    if (old) exif_content_remove_entry(content, old);
    size_t size = (size_t)exif_format_get_size(format) * components;
    ExifEntry *e = exif_entry_new_mem(exif->mem);
    if (!e) return NULL;
    e->data = exif_mem_alloc(exif->mem, (ExifLong)size);
    if (!e->data) { exif_entry_unref(e); return NULL; }
    memset(e->data, 0, size);
    e->size = (unsigned)size;
    e->tag = (ExifTag)tag;
    e->format = format;
    e->components = components;
    exif_content_add_entry(content, e);
    exif_entry_unref(e); // the content holds it now
    return e;
}

int cpc_exif_set_ascii(cpc_exif *exif, cpc_exif_ifd ifd, uint16_t tag, const char *value) {
    if (!value) return -1;
    size_t length = strlen(value);
    ExifEntry *e = entry(exif, ifd, tag, EXIF_FORMAT_ASCII, (unsigned)length + 1);
    if (!e) return -1;
    memcpy(e->data, value, length);
    return 0;
}

int cpc_exif_set_shorts(cpc_exif *exif, cpc_exif_ifd ifd, uint16_t tag, const uint16_t *values, unsigned count) {
    ExifEntry *e = entry(exif, ifd, tag, EXIF_FORMAT_SHORT, count);
    if (!e) return -1;
    for (unsigned i = 0; i < count; i++) exif_set_short(e->data + 2 * i, EXIF_BYTE_ORDER_INTEL, values[i]);
    return 0;
}

int cpc_exif_set_long(cpc_exif *exif, cpc_exif_ifd ifd, uint16_t tag, uint32_t value) {
    ExifEntry *e = entry(exif, ifd, tag, EXIF_FORMAT_LONG, 1);
    if (!e) return -1;
    exif_set_long(e->data, EXIF_BYTE_ORDER_INTEL, value);
    return 0;
}

int cpc_exif_set_rationals(cpc_exif *exif, cpc_exif_ifd ifd, uint16_t tag, const uint32_t *pairs, unsigned count) {
    ExifEntry *e = entry(exif, ifd, tag, EXIF_FORMAT_RATIONAL, count);
    if (!e) return -1;
    for (unsigned i = 0; i < count; i++) {
        ExifRational r = { pairs[2 * i], pairs[2 * i + 1] };
        exif_set_rational(e->data + 8 * i, EXIF_BYTE_ORDER_INTEL, r);
    }
    return 0;
}

int cpc_exif_set_srational(cpc_exif *exif, cpc_exif_ifd ifd, uint16_t tag, int32_t numerator, int32_t denominator) {
    ExifEntry *e = entry(exif, ifd, tag, EXIF_FORMAT_SRATIONAL, 1);
    if (!e) return -1;
    ExifSRational r = { numerator, denominator };
    exif_set_srational(e->data, EXIF_BYTE_ORDER_INTEL, r);
    return 0;
}

int cpc_exif_set_bytes(cpc_exif *exif, cpc_exif_ifd ifd, uint16_t tag, const uint8_t *values, unsigned count, int undefined) {
    ExifEntry *e = entry(exif, ifd, tag, undefined ? EXIF_FORMAT_UNDEFINED : EXIF_FORMAT_BYTE, count);
    if (!e) return -1;
    memcpy(e->data, values, count);
    return 0;
}

int cpc_exif_set_thumbnail(cpc_exif *exif, const uint8_t *jpeg, size_t size) {
    if (!exif || !jpeg || size == 0 || size > 60000) return -1;  // the whole block must fit a 64 KB APP1 segment
    unsigned char *copy = exif_mem_alloc(exif->mem, (ExifLong)size);
    if (!copy) return -1;
    memcpy(copy, jpeg, size);
    if (exif->data->data) exif_mem_free(exif->mem, exif->data->data);
    exif->data->data = copy;
    exif->data->size = (unsigned int)size;
    return 0;
}

int cpc_exif_save(cpc_exif *exif, uint8_t **data, size_t *size) {
    if (!exif || !data || !size) return -1;
    unsigned char *bytes = NULL;
    unsigned int length = 0;
    exif_data_save_data(exif->data, &bytes, &length);
    if (!bytes || length == 0) return -1;
    // libexif allocates with its default allocator (calloc), so free() releases it.
    *data = bytes;
    *size = length;
    return 0;
}

// Reading: a JPEG file, or an EXIF block beginning "Exif\0\0", parsed by libexif.
static ExifData *cpc_exif_load(const uint8_t *data, size_t size) {
    if (!data || size < 6 || size > 0x7FFFFFFF) return NULL;
    ExifData *exif = exif_data_new();
    if (!exif) return NULL;
    exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_load_data(exif, data, (unsigned)size);
    return exif;
}

int cpc_exif_read_orientation(const uint8_t *data, size_t size) {
    ExifData *exif = cpc_exif_load(data, size);
    if (!exif) return 0;
    int orientation = 0;
    ExifEntry *entry = exif_content_get_entry(exif->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
    if (entry && entry->format == EXIF_FORMAT_SHORT && entry->components >= 1 && entry->size >= 2) {
        orientation = exif_get_short(entry->data, exif_data_get_byte_order(exif));
        if (orientation < 1 || orientation > 8) orientation = 0;
    }
    exif_data_unref(exif);
    return orientation;
}

int cpc_exif_read_text(const uint8_t *data, size_t size, cpc_exif_ifd ifd, uint16_t tag, char *text, size_t capacity) {
    if (!text || capacity == 0) return -1;
    text[0] = 0;
    ExifData *exif = cpc_exif_load(data, size);
    if (!exif) return -1;
    ExifEntry *entry = exif_content_get_entry(exif->ifd[ifd], (ExifTag)tag);
    int found = -1;
    if (entry) {
        exif_entry_get_value(entry, text, (unsigned)capacity);
        found = 0;
    }
    exif_data_unref(exif);
    return found;
}

int cpc_exif_read_numbers(const uint8_t *data, size_t size, cpc_exif_ifd ifd, uint16_t tag, double *values, unsigned capacity) {
    ExifData *exif = cpc_exif_load(data, size);
    if (!exif) return -1;
    ExifEntry *entry = exif_content_get_entry(exif->ifd[ifd], (ExifTag)tag);
    int count = -1;
    if (entry && entry->data) {
        ExifByteOrder order = exif_data_get_byte_order(exif);
        unsigned width = exif_format_get_size(entry->format);
        count = 0;
        for (unsigned i = 0; i < entry->components && (unsigned)count < capacity && width > 0 && (i + 1) * width <= entry->size; i++) {
            const unsigned char *at = entry->data + i * width;
            switch (entry->format) {
            case EXIF_FORMAT_BYTE: case EXIF_FORMAT_UNDEFINED: values[count++] = at[0]; break;
            case EXIF_FORMAT_SBYTE: values[count++] = (signed char)at[0]; break;
            case EXIF_FORMAT_SHORT: values[count++] = exif_get_short(at, order); break;
            case EXIF_FORMAT_SSHORT: values[count++] = exif_get_sshort(at, order); break;
            case EXIF_FORMAT_LONG: values[count++] = exif_get_long(at, order); break;
            case EXIF_FORMAT_SLONG: values[count++] = exif_get_slong(at, order); break;
            case EXIF_FORMAT_RATIONAL: {
                ExifRational r = exif_get_rational(at, order);
                values[count++] = r.denominator ? (double)r.numerator / r.denominator : 0;
                break;
            }
            case EXIF_FORMAT_SRATIONAL: {
                ExifSRational r = exif_get_srational(at, order);
                values[count++] = r.denominator ? (double)r.numerator / r.denominator : 0;
                break;
            }
            default: i = entry->components; break;
            }
        }
    }
    exif_data_unref(exif);
    return count;
}
