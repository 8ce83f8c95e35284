#ifndef QPLAY_CURL_H
#define QPLAY_CURL_H

#include <curl/curl.h>
#include <stddef.h>

/// One HTTP(S) GET through libcurl, driven by its multi interface so that another
/// thread can wake it (`qplay_curl_transfer_wake`). curl_easy_setopt and
/// curl_easy_getinfo are variadic and do not import into Swift; these calls are typed.
typedef struct qplay_curl_transfer qplay_curl_transfer;

/// A header line or a piece of the body: return `size * count` to go on, anything else
/// ends the transfer.
typedef size_t (*qplay_curl_data_callback)(char *data, size_t size, size_t count, void *context);
/// Called on every turn of the transfer's loop (at least every `poll_ms`): non-zero ends it.
typedef int (*qplay_curl_tick_callback)(void *context);

/// A GET of `url` (http or https only, redirects to those only, at most `max_redirects`),
/// User-Agent qplay, `Icy-MetaData: 1` when `icy_metadata`, HTTP/1.1, no decompression.
/// NULL when libcurl cannot make a handle.
qplay_curl_transfer *qplay_curl_transfer_new(
    const char *url, int icy_metadata, long connect_timeout_ms, long max_redirects, void *context,
    qplay_curl_data_callback on_header, qplay_curl_data_callback on_body, qplay_curl_tick_callback on_tick);

/// Runs the transfer to its end on the calling thread; returns libcurl's CURLcode
/// (its `CURLE_…` constants import into Swift).
int qplay_curl_transfer_run(qplay_curl_transfer *transfer, int poll_ms);

/// Makes a running `qplay_curl_transfer_run` turn its loop now (safe from any thread).
void qplay_curl_transfer_wake(qplay_curl_transfer *transfer);

/// The status code of the last response head received (0 before any).
long qplay_curl_transfer_status(qplay_curl_transfer *transfer);

/// The URL the transfer is at now, after redirects.
const char *qplay_curl_transfer_url(qplay_curl_transfer *transfer);

/// What went wrong with result `code`: libcurl's detailed message when it wrote one.
const char *qplay_curl_transfer_error(qplay_curl_transfer *transfer, int code);

void qplay_curl_transfer_free(qplay_curl_transfer *transfer);

/// Whether `code` is a TLS failure (handshake, certificate, CA file, …).
int qplay_curl_is_tls_error(int code);

#endif
