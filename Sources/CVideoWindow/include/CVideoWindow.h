// A window on the Linux desktop (X11, or Wayland where SDL is told to use it) that shows B, G, R, A
// pictures, through SDL 2 (Debian's libsdl2-2.0-0, which FFmpeg's player already brings), loaded by
// its soname when the first window opens. The player and preview layers' windows are built on it.
//
// Thread ownership: every call but `cvw_wake` is made on one thread, the one that made the first
// window (SDL's video calls belong to one thread); `cvw_wake` may be called from any thread.
#ifndef CVIDEOWINDOW_H
#define CVIDEOWINDOW_H
#include <stddef.h>
#include <stdint.h>

typedef struct cvw_window cvw_window;

/// What happened to a window, from `cvw_next_event`.
typedef enum cvw_event_kind {
    CVW_EVENT_NONE = 0,      ///< nothing before the timeout
    CVW_EVENT_WAKE = 1,      ///< `cvw_wake` was called
    CVW_EVENT_CLOSE = 2,     ///< the window's close button, or the session ending
    CVW_EVENT_RESIZE = 3,    ///< the window's drawable size changed to `width` x `height`
    CVW_EVENT_KEY = 4,       ///< a key went down: `key` is SDL's key code (a character's code, or an arrow's)
    CVW_EVENT_CLICK = 5,     ///< a mouse button went down at `x`, `y` in the window's pixels
    CVW_EVENT_EXPOSE = 6,    ///< the window needs its picture drawn again
} cvw_event_kind;

/// Key codes of the keys a player window answers besides characters.
enum { CVW_KEY_RIGHT = 0x4000004F, CVW_KEY_LEFT = 0x40000050, CVW_KEY_DOWN = 0x40000051, CVW_KEY_UP = 0x40000052, CVW_KEY_ESCAPE = 27 };

typedef struct cvw_event {
    cvw_event_kind kind;
    uint32_t window;         ///< the window's identifier (`cvw_window_id`)
    int width, height;       ///< CVW_EVENT_RESIZE
    int32_t key;             ///< CVW_EVENT_KEY
    int x, y;                ///< CVW_EVENT_CLICK
} cvw_event;

/// Opens a resizable window of `width` x `height` at `x`, `y` (negative: where the desktop puts it)
/// titled `title`; NULL when there is no display or SDL is missing, with why in `problem`.
cvw_window *cvw_open(const char *title, int width, int height, int x, int y, char *problem, size_t problem_size);
/// The size of the first screen's area that windows may take (without the desktop's panels), into
/// `*width` and `*height`; 0, or -1 when there is no display (with why in `problem`).
int cvw_usable_screen_size(int *width, int *height, char *problem, size_t problem_size);
/// The name of SDL's renderer that draws the window ("opengl", "opengles2", "software", ...).
const char *cvw_renderer_name(cvw_window *window);
/// The window's identifier, as events carry it.
uint32_t cvw_window_id(const cvw_window *window);
/// The window's drawable size in pixels.
void cvw_drawable_size(cvw_window *window, int *width, int *height);
/// Draws a picture (`width` x `height` B, G, R, A, rows `stride` bytes apart) centred in the window
/// over black, scaled down to fit when larger, and shows it; 0, or -1 when SDL refused.
int cvw_present_bgra(cvw_window *window, const uint8_t *pixels, int stride, int width, int height);
/// Sets what is drawn over every picture from now on: `width` x `height` premultiplied B, G, R, A
/// (transparent where the picture shows through), rows `stride` bytes apart, placed at the window's
/// top left; NULL `pixels` draws nothing over the pictures. 0, or -1 when SDL refused.
int cvw_set_overlay(cvw_window *window, const uint8_t *pixels, int stride, int width, int height);
/// Shows the last picture again (after an expose, or with a new overlay), or black before the first.
int cvw_present_again(cvw_window *window);
/// Sets the window's title.
void cvw_set_title(cvw_window *window, const char *title);
/// Makes the window fill the screen, or gives it back its size.
void cvw_set_fullscreen(cvw_window *window, int on);
/// Whether the window fills the screen.
int cvw_is_fullscreen(const cvw_window *window);
/// Waits up to `timeout_ms` for the next event of any window into `*event`; 1 when there was one, 0 when not.
int cvw_next_event(cvw_event *event, int timeout_ms);
/// Wakes the thread waiting in `cvw_next_event` (a picture is waiting); from any thread.
void cvw_wake(void);
/// Closes a window.
void cvw_close(cvw_window *window);
#endif
