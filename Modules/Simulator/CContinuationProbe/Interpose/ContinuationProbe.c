// Which tasks are suspended on a continuation, by task name where Swift has one: the
// deterministic runtime's diagnostic when a flow cannot go on (issue 27 item 2).
//
// Swift 6.3 has no API that lists tasks or reads another task's name; a task's name can be
// read only while it runs (`swift_task_getCurrentTaskName`). The one moment a task runs and is
// about to wait for a continuation is `swift_continuation_init`, which the compiler calls in
// the suspending task. This file defines that symbol in the executable that links it (only
// simulator executables do: SimulatorKit links it, as weft-sim links CMallocCounter), so the
// app's calls bind here; it records the current task's id and name, then forwards to the
// Swift runtime's own function (`dlsym(RTLD_NEXT)`), which does all the work.
//
// What it sees: the continuations whose `swift_continuation_init` call is compiled into the
// executable — `withUnsafeContinuation` always, `withCheckedContinuation` where the optimizer
// inlined it (release builds); not those made inside the Swift runtime's own library
// (AsyncStream's, or withCheckedContinuation in a debug build), whose calls do not leave it.
// A task leaves the table when the runtime sees one of its jobs enqueued (resumed onto the
// global or the MainActor executor), or when it suspends on a continuation again; a task
// resumed onto a default actor and finished there is not seen leaving, so the diagnostic says
// "last seen suspending".
//
// Only ELF (Linux): that is where an executable's definition is guaranteed to take the calls
// compiled into it and RTLD_NEXT finds the runtime's. Elsewhere this file defines nothing:
// CContinuationProbeLookup's weak references stay null (or, off ELF, are not made), and the
// diagnostic says that tasks cannot be named.

#include "CContinuationProbe.h"

#if defined(__ELF__) && defined(__linux__)

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#define WEFT_PROBE_CAPACITY 64
#define WEFT_PROBE_NAME_SIZE 64

typedef void *(*weft_continuation_init_function)(void *context, size_t flags)
    __attribute__((swiftcall));

extern const char *swift_task_getCurrentTaskName(void) __attribute__((swiftcall, weak));
extern void *swift_task_getCurrent(void) __attribute__((swiftcall, weak));
extern uint64_t swift_task_getJobTaskId(const void *job) __attribute__((swiftcall, weak));

struct weft_probe_entry {
  uint64_t task;
  char name[WEFT_PROBE_NAME_SIZE];
};

// The table is written only while the probe is enabled, under `lock`; `count` is also read
// without the lock (a relaxed load) by the enqueue path, to skip the lock when it is empty.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct weft_probe_entry entries[WEFT_PROBE_CAPACITY];
static _Atomic int count = 0;
static _Atomic int enabled = 0;
static _Atomic(weft_continuation_init_function) real_init = NULL;

static weft_continuation_init_function resolve_real_init(void) {
  weft_continuation_init_function real = atomic_load_explicit(&real_init, memory_order_acquire);
  if (real == NULL) {
    real = (weft_continuation_init_function)dlsym(RTLD_NEXT, "swift_continuation_init");
    atomic_store_explicit(&real_init, real, memory_order_release);
  }
  return real;
}

void weft_continuation_probe_enable(void) {
  // Bind every function the probe calls now, before any step measures allocations: the
  // first call of each may allocate (dlsym, a lazily bound symbol's first resolution).
  resolve_real_init();
  if (swift_task_getCurrent != NULL) (void)swift_task_getCurrent();
  if (swift_task_getCurrentTaskName != NULL) (void)swift_task_getCurrentTaskName();
  pthread_mutex_lock(&lock);
  pthread_mutex_unlock(&lock);
  atomic_store_explicit(&enabled, 1, memory_order_release);
}

static int index_of(uint64_t task) {
  int n = atomic_load_explicit(&count, memory_order_relaxed);
  for (int i = 0; i < n; i++) {
    if (entries[i].task == task) return i;
  }
  return -1;
}

