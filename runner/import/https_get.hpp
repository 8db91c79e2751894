// Fetching one URL over HTTPS (libcurl): the network part of `runner import`.
#pragma once

#include <chrono>
#include <stdexcept>
#include <string>

namespace gol::runner {

// The request never got an answer: no network, no DNS, refused, timed out, TLS failed. The
// message names the host and libcurl's reason.
struct FetchError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct HttpResponse {
    long status = 0;   // the HTTP status; 0 for a file:// URL
    std::string body;  // decompressed (the Stack Exchange API always compresses)
};

// GET `url` (https://, or file:// for a saved copy). Any HTTP status comes back as it is: an API
// explains its errors in the body. Redirects are followed. Throws FetchError.
HttpResponse https_get(const std::string& url, std::chrono::seconds timeout = std::chrono::seconds(60));

}  // namespace gol::runner
