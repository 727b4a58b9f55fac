/// How long a transfer may take, phase by phase: the one declaration of each timeout, from the
/// config (`Settings.timeouts`) through the plan to libcurl (`TransportOptions.timeouts`).
public struct TransferTimeouts: Sendable, Equatable {
    /// The longest wait for a connection (`connect-timeout`; CURLOPT_CONNECTTIMEOUT_MS).
    public var connect: Duration
    /// The longest a whole upload may take (`--timeout`, else `timeout`; CURLOPT_TIMEOUT_MS), if
    /// bounded (nil: no limit beyond the stall timeout).
    public var total: Duration?
    /// How long a transfer may move fewer than `Uploader.stallBytesPerSecond` bytes a second
    /// before it is abandoned (`stall-timeout`; CURLOPT_LOW_SPEED_TIME, whole seconds, at least
    /// 1). It also bounds a raw TCP exchange's waits.
    public var stall: Duration
    /// The longest the answer may take once the request (its body included) is sent
    /// (`response-timeout`), unless the request carries its service's own
    /// (`UploadRequest.responseTimeout`): a server that trickles its answer just above the stall
    /// limit cannot hold a run for ever.
    public var response: Duration

    /// Timeouts; every default is the documented one (10 s, none, 30 s, 60 s).
    public init(
        connect: Duration = .seconds(10), total: Duration? = nil, stall: Duration = .seconds(30),
        response: Duration = .seconds(60)
    ) {
        self.connect = connect
        self.total = total
        self.stall = stall
        self.response = response
    }
}
