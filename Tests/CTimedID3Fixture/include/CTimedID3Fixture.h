// Test inputs for timed metadata: ID3v2 tags rendered by libid3tag, muxed by libavformat as the
// timed ID3 stream of an MPEG-TS file, as HLS streams carry them.
#ifndef CTIMEDID3FIXTURE_H
#define CTIMEDID3FIXTURE_H
#include <stddef.h>
#include <stdint.h>

/// Renders an ID3v2.4 tag into `out` (of `capacity` bytes) with a TIT2 frame holding `title`,
/// a TXXX frame `description`=`value` when `description` is not NULL, a PRIV frame owned by
/// `owner` holding `data` when `owner` is not NULL, and an APIC frame (a PNG front cover described
/// by `picture_description`) holding `picture` when that is not NULL; returns its length, or -1.
long ctid3_render(const char *title, const char *description, const char *value, const char *owner, const uint8_t *data, size_t size,
                  const char *picture_description, const uint8_t *picture, size_t picture_size, uint8_t *out, size_t capacity);

/// Writes an MPEG-TS file holding one timed ID3 stream of `count` packets, packet `i` being the
/// `sizes[i]` bytes at `tags[i]` presented at `milliseconds[i]`, beside the first video stream of
/// the movie at `video` copied as it is (none when `video` is NULL); 0, or a negative FFmpeg error.
int ctid3_write_stream(const char *path, const char *video, int count, const uint8_t *const *tags, const int *sizes,
                       const int64_t *milliseconds);
#endif
