// See CVideoPaintable.h. The GObject type is registered at run time against the GObject and
// GdkPaintable types of the GTK the process has; its instance holds a pointer to the state.
#include "CVideoPaintable.h"
#include "CLibraryLoading.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// GLib's, GDK's and GTK's types, as their headers declare them (GLib 2.74, GTK 4.8).
typedef size_t GType;
typedef struct { GType type; const char *type_name; unsigned class_size; unsigned instance_size; } GTypeQuery;
typedef struct { void (*interface_init)(void *, void *); void (*interface_finalize)(void *, void *); void *interface_data; } GInterfaceInfo;
typedef struct { float x, y, width, height; } graphene_rect_t;
typedef struct { float red, green, blue, alpha; } GdkRGBA;
enum { GDK_MEMORY_B8G8R8A8_PREMULTIPLIED = 0, G_PRIORITY_DEFAULT_IDLE = 200 };
// GdkPaintableInterface: GTypeInterface (two GTypes), then its virtual functions in this order.
typedef struct {
    GType g_type, g_instance_type;
    void (*snapshot)(void *paintable, void *snapshot, double width, double height);
    void *(*get_current_image)(void *paintable);
    int (*get_flags)(void *paintable);
    int (*get_intrinsic_width)(void *paintable);
    int (*get_intrinsic_height)(void *paintable);
    double (*get_intrinsic_aspect_ratio)(void *paintable);
} GdkPaintableInterface;
// GObjectClass up to its finalize: GTypeClass (a GType), the construct properties list, then
// constructor, set_property, get_property, dispose and finalize.
typedef struct {
    GType g_type;
    void *construct_properties;
    void *constructor, *set_property, *get_property, *dispose;
    void (*finalize)(void *object);
} GObjectClassHead;

#define GTK_FUNCTIONS(F)                                                                                                        \
    F(GType, g_object_get_type, (void))                                                                                        \
    F(GType, gdk_paintable_get_type, (void))                                                                                   \
    F(void, g_type_query, (GType, GTypeQuery *))                                                                               \
    F(GType, g_type_register_static_simple, (GType, const char *, unsigned, void (*)(void *, void *), unsigned, void (*)(void *, void *), int)) \
    F(void, g_type_add_interface_static, (GType, GType, const GInterfaceInfo *))                                              \
    F(void *, g_type_class_peek_parent, (void *))                                                                              \
    F(void *, g_object_new, (GType, const char *, ...))                                                                        \
    F(void *, g_object_ref, (void *))                                                                                          \
    F(void, g_object_unref, (void *))                                                                                          \
    F(void *, g_bytes_new_with_free_func, (const void *, size_t, void (*)(void *), void *))                                    \
    F(void, g_bytes_unref, (void *))                                                                                           \
    F(unsigned, g_idle_add_full, (int, int (*)(void *), void *, void (*)(void *)))                                            \
    F(void *, gdk_memory_texture_new, (int, int, int, void *, size_t))                                                         \
    F(void, gdk_paintable_invalidate_contents, (void *))                                                                       \
    F(void, gdk_paintable_invalidate_size, (void *))                                                                           \
    F(void *, gdk_paintable_new_empty, (int, int))                                                                             \
    F(void, gtk_snapshot_append_texture, (void *, void *, const graphene_rect_t *))                                           \
    F(void, gtk_snapshot_append_color, (void *, const GdkRGBA *, const graphene_rect_t *))

static struct {
#define POINTER(result, name, arguments) result(*name) arguments;
    GTK_FUNCTIONS(POINTER)
#undef POINTER
} gtk;

/// A picture offered and not yet taken by GTK.
typedef struct {
    const uint8_t *pixels;
    int width, height;
    size_t stride;
    void *owner;
    void (*release)(void *);
} picture;

