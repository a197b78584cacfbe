// Tells ThreadSanitizer when a contended Synchronization Mutex changes hands.
//
// Swift's Mutex takes and gives back a free lock with atomics compiled into the caller, which the
// sanitizer sees. A contended lock goes through _MutexHandle._lockSlow and _unlockSlow in
// libswiftSynchronization, which is not instrumented: the lock is spun for there and handed over
// by the kernel (futex priority inheritance). The sanitizer then sees no ordering between the
// thread that gave the lock back and the one that took it, and reports the data the lock guards.
// Preloaded into the sanitizer's test runs (scripts/tsan.sh), these definitions stand in front of
// the library's: each calls the library's own function and marks a release on the lock word before
// the lock is given back, and an acquire once it is taken.
//
// The lock word's address is the method's self, passed in Swift's context register (r13 on x86-64,
// x20 on ARM64), which clang's swift_context parameter names.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

// Present when the process carries the sanitizer's runtime; a process without it runs unchanged.
extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

typedef __attribute__((swiftcall)) void lock_slow_fn(uint32_t owner, void *__attribute__((swift_context)) word);
typedef __attribute__((swiftcall)) bool try_lock_slow_fn(void *__attribute__((swift_context)) word);
typedef __attribute__((swiftcall)) void unlock_slow_fn(void *__attribute__((swift_context)) word);

static void *library_function(const char *name) {
    void *function = dlsym(RTLD_NEXT, name);
    if (function == NULL) {
        fprintf(stderr, "mutex-handoff: %s is not in libswiftSynchronization: %s\n", name, dlerror());
        abort();
    }
    return function;
}

__attribute__((swiftcall)) void lock_slow(uint32_t owner, void *__attribute__((swift_context)) word) __asm__(LOCK_SLOW);
__attribute__((swiftcall)) void lock_slow(uint32_t owner, void *__attribute__((swift_context)) word) {
    static lock_slow_fn *library;
    if (__atomic_load_n(&library, __ATOMIC_ACQUIRE) == NULL) __atomic_store_n(&library, library_function(LOCK_SLOW), __ATOMIC_RELEASE);
    library(owner, word);
    if (__tsan_acquire) __tsan_acquire(word);
}

__attribute__((swiftcall)) bool try_lock_slow(void *__attribute__((swift_context)) word) __asm__(TRY_LOCK_SLOW);
__attribute__((swiftcall)) bool try_lock_slow(void *__attribute__((swift_context)) word) {
    static try_lock_slow_fn *library;
    if (__atomic_load_n(&library, __ATOMIC_ACQUIRE) == NULL) __atomic_store_n(&library, library_function(TRY_LOCK_SLOW), __ATOMIC_RELEASE);
    bool taken = library(word);
    if (taken && __tsan_acquire) __tsan_acquire(word);
    return taken;
}

__attribute__((swiftcall)) void unlock_slow(void *__attribute__((swift_context)) word) __asm__(UNLOCK_SLOW);
__attribute__((swiftcall)) void unlock_slow(void *__attribute__((swift_context)) word) {
    static unlock_slow_fn *library;
    if (__atomic_load_n(&library, __ATOMIC_ACQUIRE) == NULL) __atomic_store_n(&library, library_function(UNLOCK_SLOW), __ATOMIC_RELEASE);
    if (__tsan_release) __tsan_release(word);
    library(word);
}
