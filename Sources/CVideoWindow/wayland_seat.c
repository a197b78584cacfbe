// Whether a Wayland compositor offers a seat, asked before SDL is: SDL 2 (2.26, Debian 12's)
// crashes in SDL_Init on a compositor without one (a headless or kiosk compositor with no input
// devices), taking the whole process with it. The part of libwayland-client's stable interface
// used here is declared by hand, as libwayland-client documents it, and found at run time, so that
// building needs no Wayland development package.
#include "wayland_seat.h"
#include "CLibraryLoading.h"
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

struct wl_display;
struct wl_proxy;
struct wl_interface;

/// wl_registry's and wl_callback's events, in the order the protocol declares them.
struct registry_listener {
    void (*global)(void *data, struct wl_proxy *registry, uint32_t name, const char *interface, uint32_t version);
    void (*global_remove)(void *data, struct wl_proxy *registry, uint32_t name);
};
struct callback_listener {
    void (*done)(void *data, struct wl_proxy *callback, uint32_t serial);
};

enum { WL_DISPLAY_SYNC = 0, WL_DISPLAY_GET_REGISTRY = 1 };

static struct {
    struct wl_display *(*wl_display_connect)(const char *name);
    void (*wl_display_disconnect)(struct wl_display *display);
    int (*wl_display_get_fd)(struct wl_display *display);
    int (*wl_display_flush)(struct wl_display *display);
    int (*wl_display_dispatch)(struct wl_display *display);
    struct wl_proxy *(*wl_proxy_marshal_constructor)(struct wl_proxy *proxy, uint32_t opcode, const struct wl_interface *interface, ...);
    int (*wl_proxy_add_listener)(struct wl_proxy *proxy, void (**implementation)(void), void *data);
    void (*wl_proxy_destroy)(struct wl_proxy *proxy);
    const struct wl_interface *wl_registry_interface;
    const struct wl_interface *wl_callback_interface;
} wl;

static int load(char *problem, size_t size) {
    void *library = cll_open("libwayland-client.so.0", "libwayland-client0", problem, size);
    if (!library) return -1;
#define FIND(name) \
    if (!cll_find(library, #name, (void **)&wl.name, problem, size)) return -1;
    FIND(wl_display_connect)
    FIND(wl_display_disconnect)
    FIND(wl_display_get_fd)
    FIND(wl_display_flush)
    FIND(wl_display_dispatch)
    FIND(wl_proxy_marshal_constructor)
    FIND(wl_proxy_add_listener)
    FIND(wl_proxy_destroy)
    FIND(wl_registry_interface)
    FIND(wl_callback_interface)
#undef FIND
    return 0;
}

struct answers {
    int seat;   // a wl_seat was announced
    int done;   // every global announced before the sync was
};

static void on_global(void *data, struct wl_proxy *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)registry, (void)name, (void)version;
    if (interface && strcmp(interface, "wl_seat") == 0) ((struct answers *)data)->seat = 1;
}
static void on_global_remove(void *data, struct wl_proxy *registry, uint32_t name) { (void)data, (void)registry, (void)name; }
static void on_done(void *data, struct wl_proxy *callback, uint32_t serial) {
    (void)callback, (void)serial;
    ((struct answers *)data)->done = 1;
}

static double seconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_problem[256];
static int load_result = -1;

static void load_once(void) { load_result = load(load_problem, sizeof load_problem); }

int cvw_wayland_has_seat(double timeout_seconds, char *problem, size_t problem_size) {
    pthread_once(&once, load_once);
    if (load_result != 0) {
        snprintf(problem, problem_size, "%s", load_problem);
        return -1;
    }
    struct wl_display *display = wl.wl_display_connect(NULL);
    if (!display) {
        snprintf(problem, problem_size, "the Wayland compositor cannot be reached");
        return -1;
    }
    struct answers answers = {0, 0};
    static const struct registry_listener registry_events = {on_global, on_global_remove};
    static const struct callback_listener callback_events = {on_done};
    struct wl_proxy *registry = wl.wl_proxy_marshal_constructor(
        (struct wl_proxy *)display, WL_DISPLAY_GET_REGISTRY, wl.wl_registry_interface, NULL);
    struct wl_proxy *sync = wl.wl_proxy_marshal_constructor((struct wl_proxy *)display, WL_DISPLAY_SYNC, wl.wl_callback_interface, NULL);
    int result = -1;
    if (registry && sync) {
        wl.wl_proxy_add_listener(registry, (void (**)(void))&registry_events, &answers);
        wl.wl_proxy_add_listener(sync, (void (**)(void))&callback_events, &answers);
        // A compositor that never answers is given up on: each wait is bounded, and so is the whole.
        double deadline = seconds_now() + timeout_seconds;
        while (!answers.done && wl.wl_display_flush(display) >= 0) {
            double left = deadline - seconds_now();
            if (left <= 0) break;
            struct pollfd ready = {.fd = wl.wl_display_get_fd(display), .events = POLLIN};
            if (poll(&ready, 1, (int)(left * 1000) + 1) <= 0) break;
            if (wl.wl_display_dispatch(display) < 0) break;
        }
        if (answers.done) {
            result = answers.seat ? 1 : 0;
        } else {
            snprintf(problem, problem_size, "the Wayland compositor did not answer within %.0f s", timeout_seconds);
        }
    } else {
        snprintf(problem, problem_size, "the Wayland compositor's registry could not be asked for");
    }
    if (sync) wl.wl_proxy_destroy(sync);
    if (registry) wl.wl_proxy_destroy(registry);
    wl.wl_display_disconnect(display);
    return result;
}