struct cvp_paintable {
    pthread_mutex_t lock;
    void *object;         // the GObject; not a reference of the state's own
    picture pending;      // the newest picture offered (pixels NULL when none)
    int taking;           // an idle callback is scheduled to take the pending picture
    void *texture;        // the texture drawn (GTK's main context only)
    int width, height;    // its size (GTK's main context only)
    int texture_is_new;   // drawn since it was made (GTK's main context only)
    uint64_t shown, dropped;
    void (*resized)(void *, int, int);
    void *context;
    void (*release_context)(void *);
    int drawn_width, drawn_height;      // the size GTK last drew at (GTK's main context only)
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *status;
static char problem[512];
static GType paintable_type;
static unsigned state_offset;          // where an instance holds its state pointer
static void (*parent_finalize)(void *);

static cvp_paintable *state_of(void *object) { return *(cvp_paintable **)((char *)object + state_offset); }

static void release_picture(picture *p) {
    if (p->pixels && p->release) p->release(p->owner);
    memset(p, 0, sizeof *p);
}

static void snapshot(void *object, void *snapshot, double width, double height) {
    cvp_paintable *state = state_of(object);
    if (!state) return;
    int w = (int)(width + 0.5), h = (int)(height + 0.5);
    if ((w != state->drawn_width || h != state->drawn_height) && w > 0 && h > 0) {
        state->drawn_width = w;
        state->drawn_height = h;
        // The context lives as long as the GObject.
        if (state->resized) state->resized(state->context, w, h);
    }
    if (!state->texture || state->width <= 0 || state->height <= 0) return;
    graphene_rect_t bounds = { 0, 0, (float)width, (float)height };
    // A layer with aspect-fit gravity draws the picture at its own size and leaves the letterbox to
    // its drawer: the picture is fitted, centred, on black. (Filled and resized pictures come at
    // the size they are drawn at.)
    double scale = width / state->width < height / state->height ? width / state->width : height / state->height;
    graphene_rect_t fitted = { (float)((width - state->width * scale) / 2), (float)((height - state->height * scale) / 2),
                               (float)(state->width * scale), (float)(state->height * scale) };
    if (fitted.width < bounds.width - 0.5f || fitted.height < bounds.height - 0.5f) {
        const GdkRGBA black = { 0, 0, 0, 1 };
        gtk.gtk_snapshot_append_color(snapshot, &black, &bounds);
        bounds = fitted;
    }
    gtk.gtk_snapshot_append_texture(snapshot, state->texture, &bounds);
    if (state->texture_is_new) {
        state->texture_is_new = 0;
        pthread_mutex_lock(&state->lock);
        state->shown++;
        pthread_mutex_unlock(&state->lock);
    }
}

static int flags(void *object) { (void)object; return 0; }

/// The picture drawn now, as a paintable that does not change: its texture (GTK's textures are
/// paintables), or an empty one before the first.
static void *current_image(void *object) {
    cvp_paintable *state = state_of(object);
    if (state && state->texture) return gtk.g_object_ref(state->texture);
    return gtk.gdk_paintable_new_empty(state ? state->width : 0, state ? state->height : 0);
}
static int intrinsic_width(void *object) { cvp_paintable *state = state_of(object); return state ? state->width : 0; }
static int intrinsic_height(void *object) { cvp_paintable *state = state_of(object); return state ? state->height : 0; }
// No aspect ratio of its own: the widget draws the paintable at the size it is given, and the
// layer, whose bounds follow that size, fits the video into it with its gravity.
static double intrinsic_aspect_ratio(void *object) { (void)object; return 0; }

static void interface_init(void *interface, void *data) {
    (void)data;
    GdkPaintableInterface *paintable = interface;
    paintable->snapshot = snapshot;
    paintable->get_current_image = current_image;
    paintable->get_flags = flags;
    paintable->get_intrinsic_width = intrinsic_width;
    paintable->get_intrinsic_height = intrinsic_height;
    paintable->get_intrinsic_aspect_ratio = intrinsic_aspect_ratio;
}

static void finalize(void *object) {
    cvp_paintable *state = state_of(object);
    if (state) {
        release_picture(&state->pending);
        if (state->texture) gtk.g_object_unref(state->texture);
        if (state->release_context) state->release_context(state->context);
        pthread_mutex_destroy(&state->lock);
        free(state);
    }
    if (parent_finalize) parent_finalize(object);
}

static void class_init(void *klass, void *data) {
    (void)data;
    parent_finalize = ((GObjectClassHead *)gtk.g_type_class_peek_parent(klass))->finalize;
    ((GObjectClassHead *)klass)->finalize = finalize;
}

static void load(void) {
    void *library = cll_open("libgtk-4.so.1", "libgtk-4-1", problem, sizeof problem);
    if (!library) {
        status = problem;
        return;
    }
#define FIND(result, name, arguments)                                                             \
    if (!cll_find(library, #name, (void **)&gtk.name, problem, sizeof problem)) {                 \
        status = problem;                                                                         \
        return;                                                                                   \
    }
    GTK_FUNCTIONS(FIND)
#undef FIND
    GType parent = gtk.g_object_get_type();
    GTypeQuery query;
    gtk.g_type_query(parent, &query);
    // The instance is GObject's, then the state pointer, aligned as a pointer.
    state_offset = (query.instance_size + sizeof(void *) - 1) / sizeof(void *) * sizeof(void *);
    paintable_type = gtk.g_type_register_static_simple(parent, "LinuxAVFoundationVideoPaintable", query.class_size, class_init,
                                                       state_offset + sizeof(void *), NULL, 0);
    GInterfaceInfo info = { interface_init, NULL, NULL };
    gtk.g_type_add_interface_static(paintable_type, gtk.gdk_paintable_get_type(), &info);
}

const char *cvp_load(void) {
    pthread_once(&once, load);
    return status;
}

cvp_paintable *cvp_create(void (*resized)(void *, int, int), void *context, void (*release_context)(void *), char *message, size_t size) {
    const char *unavailable = cvp_load();
    if (unavailable) {
        snprintf(message, size, "%s", unavailable);
        return NULL;
    }
    cvp_paintable *state = calloc(1, sizeof *state);
    void *object = state ? gtk.g_object_new(paintable_type, NULL) : NULL;
    if (!object) {
        free(state);
        snprintf(message, size, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&state->lock, NULL);
    state->object = object;
    state->resized = resized;
    state->context = context;
    state->release_context = release_context;
    *(cvp_paintable **)((char *)object + state_offset) = state;
    return state;
}

void *cvp_gobject(cvp_paintable *paintable) { return paintable ? paintable->object : NULL; }

void cvp_release(cvp_paintable *paintable) {
    if (paintable) gtk.g_object_unref(paintable->object);
}

/// Releases a picture's owner when GTK frees the texture's bytes.
typedef struct { void *owner; void (*release)(void *); } bytes_owner;

static void release_bytes(void *data) {
    bytes_owner *owner = data;
    if (owner->release) owner->release(owner->owner);
    free(owner);
}

/// On GTK's main context: the pending picture becomes the texture drawn.
static int take_picture(void *data) {
    void *object = data;
    cvp_paintable *state = state_of(object);
    pthread_mutex_lock(&state->lock);
    picture taken = state->pending;
    memset(&state->pending, 0, sizeof state->pending);
    state->taking = 0;
    pthread_mutex_unlock(&state->lock);
    if (!taken.pixels) return 0;
    bytes_owner *owner = malloc(sizeof *owner);
    void *bytes = NULL, *texture = NULL;
    if (owner) {
        owner->owner = taken.owner;
        owner->release = taken.release;
        bytes = gtk.g_bytes_new_with_free_func(taken.pixels, taken.stride * (size_t)taken.height, release_bytes, owner);
    }
    if (!bytes) {
        free(owner);
        release_picture(&taken);
        return 0;
    }
    texture = gtk.gdk_memory_texture_new(taken.width, taken.height, GDK_MEMORY_B8G8R8A8_PREMULTIPLIED, bytes, taken.stride);
    gtk.g_bytes_unref(bytes);
    if (!texture) return 0;
    if (state->texture) gtk.g_object_unref(state->texture);
    state->texture = texture;
    state->texture_is_new = 1;
    int resized = taken.width != state->width || taken.height != state->height;
    state->width = taken.width;
    state->height = taken.height;
    if (resized) gtk.gdk_paintable_invalidate_size(object);
    gtk.gdk_paintable_invalidate_contents(object);
    return 0;  // G_SOURCE_REMOVE
}

void cvp_offer(cvp_paintable *paintable, const uint8_t *pixels, int width, int height, size_t stride, void *owner,
               void (*release)(void *owner)) {
    if (!paintable || !pixels || width <= 0 || height <= 0) {
        if (release) release(owner);
        return;
    }
    picture dropped = { 0 };
    pthread_mutex_lock(&paintable->lock);
    if (paintable->pending.pixels) {
        dropped = paintable->pending;
        paintable->dropped++;
    }
    paintable->pending = (picture){ pixels, width, height, stride, owner, release };
    int schedule = !paintable->taking;
    paintable->taking = 1;
    pthread_mutex_unlock(&paintable->lock);
    // Outside the lock: releasing the owner may run the client's code.
    release_picture(&dropped);
    // The idle callback holds a reference, so the state outlives it.
    if (schedule) gtk.g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, take_picture, gtk.g_object_ref(paintable->object), gtk.g_object_unref);
}

void cvp_counts(cvp_paintable *paintable, uint64_t *shown, uint64_t *dropped) {
    pthread_mutex_lock(&paintable->lock);
    *shown = paintable->shown;
    *dropped = paintable->dropped;
    pthread_mutex_unlock(&paintable->lock);
}
