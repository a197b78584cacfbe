// Finds FFmpeg's functions in its libraries, by their sonames, the first time a movie is touched.
#define CMC_FFMPEG_LOADING
#include "ffmpeg_library.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

struct cmc_ffmpeg_functions cmc_ffmpeg;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int status;
static char problem[512];

#define CMC_STRING(x) #x
#define CMC_SONAME(name, major) "lib" name ".so." CMC_STRING(major)

static void load(void) {
    // The sonames of the versions the shims were compiled against.
    static const char *const sonames[] = {
        CMC_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR), CMC_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR),
        CMC_SONAME("swscale", LIBSWSCALE_VERSION_MAJOR), CMC_SONAME("swresample", LIBSWRESAMPLE_VERSION_MAJOR),
        CMC_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR),
    };
    enum { count = sizeof sonames / sizeof *sonames };
    void *handles[count];
    for (int index = 0; index < count; ++index) {
        handles[index] = dlopen(sonames[index], RTLD_NOW | RTLD_LOCAL);
        if (!handles[index]) {
            snprintf(problem, sizeof problem, "FFmpeg could not be loaded: %s (Debian's libavformat, libavcodec, libswscale and libswresample)", dlerror());
            status = AVERROR(ENOSYS);
            return;
        }
    }
#define CMC_FIND(name)                                                                                     \
    for (int index = 0; index < count && !cmc_ffmpeg.name; ++index) {                                      \
        *(void **)&cmc_ffmpeg.name = dlsym(handles[index], #name);                                         \
    }                                                                                                      \
    if (!cmc_ffmpeg.name) {                                                                                \
        snprintf(problem, sizeof problem, "FFmpeg's libraries have no %s: not the version this was built for", #name); \
        status = AVERROR(ENOSYS);                                                                          \
        return;                                                                                            \
    }
    CMC_FFMPEG_FUNCTIONS(CMC_FIND)
#undef CMC_FIND
    cmc_ffmpeg_take_log();
}

int cmc_ffmpeg_load(void) {
    pthread_once(&once, load);
    return status;
}

const char *cmc_media_library_problem(void) {
    return cmc_ffmpeg_load() == 0 ? NULL : problem;
}
