// A window that shows pictures, through SDL 2 found at run time: see CVideoWindow.h.
#include "CVideoWindow.h"
#include "CLibraryLoading.h"
#include "sdl2_abi.h"
#include "wayland_seat.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// SDL's functions, found once.
static struct {
#define CVW_POINTER(result, name, parameters) result(*name) parameters;
    CVW_SDL_FUNCTIONS(CVW_POINTER)
#undef CVW_POINTER
} sdl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_problem[256];
static int loaded;    // SDL's functions were found
static int started;   // SDL's video is initialised (on the window thread, while a window is open)
// Held while a wake-up is pushed and while a window is destroyed. SDL 2 wakes its waiting event
// loop by sending an X event to the window it waits on, and forgets that window only after
// destroying it: a wake-up from another thread in between is sent to a window that no longer
// exists, and Xlib's default error handler ends the process (BadWindow in X_SendEvent).
static pthread_mutex_t wake_lock = PTHREAD_MUTEX_INITIALIZER;

static void load(void) {
    void *library = cll_open("libSDL2-2.0.so.0", "libsdl2-2.0-0", load_problem, sizeof load_problem);
    if (!library) return;
#define CVW_FIND(result, name, parameters) \
    if (!cll_find(library, #name, (void **)&sdl.name, load_problem, sizeof load_problem)) return;
    CVW_SDL_FUNCTIONS(CVW_FIND)
#undef CVW_FIND
    __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

struct cvw_window {
    SDL_Window *window;
    SDL_Renderer *renderer;
    SDL_Texture *texture;
    int texture_width, texture_height;
    int picture_width, picture_height;   // the last picture shown; 0 before the first
    SDL_Texture *overlay;                // drawn over the picture, blended; NULL for none
    int overlay_width, overlay_height;   // the texture's size
    int overlay_shown_width, overlay_shown_height;  // the part of it that holds the overlay; 0 for none
    uint32_t identifier;
    int fullscreen;
};

enum { MAXIMUM_WINDOWS = 16 };
/// The open windows, to find a window's renderer from an event's identifier (the window thread's alone).
static cvw_window *windows[MAXIMUM_WINDOWS];

static cvw_window *window_with_id(uint32_t identifier) {
    for (int index = 0; index < MAXIMUM_WINDOWS; index++) {
        if (windows[index] && windows[index]->identifier == identifier) return windows[index];
    }
    return NULL;
}

/// Whether a renderer draws through OpenGL that the CPU rasterises (Mesa's llvmpipe or softpipe,
/// as on a machine without a GPU or on Xvfb): SDL's own software renderer is several times cheaper then.
static int is_rasterised_by_the_cpu(SDL_Renderer *renderer) {
    SDL_RendererInfo info;
    if (sdl.SDL_GetRendererInfo(renderer, &info) != 0 || !info.name || strncmp(info.name, "opengl", 6) != 0) return 0;
    typedef const unsigned char *(*get_string)(unsigned int name);
    get_string gl_get_string = (get_string)sdl.SDL_GL_GetProcAddress("glGetString");
    const char *renderer_name = gl_get_string ? (const char *)gl_get_string(0x1F01 /* GL_RENDERER */) : NULL;
    return renderer_name && (strstr(renderer_name, "llvmpipe") || strstr(renderer_name, "softpipe") || strstr(renderer_name, "Software"));
}

/// Whether SDL will open its window on Wayland: when told to, or when only a Wayland display is
/// named (SDL 2 tries X11 first otherwise).
static int uses_wayland(const char *x11, const char *wayland) {
    const char *driver = getenv("SDL_VIDEODRIVER");
    if (driver && *driver) return strstr(driver, "wayland") == driver;
    return (!x11 || !*x11) && wayland && *wayland;
}

/// Loads SDL and opens the display when no window has; 0, or -1 with why in `problem`.
static int start(char *problem, size_t problem_size) {
    const char *x11 = getenv("DISPLAY"), *wayland = getenv("WAYLAND_DISPLAY");
    if ((!x11 || !*x11) && (!wayland || !*wayland)) {
        snprintf(problem, problem_size, "no display: neither DISPLAY nor WAYLAND_DISPLAY is set");
        return -1;
    }
    pthread_once(&once, load);
    if (!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) {
        snprintf(problem, problem_size, "%s", load_problem);
        return -1;
    }
    if (!started && uses_wayland(x11, wayland)) {
        // SDL 2 crashes on a compositor without a seat (a headless one with no input devices):
        // such a compositor is refused here, and the program goes on without a window.
        char why[200] = "";
        int seat = cvw_wayland_has_seat(5, why, sizeof why);
        if (seat <= 0) {
            snprintf(problem, problem_size, "the display cannot be opened: %s",
                     seat == 0 ? "the Wayland compositor offers no seat (no input devices), and SDL 2 cannot open a window there" : why);
            return -1;
        }
    }
    if (!started) {
        // The program's own Ctrl-C handling stays; SDL would turn the signal into a quit event.
        sdl.SDL_SetHint("SDL_NO_SIGNAL_HANDLERS", "1");
        if (sdl.SDL_Init(SDL_INIT_VIDEO) != 0) {
            snprintf(problem, problem_size, "the display cannot be opened: %s", sdl.SDL_GetError());
            return -1;
        }
        __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
    }
    return 0;
}

/// Lets go of the display when no window holds it.
static void stop_when_unused(void) {
    for (int index = 0; index < MAXIMUM_WINDOWS; index++) {
        if (windows[index]) return;
    }
    // The next window opens on the display the environment names then (and a display that goes
    // away takes nothing with it).
    __atomic_store_n(&started, 0, __ATOMIC_RELEASE);
    sdl.SDL_QuitSubSystem(SDL_INIT_VIDEO);
}

int cvw_usable_screen_size(int *width, int *height, char *problem, size_t problem_size) {
    if (start(problem, problem_size) != 0) return -1;
    SDL_Rect area = {0, 0, 0, 0};
    int result = sdl.SDL_GetDisplayUsableBounds(0, &area);
    if (result != 0) snprintf(problem, problem_size, "the screen's size is not known: %s", sdl.SDL_GetError());
    *width = area.w;
    *height = area.h;
    stop_when_unused();
    return result == 0 ? 0 : -1;
}

cvw_window *cvw_open(const char *title, int width, int height, int x, int y, char *problem, size_t problem_size) {
    if (width <= 0 || height <= 0 || width > 16384 || height > 16384) {
        snprintf(problem, problem_size, "a window of %d x %d pixels cannot be made", width, height);
        return NULL;
    }
    if (start(problem, problem_size) != 0) return NULL;
    int slot = -1;
    for (int index = 0; index < MAXIMUM_WINDOWS && slot < 0; index++) {
        if (!windows[index]) slot = index;
    }
    cvw_window *made = slot >= 0 ? calloc(1, sizeof *made) : NULL;
    if (!made) {
        snprintf(problem, problem_size, slot < 0 ? "more than %d windows are open" : "out of memory", MAXIMUM_WINDOWS);
        stop_when_unused();
        return NULL;
    }
    made->window = sdl.SDL_CreateWindow(title ? title : "", x < 0 ? SDL_WINDOWPOS_UNDEFINED : x, y < 0 ? SDL_WINDOWPOS_UNDEFINED : y, width, height,
                                        SDL_WINDOW_SHOWN | SDL_WINDOW_RESIZABLE);
    if (made->window) {
        // Synchronised with the display where it can be (no tearing); drawn by the CPU where there is no GPU.
        made->renderer = sdl.SDL_CreateRenderer(made->window, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
        if (made->renderer && is_rasterised_by_the_cpu(made->renderer)) {
            sdl.SDL_DestroyRenderer(made->renderer);
            made->renderer = NULL;
            // The window's own surface, put on the screen with XShm, rather than one SDL would
            // present through the same CPU-rasterised OpenGL.
            sdl.SDL_SetHint("SDL_FRAMEBUFFER_ACCELERATION", "0");
        }
        if (!made->renderer) made->renderer = sdl.SDL_CreateRenderer(made->window, -1, SDL_RENDERER_SOFTWARE);
        if (!made->renderer) made->renderer = sdl.SDL_CreateRenderer(made->window, -1, 0);
    }
    if (!made->window || !made->renderer) {
        snprintf(problem, problem_size, "the window cannot be made: %s", sdl.SDL_GetError());
        if (made->window) sdl.SDL_DestroyWindow(made->window);
        free(made);
        stop_when_unused();
        return NULL;
    }
    made->identifier = sdl.SDL_GetWindowID(made->window);
    windows[slot] = made;
    cvw_present_again(made);
    return made;
}

uint32_t cvw_window_id(const cvw_window *window) { return window->identifier; }

const char *cvw_renderer_name(cvw_window *window) {
    SDL_RendererInfo info;
    return sdl.SDL_GetRendererInfo(window->renderer, &info) == 0 && info.name ? info.name : "";
}

void cvw_drawable_size(cvw_window *window, int *width, int *height) {
    if (sdl.SDL_GetRendererOutputSize(window->renderer, width, height) != 0) *width = *height = 0;
}

/// Clears the window to black and draws the texture's picture centred, scaled down to fit when larger.
static int draw(cvw_window *window) {
    sdl.SDL_SetRenderDrawColor(window->renderer, 0, 0, 0, 255);
    sdl.SDL_RenderClear(window->renderer);
    int result = 0;
    if (window->texture && window->picture_width > 0) {
        int width = 0, height = 0;
        cvw_drawable_size(window, &width, &height);
        double scale = 1;
        if (window->picture_width > width || window->picture_height > height) {
            double across = (double)width / window->picture_width, down = (double)height / window->picture_height;
            scale = across < down ? across : down;
        }
        SDL_Rect source = {0, 0, window->picture_width, window->picture_height};
        int shown_width = (int)(window->picture_width * scale + 0.5), shown_height = (int)(window->picture_height * scale + 0.5);
        SDL_Rect target = {(width - shown_width) / 2, (height - shown_height) / 2, shown_width, shown_height};
        result = sdl.SDL_RenderCopy(window->renderer, window->texture, &source, &target) == 0 ? 0 : -1;
    }
    if (window->overlay && window->overlay_shown_width > 0) {
        SDL_Rect area = {0, 0, window->overlay_shown_width, window->overlay_shown_height};
        if (sdl.SDL_RenderCopy(window->renderer, window->overlay, &area, &area) != 0) result = -1;
    }
    sdl.SDL_RenderPresent(window->renderer);
    return result;
}

int cvw_present_bgra(cvw_window *window, const uint8_t *pixels, int stride, int width, int height) {
    if (!pixels || width <= 0 || height <= 0 || stride < width * 4) return -1;
    if (!window->texture || width > window->texture_width || height > window->texture_height) {
        // Made again only when a larger picture comes: a smaller one is drawn from the texture's corner.
        if (window->texture) sdl.SDL_DestroyTexture(window->texture);
        window->texture = sdl.SDL_CreateTexture(window->renderer, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING, width, height);
        window->texture_width = window->texture ? width : 0;
        window->texture_height = window->texture ? height : 0;
        if (!window->texture) return -1;
    }
    SDL_Rect area = {0, 0, width, height};
    if (sdl.SDL_UpdateTexture(window->texture, &area, pixels, stride) != 0) return -1;
    window->picture_width = width;
    window->picture_height = height;
    return draw(window);
}

int cvw_present_again(cvw_window *window) { return draw(window); }

int cvw_set_overlay(cvw_window *window, const uint8_t *pixels, int stride, int width, int height) {
    if (!pixels) {
        window->overlay_shown_width = window->overlay_shown_height = 0;
        return 0;
    }
    if (width <= 0 || height <= 0 || stride < width * 4) return -1;
    if (!window->overlay || width > window->overlay_width || height > window->overlay_height) {
        if (window->overlay) sdl.SDL_DestroyTexture(window->overlay);
        window->overlay = sdl.SDL_CreateTexture(window->renderer, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING, width, height);
        window->overlay_width = window->overlay ? width : 0;
        window->overlay_height = window->overlay ? height : 0;
        window->overlay_shown_width = window->overlay_shown_height = 0;
        if (!window->overlay) return -1;
        sdl.SDL_SetTextureBlendMode(window->overlay, SDL_BLENDMODE_BLEND);
    }
    SDL_Rect area = {0, 0, width, height};
    if (sdl.SDL_UpdateTexture(window->overlay, &area, pixels, stride) != 0) return -1;
    window->overlay_shown_width = width;
    window->overlay_shown_height = height;
    return 0;
}

void cvw_set_title(cvw_window *window, const char *title) { sdl.SDL_SetWindowTitle(window->window, title ? title : ""); }

void cvw_set_fullscreen(cvw_window *window, int on) {
    if (sdl.SDL_SetWindowFullscreen(window->window, on ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0) == 0) window->fullscreen = on != 0;
}

int cvw_is_fullscreen(const cvw_window *window) { return window->fullscreen; }

int cvw_next_event(cvw_event *event, int timeout_ms) {
    memset(event, 0, sizeof *event);
    if (!__atomic_load_n(&started, __ATOMIC_ACQUIRE)) return 0;
    SDL_Event happened;
    if (!sdl.SDL_WaitEventTimeout(&happened, timeout_ms)) return 0;
    switch (happened.type) {
    case SDL_USEREVENT:
        event->kind = CVW_EVENT_WAKE;
        return 1;
    case SDL_QUIT:
        event->kind = CVW_EVENT_CLOSE;
        return 1;
    case SDL_WINDOWEVENT:
        event->window = happened.window.windowID;
        switch (happened.window.event) {
        case SDL_WINDOWEVENT_CLOSE:
            event->kind = CVW_EVENT_CLOSE;
            return 1;
        case SDL_WINDOWEVENT_EXPOSED:
            event->kind = CVW_EVENT_EXPOSE;
            return 1;
        case SDL_WINDOWEVENT_SIZE_CHANGED: {
            cvw_window *window = window_with_id(happened.window.windowID);
            event->kind = CVW_EVENT_RESIZE;
            event->width = happened.window.data1;
            event->height = happened.window.data2;
            if (window) cvw_drawable_size(window, &event->width, &event->height);
            return 1;
        }
        default: return 1;
        }
    case SDL_KEYDOWN:
        event->kind = CVW_EVENT_KEY;
        event->window = happened.key.windowID;
        event->key = happened.key.keysym.sym;
        return 1;
    case SDL_MOUSEBUTTONDOWN:
        event->kind = CVW_EVENT_CLICK;
        event->window = happened.button.windowID;
        event->x = happened.button.x;
        event->y = happened.button.y;
        return 1;
    default: return 1;
    }
}

void cvw_wake(void) {
    if (!__atomic_load_n(&started, __ATOMIC_ACQUIRE)) return;
    SDL_Event wake;
    memset(&wake, 0, sizeof wake);
    wake.type = SDL_USEREVENT;
    pthread_mutex_lock(&wake_lock);
    sdl.SDL_PushEvent(&wake);
    pthread_mutex_unlock(&wake_lock);
}

void cvw_close(cvw_window *window) {
    if (!window) return;
    for (int index = 0; index < MAXIMUM_WINDOWS; index++) {
        if (windows[index] == window) windows[index] = NULL;
    }
    if (window->texture) sdl.SDL_DestroyTexture(window->texture);
    if (window->overlay) sdl.SDL_DestroyTexture(window->overlay);
    sdl.SDL_DestroyRenderer(window->renderer);
    pthread_mutex_lock(&wake_lock);
    sdl.SDL_DestroyWindow(window->window);
    pthread_mutex_unlock(&wake_lock);
    free(window);
    stop_when_unused();
}
