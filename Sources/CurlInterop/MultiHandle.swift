internal import CCurlShims

/// Several transfers driven together on one thread: the owner of a `CURLM *` multi handle.
///
/// Transfers added to the same multi handle share its connection cache, so a batch to one
/// host reuses connections. The handle keeps every added `EasyHandle` alive until it is
/// removed; `deinit` removes any left, then cleans up (libcurl's required order).
public final class MultiHandle {
    private let raw: UnsafeMutableRawPointer
    /// The added transfers, by their `CURL *`.
    private var transfers: [UnsafeMutableRawPointer: EasyHandle] = [:]

    /// Makes a multi handle. Wraps `curl_multi_init`.
    public init() throws(CurlError) {
        try Curl.globalInit()
        guard let raw = curl_multi_init() else {
            throw CurlError(code: .failedInit, detail: "curl_multi_init failed")
        }
        self.raw = raw
    }

    deinit {
        for easy in transfers.keys { curl_multi_remove_handle(raw, easy) }
        curl_multi_cleanup(raw)
    }

    /// How many transfers are added and not yet removed.
    public var activeCount: Int { transfers.count }

    /// Limits open connections per host (`CURLMOPT_MAX_HOST_CONNECTIONS`); extra transfers wait
    /// for a free connection instead of opening one.
    public func setMaximumHostConnections(_ count: Int) throws(CurlError) {
        let code = ccurl_multi_setopt_long(raw, CURLMOPT_MAX_HOST_CONNECTIONS, count)
        guard code == CURLM_OK else { throw CurlError(multiCode: code) }
    }

    /// Starts a transfer. Wraps `curl_multi_add_handle`.
    public func add(_ easy: EasyHandle) throws(CurlError) {
        easy.resetResponse()
        let code = curl_multi_add_handle(raw, easy.raw)
        guard code == CURLM_OK else { throw CurlError(multiCode: code) }
        transfers[easy.raw] = easy
    }

    /// Stops following a transfer (finished or not). Wraps `curl_multi_remove_handle`.
    public func remove(_ easy: EasyHandle) {
        guard transfers.removeValue(forKey: easy.raw) != nil else { return }
        curl_multi_remove_handle(raw, easy.raw)
    }

    /// Drives all transfers until at least one finishes (or none are left), then returns the
    /// finished ones with their results. Finished transfers are removed.
    ///
    /// Wraps `curl_multi_perform`, `curl_multi_poll` and `curl_multi_info_read`.
    /// - Parameter pollMilliseconds: the most one wait for socket activity lasts; libcurl's
    ///   own timers (timeouts) still fire inside it.
    public func performUntilSomeFinish(
        pollMilliseconds: Int32 = 1000
    ) throws(CurlError) -> [(EasyHandle, Result<Void, CurlError>)] {
        while !transfers.isEmpty {
            var running: Int32 = 0
            let code = curl_multi_perform(raw, &running)
            guard code == CURLM_OK else { throw CurlError(multiCode: code) }
            let finished = readFinished()
            if !finished.isEmpty { return finished }
            let pollCode = curl_multi_poll(raw, nil, 0, pollMilliseconds, nil)
            guard pollCode == CURLM_OK else { throw CurlError(multiCode: pollCode) }
        }
        return []
    }

    private func readFinished() -> [(EasyHandle, Result<Void, CurlError>)] {
        var finished: [(EasyHandle, Result<Void, CurlError>)] = []
        var queued: Int32 = 0
        while let message = curl_multi_info_read(raw, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easyRaw = message.pointee.easy_handle,
                let easy = transfers[easyRaw]
            else { continue }
            let code = message.pointee.data.result
            let result: Result<Void, CurlError> =
                code == CURLE_OK || (code == CURLE_WRITE_ERROR && easy.stoppedAtAllowance)
                ? .success(()) : .failure(easy.makeError(code))
            finished.append((easy, result))
        }
        for (easy, _) in finished { remove(easy) }
        return finished
    }
}

@available(*, unavailable, message: "a libcurl multi handle belongs to one thread")
extension MultiHandle: Sendable {}
