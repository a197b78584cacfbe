// Whether the Wayland compositor WAYLAND_DISPLAY names offers a seat: see wayland_seat.c.
#ifndef CVW_WAYLAND_SEAT_H
#define CVW_WAYLAND_SEAT_H
#include <stddef.h>

/// 1 when the compositor announces a wl_seat, 0 when it announces none, -1 when it cannot be
/// asked within `timeout_seconds` (libwayland-client missing, no compositor, no answer), with why
/// in `problem`.
int cvw_wayland_has_seat(double timeout_seconds, char *problem, size_t problem_size);

#endif
