// libxcb, libxcb-shm and libxcb-xfixes, loaded by their sonames and called through pointers:
// their headers give the types, and no symbol of theirs is linked.
#include "CScreenCapture.h"

#include "CLibraryLoading.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>
#include <xcb/xfixes.h>

#define CSC_XCB(F)                                                                                                          \
    F(xcb_connect) F(xcb_connection_has_error) F(xcb_disconnect) F(xcb_get_setup) F(xcb_setup_roots_iterator) F(xcb_generate_id) \
    F(xcb_request_check) F(xcb_query_pointer) F(xcb_query_pointer_reply) F(xcb_get_extension_data)
#define CSC_SHM(F) F(xcb_shm_id) F(xcb_shm_attach_checked) F(xcb_shm_detach) F(xcb_shm_get_image) F(xcb_shm_get_image_reply)
#define CSC_XFIXES(F)                                                                                                       \
    F(xcb_xfixes_id) F(xcb_xfixes_query_version) F(xcb_xfixes_query_version_reply) F(xcb_xfixes_get_cursor_image)           \
    F(xcb_xfixes_get_cursor_image_reply) F(xcb_xfixes_get_cursor_image_cursor_image)

static struct {
#define CSC_POINTER(name) __typeof__(name) *name;
    CSC_XCB(CSC_POINTER) CSC_SHM(CSC_POINTER) CSC_XFIXES(CSC_POINTER)
#undef CSC_POINTER
} x;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_problem[512];
static int loaded, has_xfixes;

static void load(void) {
    void *xcb = cll_open("libxcb.so.1", "libxcb1", load_problem, sizeof load_problem);
    void *shm = xcb ? cll_open("libxcb-shm.so.0", "libxcb-shm0", load_problem, sizeof load_problem) : NULL;
    if (!shm) return;
#define CSC_FIND_XCB(name) if (!cll_find(xcb, #name, (void **)&x.name, load_problem, sizeof load_problem)) return;
#define CSC_FIND_SHM(name) if (!cll_find(shm, #name, (void **)&x.name, load_problem, sizeof load_problem)) return;
    CSC_XCB(CSC_FIND_XCB)
    CSC_SHM(CSC_FIND_SHM)
    loaded = 1;
    // The cursor's picture is optional: without libxcb-xfixes the pictures have no cursor.
    char ignored[256];
    void *xfixes = cll_open("libxcb-xfixes.so.0", "libxcb-xfixes0", ignored, sizeof ignored);
    has_xfixes = xfixes != NULL;
#define CSC_FIND_XFIXES(name) if (has_xfixes && !cll_find(xfixes, #name, (void **)&x.name, ignored, sizeof ignored)) has_xfixes = 0;
    CSC_XFIXES(CSC_FIND_XFIXES)
}

struct csc_display {
    xcb_connection_t *connection;
    xcb_window_t root;
    int width, height;
    int xfixes;
    xcb_xfixes_get_cursor_image_reply_t *cursor;
};

csc_display *csc_open(const char *name, char *problem, size_t size) {
    pthread_once(&once, load);
    if (!loaded) {
        snprintf(problem, size, "%s", load_problem);
        return NULL;
    }
    csc_display *display = calloc(1, sizeof *display);
    if (!display) {
        snprintf(problem, size, "out of memory");
        return NULL;
    }
    int screen_number = 0;
    display->connection = x.xcb_connect(name, &screen_number);
    if (!display->connection || x.xcb_connection_has_error(display->connection)) {
        snprintf(problem, size, "the X11 display %s cannot be reached", name ? name : "named by $DISPLAY");
        csc_close(display);
        return NULL;
    }
    xcb_screen_iterator_t screens = x.xcb_setup_roots_iterator(x.xcb_get_setup(display->connection));
    for (int i = 0; i < screen_number && screens.rem > 0; i++) {
        screens.data++;
        screens.rem--;
    }
    if (screens.rem <= 0 || (screens.data->root_depth != 24 && screens.data->root_depth != 32)) {
        snprintf(problem, size, "the X11 display's screen is not 24- or 32-bit colour");
        csc_close(display);
        return NULL;
    }
    display->root = screens.data->root;
    display->width = screens.data->width_in_pixels;
    display->height = screens.data->height_in_pixels;
    const xcb_query_extension_reply_t *extension = x.xcb_get_extension_data(display->connection, x.xcb_shm_id);
    if (!extension || !extension->present) {
        snprintf(problem, size, "the X11 display has no shared memory extension (MIT-SHM)");
        csc_close(display);
        return NULL;
    }
    // A small segment shared and given back, to learn that the server can share memory with this
    // process (it cannot across machines).
    uint32_t test_segment = 0;
    void *test_memory = csc_segment_create(display, 4096, &test_segment, problem, size);
    if (!test_memory) {
        csc_close(display);
        return NULL;
    }
    csc_segment_detach(display, test_segment);
    csc_segment_unmap(test_memory);
    if (has_xfixes) {
        const xcb_query_extension_reply_t *fixes = x.xcb_get_extension_data(display->connection, x.xcb_xfixes_id);
        xcb_xfixes_query_version_reply_t *version =
            fixes && fixes->present ? x.xcb_xfixes_query_version_reply(display->connection, x.xcb_xfixes_query_version(display->connection, 4, 0), NULL) : NULL;
        display->xfixes = version != NULL;
        free(version);
    }
    return display;
}

