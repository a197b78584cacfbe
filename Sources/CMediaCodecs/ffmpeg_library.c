// Finds FFmpeg's functions in its libraries, by their sonames, the first time a movie is touched.
#define CMC_FFMPEG_LOADING
#include "ffmpeg_library.h"

#include "CLibraryLoading.h"
#include <errno.h>
#include <pthread.h>

struct cmc_ffmpeg_functions cmc_ffmpeg;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int status;
static char problem[512];

#define CMC_STRING(x) #x
#define CMC_SONAME(name, major) "lib" name ".so." CMC_STRING(major)
#define CMC_PACKAGE(name, major) "lib" name CMC_STRING(major)

static void load(void) {
    // The sonames of the versions the shims were compiled against, and Debian's packages of them.
    static const char *const libraries[][2] = {
        { CMC_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR), CMC_PACKAGE("avformat", LIBAVFORMAT_VERSION_MAJOR) },
        { CMC_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR), CMC_PACKAGE("avcodec", LIBAVCODEC_VERSION_MAJOR) },
        { CMC_SONAME("swscale", LIBSWSCALE_VERSION_MAJOR), CMC_PACKAGE("swscale", LIBSWSCALE_VERSION_MAJOR) },
        { CMC_SONAME("swresample", LIBSWRESAMPLE_VERSION_MAJOR), CMC_PACKAGE("swresample", LIBSWRESAMPLE_VERSION_MAJOR) },
        { CMC_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR), CMC_PACKAGE("avutil", LIBAVUTIL_VERSION_MAJOR) },
    };
    enum { count = sizeof libraries / sizeof *libraries };
    void *handles[count];
    for (int index = 0; index < count; ++index) {
        if (!(handles[index] = cll_open(libraries[index][0], libraries[index][1], problem, sizeof problem))) {
            status = AVERROR(ENOSYS);
            return;
        }
    }
#define CMC_FIND(name)                                                                                     \
    if (!cll_find_in(handles, count, #name, (void **)&cmc_ffmpeg.name, problem, sizeof problem)) {         \
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
