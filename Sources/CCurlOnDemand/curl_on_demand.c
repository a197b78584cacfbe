// libcurl's functions that Foundation's URL loading calls, each loading libcurl.so.4 the first
// time any is called (see CCurlOnDemand.h). Types are libcurl's, by their ABI: handles are
// pointers, its enumerations and sockets ints, CURLcode and CURLMcode ints. The variadic setters
// take one argument after the option: a long, a pointer or a curl_off_t, each one 64-bit word
// passed the same way on the 64-bit targets built here, so it is forwarded as a word.
#define _GNU_SOURCE
#include "CCurlOnDemand.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

_Static_assert(sizeof(long) == 8 && sizeof(void *) == 8, "the setters forward their argument as one 64-bit word");

enum { CURLE_FAILED_INIT = 2, CURLM_INTERNAL_ERROR = 4, CURLUE_OUT_OF_MEMORY = 7 };

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int state;

#define CURL_FUNCTIONS(X)                                                                                                     \
    X(void, curl_easy_cleanup, (void *handle), (handle))                                                                   \
    X(void *, curl_easy_init, (void), ())                                                                                  \
    X(int, curl_easy_pause, (void *handle, int bitmask), (handle, bitmask))                                                \
    X(const char *, curl_easy_strerror, (int code), (code))                                                                \
    X(void, curl_free, (void *pointer), (pointer))                                                                         \
    X(int, curl_global_init, (long flags), (flags))                                                                        \
    X(int, curl_multi_add_handle, (void *multi, void *easy), (multi, easy))                                                \
    X(int, curl_multi_assign, (void *multi, int socket, void *pointer), (multi, socket, pointer))                          \
    X(int, curl_multi_cleanup, (void *multi), (multi))                                                                     \
    X(void *, curl_multi_info_read, (void *multi, int *left), (multi, left))                                               \
    X(void *, curl_multi_init, (void), ())                                                                                 \
    X(int, curl_multi_remove_handle, (void *multi, void *easy), (multi, easy))                                             \
    X(int, curl_multi_socket_action, (void *multi, int socket, int mask, int *running), (multi, socket, mask, running))    \
    X(void *, curl_slist_append, (void *list, const char *string), (list, string))                                         \
    X(void, curl_slist_free_all, (void *list), (list))                                                                     \
    X(void *, curl_url, (void), ())                                                                                        \
    X(int, curl_url_get, (void *url, int part, char **value, unsigned flags), (url, part, value, flags))                   \
    X(int, curl_url_set, (void *url, int part, const char *value, unsigned flags), (url, part, value, flags))              \
    X(char *, curl_version, (void), ())                                                                                    \
    X(void *, curl_version_info, (int age), (age))

#define DECLARE(result, name, parameters, arguments) static result(*real_##name) parameters;
CURL_FUNCTIONS(DECLARE)
int curl_easy_setopt(void *handle, int option, ...);
int curl_easy_getinfo(void *handle, int info, ...);
static int (*real_curl_easy_setopt)(void *, int, ...);
static int (*real_curl_multi_setopt)(void *, int, ...);
static int (*real_curl_easy_getinfo)(void *, int, ...);

static void load(void) {
    // Its own namespace of symbols (RTLD_LOCAL): nothing else in the process binds to it.
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "libcurl.so.4 cannot be loaded, so URLs cannot be loaded: %s (apt-get install libcurl4)\n", dlerror());
        state = -1;
        return;
    }
#define RESOLVE(result, name, parameters, arguments) real_##name = (result(*) parameters)dlsym(library, #name);
    CURL_FUNCTIONS(RESOLVE)
    real_curl_easy_setopt = (int (*)(void *, int, ...))dlsym(library, "curl_easy_setopt");
    real_curl_multi_setopt = (int (*)(void *, int, ...))dlsym(library, "curl_multi_setopt");
    real_curl_easy_getinfo = (int (*)(void *, int, ...))dlsym(library, "curl_easy_getinfo");
    state = 1;
}

static int loaded(void) {
    pthread_once(&once, load);
    return state == 1;
}

int ccod_state(void) { return state; }

