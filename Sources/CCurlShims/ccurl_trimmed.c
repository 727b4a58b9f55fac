// The libcurl that paste links is Debian's own static libcurl.a (see Package.swift: loading the
// shared libcurl and its 35 dependent libraries is most of a hotkey run's start-up). That archive
// is built with LDAP, RTMP and GSS-API (Kerberos/SPNEGO) support, whose libraries Debian ships
// only as shared objects that pull in GnuTLS, SASL and Kerberos. paste never reaches that code:
// every transfer is limited to http and https (CURLOPT_PROTOCOLS_STR and
// CURLOPT_REDIR_PROTOCOLS_STR) and never enables Negotiate authentication. So instead of
// linking those libraries, these definitions answer the few entry points libcurl.a names with
// the library's own "failed" value. The set is exactly what the linker reports missing; a
// libcurl that names more fails to link (then build with PASTE_LINK=dynamic).
//
// Not compiled when PASTE_LINK=dynamic (the shared libcurl brings the real libraries).
#ifndef PASTE_LINK_DYNAMIC

#include <stddef.h>

// MARK: - OpenLDAP (libldap, liblber): ldap:// and ldaps:// are never allowed.

#define PASTE_LDAP_OTHER 0x50  // LDAP_OTHER
#define PASTE_LDAP_URL_ERR_BADSCHEME 3  // LDAP_URL_ERR_BADSCHEME

int ldap_init_fd(void) { return PASTE_LDAP_OTHER; }
int ldap_url_parse(const char *url, void **description) {
    (void)url;
    if (description) *description = NULL;
    return PASTE_LDAP_URL_ERR_BADSCHEME;
}
void ldap_free_urldesc(void *description) { (void)description; }
int ldap_pvt_url_scheme2proto(const char *scheme) { (void)scheme; return -1; }
int ldap_get_option(void) { return -1; }  // LDAP_OPT_ERROR: curl_version() then names no LDAP
int ldap_set_option(void) { return -1; }
int ldap_start_tls(void) { return PASTE_LDAP_OTHER; }
int ldap_sasl_bind(void) { return PASTE_LDAP_OTHER; }
int ldap_parse_sasl_bind_result(void) { return PASTE_LDAP_OTHER; }
int ldap_search_ext(void) { return PASTE_LDAP_OTHER; }
int ldap_result(void) { return -1; }
int ldap_parse_result(void) { return PASTE_LDAP_OTHER; }
int ldap_msgtype(void) { return -1; }
int ldap_msgfree(void) { return -1; }
int ldap_abandon_ext(void) { return PASTE_LDAP_OTHER; }
int ldap_unbind_ext(void) { return PASTE_LDAP_OTHER; }
int ldap_get_dn_ber(void) { return PASTE_LDAP_OTHER; }
int ldap_get_attribute_ber(void) { return PASTE_LDAP_OTHER; }
void ldap_memfree(void *pointer) { (void)pointer; }
char *ldap_err2string(int code) { (void)code; return "LDAP is not part of paste's libcurl"; }
int ber_sockbuf_add_io(void) { return -1; }
void ber_free(void *element, int freeBuffer) { (void)element; (void)freeBuffer; }
void ber_bvfree(void *value) { (void)value; }
void ber_memfree(void *pointer) { (void)pointer; }
void ber_memvfree(void **vector) { (void)vector; }

// MARK: - librtmp: rtmp:// is never allowed.

void *RTMP_Alloc(void) { return NULL; }  // libcurl reports out of memory and stops
void RTMP_Init(void *session) { (void)session; }
void RTMP_Free(void *session) { (void)session; }
void RTMP_Close(void *session) { (void)session; }
int RTMP_SetupURL(void) { return 0; }  // FALSE
int RTMP_Connect1(void) { return 0; }
int RTMP_ConnectStream(void) { return 0; }
int RTMP_Read(void) { return -1; }
int RTMP_Write(void) { return -1; }
void RTMP_SetBufferMS(void) {}

// MARK: - GSS-API (Kerberos, SPNEGO): Negotiate authentication is never enabled.

#define PASTE_GSS_S_FAILURE (13u << 16)  // GSS_S_FAILURE

void *GSS_C_NT_HOSTBASED_SERVICE = NULL;

#define PASTE_GSS_FAILS(name) \
    unsigned int name(unsigned int *minor_status) { \
        if (minor_status) *minor_status = 0; \
        return PASTE_GSS_S_FAILURE; \
    }
PASTE_GSS_FAILS(gss_import_name)
PASTE_GSS_FAILS(gss_display_name)
PASTE_GSS_FAILS(gss_display_status)
PASTE_GSS_FAILS(gss_init_sec_context)
PASTE_GSS_FAILS(gss_inquire_context)
PASTE_GSS_FAILS(gss_delete_sec_context)
PASTE_GSS_FAILS(gss_release_buffer)
PASTE_GSS_FAILS(gss_release_name)
PASTE_GSS_FAILS(gss_wrap)
PASTE_GSS_FAILS(gss_unwrap)

#endif
