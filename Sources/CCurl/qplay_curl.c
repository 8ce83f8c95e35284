#include "qplay_curl.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdlib.h>

struct qplay_curl_transfer {
    CURLM *multi;
    CURL *easy;
    struct curl_slist *headers;
    void *context;
    qplay_curl_tick_callback on_tick;
    char error[CURL_ERROR_SIZE];
};

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static void global_init(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

static int on_progress(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow) {
    (void)dltotal; (void)dlnow; (void)ultotal; (void)ulnow;
    qplay_curl_transfer *transfer = context;
    return transfer->on_tick(transfer->context);
}

qplay_curl_transfer *qplay_curl_transfer_new(
    const char *url, int icy_metadata, long connect_timeout_ms, long max_redirects, void *context,
    qplay_curl_data_callback on_header, qplay_curl_data_callback on_body, qplay_curl_tick_callback on_tick) {
    pthread_once(&global_once, global_init);
    qplay_curl_transfer *transfer = calloc(1, sizeof *transfer);
    if (!transfer) return NULL;
    transfer->multi = curl_multi_init();
    transfer->easy = curl_easy_init();
    if (!transfer->multi || !transfer->easy) {
        qplay_curl_transfer_free(transfer);
        return NULL;
    }
    transfer->context = context;
    transfer->on_tick = on_tick;
    if (icy_metadata) transfer->headers = curl_slist_append(transfer->headers, "Icy-MetaData: 1");
    transfer->headers = curl_slist_append(transfer->headers, "Accept: */*");
    CURL *easy = transfer->easy;
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, transfer->headers);
    curl_easy_setopt(easy, CURLOPT_USERAGENT, "qplay");
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(easy, CURLOPT_MAXREDIRS, max_redirects);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, connect_timeout_ms);
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_1_1);
    // No signals from libcurl (its resolver's timeouts would raise SIGALRM in the daemon).
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, transfer->error);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, context);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, context);
    curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(easy, CURLOPT_XFERINFODATA, transfer);
    curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
    if (curl_multi_add_handle(transfer->multi, easy) != CURLM_OK) {
        qplay_curl_transfer_free(transfer);
        return NULL;
    }
    return transfer;
}

int qplay_curl_transfer_run(qplay_curl_transfer *transfer, int poll_ms) {
    for (;;) {
        int running = 0;
        if (curl_multi_perform(transfer->multi, &running) != CURLM_OK) return CURLE_FAILED_INIT;
        int left = 0;
        CURLMsg *message;
        while ((message = curl_multi_info_read(transfer->multi, &left))) {
            if (message->msg == CURLMSG_DONE) return message->data.result;
        }
        if (!running) return CURLE_OK;
        // Between turns: the callbacks' checks (a deadline, a stall, a cancel) run at
        // least this often, and `qplay_curl_transfer_wake` ends the wait at once.
        if (transfer->on_tick(transfer->context)) return CURLE_ABORTED_BY_CALLBACK;
        if (curl_multi_poll(transfer->multi, NULL, 0, poll_ms, NULL) != CURLM_OK) return CURLE_FAILED_INIT;
    }
}

void qplay_curl_transfer_wake(qplay_curl_transfer *transfer) { curl_multi_wakeup(transfer->multi); }

long qplay_curl_transfer_status(qplay_curl_transfer *transfer) {
    long code = 0;
    curl_easy_getinfo(transfer->easy, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

const char *qplay_curl_transfer_url(qplay_curl_transfer *transfer) {
    char *url = NULL;
    curl_easy_getinfo(transfer->easy, CURLINFO_EFFECTIVE_URL, &url);
    return url;
}

const char *qplay_curl_transfer_error(qplay_curl_transfer *transfer, int code) {
    return transfer->error[0] ? transfer->error : curl_easy_strerror((CURLcode)code);
}

int qplay_curl_is_tls_error(int code) {
    switch ((CURLcode)code) {
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CLIENTCERT:
        return 1;
    default:
        return 0;
    }
}

void qplay_curl_transfer_free(qplay_curl_transfer *transfer) {
    if (!transfer) return;
    if (transfer->multi && transfer->easy) curl_multi_remove_handle(transfer->multi, transfer->easy);
    if (transfer->easy) curl_easy_cleanup(transfer->easy);
    if (transfer->multi) curl_multi_cleanup(transfer->multi);
    curl_slist_free_all(transfer->headers);
    free(transfer);
}
