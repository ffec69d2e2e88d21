// The process's clock reads and random draws, answered by the deterministic runtime (issue 39
// item 1): an executable that links this target defines `clock_gettime`, `gettimeofday`,
// `time`, `syscall`, `getrandom`, `getentropy`, the `arc4random` family and Foundation's UUID
// source, so every call that the Swift runtime (`ContinuousClock`, `SuspendingClock`,
// `SystemRandomNumberGenerator`), Foundation (`Date()`, `UUID()`), Dispatch (`DispatchTime`),
// SQLite (`CURRENT_TIMESTAMP`) or the app makes binds here. Until the runtime starts the world
// (`weft_world_start`, called by `DeterministicRuntime.install`) each forwards to glibc's own
// function; after, while it is started:
//
// - the monotonic clocks (`CLOCK_MONOTONIC`, `_RAW`, `_COARSE`, `CLOCK_BOOTTIME`) read
//   `monotonic_origin` plus the runtime's virtual time, and the wall clocks (`CLOCK_REALTIME`,
//   `_COARSE`, `CLOCK_TAI`, `gettimeofday`, `time`) the wall clock's start plus virtual time;
//   the CPU-time clocks stay real (reports measure CPU with them);
// - random bytes (the `getrandom` system call, whichever way it is made, `getentropy`,
//   `arc4random*`, and UUIDs) come from a counter-based SplitMix64 stream keyed by the seed the
//   runtime gives: the same seed, the same draws in the same order.
//
// Weft's own measurements of real time (a report's wall time, commit-to-delivery latency, the
// runtime's real-time waits) read `weft_world_real_clock_gettime`, reached through the lookup's
// weak reference: never exported, bound by the static linker in the same executable.
//
// No linker flags are needed: as with CMallocCounter, the ELF linker exports a symbol the
// executable defines when a shared library it links refers to it, and the dynamic loader binds
// the libraries' calls to it. The real functions are found with `dlsym(RTLD_NEXT, …)`.
//
// `_foundation_uuid_generate_random` is swift-foundation's internal UUID source (exported from
// FoundationEssentials; Swift 6.3 reads /dev/urandom there, not `getrandom`). A toolchain that
// renames it makes UUIDs random again: DeterministicWorldTests' probe catches that.
//
// Only ELF with glibc: elsewhere (Apple platforms' two-level namespaces) a definition in the
// executable does not take the calls of the system's libraries, so this file defines nothing
// but the queries, and the runtime keeps inferring sleeps from real-clock deadlines.

#include "CDeterministicWorld.h"

#include <stdbool.h>
#include <stdint.h>

#if defined(__ELF__) && defined(__linux__) && defined(__GLIBC__)

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define WEFT_NANOS_PER_SECOND 1000000000LL

// Never instrumented by a sanitizer: these functions take calls from every thread of the
// process, also from a thread the thread sanitizer has already finished with (a thread's exit
// path calls `syscall` for its futex wake-ups), where an instrumented access crashed inside
// TSan's trace (`TraceSwitchPart`, a null thread state). They touch only their own atomics.
// (`no_sanitize("thread")` is not enough: TSan still instruments atomics and entries there.)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((disable_sanitizer_instrumentation)), apply_to = function)
#endif

// The monotonic clocks' reading at virtual time zero: 1,000,000 s ("virtual uptime"), the same
// in every run.
static const int64_t monotonic_origin = 1000000LL * WEFT_NANOS_PER_SECOND;

// Relaxed throughout: the runtime writes them from its one thread before the jobs that read
// them run (a job is handed over under the runtime's lock, which orders the writes before it).
static _Atomic int started = 0;
static _Atomic uint64_t virtual_nanoseconds = 0;
static _Atomic int64_t wall_start = 0;  // CLOCK_REALTIME at virtual time zero, ns since 1970
static _Atomic uint64_t random_seed = 0;
static _Atomic uint64_t random_draws = 0;  // 8-byte words drawn since the last seed

typedef int (*clock_gettime_function)(clockid_t, struct timespec *);
typedef int (*gettimeofday_function)(struct timeval *, void *);
typedef time_t (*time_function)(time_t *);
typedef long (*syscall_function)(long, ...);
typedef ssize_t (*getrandom_function)(void *, size_t, unsigned int);
typedef int (*getentropy_function)(void *, size_t);
typedef uint32_t (*arc4random_function)(void);
typedef void (*arc4random_buf_function)(void *, size_t);
typedef uint32_t (*arc4random_uniform_function)(uint32_t);
typedef void (*uuid_function)(unsigned char *);