static void record_current_task(void) {
  if (swift_task_getCurrent == NULL || swift_task_getJobTaskId == NULL) return;
  void *task = swift_task_getCurrent();
  if (task == NULL) return;
  uint64_t id = swift_task_getJobTaskId(task);
  const char *name =
      swift_task_getCurrentTaskName != NULL ? swift_task_getCurrentTaskName() : NULL;
  pthread_mutex_lock(&lock);
  int index = index_of(id);
  int n = atomic_load_explicit(&count, memory_order_relaxed);
  if (index < 0 && n < WEFT_PROBE_CAPACITY) {
    index = n;
    atomic_store_explicit(&count, n + 1, memory_order_relaxed);
  }
  if (index >= 0) {
    entries[index].task = id;
    entries[index].name[0] = 0;
    if (name != NULL) {
      strncpy(entries[index].name, name, WEFT_PROBE_NAME_SIZE - 1);
      entries[index].name[WEFT_PROBE_NAME_SIZE - 1] = 0;
    }
  }
  pthread_mutex_unlock(&lock);
}

// The Swift runtime's `swift_continuation_init(ContinuationAsyncContext *, AsyncContinuationFlags)`
// (swiftcall; the flags are a pointer-sized bit set). Weak, so that a statically linked Swift
// runtime's own definition wins and nothing is interposed there.
__attribute__((swiftcall, weak, visibility("default")))
void *swift_continuation_init(void *context, size_t flags) {
  if (atomic_load_explicit(&enabled, memory_order_acquire)) record_current_task();
  return resolve_real_init()(context, flags);
}

void weft_continuation_probe_job_enqueued(const void *job) {
  if (atomic_load_explicit(&count, memory_order_relaxed) == 0) return;
  if (swift_task_getJobTaskId == NULL) return;
  uint64_t id = swift_task_getJobTaskId(job);
  if (id == 0) return;
  pthread_mutex_lock(&lock);
  int index = index_of(id);
  if (index >= 0) {
    int last = atomic_load_explicit(&count, memory_order_relaxed) - 1;
    entries[index] = entries[last];
    atomic_store_explicit(&count, last, memory_order_relaxed);
  }
  pthread_mutex_unlock(&lock);
}

uint64_t weft_continuation_probe_job_task(const void *job) {
  if (swift_task_getJobTaskId == NULL || job == NULL) return 0;
  return swift_task_getJobTaskId(job);
}

int weft_continuation_probe_waiters(uint64_t *ids, char *names, int capacity, int name_size) {
  pthread_mutex_lock(&lock);
  int n = atomic_load_explicit(&count, memory_order_relaxed);
  if (n > capacity) n = capacity;
  for (int i = 0; i < n; i++) {
    ids[i] = entries[i].task;
    strncpy(names + (size_t)i * (size_t)name_size, entries[i].name, (size_t)name_size - 1);
    names[(size_t)i * (size_t)name_size + (size_t)name_size - 1] = 0;
  }
  pthread_mutex_unlock(&lock);
  return n;
}

// The task running on the calling thread: its id (0 when none) and, in `name` (`size` bytes,
// empty for an unnamed task), its name — what a job trace names the tasks it saw by.
uint64_t weft_continuation_probe_current_task(char *name, int size) {
  if (size > 0) name[0] = 0;
  if (swift_task_getCurrent == NULL || swift_task_getJobTaskId == NULL) return 0;
  void *task = swift_task_getCurrent();
  if (task == NULL) return 0;
  const char *current =
      swift_task_getCurrentTaskName != NULL ? swift_task_getCurrentTaskName() : NULL;
  if (current != NULL && size > 0) {
    strncpy(name, current, (size_t)size - 1);
    name[size - 1] = 0;
  }
  return swift_task_getJobTaskId(task);
}

#endif
