// Holding a benchmark thread on one core, to compare wake-ups within a core and across cores.
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include "CBenchmarkSupport.h"

int avbench_pin_current_thread(int core) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(core, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}