// Each real function, looked up on first use (`dlsym` may allocate; the runtime calls
// `weft_world_bind` before any step counts allocations).
#define WEFT_REAL(type, name)                                                                 \
  static type real_##name(void) {                                                              \
    static _Atomic(type) cached = NULL;                                                        \
    type function = atomic_load_explicit(&cached, memory_order_acquire);                       \
    if (function == NULL) {                                                                    \
      function = (type)dlsym(RTLD_NEXT, #name);                                                \
      atomic_store_explicit(&cached, function, memory_order_release);                          \
    }                                                                                          \
    return function;                                                                           \
  }

WEFT_REAL(clock_gettime_function, clock_gettime)
WEFT_REAL(gettimeofday_function, gettimeofday)
WEFT_REAL(time_function, time)
WEFT_REAL(syscall_function, syscall)
WEFT_REAL(getrandom_function, getrandom)
WEFT_REAL(getentropy_function, getentropy)
WEFT_REAL(arc4random_function, arc4random)
WEFT_REAL(arc4random_buf_function, arc4random_buf)
WEFT_REAL(arc4random_uniform_function, arc4random_uniform)
WEFT_REAL(uuid_function, _foundation_uuid_generate_random)

static inline bool is_started(void) {
  return atomic_load_explicit(&started, memory_order_relaxed) != 0;
}

// MARK: - Time

enum clock_kind { clock_real, clock_monotonic, clock_wall };

static enum clock_kind kind_of(clockid_t id) {
  switch (id) {
  case CLOCK_MONOTONIC:
  case CLOCK_MONOTONIC_RAW:
  case CLOCK_MONOTONIC_COARSE:
  case CLOCK_BOOTTIME:
#ifdef CLOCK_BOOTTIME_ALARM
  case CLOCK_BOOTTIME_ALARM:
#endif
    return clock_monotonic;
  case CLOCK_REALTIME:
  case CLOCK_REALTIME_COARSE:
#ifdef CLOCK_REALTIME_ALARM
  case CLOCK_REALTIME_ALARM:
#endif
#ifdef CLOCK_TAI
  case CLOCK_TAI:
#endif
    return clock_wall;
  default:
    return clock_real;  // CPU-time clocks, and the ids of other threads' and processes' clocks
  }
}

static int64_t virtual_reading(enum clock_kind kind) {
  int64_t now = (int64_t)atomic_load_explicit(&virtual_nanoseconds, memory_order_relaxed);
  if (kind == clock_monotonic) return monotonic_origin + now;
  return atomic_load_explicit(&wall_start, memory_order_relaxed) + now;
}

static void set_timespec(struct timespec *time, int64_t nanoseconds) {
  int64_t seconds = nanoseconds / WEFT_NANOS_PER_SECOND;
  int64_t rest = nanoseconds % WEFT_NANOS_PER_SECOND;
  if (rest < 0) {
    rest += WEFT_NANOS_PER_SECOND;
    seconds -= 1;
  }
  time->tv_sec = (time_t)seconds;
  time->tv_nsec = (long)rest;
}

int clock_gettime(clockid_t id, struct timespec *time) {
  enum clock_kind kind = kind_of(id);
  if (kind == clock_real || !is_started()) return real_clock_gettime()(id, time);
  set_timespec(time, virtual_reading(kind));
  return 0;
}

int gettimeofday(struct timeval *restrict value, void *restrict zone) {
  if (!is_started()) return real_gettimeofday()(value, zone);
  struct timespec time;
  set_timespec(&time, virtual_reading(clock_wall));
  value->tv_sec = time.tv_sec;
  value->tv_usec = (suseconds_t)(time.tv_nsec / 1000);
  return 0;
}

time_t time(time_t *result) {
  if (!is_started()) return real_time()(result);
  struct timespec now;
  set_timespec(&now, virtual_reading(clock_wall));
  if (result != NULL) *result = now.tv_sec;
  return now.tv_sec;
}

int weft_world_real_clock_gettime(clockid_t id, struct timespec *time) {
  return real_clock_gettime()(id, time);
}

// MARK: - Randomness

static uint64_t splitmix64(uint64_t value) {
  value += 0x9E3779B97F4A7C15ULL;
  value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ULL;
  value = (value ^ (value >> 27)) * 0x94D049BB133111EBULL;
  return value ^ (value >> 31);
}

static uint64_t next_word(void) {
  uint64_t index = atomic_fetch_add_explicit(&random_draws, 1, memory_order_relaxed);
  uint64_t seed = atomic_load_explicit(&random_seed, memory_order_relaxed);
  return splitmix64(seed ^ splitmix64(index));
}

