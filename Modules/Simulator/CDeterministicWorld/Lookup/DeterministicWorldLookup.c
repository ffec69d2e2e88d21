// Finds CDeterministicWorld's control functions without linking it: WeftRuntime and WeftCore
// link this target; only simulator executables link CDeterministicWorld (whoever links it
// takes over the process's clock and random functions, which no library or app should do).
//
// The references are weak: when the executable also links CDeterministicWorld the static
// linker binds them to its definitions; otherwise they stay null and each function below does
// what the system does (the real clocks) or nothing. Weak undefined references are an ELF
// feature; elsewhere nothing is referenced and the world is never started.

#include "CDeterministicWorldLookup.h"

#include <stddef.h>
#include <time.h>

#if defined(__ELF__) && defined(__GLIBC__)

extern void weft_world_start(int64_t wall_start_nanoseconds, uint64_t seed)
    __attribute__((weak));
extern void weft_world_stop(void) __attribute__((weak));
extern bool weft_world_is_started(void) __attribute__((weak));
extern void weft_world_set_time(uint64_t nanoseconds) __attribute__((weak));
extern void weft_world_set_wall_start(int64_t wall_start_nanoseconds) __attribute__((weak));
extern int64_t weft_world_wall_start(void) __attribute__((weak));
extern void weft_world_seed(uint64_t seed) __attribute__((weak));
extern uint64_t weft_world_random_draws(void) __attribute__((weak));
extern int weft_world_real_clock_gettime(clockid_t id, struct timespec *time)
    __attribute__((weak));

#define WEFT_LINKED(name) (name != NULL)

#else

#define WEFT_LINKED(name) 0
static void weft_world_start(int64_t wall_start_nanoseconds, uint64_t seed) {}
static void weft_world_stop(void) {}
static bool weft_world_is_started(void) { return false; }
static void weft_world_set_time(uint64_t nanoseconds) {}
static void weft_world_set_wall_start(int64_t wall_start_nanoseconds) {}
static int64_t weft_world_wall_start(void) { return 0; }
static void weft_world_seed(uint64_t seed) {}
static uint64_t weft_world_random_draws(void) { return 0; }
static int weft_world_real_clock_gettime(clockid_t id, struct timespec *time) {
  return clock_gettime(id, time);
}

#endif

bool weft_lookup_world_is_linked(void) { return WEFT_LINKED(weft_world_start); }

void weft_lookup_world_start(int64_t wall_start_nanoseconds, uint64_t seed) {
  if (WEFT_LINKED(weft_world_start)) weft_world_start(wall_start_nanoseconds, seed);
}

void weft_lookup_world_stop(void) {
  if (WEFT_LINKED(weft_world_stop)) weft_world_stop();
}

bool weft_lookup_world_is_started(void) {
  return WEFT_LINKED(weft_world_is_started) && weft_world_is_started();
}

void weft_lookup_world_set_time(uint64_t nanoseconds) {
  if (WEFT_LINKED(weft_world_set_time)) weft_world_set_time(nanoseconds);
}

void weft_lookup_world_set_wall_start(int64_t wall_start_nanoseconds) {
  if (WEFT_LINKED(weft_world_set_wall_start)) weft_world_set_wall_start(wall_start_nanoseconds);
}

int64_t weft_lookup_world_wall_start(void) {
  return WEFT_LINKED(weft_world_wall_start) ? weft_world_wall_start() : 0;
}

void weft_lookup_world_seed(uint64_t seed) {
  if (WEFT_LINKED(weft_world_seed)) weft_world_seed(seed);
}

uint64_t weft_lookup_world_random_draws(void) {
  return WEFT_LINKED(weft_world_random_draws) ? weft_world_random_draws() : 0;
}

static int real_clock(clockid_t id, struct timespec *time) {
  if (WEFT_LINKED(weft_world_real_clock_gettime)) return weft_world_real_clock_gettime(id, time);
  return clock_gettime(id, time);
}

uint64_t weft_real_monotonic_nanoseconds(void) {
  struct timespec time;
  if (real_clock(CLOCK_MONOTONIC, &time) != 0) return 0;
  return (uint64_t)time.tv_sec * 1000000000ULL + (uint64_t)time.tv_nsec;
}

int64_t weft_real_wall_nanoseconds(void) {
  struct timespec time;
  if (real_clock(CLOCK_REALTIME, &time) != 0) return 0;
  return (int64_t)time.tv_sec * 1000000000LL + (int64_t)time.tv_nsec;
}
