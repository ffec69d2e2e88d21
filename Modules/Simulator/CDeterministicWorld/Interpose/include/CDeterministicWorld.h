#ifndef WEFT_CDETERMINISTICWORLD_H
#define WEFT_CDETERMINISTICWORLD_H

// Nothing to call: linking this target makes the process's clock reads and random draws
// answerable by the deterministic runtime (see DeterministicWorld.c). WeftRuntime and WeftCore
// reach it through CDeterministicWorldLookup.

#endif
