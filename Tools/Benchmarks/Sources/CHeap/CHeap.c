#include "CHeap.h"
#include <stdlib.h>
#if defined(__linux__)
#include <malloc.h>
#endif

size_t weft_heap_bytes_in_use(void) {
#if defined(__GLIBC__)
  return mallinfo2().uordblks;
#else
  return 0;
#endif
}