static void fill(void *buffer, size_t count) {
  unsigned char *bytes = buffer;
  while (count > 0) {
    uint64_t word = next_word();
    size_t take = count < sizeof word ? count : sizeof word;
    memcpy(bytes, &word, take);
    bytes += take;
    count -= take;
  }
}

long syscall(long number, ...) {
  va_list arguments;
  va_start(arguments, number);
  long a[6];
  for (int index = 0; index < 6; index++) a[index] = va_arg(arguments, long);
  va_end(arguments);
  if (is_started()) {
    if (number == SYS_getrandom) {
      if (a[0] == 0 && a[1] != 0) {
        errno = EFAULT;
        return -1;
      }
      fill((void *)a[0], (size_t)a[1]);
      return a[1];
    }
    if (number == SYS_clock_gettime) return clock_gettime((clockid_t)a[0], (void *)a[1]);
    if (number == SYS_gettimeofday) return gettimeofday((void *)a[0], (void *)a[1]);
  }
  return real_syscall()(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

ssize_t getrandom(void *buffer, size_t count, unsigned int flags) {
  if (!is_started()) return real_getrandom()(buffer, count, flags);
  fill(buffer, count);
  return (ssize_t)count;
}

int getentropy(void *buffer, size_t count) {
  if (!is_started()) return real_getentropy()(buffer, count);
  if (count > 256) {
    errno = EIO;
    return -1;
  }
  fill(buffer, count);
  return 0;
}

uint32_t arc4random(void) {
  if (!is_started()) return real_arc4random()();
  return (uint32_t)next_word();
}

void arc4random_buf(void *buffer, size_t count) {
  if (!is_started()) {
    real_arc4random_buf()(buffer, count);
    return;
  }
  fill(buffer, count);
}

uint32_t arc4random_uniform(uint32_t bound) {
  if (!is_started()) return real_arc4random_uniform()(bound);
  if (bound < 2) return 0;
  // Rejection sampling, as glibc's: no modulo bias.
  uint32_t threshold = (uint32_t)(-bound) % bound;
  for (;;) {
    uint32_t value = (uint32_t)next_word();
    if (value >= threshold) return value % bound;
  }
}

void _foundation_uuid_generate_random(unsigned char *out) {
  if (!is_started()) {
    uuid_function real = real__foundation_uuid_generate_random();
    if (real != NULL) {
      real(out);
      return;
    }
    // Not in this process's Foundation: a random UUID from the system's source.
    real_getentropy()(out, 16);
  } else {
    fill(out, 16);
  }
  out[6] = (unsigned char)((out[6] & 0x0F) | 0x40);  // version 4
  out[8] = (unsigned char)((out[8] & 0x3F) | 0x80);  // RFC 4122 variant
}

// MARK: - Control (reached through CDeterministicWorldLookup's weak references)

void weft_world_bind(void) {
  (void)real_clock_gettime();
  (void)real_gettimeofday();
  (void)real_time();
  (void)real_syscall();
  (void)real_getrandom();
  (void)real_getentropy();
  (void)real_arc4random();
  (void)real_arc4random_buf();
  (void)real_arc4random_uniform();
  (void)real__foundation_uuid_generate_random();
}

void weft_world_start(int64_t wall_start_nanoseconds, uint64_t seed) {
  weft_world_bind();
  atomic_store_explicit(&virtual_nanoseconds, 0, memory_order_relaxed);
  atomic_store_explicit(&wall_start, wall_start_nanoseconds, memory_order_relaxed);
  atomic_store_explicit(&random_seed, seed, memory_order_relaxed);
  atomic_store_explicit(&random_draws, 0, memory_order_relaxed);
  atomic_store_explicit(&started, 1, memory_order_release);
}

void weft_world_stop(void) { atomic_store_explicit(&started, 0, memory_order_release); }

bool weft_world_is_started(void) { return is_started(); }

void weft_world_set_time(uint64_t nanoseconds) {
  atomic_store_explicit(&virtual_nanoseconds, nanoseconds, memory_order_relaxed);
}

void weft_world_set_wall_start(int64_t wall_start_nanoseconds) {
  atomic_store_explicit(&wall_start, wall_start_nanoseconds, memory_order_relaxed);
}

int64_t weft_world_wall_start(void) {
  return atomic_load_explicit(&wall_start, memory_order_relaxed);
}

void weft_world_seed(uint64_t seed) {
  atomic_store_explicit(&random_seed, seed, memory_order_relaxed);
  atomic_store_explicit(&random_draws, 0, memory_order_relaxed);
}

uint64_t weft_world_random_draws(void) {
  return atomic_load_explicit(&random_draws, memory_order_relaxed);
}

#if defined(__clang__)
#pragma clang attribute pop
#endif

#endif
