// Finds CMallocCounter's query functions without linking CMallocCounter: SimulatorKit links
// this target, and only the `weft-sim` executable links CMallocCounter (whoever links that
// replaces the process's allocator, which no library or test bundle should do).
//
// The references below are weak: when the executable also links CMallocCounter, the static
// linker binds them to its definitions; otherwise they stay null. Nothing is looked up at run
// time and nothing has to be exported from the executable (no `dlsym`, no linker flags).
//
// Weak undefined references are an ELF feature (Linux, Android, the BSDs). The Mach-O linker
// rejects an undefined symbol even when it is weak, and CMallocCounter counts only on glibc
// anyway, so elsewhere this reports that no counter is linked.

#include "CMallocCounterLookup.h"

#include <stddef.h>

#if defined(__GLIBC__)
#include <malloc.h>
#elif defined(__APPLE__)
#include <malloc/malloc.h>
#endif

int64_t weft_heap_bytes_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 info = mallinfo2();
  return (int64_t)(info.uordblks + info.hblkhd);
#elif defined(__APPLE__)
  return (int64_t)mstats().bytes_used;
#else
  return -1;
#endif
}

#if defined(__ELF__)

extern uint64_t weft_malloc_count(void) __attribute__((weak));
extern bool weft_malloc_counting_enabled(void) __attribute__((weak));

weft_allocation_count_function weft_linked_allocation_counter(void) {
  return weft_malloc_count != NULL ? weft_malloc_count : NULL;
}

bool weft_linked_allocation_counter_is_counting(void) {
  return weft_malloc_counting_enabled != NULL && weft_malloc_counting_enabled();
}

#else

weft_allocation_count_function weft_linked_allocation_counter(void) { return NULL; }

bool weft_linked_allocation_counter_is_counting(void) { return false; }

#endif
