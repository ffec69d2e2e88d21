// sched_setaffinity and the CPU_SET macros are GNU extensions Swift's Glibc module does not
// import.
#define _GNU_SOURCE
#include "CCorePinning.h"

#include <errno.h>

#ifdef __linux__
#include <sched.h>

int weft_pin_thread(int thread, int first, int count) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int core = first; core < first + count && core < CPU_SETSIZE; core++) {
    CPU_SET(core, &set);
  }
  return sched_setaffinity(thread, sizeof(set), &set);
}
#else
int weft_pin_thread(int thread, int first, int count) {
  (void)thread;
  (void)first;
  (void)count;
  errno = ENOSYS;
  return -1;
}
#endif
