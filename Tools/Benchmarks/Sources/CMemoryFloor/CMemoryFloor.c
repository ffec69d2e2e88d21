#include "CMemoryFloor.h"

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

typedef void (*weft_render)(void *context, uint32_t token);

typedef struct {
  void *isa;
  uint64_t references;
  void *tally;
  uint32_t shown, step;
} View;  // 32 bytes, like weft-sim's view before it became its own registration

/// What every registration starts with, like WeftCore's `RegistrationBase` and its callback.
typedef struct {
  void *isa;
  uint64_t references;
  uint8_t active;
  uint64_t slot;
  void *group;
  weft_render render;
} Header;  // 48 bytes

typedef struct {
  Header header;
  void *context;
} Registration;  // 56 bytes, like WeftCore's MainRegistration

typedef struct {
  Header header;
  void *tally;
  uint32_t shown, step;
} Object;  // 64 bytes: a registration that is its own view, like weft-sim's HeadlessSimView

typedef struct {
  uint32_t shown, step;
} State;

static uint64_t renders;

__attribute__((noinline)) static void render_view(void *context, uint32_t token) {
  View *view = context;
  view->step = token;
  view->shown = token;
  renders++;
}

__attribute__((noinline)) static void render_object(void *context, uint32_t token) {
  Object *object = context;
  object->step = token;
  object->shown = token;
  renders++;
}

__attribute__((noinline)) static void render_state(State *state, uint32_t token) {
  state->step = token;
  state->shown = token;
  renders++;
}

static double now_ns(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (double)time.tv_sec * 1e9 + (double)time.tv_nsec;
}

double weft_memory_floor_walk(weft_layout layout, int prefetch, long count, int rounds) {
  if (count <= 0 || rounds <= 0) return 0;
  void **list = calloc((size_t)count, sizeof(void *));
  void **tokens = calloc((size_t)count, sizeof(void *));
  void **views = calloc((size_t)count, sizeof(void *));
  State *states = layout == weft_layout_dense ? calloc((size_t)count, sizeof(State)) : NULL;
  if (!list || !tokens || !views || (layout == weft_layout_dense && !states)) {
    free(list);
    free(tokens);
    free(views);
    free(states);
    return -1;
  }
  for (long index = 0; index < count; index++) {
    if (layout == weft_layout_registration_token_view) {
      View *view = calloc(1, sizeof(View));
      Registration *registration = calloc(1, sizeof(Registration));
      if (!view || !registration) abort();  // out of memory mid-benchmark
      registration->header.active = 1;
      registration->header.render = render_view;
      registration->context = view;
      views[index] = view;
      list[index] = registration;
      tokens[index] = calloc(1, 24);
    } else if (layout == weft_layout_object_token) {
      Object *object = calloc(1, sizeof(Object));
      if (!object) abort();  // out of memory mid-benchmark
      object->header.active = 1;
      object->header.render = render_object;
      list[index] = object;
      tokens[index] = calloc(1, 24);
    }
  }
  double best = -1;
  for (int round = 0; round < rounds; round++) {
    double start = now_ns();
    for (long index = 0; index < count; index++) {
      if (layout == weft_layout_dense) {
        render_state(&states[index], (uint32_t)round);
        continue;
      }
      if (prefetch && index + 64 < count) __builtin_prefetch(list[index + 64]);
      if (layout == weft_layout_registration_token_view) {
        Registration *registration = list[index];
        if (registration->header.active) {
          registration->header.render(registration->context, (uint32_t)round);
        }
      } else {
        Object *object = list[index];
        if (object->header.active) object->header.render(object, (uint32_t)round);
      }
    }
    double perSubscriber = (now_ns() - start) / (double)count;
    if (best < 0 || perSubscriber < best) best = perSubscriber;
  }
  for (long index = 0; index < count; index++) {
    free(list[index]);
    free(tokens[index]);
    free(views[index]);
  }
  free(list);
  free(tokens);
  free(views);
  free(states);
  return best;
}
