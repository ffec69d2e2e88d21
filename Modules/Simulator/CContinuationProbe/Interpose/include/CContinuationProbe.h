// Link-only: nothing imports this header's module; WeftRuntime reaches these functions
// through CContinuationProbeLookup's weak references.
#ifndef C_CONTINUATION_PROBE_H
#define C_CONTINUATION_PROBE_H

#include <stdint.h>

void weft_continuation_probe_enable(void);
void weft_continuation_probe_job_enqueued(const void *job);
int weft_continuation_probe_waiters(uint64_t *ids, char *names, int capacity, int name_size);
uint64_t weft_continuation_probe_current_task(char *name, int size);

#endif
