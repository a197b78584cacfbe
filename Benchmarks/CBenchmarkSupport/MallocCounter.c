// Stand-ins for the C allocator that count calls and forward to glibc's own allocator (and,
// apart, the calls made from the media libraries' code: FFmpeg's, x264's, libyuv's), and for
// pthread's mutex and read-write lock calls that count them on one marked thread.
#define _GNU_SOURCE
#include "CBenchmarkSupport.h"
#include <stddef.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <dlfcn.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

// pthread's own lock functions, found once, the first time each is called.
typedef int (*mutex_function)(pthread_mutex_t *);
typedef int (*rwlock_function)(pthread_rwlock_t *);
static mutex_function real_mutex_lock;
static rwlock_function real_rdlock, real_wrlock;

static uint64_t allocations;
static uint64_t marked_allocations;
static uint64_t marked_locks;
static __thread int marked;

uint64_t avbench_allocation_count(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }
void avbench_mark_current_thread(void) { marked = 1; }
uint64_t avbench_marked_thread_allocation_count(void) { return __atomic_load_n(&marked_allocations, __ATOMIC_RELAXED); }
uint64_t avbench_marked_thread_lock_count(void) { return __atomic_load_n(&marked_locks, __ATOMIC_RELAXED); }

// The code of the FFmpeg, x264 and libyuv libraries loaded, found by
// avbench_find_codec_libraries: an allocation called from inside one of them is the library's own.
enum { max_ranges = 32 };
static uintptr_t range_start[max_ranges], range_end[max_ranges];
static int range_count;
static uint64_t codec_allocations;

static int note_codec_library(struct dl_phdr_info *info, size_t size, void *unused) {
    (void)size;
    (void)unused;
    const char *name = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    name = name ? name + 1 : info->dlpi_name;
    if (!name || !(strncmp(name, "libav", 5) == 0 || strncmp(name, "libsw", 5) == 0 || strncmp(name, "libx264", 7) == 0 ||
                   strncmp(name, "libyuv", 6) == 0))
        return 0;
    for (int index = 0; index < info->dlpi_phnum && range_count < max_ranges; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_LOAD || !(header->p_flags & PF_X)) continue;
        range_start[range_count] = info->dlpi_addr + header->p_vaddr;
        range_end[range_count] = info->dlpi_addr + header->p_vaddr + header->p_memsz;
        __atomic_store_n(&range_count, range_count + 1, __ATOMIC_RELEASE);
    }
    return 0;
}

void avbench_find_codec_libraries(void) {
    if (__atomic_load_n(&range_count, __ATOMIC_ACQUIRE) == 0) dl_iterate_phdr(note_codec_library, NULL);
}
uint64_t avbench_codec_allocation_count(void) { return __atomic_load_n(&codec_allocations, __ATOMIC_RELAXED); }

static inline __attribute__((always_inline)) void count_from(void *caller) {
    __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
    if (marked) __atomic_fetch_add(&marked_allocations, 1, __ATOMIC_RELAXED);
    uintptr_t address = (uintptr_t)caller;
    int ranges = __atomic_load_n(&range_count, __ATOMIC_ACQUIRE);
    for (int index = 0; index < ranges; index++) {
        if (address >= range_start[index] && address < range_end[index]) {
            __atomic_fetch_add(&codec_allocations, 1, __ATOMIC_RELAXED);
            break;
        }
    }
}
#define count() count_from(__builtin_return_address(0))

static inline void count_lock(void) {
    if (marked) __atomic_fetch_add(&marked_locks, 1, __ATOMIC_RELAXED);
}

int pthread_mutex_lock(pthread_mutex_t *mutex) {
    count_lock();
    if (!real_mutex_lock) real_mutex_lock = (mutex_function)dlsym(RTLD_NEXT, "pthread_mutex_lock");
    return real_mutex_lock(mutex);
}
int pthread_rwlock_rdlock(pthread_rwlock_t *lock) {
    count_lock();
    if (!real_rdlock) real_rdlock = (rwlock_function)dlsym(RTLD_NEXT, "pthread_rwlock_rdlock");
    return real_rdlock(lock);
}
int pthread_rwlock_wrlock(pthread_rwlock_t *lock) {
    count_lock();
    if (!real_wrlock) real_wrlock = (rwlock_function)dlsym(RTLD_NEXT, "pthread_rwlock_wrlock");
    return real_wrlock(lock);
}

void *malloc(size_t size) { count(); return __libc_malloc(size); }
void *calloc(size_t count_, size_t size) { count(); return __libc_calloc(count_, size); }
void *realloc(void *pointer, size_t size) { count(); return __libc_realloc(pointer, size); }
void free(void *pointer) { __libc_free(pointer); }
void *memalign(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *out = pointer;
    return 0;
}
