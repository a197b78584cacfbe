// See CGtkTestHost.h.
#include "CGtkTestHost.h"
#include <dlfcn.h>
#include <stdio.h>

static struct {
    int (*gtk_init_check)(void);
    void *(*gtk_window_new)(void);
    void *(*gtk_picture_new_for_paintable)(void *);
    void (*gtk_window_set_child)(void *, void *);
    void (*gtk_window_set_default_size)(void *, int, int);
    void (*gtk_widget_set_size_request)(void *, int, int);
    void (*gtk_window_present)(void *);
    void (*gtk_window_destroy)(void *);
    int (*g_main_context_iteration)(void *, int);
    void *(*gdk_paintable_get_current_image)(void *);
    int (*gdk_paintable_get_intrinsic_width)(void *);
    int (*gdk_paintable_get_intrinsic_height)(void *);
    void (*g_object_unref)(void *);
} gtk;

int cgth_start(char *problem, size_t size) {
    void *library = dlopen("libgtk-4.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(problem, size, "libgtk-4.so.1: %s", dlerror());
        return -1;
    }
#define FIND(name)                                                            \
    if (!(*(void **)&gtk.name = dlsym(library, #name))) {                     \
        snprintf(problem, size, "%s is missing from GTK 4", #name);           \
        return -1;                                                            \
    }
    FIND(gtk_init_check) FIND(gtk_window_new) FIND(gtk_picture_new_for_paintable) FIND(gtk_window_set_child)
    FIND(gtk_window_set_default_size) FIND(gtk_widget_set_size_request) FIND(gtk_window_present) FIND(gtk_window_destroy)
    FIND(g_main_context_iteration) FIND(g_object_unref) FIND(gdk_paintable_get_current_image)
    FIND(gdk_paintable_get_intrinsic_width) FIND(gdk_paintable_get_intrinsic_height)
#undef FIND
    if (!gtk.gtk_init_check()) {
        snprintf(problem, size, "gtk_init_check failed: no display GTK can open");
        return -1;
    }
    return 0;
}

void *cgth_window(void *paintable, int width, int height) {
    void *window = gtk.gtk_window_new();
    void *picture = gtk.gtk_picture_new_for_paintable(paintable);
    if (!window || !picture) return NULL;
    gtk.gtk_window_set_child(window, picture);
    gtk.gtk_window_set_default_size(window, width, height);
    gtk.gtk_window_present(window);
    return window;
}

void cgth_resize(void *window, int width, int height) { gtk.gtk_window_set_default_size(window, width, height); }

void cgth_iterate(void) {
    for (int i = 0; i < 100 && gtk.g_main_context_iteration(NULL, 0); i++) {
    }
}

void cgth_current_image_size(void *paintable, int *width, int *height) {
    void *image = gtk.gdk_paintable_get_current_image(paintable);
    *width = image ? gtk.gdk_paintable_get_intrinsic_width(image) : -1;
    *height = image ? gtk.gdk_paintable_get_intrinsic_height(image) : -1;
    if (image) gtk.g_object_unref(image);
}

void cgth_close(void *window) { gtk.gtk_window_destroy(window); }
