// One line per shim; see include/ccurl_shims.h for why each exists.
#include "ccurl_shims.h"

CURLcode ccurl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_off_t(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_mime(CURL *h, CURLoption o, curl_mime *v) { return curl_easy_setopt(h, o, v); }
CURLcode ccurl_easy_setopt_write_callback(CURL *h, curl_write_callback f) { return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f); }
CURLcode ccurl_easy_setopt_header_callback(CURL *h, curl_write_callback f) { return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, f); }
CURLcode ccurl_easy_setopt_read_callback(CURL *h, curl_read_callback f) { return curl_easy_setopt(h, CURLOPT_READFUNCTION, f); }
CURLcode ccurl_easy_setopt_seek_callback(CURL *h, curl_seek_callback f) { return curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, f); }
CURLcode ccurl_easy_setopt_xferinfo_callback(CURL *h, curl_xferinfo_callback f) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f); }
CURLcode ccurl_easy_setopt_debug_callback(CURL *h, curl_debug_callback f) { return curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, f); }

CURLcode ccurl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
CURLcode ccurl_easy_getinfo_string(CURL *h, CURLINFO i, const char **v) { return curl_easy_getinfo(h, i, v); }
CURLcode ccurl_easy_getinfo_off_t(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
CURLcode ccurl_easy_getinfo_double(CURL *h, CURLINFO i, double *v) { return curl_easy_getinfo(h, i, v); }
CURLcode ccurl_easy_getinfo_socket(CURL *h, CURLINFO i, curl_socket_t *v) { return curl_easy_getinfo(h, i, v); }

CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }

long ccurl_global_default(void) { return CURL_GLOBAL_DEFAULT; }

#include <openssl/err.h>
#include <openssl/ssl.h>
#ifndef PASTE_LINK_DYNAMIC
int ossl_err_load_crypto_strings(void);
int ossl_err_load_SSL_strings(void);
static int ccurl_tls_error_text_deferred;
#endif
void ccurl_defer_tls_error_text(void) {
#ifndef PASTE_LINK_DYNAMIC
    ccurl_tls_error_text_deferred = OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS, NULL) && OPENSSL_init_ssl(OPENSSL_INIT_NO_LOAD_SSL_STRINGS, NULL);
#endif
}
void ccurl_load_tls_error_text(void) {
#ifndef PASTE_LINK_DYNAMIC
    if (ccurl_tls_error_text_deferred) { ccurl_tls_error_text_deferred = 0; ossl_err_load_crypto_strings(); ossl_err_load_SSL_strings(); }
#endif
}
void ccurl_tls_error_text(unsigned long code, char *buffer, size_t size) { ERR_error_string_n(code, buffer, size); }
