// OpenSSL's libcrypto, from Debian's libssl-dev (pkg-config: libcrypto). libcurl already
// loads libcrypto, so using it costs no start-up time. evp.h: the SHA-256 digest for streams
// (its SHA-256 uses the CPU's SHA instructions, about 1.8 GB/s here against about 0.5 GB/s for
// PasteCore's portable one), PrivateBin's AES-256-GCM and PBKDF2-HMAC-SHA-256; err.h: the
// error queue those calls report failures through; sha.h: SHA-256's own functions
// (SHA256_Init/Update/Final), which OpenSSL 3 marks deprecated in favour of EVP but keeps: they
// run the same SHA-NI block function without EVP's lazy provider fetch and name map, 0.4-0.6 ms
// of a hotkey run (issue 44). OPENSSL_SUPPRESS_DEPRECATED keeps their import free of warnings.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>
#include <openssl/evp.h>
#include <openssl/err.h>
