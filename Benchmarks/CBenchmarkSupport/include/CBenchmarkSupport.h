// What the benchmarks need from C: counting heap allocations in the benchmark process, by
// standing in for the C allocator (and allocations and lock calls on one marked thread), and
// holding a thread on one core.
#ifndef AVBENCH_CBENCHMARKSUPPORT_H
#define AVBENCH_CBENCHMARKSUPPORT_H
#include <stdint.h>
/// The number of allocations (malloc, calloc, realloc, aligned allocations) made so far.
uint64_t avbench_allocation_count(void);
/// Notes where the FFmpeg, x264 and libyuv libraries loaded so far keep their code, so that
/// allocations called from it are counted apart; called once they are loaded.
void avbench_find_codec_libraries(void);
/// The allocations counted so far that FFmpeg's, x264's or libyuv's code made itself (after
/// `avbench_find_codec_libraries`).
uint64_t avbench_codec_allocation_count(void);
/// Marks the calling thread as the one whose allocations and lock calls are counted apart.
void avbench_mark_current_thread(void);
/// The allocations the marked thread has made since it was marked.
uint64_t avbench_marked_thread_allocation_count(void);
/// The pthread mutex and read-write lock acquisitions (lock, rdlock, wrlock) the marked thread has made.
uint64_t avbench_marked_thread_lock_count(void);
/// Holds the calling thread on `core`; returns 0, or an errno value when the system refuses.
int avbench_pin_current_thread(int core);
#endif
