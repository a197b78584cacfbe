// A GTK 4 app's side of the paintable tests: GTK started on the calling thread, a window whose
// child is a GtkPicture of a paintable, and GTK's main context run by hand. GTK 4 is loaded by its
// soname, as the app's GTK would be.
#ifndef CGTKTESTHOST_H
#define CGTKTESTHOST_H
#include <stddef.h>

/// Starts GTK 4 on the calling thread (which then runs its main context); 0, or -1 with why in `problem`.
int cgth_start(char *problem, size_t size);
/// A window of `width` x `height` whose child is a GtkPicture of `paintable`, shown; NULL on failure.
void *cgth_window(void *paintable, int width, int height);
/// Sets the window's size.
void cgth_resize(void *window, int width, int height);
/// Runs GTK's main context for whatever is ready, without waiting.
void cgth_iterate(void);
/// Destroys the window.
void cgth_close(void *window);
/// The width and height of a paintable's current image (`gdk_paintable_get_current_image`).
void cgth_current_image_size(void *paintable, int *width, int *height);

#endif
