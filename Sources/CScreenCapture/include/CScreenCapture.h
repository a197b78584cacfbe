// An X11 display's pictures, for screen capture: the root window read through the MIT shared
// memory extension (libxcb-shm), the pointer's place and buttons, and the cursor's picture
// (XFixes). libxcb and its extensions are loaded by their sonames when a display is first opened,
// so a process that captures no screen does not load them.
//
// Thread ownership: one display belongs to one thread at a time.
#ifndef CSCREENCAPTURE_H
#define CSCREENCAPTURE_H
#include <stddef.h>
#include <stdint.h>

/// An open connection to an X11 display, with a shared memory segment for its pictures.
typedef struct csc_display csc_display;

/// Opens `name` (such as ":99"; NULL for $DISPLAY); NULL, with why in `problem`, when it cannot be.
csc_display *csc_open(const char *name, char *problem, size_t size);
/// Closes the display and frees its shared memory.
void csc_close(csc_display *display);
/// The screen's size in pixels.
void csc_size(const csc_display *display, int *width, int *height);

/// Shared memory the server can write a picture of up to `bytes` into, for reading the screen
/// straight into a frame's memory: its address (NULL, with why in `problem`, when it cannot be
/// had) and its segment's identifier in `*segment`. The memory stays this process's until
/// `csc_segment_unmap`, even after the display is closed.
void *csc_segment_create(csc_display *display, size_t bytes, uint32_t *segment, char *problem, size_t size);
/// Tells the server to forget a segment it no longer writes into (closing the display does too).
void csc_segment_detach(csc_display *display, uint32_t segment);
/// Gives a segment's memory back, once no frame over it is held.
void csc_segment_unmap(void *memory);
/// Reads the `width` x `height` region at (`x`, `y`) into a segment's memory, rows `width` * 4
/// bytes apart, as B, G, R, A with alpha opaque; 0, or -1 when the display went away.
int csc_grab_into_segment(csc_display *display, uint32_t segment, void *memory, int x, int y, int width, int height);

/// The pointer's place on the screen and whether a button is down; 0, or -1 when it cannot be read.
int csc_pointer(csc_display *display, int *x, int *y, int *pressed);

/// The cursor's picture: its size, its hot spot's place on the screen, and its premultiplied
/// A, R, G, B pixels (one 32-bit value each, row by row), valid until the next call; NULL when
/// the display has no XFixes or no cursor.
const uint32_t *csc_cursor(csc_display *display, int *width, int *height, int *x, int *y);

#endif
