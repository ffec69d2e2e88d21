#ifndef WEFT_CMALLOCCOUNTER_H
#define WEFT_CMALLOCCOUNTER_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Number of allocations made by the process since it started: every call to `malloc`,
/// `calloc`, `realloc`, `posix_memalign`, `aligned_alloc` and `memalign` (`realloc` counts
/// once whether it grows, shrinks or starts a block).
///
/// Counting happens only when this target is compiled with `WEFT_COUNT_ALLOCATIONS` (release
/// builds) on glibc, without a sanitizer; otherwise this returns 0.
///
/// - Complexity: O(1), one relaxed atomic load.
/// - Note: Isolation: thread-safe.
/// - Note: Allocations: none.
uint64_t weft_malloc_count(void);

/// Number of `free` calls on a non-null pointer since the process started (0 when counting is
/// off).
///
/// - Complexity: O(1), one relaxed atomic load.
uint64_t weft_free_count(void);

/// Whether this build interposes the allocator and counts; `false` in debug and sanitizer
/// builds, and on platforms other than glibc.
bool weft_malloc_counting_enabled(void);

#ifdef __cplusplus
}
#endif

#endif
