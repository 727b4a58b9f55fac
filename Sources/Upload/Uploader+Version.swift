import CurlInterop

extension Uploader {
    /// The libraries of libcurl that a protocol paste allows can reach: rtmp:// never is
    /// (transfers are limited to http and https), and the static build answers librtmp's entry
    /// points with stubs (`ccurl_trimmed.c`), so `curl_version()`'s `librtmp/…` is left out.
    static let unusedLibraries = ["librtmp/"]

    /// The libcurl in use (`curl_version()`) and the libraries it really uses, for
    /// `paste --version`.
    public static var libraryVersion: String {
        Curl.version.split(separator: " ").filter { word in
            !unusedLibraries.contains { word.hasPrefix($0) }
        }.joined(separator: " ")
    }
}
