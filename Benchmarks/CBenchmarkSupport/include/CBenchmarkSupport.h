// What the benchmarks need from C: counting heap allocations in the benchmark process, by
// standing in for the C allocator, and holding a thread on one core.
#ifndef AVBENCH_CBENCHMARKSUPPORT_H
#define AVBENCH_CBENCHMARKSUPPORT_H
#include <stdint.h>
/// The number of allocations (malloc, calloc, realloc, aligned allocations) made so far.
uint64_t avbench_allocation_count(void);
/// Holds the calling thread on `core`; returns 0, or an errno value when the system refuses.
int avbench_pin_current_thread(int core);
#endif
