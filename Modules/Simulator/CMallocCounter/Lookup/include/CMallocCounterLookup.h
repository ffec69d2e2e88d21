#ifndef WEFT_CMALLOCCOUNTERLOOKUP_H
#define WEFT_CMALLOCCOUNTERLOOKUP_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Reads the process-wide allocation count (`weft_malloc_count` in CMallocCounter).
typedef uint64_t (*weft_allocation_count_function)(void);

/// CMallocCounter's `weft_malloc_count` when the running executable links the CMallocCounter
/// target (the `weft-sim` binary), or null when it does not (test bundles, libraries, other
/// tools). Linking this lookup never links the counter itself: it refers to the counter's
/// functions weakly, and only on ELF platforms (elsewhere it always returns null).
///
/// - Complexity: O(1).
/// - Note: Isolation: thread-safe.
/// - Note: Allocations: none.
weft_allocation_count_function _Nullable weft_linked_allocation_counter(void);

/// Whether the linked counter interposes the allocator and counts: `false` when the counter is
/// not linked, and when it was compiled without `WEFT_COUNT_ALLOCATIONS` (debug builds) or
/// under a sanitizer.
///
/// - Complexity: O(1).
/// - Note: Isolation: thread-safe.
bool weft_linked_allocation_counter_is_counting(void);

/// Bytes the allocator has handed out and not yet had back — in use by the program, whatever
/// the allocator keeps cached or the kernel counts as resident: glibc's `mallinfo2()`
/// (`uordblks + hblkhd`, glibc 2.33 and later), Darwin's `mstats().bytes_used`; -1 where
/// neither exists.
///
/// - Complexity: O(arenas) on glibc (it walks the arenas under their locks); O(zones) on Darwin.
/// - Note: Isolation: thread-safe.
/// - Note: Allocations: none.
int64_t weft_heap_bytes_in_use(void);

#ifdef __cplusplus
}
#endif

#endif
