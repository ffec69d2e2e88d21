#ifndef CWEFTPREFETCH_H
#define CWEFTPREFETCH_H

/// Asks the CPU to start loading the cache line at `address` for a read soon; never faults.
static inline __attribute__((always_inline)) void weft_prefetch(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

#endif
