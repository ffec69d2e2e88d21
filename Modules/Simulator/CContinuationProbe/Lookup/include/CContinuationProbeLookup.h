#ifndef C_CONTINUATION_PROBE_LOOKUP_H
#define C_CONTINUATION_PROBE_LOOKUP_H

#include <stdbool.h>
#include <stdint.h>

/// Whether the executable links CContinuationProbe (SimulatorKit does).
bool weft_continuation_probe_is_linked(void);

/// Starts recording the tasks that suspend on a continuation; nothing if not linked.
void weft_continuation_probe_start(void);

/// Tells the probe that `job` was enqueued (a task that was waiting has been resumed).
void weft_continuation_probe_note_enqueued(const void *job);

/// Copies up to `capacity` tasks last seen suspending on a continuation (ids, and names of
/// `name_size` bytes each, empty for an unnamed task); returns how many, or -1 if not linked.
int weft_continuation_probe_copy_waiters(
    uint64_t *ids, char *names, int capacity, int name_size);

/// The id of the task `job` belongs to (0 for a job of no task, or when the probe is not
/// linked): what a job trace records so two runs can be compared job by job.
uint64_t weft_continuation_probe_task_of_job(const void *job);

/// The task running on the calling thread: its id (0 when there is none, or when the probe
/// is not linked) and, copied into `name` (`size` bytes), its name (empty when unnamed).
uint64_t weft_continuation_probe_running_task(char *name, int size);

#endif
