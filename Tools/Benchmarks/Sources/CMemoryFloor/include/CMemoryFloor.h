#ifndef WEFT_CMEMORYFLOOR_H
#define WEFT_CMEMORYFLOOR_H

/// How the subscribers of a walk are laid out on the heap, as malloc places them when they
/// are made one after another.
typedef enum {
  /// A WeftCore closure subscriber (and `weft-sim`'s views before 2026-11-27): a 56-byte
  /// registration (flag, slot, group, callback and its context), a 24-byte token allocated
  /// after it, and a 32-byte view the callback writes: three blocks, two of them touched.
  weft_layout_registration_token_view = 0,
  /// One 64-byte block per subscriber that is its own registration and view (a WeftCore
  /// `MainActorObserver`, as `weft-sim`'s views are), and the 24-byte token after it: the
  /// smallest layout with an object per subscriber.
  weft_layout_object_token = 1,
  /// An 8-byte state per subscriber in one dense array, one function for all: no object per
  /// subscriber.
  weft_layout_dense = 2,
} weft_layout;

/// Makes `count` subscribers in `layout`, walks them `rounds` times (a flag test and an
/// indirect call that writes the subscriber's state, as a delivery does), frees them, and
/// returns the fastest round's nanoseconds per subscriber. With `prefetch`, the walk asks
/// for the block 64 places ahead, as WeftCore's walk does from 4,096 subscribers up.
double weft_memory_floor_walk(weft_layout layout, int prefetch, long count, int rounds);

#endif