// Each function: libcurl's own once loaded; without libcurl, what libcurl answers when it cannot
// start (NULL handles, CURLE_FAILED_INIT, CURLM_INTERNAL_ERROR), so Foundation reports an error.
void curl_easy_cleanup(void *handle) {
    if (loaded() && real_curl_easy_cleanup) real_curl_easy_cleanup(handle);
}
void *curl_easy_init(void) { return loaded() && real_curl_easy_init ? real_curl_easy_init() : NULL; }
int curl_easy_pause(void *handle, int bitmask) {
    return loaded() && real_curl_easy_pause ? real_curl_easy_pause(handle, bitmask) : CURLE_FAILED_INIT;
}
const char *curl_easy_strerror(int code) {
    return loaded() && real_curl_easy_strerror ? real_curl_easy_strerror(code) : "libcurl.so.4 cannot be loaded";
}
void curl_free(void *pointer) {
    if (loaded() && real_curl_free) real_curl_free(pointer);
}
int curl_global_init(long flags) { return loaded() && real_curl_global_init ? real_curl_global_init(flags) : CURLE_FAILED_INIT; }
int curl_multi_add_handle(void *multi, void *easy) {
    return loaded() && real_curl_multi_add_handle ? real_curl_multi_add_handle(multi, easy) : CURLM_INTERNAL_ERROR;
}
int curl_multi_assign(void *multi, int socket, void *pointer) {
    return loaded() && real_curl_multi_assign ? real_curl_multi_assign(multi, socket, pointer) : CURLM_INTERNAL_ERROR;
}
int curl_multi_cleanup(void *multi) { return loaded() && real_curl_multi_cleanup ? real_curl_multi_cleanup(multi) : CURLM_INTERNAL_ERROR; }
void *curl_multi_info_read(void *multi, int *left) {
    if (loaded() && real_curl_multi_info_read) return real_curl_multi_info_read(multi, left);
    if (left) *left = 0;
    return NULL;
}
void *curl_multi_init(void) { return loaded() && real_curl_multi_init ? real_curl_multi_init() : NULL; }
int curl_multi_remove_handle(void *multi, void *easy) {
    return loaded() && real_curl_multi_remove_handle ? real_curl_multi_remove_handle(multi, easy) : CURLM_INTERNAL_ERROR;
}
int curl_multi_socket_action(void *multi, int socket, int mask, int *running) {
    return loaded() && real_curl_multi_socket_action ? real_curl_multi_socket_action(multi, socket, mask, running) : CURLM_INTERNAL_ERROR;
}
void *curl_slist_append(void *list, const char *string) {
    return loaded() && real_curl_slist_append ? real_curl_slist_append(list, string) : NULL;
}
void curl_slist_free_all(void *list) {
    if (loaded() && real_curl_slist_free_all) real_curl_slist_free_all(list);
}
void *curl_url(void) { return loaded() && real_curl_url ? real_curl_url() : NULL; }
int curl_url_get(void *url, int part, char **value, unsigned flags) {
    return loaded() && real_curl_url_get ? real_curl_url_get(url, part, value, flags) : CURLUE_OUT_OF_MEMORY;
}
int curl_url_set(void *url, int part, const char *value, unsigned flags) {
    return loaded() && real_curl_url_set ? real_curl_url_set(url, part, value, flags) : CURLUE_OUT_OF_MEMORY;
}
char *curl_version(void) { return loaded() && real_curl_version ? real_curl_version() : (char *)"libcurl not loaded"; }
void *curl_version_info(int age) { return loaded() && real_curl_version_info ? real_curl_version_info(age) : NULL; }

int curl_easy_setopt(void *handle, int option, ...) {
    va_list list;
    va_start(list, option);
    void *word = va_arg(list, void *);
    va_end(list);
    return loaded() && real_curl_easy_setopt ? real_curl_easy_setopt(handle, option, word) : CURLE_FAILED_INIT;
}
int curl_multi_setopt(void *multi, int option, ...) {
    va_list list;
    va_start(list, option);
    void *word = va_arg(list, void *);
    va_end(list);
    return loaded() && real_curl_multi_setopt ? real_curl_multi_setopt(multi, option, word) : CURLM_INTERNAL_ERROR;
}
int curl_easy_getinfo(void *handle, int info, ...) {
    va_list list;
    va_start(list, info);
    void *word = va_arg(list, void *);
    va_end(list);
    return loaded() && real_curl_easy_getinfo ? real_curl_easy_getinfo(handle, info, word) : CURLE_FAILED_INIT;
}

int ccod_easy_setopt(void *handle, int option, void *word) { return curl_easy_setopt(handle, option, word); }
int ccod_easy_getinfo(void *handle, int info, void *word) { return curl_easy_getinfo(handle, info, word); }
