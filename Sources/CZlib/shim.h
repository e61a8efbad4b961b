#ifndef MOVIECAT_CZLIB_SHIM_H
#define MOVIECAT_CZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 is a macro, which Swift cannot call: this starts inflating gzip data
/// (15 window bits, +16 for the gzip header and trailer).
static inline int moviecat_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}
#endif
