// Counts allocations by defining the C allocator entry points in the executable that links
// this target, so every allocation in the process (the Swift runtime, Foundation, libc itself)
// goes through here and on to glibc's own implementation (`__libc_malloc` and friends).
//
// Interposing happens only when WEFT_COUNT_ALLOCATIONS is defined (Package.swift defines it in
// release builds), on glibc, and never under a sanitizer (sanitizers bring their own
// allocator). Otherwise the file only defines the query functions, which report nothing.
//
// Link this target into an executable only (the `weft-sim` gate binary), never into a
// library: whoever links it replaces the allocator of the whole process.
//
// No linker flags are needed (so the package has no `unsafeFlags` and can be depended on by
// version). The ELF linker puts a symbol the executable defines into its dynamic symbol table
// when a shared library it links refers to that symbol, and libswiftCore, libFoundation and
// libc itself all call `malloc`, `free` and friends, so the dynamic loader binds every
// library's calls to the definitions below. The query functions are not exported at all:
// SimulatorKit reaches them through the weak references in CMallocCounterLookup, which the
// static linker resolves when it links this target into the same executable.

#include "CMallocCounter.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                    \
    __has_feature(memory_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define WEFT_UNDER_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define WEFT_UNDER_SANITIZER 1
#endif

#if defined(WEFT_COUNT_ALLOCATIONS) && defined(__GLIBC__) && !defined(WEFT_UNDER_SANITIZER)
#define WEFT_INTERPOSE 1
#endif

#ifdef WEFT_INTERPOSE

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

// glibc's allocator under its internal names; stable exports since GLIBC_2.2.5.
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

// Relaxed: the counters order nothing; readers want a total, and a reader on another thread
// sees a value that is at most a few in-flight allocations behind.
static _Atomic uint64_t weft_allocations = 0;
static _Atomic uint64_t weft_frees = 0;

static inline void weft_count_allocation(void) {
  atomic_fetch_add_explicit(&weft_allocations, 1, memory_order_relaxed);
}

void *malloc(size_t size) {
  weft_count_allocation();
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  weft_count_allocation();
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  weft_count_allocation();
  return __libc_realloc(pointer, size);
}

void free(void *pointer) {
  if (pointer != NULL) {
    atomic_fetch_add_explicit(&weft_frees, 1, memory_order_relaxed);
  }
  __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
  weft_count_allocation();
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  weft_count_allocation();
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  // The checks glibc makes: a power of two that is a multiple of sizeof(void *).
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) {
    return EINVAL;
  }
  weft_count_allocation();
  void *memory = __libc_memalign(alignment, size);
  if (memory == NULL) {
    return ENOMEM;
  }
  *result = memory;
  return 0;
}

uint64_t weft_malloc_count(void) {
  return atomic_load_explicit(&weft_allocations, memory_order_relaxed);
}

uint64_t weft_free_count(void) { return atomic_load_explicit(&weft_frees, memory_order_relaxed); }

bool weft_malloc_counting_enabled(void) { return true; }

#else

uint64_t weft_malloc_count(void) { return 0; }

uint64_t weft_free_count(void) { return 0; }

bool weft_malloc_counting_enabled(void) { return false; }

#endif
