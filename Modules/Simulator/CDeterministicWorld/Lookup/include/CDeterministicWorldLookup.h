#ifndef WEFT_CDETERMINISTICWORLDLOOKUP_H
#define WEFT_CDETERMINISTICWORLDLOOKUP_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Whether the running executable links CDeterministicWorld (simulator executables do, through
/// SimulatorKit), so that the deterministic runtime can answer the process's clock reads and
/// random draws. Always false off ELF with glibc.
///
/// - Complexity: O(1).
/// - Note: Isolation: thread-safe.
bool weft_lookup_world_is_linked(void);

/// Starts answering: virtual time zero, the wall clock at `wall_start_nanoseconds` since
/// 1970, random draws from `seed`. Does nothing when the world is not linked.
///
/// - Complexity: O(1) (the first call looks the real functions up).
/// - Note: Isolation: the runtime's thread, before the app's jobs run.
void weft_lookup_world_start(int64_t wall_start_nanoseconds, uint64_t seed);

/// Stops answering: every read and draw goes to the system again.
void weft_lookup_world_stop(void);

/// Whether clock reads and random draws are answered now.
bool weft_lookup_world_is_started(void);

/// Sets virtual time (nanoseconds since the runtime's start).
void weft_lookup_world_set_time(uint64_t nanoseconds);

/// Sets what `CLOCK_REALTIME` reads at virtual time zero (nanoseconds since 1970).
void weft_lookup_world_set_wall_start(int64_t wall_start_nanoseconds);

/// What `CLOCK_REALTIME` reads at virtual time zero (0 when the world is not linked).
int64_t weft_lookup_world_wall_start(void);

/// Restarts the random stream from `seed`.
void weft_lookup_world_seed(uint64_t seed);

/// 8-byte words drawn from the random stream since it was last seeded (0 when not linked).
uint64_t weft_lookup_world_random_draws(void);

/// The real monotonic clock in nanoseconds (`CLOCK_MONOTONIC`), whatever the world answers
/// the app: what reports and latency measurements read.
///
/// - Complexity: O(1), one vDSO clock read.
/// - Note: Allocations: none.
uint64_t weft_real_monotonic_nanoseconds(void);

/// The real wall clock (`CLOCK_REALTIME`) in nanoseconds since 1970.
int64_t weft_real_wall_nanoseconds(void);

#ifdef __cplusplus
}
#endif

#endif
