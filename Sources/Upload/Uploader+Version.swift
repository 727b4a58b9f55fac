import CurlInterop

extension Uploader {
    /// The libcurl in use (`curl_version()`), for `paste --version`.
    public static var libraryVersion: String { Curl.version }
}
