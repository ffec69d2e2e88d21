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

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

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

// The block this thread allocated last and the size it asked for: what `malloc_usable_size`
// answers from (below). Initial-exec TLS in the executable: no allocation, a few cycles.
static __thread void *weft_last_block = NULL;
static __thread size_t weft_last_request = 0;

static inline void *weft_note(void *block, size_t request) {
  weft_last_block = block;
  weft_last_request = request;
  return block;
}

void *malloc(size_t size) {
  weft_count_allocation();
  return weft_note(__libc_malloc(size), size);
}

void *calloc(size_t count, size_t size) {
  weft_count_allocation();
  return weft_note(__libc_calloc(count, size), count * size);
}

void *realloc(void *pointer, size_t size) {
  weft_count_allocation();
  return weft_note(__libc_realloc(pointer, size), size);
}

// Why counts could differ between runs of the same flow (issue 39 item 2): Swift sizes a new
// array's or string's capacity from `malloc_usable_size` of the block it just allocated, and
// glibc hands out a larger block than the request needs when a free one is a close fit (a
// remainder under 32 bytes is not split off). Which blocks are free is the heap's history, so
// one run's buffer held a few more elements than another's, grew one append later, and the
// allocation count moved by one. Here the usable size of the block this thread allocated last
// is the one a fresh block of that request has — glibc's chunk size for it, less the 8-byte
// header — whatever block the heap found: a function of the request alone. It is never more
// than the real usable size (a block is at least that large), so callers use only memory they
// own. Any other block is answered by glibc (Swift asks only right after allocating).
static size_t weft_fresh_usable_size(size_t request) {
  const size_t header = sizeof(size_t);
  const size_t alignment_mask = 2 * sizeof(size_t) - 1;
  const size_t minimum_chunk = 4 * sizeof(size_t);
  if (request > SIZE_MAX - header - alignment_mask) return 0;
  size_t chunk = (request + header + alignment_mask) & ~alignment_mask;
  if (chunk < minimum_chunk) chunk = minimum_chunk;
  return chunk - header;
}

typedef size_t (*weft_usable_size_function)(void *);

static weft_usable_size_function weft_real_usable_size(void) {
  static _Atomic(weft_usable_size_function) cached = NULL;
  weft_usable_size_function function = atomic_load_explicit(&cached, memory_order_acquire);
  if (function == NULL) {
    // dlsym may allocate: keep this thread's last block as it was.
    void *block = weft_last_block;
    size_t request = weft_last_request;
    function = (weft_usable_size_function)dlsym(RTLD_NEXT, "malloc_usable_size");
    weft_last_block = block;
    weft_last_request = request;
    atomic_store_explicit(&cached, function, memory_order_release);
  }
  return function;
}

__attribute__((constructor)) static void weft_bind_usable_size(void) {
  (void)weft_real_usable_size();
}

size_t malloc_usable_size(void *pointer) {
  if (pointer == NULL) return 0;
  size_t real = weft_real_usable_size()(pointer);
  if (pointer != weft_last_block) return real;
  size_t fresh = weft_fresh_usable_size(weft_last_request);
  return fresh < real ? fresh : real;
}

void free(void *pointer) {
  if (pointer != NULL) {
    atomic_fetch_add_explicit(&weft_frees, 1, memory_order_relaxed);
  }
  __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
  weft_count_allocation();
  return weft_note(__libc_memalign(alignment, size), size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  weft_count_allocation();
  return weft_note(__libc_memalign(alignment, size), size);
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
  *result = weft_note(memory, size);
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
