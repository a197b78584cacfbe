// Counts heap allocations in the benchmark process, by standing in for the C allocator.
#ifndef AVBENCH_CMALLOCCOUNTER_H
#define AVBENCH_CMALLOCCOUNTER_H
#include <stdint.h>
/// The number of allocations (malloc, calloc, realloc, aligned allocations) made so far.
uint64_t avbench_allocation_count(void);
#endif
