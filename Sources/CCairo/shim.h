// cairo, the 2D drawing library whose model (paths filled and stroked through a transform,
// clipped, composited with Porter-Duff operators) is Quartz 2D's, and pixman, the pixel
// library under it, which converts between the byte orders Core Graphics contexts use.
#include <cairo.h>
#include <pixman.h>
