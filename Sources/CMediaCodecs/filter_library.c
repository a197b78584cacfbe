// Loads libavfilter: see filter_library.h.
#include "filter_library.h"
#include "CMediaCodecs.h"
#include "ffmpeg_library.h"
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

struct cmc_filter_library fl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int status;
static char problem[512];

static void load(void) {
    if ((status = cmc_ffmpeg_load()) < 0) {
        snprintf(problem, sizeof problem, "%s", cmc_media_library_problem());
        return;
    }
    const char *soname = "libavfilter.so." AV_STRINGIFY(LIBAVFILTER_VERSION_MAJOR);
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(problem, sizeof problem, "FFmpeg's filters could not be loaded: %s (Debian's libavfilter)", dlerror());
        status = AVERROR(ENOSYS);
        return;
    }
    void *util = dlopen("libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
    #define FIND(field, from, name)                                                                                  \
    if (!(*(void **)&fl.field = dlsym(from, name))) {                                                            \
        snprintf(problem, sizeof problem, "FFmpeg's filters have no %s: not the version this was built for", name); \
        status = AVERROR(ENOSYS);                                                                                \
        return;                                                                                                  \
    }
    FIND(graph_alloc, library, "avfilter_graph_alloc")
    FIND(graph_free, library, "avfilter_graph_free")
    FIND(graph_create_filter, library, "avfilter_graph_create_filter")
    FIND(get_by_name, library, "avfilter_get_by_name")
    FIND(graph_parse_ptr, library, "avfilter_graph_parse_ptr")
    FIND(graph_config, library, "avfilter_graph_config")
    FIND(inout_alloc, library, "avfilter_inout_alloc")
    FIND(inout_free, library, "avfilter_inout_free")
    FIND(buffersrc_add_frame_flags, library, "av_buffersrc_add_frame_flags")
    FIND(buffersink_get_frame, library, "av_buffersink_get_frame")
    FIND(strdup, util ? util : library, "av_strdup")
#undef FIND
}

int cmc_filter_library_load(void) {
    pthread_once(&once, load);
    return status;
}

const char *cmc_filter_library_problem(void) { return cmc_filter_library_load() < 0 ? problem : NULL; }

int cmc_filter_graph_join(AVFilterGraph *graph, AVFilterContext *source, AVFilterContext *sink, const char *description) {
    AVFilterInOut *outputs = fl.inout_alloc(), *inputs = fl.inout_alloc();
    int err = AVERROR(ENOMEM);
    if (!outputs || !inputs) goto done;
    outputs->name = fl.strdup("in");
    outputs->filter_ctx = source;
    outputs->pad_idx = 0;
    outputs->next = NULL;
    inputs->name = fl.strdup("final");
    inputs->filter_ctx = sink;
    inputs->pad_idx = 0;
    inputs->next = NULL;
    if ((err = fl.graph_parse_ptr(graph, description, &inputs, &outputs, NULL)) < 0) goto done;
    err = fl.graph_config(graph, NULL);
done:
    fl.inout_free(&inputs);
    fl.inout_free(&outputs);
    return err;
}
