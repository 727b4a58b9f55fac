// zlib's deflate, from Debian's zlib1g-dev, for PrivateBin's raw-deflate compression
// (CryptoInterop/RawDeflate.swift). No `link` line here: static builds already link libz.a
// (libcurl needs it, Package.swift `curlLinking`), and a `link "z"` would add the shared
// libz.so to them; dynamic builds link it by name in Package.swift.
#include <zlib.h>
