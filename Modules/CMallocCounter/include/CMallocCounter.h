#ifndef WEFT_CMALLOCCOUNTER_H
#define WEFT_CMALLOCCOUNTER_H
#include <stdint.h>

/// Number of allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc) made by the
/// process since it started, when this library is linked in; 0 otherwise.
uint64_t weft_malloc_count(void);

#endif
