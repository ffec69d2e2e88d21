#ifndef WEFT_CCOREPINNING_H
#define WEFT_CCOREPINNING_H

/// Restricts thread `thread` (a Linux thread id; 0: the calling thread) to cores
/// `first ..< first + count`. Returns 0, or -1 with errno set (always -1 off Linux).
int weft_pin_thread(int thread, int first, int count);

#endif