void csc_close(csc_display *display) {
    if (!display) return;
    free(display->cursor);
    if (display->connection) x.xcb_disconnect(display->connection);
    free(display);
}

void csc_size(const csc_display *display, int *width, int *height) {
    *width = display->width;
    *height = display->height;
}

/// Makes the X byte of B, G, R, X pixels opaque alpha, in place (a vector loop).
static void make_opaque(uint32_t *pixels, size_t count) {
    for (size_t index = 0; index < count; index++) pixels[index] |= 0xFF000000u;
}

void *csc_segment_create(csc_display *display, size_t bytes, uint32_t *segment, char *problem, size_t size) {
    int identifier = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0600);
    void *memory = identifier >= 0 ? shmat(identifier, NULL, 0) : (void *)-1;
    if (memory == (void *)-1) {
        if (identifier >= 0) shmctl(identifier, IPC_RMID, NULL);
        snprintf(problem, size, "no shared memory for the screen's frames");
        return NULL;
    }
    xcb_shm_seg_t made = x.xcb_generate_id(display->connection);
    xcb_generic_error_t *error = x.xcb_request_check(display->connection, x.xcb_shm_attach_checked(display->connection, made, identifier, 0));
    shmctl(identifier, IPC_RMID, NULL);
    if (error) {
        free(error);
        shmdt(memory);
        snprintf(problem, size, "the X11 server cannot share memory with this process");
        return NULL;
    }
    *segment = made;
    return memory;
}

void csc_segment_detach(csc_display *display, uint32_t segment) { x.xcb_shm_detach(display->connection, segment); }

void csc_segment_unmap(void *memory) { shmdt(memory); }

int csc_grab_into_segment(csc_display *display, uint32_t segment, void *memory, int left, int top, int width, int height) {
    if (left < 0 || top < 0 || width <= 0 || height <= 0 || left + width > display->width || top + height > display->height) return -1;
    xcb_generic_error_t *error = NULL;
    xcb_shm_get_image_reply_t *reply = x.xcb_shm_get_image_reply(
        display->connection,
        x.xcb_shm_get_image(display->connection, display->root, (int16_t)left, (int16_t)top, (uint16_t)width, (uint16_t)height, ~0u,
                            XCB_IMAGE_FORMAT_Z_PIXMAP, segment, 0),
        &error);
    if (!reply) {
        free(error);
        return -1;
    }
    free(reply);
    make_opaque(memory, (size_t)width * (size_t)height);
    return 0;
}

int csc_pointer(csc_display *display, int *px, int *py, int *pressed) {
    xcb_query_pointer_reply_t *reply = x.xcb_query_pointer_reply(display->connection, x.xcb_query_pointer(display->connection, display->root), NULL);
    if (!reply) return -1;
    *px = reply->root_x;
    *py = reply->root_y;
    *pressed = (reply->mask & (XCB_BUTTON_MASK_1 | XCB_BUTTON_MASK_2 | XCB_BUTTON_MASK_3)) != 0;
    free(reply);
    return 0;
}

const uint32_t *csc_cursor(csc_display *display, int *width, int *height, int *cx, int *cy) {
    if (!display->xfixes) return NULL;
    free(display->cursor);
    display->cursor = x.xcb_xfixes_get_cursor_image_reply(display->connection, x.xcb_xfixes_get_cursor_image(display->connection), NULL);
    if (!display->cursor || display->cursor->width == 0 || display->cursor->height == 0) return NULL;
    *width = display->cursor->width;
    *height = display->cursor->height;
    *cx = display->cursor->x - display->cursor->xhot;
    *cy = display->cursor->y - display->cursor->yhot;
    return x.xcb_xfixes_get_cursor_image_cursor_image(display->cursor);
}
