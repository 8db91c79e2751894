#include "runner/import/https_get.hpp"

#include <curl/curl.h>

#include <memory>

namespace gol::runner {

namespace {

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* body) {
    static_cast<std::string*>(body)->append(data, size * count);
    return size * count;
}

// A body larger than this is not an API's answer page: refused rather than held in memory.
constexpr curl_off_t kMaxBody = curl_off_t{256} << 20;

}  // namespace

HttpResponse https_get(const std::string& url, std::chrono::seconds timeout) {
    // Thread-safe since libcurl 7.84; curl_easy_init would do it implicitly, but unchecked.
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) throw FetchError("cannot initialise libcurl");
    const std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
    if (!curl) throw FetchError("cannot initialise libcurl");
    HttpResponse response;
    char reason[CURL_ERROR_SIZE] = "";
    CURL* c = curl.get();
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    // Nothing sent in clear text; file:// reads a saved copy. Redirects only to https.
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https,file");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "https");
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");  // every encoding libcurl can decode
    curl_easy_setopt(c, CURLOPT_USERAGENT, "gol-runner import");
    curl_easy_setopt(c, CURLOPT_TIMEOUT, static_cast<long>(timeout.count()));
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 20L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // no SIGALRM for DNS timeouts in a threaded program
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, kMaxBody);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, reason);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, append_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &response.body);
    if (const CURLcode code = curl_easy_perform(c); code != CURLE_OK) {
        const std::string why = reason[0] ? reason : curl_easy_strerror(code);
        const bool offline = code == CURLE_COULDNT_RESOLVE_HOST || code == CURLE_COULDNT_RESOLVE_PROXY ||
                             code == CURLE_COULDNT_CONNECT || code == CURLE_OPERATION_TIMEDOUT;
        throw FetchError("cannot fetch " + url + ": " + why + (offline ? " (offline, or the host is down?)" : ""));
    }
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &response.status);
    return response;
}

}  // namespace gol::runner
