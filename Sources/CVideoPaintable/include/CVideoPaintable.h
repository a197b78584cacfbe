// A GTK 4 paintable (a GObject implementing GdkPaintable) that shows the pictures it is given, for
// GTK apps to put in their own widget tree: GTK 4 (Debian's libgtk-4-1) is loaded by its soname
// when the first paintable is made, so that it is the app's own GTK, and no program that makes none
// loads it. The shim declares the GLib, GDK and GTK functions it calls.
#ifndef CVIDEOPAINTABLE_H
#define CVIDEOPAINTABLE_H
#include <stddef.h>
#include <stdint.h>

/// A paintable's state, shared by the GObject (which frees it when finalized) and its owner.
typedef struct cvp_paintable cvp_paintable;

/// Loads GTK 4 once, from any thread; NULL when loaded, otherwise why not.
const char *cvp_load(void);

/// A new paintable; NULL with why in `problem` when GTK 4 cannot be loaded. The caller owns one
/// reference to its GObject (`cvp_gobject`) and gives it back with `cvp_release`. `resized(context,
/// width, height)` is called on GTK's main context when GTK draws the paintable at a size it was not
/// drawn at before (in pixels, rounded); `release_context(context)` once the GObject is finalized.
cvp_paintable *cvp_create(void (*resized)(void *context, int width, int height), void *context, void (*release_context)(void *context),
                          char *problem, size_t size);

/// The paintable's GObject (a `GdkPaintable *`).
void *cvp_gobject(cvp_paintable *paintable);

/// Gives back the owner's reference; the state lives on while GTK holds the GObject.
void cvp_release(cvp_paintable *paintable);

/// Offers a picture of premultiplied BGRA pixels (`stride` bytes a row), from any thread: it is
/// shown at GTK's next frame on GTK's main context, unless a newer one is offered first, which
/// drops it. `release(owner)` is called, on any thread, once the pixels are no longer read.
void cvp_offer(cvp_paintable *paintable, const uint8_t *pixels, int width, int height, size_t stride, void *owner,
               void (*release)(void *owner));

/// Pictures GTK drew (each counted once), and pictures dropped for a newer one before GTK took them.
void cvp_counts(cvp_paintable *paintable, uint64_t *shown, uint64_t *dropped);

#endif
