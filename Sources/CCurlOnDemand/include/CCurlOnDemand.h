// libcurl loaded when Foundation's URL loading first calls it, for the command-line tool: the
// Foundation linked into avcapture (FoundationNetworking) refers to 23 libcurl functions, and a
// program linked against libcurl loads it and the 25 libraries it needs (TLS, Kerberos, LDAP, SSH,
// HTTP/2) at every start, some 4.5 MB resident, though no avcapture command loads a URL. This
// shim defines those functions in the program; each loads Debian's libcurl (libcurl.so.4) the
// first time one is called and calls its own. The program is linked with `--as-needed`
// (scripts/build-flags.sh), so it no longer names libcurl among the libraries it needs.
#ifndef CCURLONDEMAND_H
#define CCURLONDEMAND_H

/// Whether libcurl has been loaded in this process by the shim: 1 once a curl function has been
/// called and the library was found, 0 before, -1 when it could not be loaded.
int ccod_state(void);

/// libcurl's functions as the shim defines them (libcurl's handles as pointers, its codes as ints),
/// for the shim's tests; Foundation calls them by libcurl's own declarations.
void *curl_easy_init(void);
void curl_easy_cleanup(void *handle);
const char *curl_easy_strerror(int code);
char *curl_version(void);
void *curl_multi_init(void);
int curl_multi_add_handle(void *multi, void *easy);
int curl_multi_remove_handle(void *multi, void *easy);
int curl_multi_cleanup(void *multi);
void *curl_slist_append(void *list, const char *string);
void curl_slist_free_all(void *list);
void *curl_url(void);
int curl_url_get(void *url, int part, char **value, unsigned flags);
int curl_url_set(void *url, int part, const char *value, unsigned flags);
void curl_free(void *pointer);

/// `curl_easy_setopt` and `curl_easy_getinfo`, variadic in libcurl, with their one argument as a
/// word, through the shim's own variadic definitions (Swift cannot call a C variadic function).
int ccod_easy_setopt(void *handle, int option, void *word);
int ccod_easy_getinfo(void *handle, int info, void *word);

#endif
