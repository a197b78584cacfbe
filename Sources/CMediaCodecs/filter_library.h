// libavfilter, loaded by its soname the first time a graph is made, apart from the other FFmpeg
// libraries, so that reading and writing movies never load it (it brings many libraries of its
// own). The audio and video filter graphs call it through these pointers.
#ifndef CMC_FILTER_LIBRARY_H
#define CMC_FILTER_LIBRARY_H

#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>

/// libavfilter's functions, found when it is loaded.
struct cmc_filter_library {
    AVFilterGraph *(*graph_alloc)(void);
    void (*graph_free)(AVFilterGraph **graph);
    int (*graph_create_filter)(AVFilterContext **context, const AVFilter *filter, const char *name, const char *args, void *opaque,
                               AVFilterGraph *graph);
    const AVFilter *(*get_by_name)(const char *name);
    int (*graph_parse_ptr)(AVFilterGraph *graph, const char *filters, AVFilterInOut **inputs, AVFilterInOut **outputs, void *log);
    int (*graph_config)(AVFilterGraph *graph, void *log);
    AVFilterInOut *(*inout_alloc)(void);
    void (*inout_free)(AVFilterInOut **inout);
    int (*buffersrc_add_frame_flags)(AVFilterContext *context, AVFrame *frame, int flags);
    int (*buffersink_get_frame)(AVFilterContext *context, AVFrame *frame);
    char *(*strdup)(const char *text);
};

extern struct cmc_filter_library fl;

/// Loads libavfilter once; 0, or a negative FFmpeg error with `cmc_filter_library_problem` saying why.
int cmc_filter_library_load(void);

/// Why libavfilter could not be loaded.
const char *cmc_filter_library_problem(void);

/// Joins a graph's source (labelled "in" in the description) and sink ("final") through the
/// description, and configures it; 0 or a negative FFmpeg error.
int cmc_filter_graph_join(AVFilterGraph *graph, AVFilterContext *source, AVFilterContext *sink, const char *description);

#endif
