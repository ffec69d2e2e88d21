// Finds CContinuationProbe's functions without linking it: WeftRuntime links this target,
// and only simulator executables link CContinuationProbe (through SimulatorKit, or by name),
// since it interposes a Swift runtime function that no app or library should interpose.
//
// The references below are weak: when the executable also links CContinuationProbe, the
// static linker binds them to its definitions; otherwise they stay null and every function
// here reports that no probe is linked. Weak undefined references are an ELF feature; the
// probe is ELF-only too, so elsewhere this reports no probe.

#include "CContinuationProbeLookup.h"

#include <stddef.h>

#if defined(__ELF__)

extern void weft_continuation_probe_enable(void) __attribute__((weak));
extern void weft_continuation_probe_job_enqueued(const void *job) __attribute__((weak));
extern int weft_continuation_probe_waiters(
    uint64_t *ids, char *names, int capacity, int name_size) __attribute__((weak));
extern uint64_t weft_continuation_probe_job_task(const void *job) __attribute__((weak));
extern uint64_t weft_continuation_probe_current_task(char *name, int size) __attribute__((weak));

uint64_t weft_continuation_probe_running_task(char *name, int size) {
  if (size > 0) name[0] = 0;
  if (weft_continuation_probe_current_task == NULL) return 0;
  return weft_continuation_probe_current_task(name, size);
}

uint64_t weft_continuation_probe_task_of_job(const void *job) {
  if (weft_continuation_probe_job_task == NULL) return 0;
  return weft_continuation_probe_job_task(job);
}

bool weft_continuation_probe_is_linked(void) {
  return weft_continuation_probe_waiters != NULL;
}

void weft_continuation_probe_start(void) {
  if (weft_continuation_probe_enable != NULL) weft_continuation_probe_enable();
}

void weft_continuation_probe_note_enqueued(const void *job) {
  if (weft_continuation_probe_job_enqueued != NULL) weft_continuation_probe_job_enqueued(job);
}

int weft_continuation_probe_copy_waiters(
    uint64_t *ids, char *names, int capacity, int name_size) {
  if (weft_continuation_probe_waiters == NULL) return -1;
  return weft_continuation_probe_waiters(ids, names, capacity, name_size);
}

#else

uint64_t weft_continuation_probe_task_of_job(const void *job) {
  (void)job;
  return 0;
}
bool weft_continuation_probe_is_linked(void) { return false; }
uint64_t weft_continuation_probe_running_task(char *name, int size) {
  if (size > 0) name[0] = 0;
  return 0;
}
void weft_continuation_probe_start(void) {}
void weft_continuation_probe_note_enqueued(const void *job) { (void)job; }
int weft_continuation_probe_copy_waiters(
    uint64_t *ids, char *names, int capacity, int name_size) {
  (void)ids;
  (void)names;
  (void)capacity;
  (void)name_size;
  return -1;
}

#endif
