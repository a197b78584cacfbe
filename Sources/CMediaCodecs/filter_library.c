// Loads libavfilter: see filter_library.h.
#include "filter_library.h"
#include "CMediaCodecs.h"
#include "ffmpeg_library.h"
#include "CLibraryLoading.h"
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
    void *libraries[2] = {
        cll_open("libavfilter.so." AV_STRINGIFY(LIBAVFILTER_VERSION_MAJOR), "libavfilter" AV_STRINGIFY(LIBAVFILTER_VERSION_MAJOR), problem, sizeof problem),
        NULL,
    };
    if (!libraries[0]) {
        status = AVERROR(ENOSYS);
        return;
    }
    // av_strdup is libavutil's, loaded already with FFmpeg's other libraries.
    char ignored[256];
    libraries[1] = cll_open("libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR), "libavutil" AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR), ignored, sizeof ignored);
    int count = libraries[1] ? 2 : 1;
#define FIND(field, name)                                                                                            \
    if (!cll_find_in(libraries, count, name, (void **)&fl.field, problem, sizeof problem)) {                        \
        status = AVERROR(ENOSYS);                                                                                \
        return;                                                                                                  \
    }
    FIND(graph_alloc, "avfilter_graph_alloc")
    FIND(graph_free, "avfilter_graph_free")
    FIND(graph_create_filter, "avfilter_graph_create_filter")
    FIND(get_by_name, "avfilter_get_by_name")
    FIND(graph_parse_ptr, "avfilter_graph_parse_ptr")
    FIND(graph_config, "avfilter_graph_config")
    FIND(inout_alloc, "avfilter_inout_alloc")
    FIND(inout_free, "avfilter_inout_free")
    FIND(buffersrc_add_frame_flags, "av_buffersrc_add_frame_flags")
    FIND(buffersink_get_frame, "av_buffersink_get_frame")
    FIND(strdup, "av_strdup")
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
