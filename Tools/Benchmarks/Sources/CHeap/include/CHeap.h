#ifndef WEFT_CHEAP_H
#define WEFT_CHEAP_H
#include <stddef.h>

/// Bytes currently allocated from the C heap (glibc mallinfo2().uordblks; 0 elsewhere).
size_t weft_heap_bytes_in_use(void);

#endif
