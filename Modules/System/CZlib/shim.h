#ifndef WEFT_CZLIB_SHIM_H
#define WEFT_CZLIB_SHIM_H
#include <zlib.h>

/// `deflateInit2` (a macro Swift cannot call) for raw deflate, as permessage-deflate
/// (RFC 7692) uses it: no zlib header or trailer, `window_bits` 9–15, memory level 8.
static inline int weft_deflate_init_raw(z_streamp stream, int level, int window_bits) {
  return deflateInit2(stream, level, Z_DEFLATED, -window_bits, 8, Z_DEFAULT_STRATEGY);
}

/// `inflateInit2` (a macro) for raw deflate with a window of `window_bits` (8–15).
static inline int weft_inflate_init_raw(z_streamp stream, int window_bits) {
  return inflateInit2(stream, -window_bits);
}

#endif
