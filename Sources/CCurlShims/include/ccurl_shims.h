// CCurlShims: the few libcurl entry points Swift cannot call directly.
//
// Why this target exists: `curl_easy_setopt`, `curl_easy_getinfo` and `curl_multi_setopt` are
// C variadic functions (and, under GCC, type-checking macros). Swift cannot call a C variadic
// function, so each gets one non-variadic wrapper per argument kind. The design rule is the one
// swift-corelibs-foundation's `_CFURLSessionInterface` follows: a 1:1 mapping, one line each, no
// logic; every decision stays in Swift (CurlInterop). Every function returns libcurl's raw code.
//
// Non-variadic libcurl calls (curl_easy_init, curl_mime_*, curl_multi_add_handle, ...) are
// called from Swift directly and need no shim.
#ifndef CCURL_SHIMS_H
#define CCURL_SHIMS_H

#include <curl/curl.h>

// MARK: - curl_easy_setopt, one wrapper per argument kind

/// `curl_easy_setopt` for options taking a `long` (CURLOPTTYPE_LONG), e.g. CURLOPT_NOSIGNAL.
CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);
/// `curl_easy_setopt` for options taking a `curl_off_t` (CURLOPTTYPE_OFF_T), e.g. CURLOPT_INFILESIZE_LARGE.
CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
/// `curl_easy_setopt` for options taking a C string (CURLOPTTYPE_STRINGPOINT); libcurl copies it.
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
/// `curl_easy_setopt` for options taking an opaque pointer (CURLOPTTYPE_OBJECTPOINT/CBPOINT):
/// user data for callbacks, the error buffer.
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
/// `curl_easy_setopt` for options taking a `struct curl_slist *` (CURLOPT_HTTPHEADER).
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
/// `curl_easy_setopt(CURLOPT_MIMEPOST)`: the argument is a `curl_mime *`.
CURLcode ccurl_easy_setopt_mime(CURL *handle, CURLoption option, curl_mime *value);
/// `curl_easy_setopt(CURLOPT_WRITEFUNCTION)`: typed so Swift passes a `@convention(c)` function.
CURLcode ccurl_easy_setopt_write_callback(CURL *handle, curl_write_callback callback);
/// `curl_easy_setopt(CURLOPT_HEADERFUNCTION)`: same C type as the write callback, its own option.
CURLcode ccurl_easy_setopt_header_callback(CURL *handle, curl_write_callback callback);
/// `curl_easy_setopt(CURLOPT_READFUNCTION)`.
CURLcode ccurl_easy_setopt_read_callback(CURL *handle, curl_read_callback callback);
/// `curl_easy_setopt(CURLOPT_SEEKFUNCTION)`: lets libcurl rewind a body (307/308, auth retries).
CURLcode ccurl_easy_setopt_seek_callback(CURL *handle, curl_seek_callback callback);
/// `curl_easy_setopt(CURLOPT_XFERINFOFUNCTION)`: progress, and the place to abort a transfer.
CURLcode ccurl_easy_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback);
/// `curl_easy_setopt(CURLOPT_DEBUGFUNCTION)`: the verbose trace (headers in and out).
CURLcode ccurl_easy_setopt_debug_callback(CURL *handle, curl_debug_callback callback);

// MARK: - curl_easy_getinfo, one wrapper per result kind

/// `curl_easy_getinfo` for CURLINFO_LONG items (CURLINFO_RESPONSE_CODE, CURLINFO_OS_ERRNO).
CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
/// `curl_easy_getinfo` for CURLINFO_STRING items; the string belongs to the handle.
CURLcode ccurl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);
/// `curl_easy_getinfo` for CURLINFO_OFF_T items (CURLINFO_SIZE_UPLOAD_T, times in microseconds).
CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);
/// `curl_easy_getinfo` for CURLINFO_DOUBLE items.
CURLcode ccurl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value);
/// `curl_easy_getinfo` for CURLINFO_SOCKET items (CURLINFO_ACTIVESOCKET).
CURLcode ccurl_easy_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value);

// MARK: - curl_multi_setopt

/// `curl_multi_setopt` for options taking a `long` (CURLMOPT_MAX_HOST_CONNECTIONS).
CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

// MARK: - Constants Swift does not import

/// `CURL_GLOBAL_DEFAULT`: a macro built from other macros, which Swift does not import.
long ccurl_global_default(void);

// MARK: - OpenSSL's error text, loaded when a failure is shown

/// Called before `curl_global_init`: `OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS)`
/// and `OPENSSL_init_ssl(OPENSSL_INIT_NO_LOAD_SSL_STRINGS)`, so OpenSSL does not load its
/// error text at start (about 0.9 M instructions of every run, valgrind's count). Nothing in a
/// `PASTE_LINK=dynamic` build, whose shared libraries do not export the loaders below.
void ccurl_defer_tls_error_text(void);
/// Loads OpenSSL's error text (libcrypto's and libssl's own loaders, `ossl_err_load_*`, which
/// the static archives export); later calls, and calls in a dynamic build, do nothing.
void ccurl_load_tls_error_text(void);
/// `ERR_error_string_n`: OpenSSL's text for a packed error code.
void ccurl_tls_error_text(unsigned long code, char *buffer, size_t size);

#endif
