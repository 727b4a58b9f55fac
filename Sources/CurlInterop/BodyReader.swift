internal import CCurlShims
internal import Glibc
internal import SystemInterop

/// Reads a `BodySource` in chunks into buffers libcurl hands us, teeing streams to a file.
///
/// One reader per body or multipart part (and one more inside for the content of an `.encoded`
/// source). It owns the descriptors it opened (the file, the tee) and closes them in `deinit`; a
/// stream's own descriptor belongs to the caller. When a read fails, or the inspector refuses a
/// chunk, the reason is kept in `failure` and the callback returns the abort value: errors never
/// cross C.
final class BodyReader {
    private let source: BodySource
    /// The opened file of a `.file` source (a stream's descriptor belongs to the caller).
    private let file: FileDescriptor?
    /// The tee file, opened for appending; nil when there is none.
    private let tee: TeeWriter?
    /// For `.encoded`: the reader of the content, which the encoding rewrites.
    private let content: BodyReader?
    /// Where `.bytes` and `.file` are; for `.bytes` the next byte to send.
    private var offset: Int64 = 0
    /// For `.segments`: the piece being sent, and the next byte to send within it.
    private var segmentIndex = 0
    private var segmentOffset = 0
    /// Set when a read or tee write failed, or the inspector refused; the transfer was
    /// aborted because of it.
    private(set) var failure: CurlError.LocalFailure?
    /// Whether the source was read to its end (its last byte handed over).
    private(set) var hasReachedEnd = false
    /// Sees every byte of a `.stream` body once, in order, as it is read (a stream cannot
    /// rewind, so nothing is seen twice): lets the caller hash a stream while it is sent
    /// instead of reading the tee file again afterwards.
    var streamObserver: ((Span<UInt8>) -> Void)? {
        didSet { content?.streamObserver = streamObserver }
    }
    /// Sees the content before libcurl does and may refuse it (`BodyInspector`); for an
    /// `.encoded` source, the content before the encoding.
    var inspector: (any BodyInspector)? {
        didSet { content?.inspector = inspector }
    }

    /// Called once when a `.stream` body reaches its end, after the tee file was flushed (so
    /// it holds every byte), before libcurl learns of the end: the moment the caller knows the
    /// whole text was read, whatever the server answers later.
    var onStreamEnd: (() -> Void)? {
        didSet { content?.onStreamEnd = onStreamEnd }
    }
    /// Asked when a signal interrupts a read of a `.stream` (`EINTR`): true aborts the
    /// transfer (the run was told to end), false reads on. Nil: reads always go on.
    var isStopped: (() -> Bool)? {
        didSet { content?.isStopped = isStopped }
    }

    // MARK: `.encoded` state

    /// Where an `.encoded` body is: its prefix, its content, its suffix, done.
    private enum Part { case prefix, content, suffix, done }
    private var part = Part.prefix
    /// Encoded bytes not yet handed over (an escaped chunk can outgrow libcurl's buffer).
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// Where the content's raw chunks are read before they are encoded.
    private var scratch: UnsafeMutableRawBufferPointer?
    /// The most content read at a time for encoding: libcurl's default upload buffer.
    private static let scratchSize = 64 * 1024

    /// Opens what the source needs: the file, and the tee file for a stream.
    ///
    /// - Throws: `CurlError` with a `.read`/`.tee` local failure when `open` fails.
    init(_ source: BodySource) throws(CurlError) {
        self.source = source
        switch source {
        case .bytes, .segments:
            file = nil
            tee = nil
            content = nil
        case .file(let path, _):
            do {
                file = try FileDescriptor.open(path, .readOnly)
            } catch {
                throw CurlError(code: .readError, detail: "", localFailure: .read(path: path, errno: error))
            }
            tee = nil
            content = nil
        case .stream(_, let prefix, let teePath, let holdsPrefix):
            file = nil
            content = nil
            if let teePath {
                do {
                    tee = try TeeWriter(path: teePath, continuing: holdsPrefix ? prefix.count : 0)
                } catch {
                    throw CurlError(code: .readError, detail: "", localFailure: .tee(path: teePath, errno: error))
                }
            } else {
                tee = nil
            }
        case .encoded(_, let inner, _, _):
            file = nil
            tee = nil
            content = try BodyReader(inner)
        }
    }

    deinit { scratch?.deallocate() }

    /// A name for the source in error messages.
    private var sourceName: String {
        switch source {
        case .bytes, .segments, .encoded: "<memory>"
        case .file(let path, _): path
        case .stream(let fd, _, _, _): fd == 0 ? "<stdin>" : "<fd \(fd)>"
        }
    }

    /// Whether the source's length is unknown before its end (a stream, encoded content).
    var isUnknownLength: Bool { source.knownLength == nil }

    /// Whether nothing is left to hand over: the end was read, or there never was anything.
    var isFinished: Bool { hasReachedEnd || source.knownLength == 0 }

    /// The failure of this reader, or of the content reader inside it.
    var anyFailure: CurlError.LocalFailure? { failure ?? content?.failure }

    /// Fills `buffer` with the next bytes; returns how many, 0 at the end, or -1 after a failure
    /// (recorded in `failure`).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        switch source {
        case .bytes(let bytes):
            let start = Int(offset)
            let count = min(buffer.count, bytes.count - start)
            guard count > 0 else { return end() }
            bytes.withUnsafeBytes { whole in
                base.copyMemory(from: whole.baseAddress! + start, byteCount: count)
            }
            offset += Int64(count)
            hasReachedEnd = offset == Int64(bytes.count)
            if !inspect(base, count, isLast: hasReachedEnd) { return -1 }
            return count
        case .segments(let segments):
            // Several pieces may fit in one buffer: fill it, so small framing pieces and the
            // content go out in as few writes as one joined buffer would.
            var filled = 0
            while filled < buffer.count, segmentIndex < segments.count {
                let segment = segments[segmentIndex]
                let count = min(buffer.count - filled, segment.count - segmentOffset)
                if count > 0 {
                    segment.withUnsafeBytes { whole in
                        (base + filled).copyMemory(from: whole.baseAddress! + segmentOffset, byteCount: count)
                    }
                }
                filled += count
                segmentOffset += count
                if segmentOffset == segment.count {
                    segmentIndex += 1
                    segmentOffset = 0
                }
            }
            offset += Int64(filled)
            return filled == 0 ? end() : filled
        case .file(let path, let size):
            let wanted = Int(min(Int64(buffer.count), size - offset))
            guard wanted > 0 else { return end() }
            let got: Int
            do {
                got = try file!.read(into: UnsafeMutableRawBufferPointer(start: base, count: wanted))
            } catch {
                failure = .read(path: path, errno: error)
                return -1
            }
            offset += Int64(got)
            // The length is known: the end is checked before the last bytes go, so a refusal
            // leaves the request short of its Content-Length. (libcurl need not ask again
            // after the last byte, so the end is marked here.)
            hasReachedEnd = offset >= size || got == 0
            if !inspect(base, got, isLast: hasReachedEnd) { return -1 }
            return got
        case .stream(_, let prefix, _, _) where offset < Int64(prefix.count):
            if offset == 0 { startObservingOnTee() }
            // The start the caller already read (to inspect it) goes out first.
            let start = Int(offset)
            let count = min(buffer.count, prefix.count - start)
            prefix.withUnsafeBytes { whole in
                base.copyMemory(from: whole.baseAddress! + start, byteCount: count)
            }
            offset += Int64(count)
            // Teed before it is inspected: a refused chunk was consumed too, and the outbox
            // copy of a refused stream (held by the secret guard) must hold every byte of it.
            if !appendToTee(UnsafeRawBufferPointer(start: base, count: count)) { return -1 }
            if !inspectStreamed(base, count) { return -1 }
            return count
        case .stream(let descriptor, _, _, _):
            if offset == 0 { startObservingOnTee() }
            var got = 0
            do {
                // A pipe may stay silent for long: a signal that interrupts the wait is asked
                // about (`isStopped`) rather than waited through.
                while true {
                    do {
                        got = try FileDescriptor.withUnowned(descriptor) { (stream) throws(Errno) in
                            try stream.read(into: buffer, retryOnInterrupt: isStopped == nil)
                        }
                        break
                    } catch .interrupted {
                        if isStopped?() == true { return -1 }
                    }
                }
            } catch {
                failure = .read(path: sourceName, errno: error)
                return -1
            }
            guard got > 0 else {
                // The end: checked before libcurl learns of it (no final chunk if refused), and
                // the tee file must hold everything before libcurl finishes the request.
                if let inspector, !inspector.finish() {
                    failure = .refused
                    return -1
                }
                guard finishTee() else { return -1 }
                if let onStreamEnd {
                    self.onStreamEnd = nil
                    onStreamEnd()
                }
                return end()
            }
            offset += Int64(got)
            if !appendToTee(UnsafeRawBufferPointer(start: base, count: got)) { return -1 }
            if !inspectStreamed(base, got) { return -1 }
            return got
        case .encoded(let prefix, _, let encoding, let suffix):
            return readEncoded(into: buffer, prefix: prefix, encoding: encoding, suffix: suffix)
        }
    }

    /// Marks the end of the source and returns 0, libcurl's "no more".
    private func end() -> Int {
        hasReachedEnd = true
        return 0
    }

    /// Shows a chunk about to be handed over to the inspector (and, when `isLast`, the end);
    /// false, with `failure` set, when it refuses.
    private func inspect(_ base: UnsafeMutableRawPointer, _ count: Int, isLast: Bool) -> Bool {
        guard let inspector else { return true }
        let bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
        guard inspector.inspect(bytes.span), !isLast || inspector.finish() else {
            failure = .refused
            return false
        }
        return true
    }

    /// Fills `buffer` from an `.encoded` source: the prefix, the content read (and inspected)
    /// by the inner reader and encoded a chunk at a time, then the suffix.
    ///
    /// Content is read only into an empty buffer: a stream's read may block, and bytes already
    /// in hand should go out first.
    private func readEncoded(
        into buffer: UnsafeMutableRawBufferPointer, prefix: [UInt8], encoding: BodyEncoding, suffix: [UInt8]
    ) -> Int {
        let base = buffer.baseAddress!
        var filled = 0
        func copy(_ bytes: [UInt8], from start: Int) -> Int {
            let count = min(buffer.count - filled, bytes.count - start)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes { whole in
                (base + filled).copyMemory(from: whole.baseAddress! + start, byteCount: count)
            }
            filled += count
            return count
        }
        while filled < buffer.count {
            if pendingStart < pending.count {
                pendingStart += copy(pending, from: pendingStart)
                continue
            }
            switch part {
            case .prefix:
                offset += Int64(copy(prefix, from: Int(offset)))
                if offset == Int64(prefix.count) {
                    part = .content
                    offset = 0
                }
            case .content:
                guard filled == 0 else { return filled }
                let raw = scratch ?? .allocate(byteCount: Self.scratchSize, alignment: 16)
                scratch = raw
                let got = content!.read(into: raw)
                if got < 0 {
                    failure = content!.failure
                    return -1
                }
                if got == 0 {
                    part = .suffix
                    continue
                }
                pending.removeAll(keepingCapacity: true)
                pendingStart = 0
                let chunk = UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: got)
                encoding.encode(chunk.span, &pending)
            case .suffix:
                offset += Int64(copy(suffix, from: Int(offset)))
                if offset == Int64(suffix.count) { part = .done }
            case .done:
                return filled == 0 ? end() : filled
            }
        }
        return filled
    }

    /// Whether a stream's observer runs on its tee's thread (`startObservingOnTee`).
    private var isObservedByTee = false

    /// At a stream's first read: when it is teed, its observer (the digest) is moved to the
    /// tee's follower (`TeeWriter.follow(with:)`), which sees the copy of every block the tee
    /// makes anyway, on a thread of its own. The inspector (the secret guard) stays here, on the
    /// reading thread, and sees each chunk before libcurl sends it.
    ///
    /// PERF(stream): the SHA-256 (0.86 s/GiB, over half of paste's CPU on a piped gigabyte) runs
    /// beside the pipe's read and the socket's send instead of before each send. The scan runs
    /// on the chunk the pipe's read has just copied into libcurl's buffer, still in this core's
    /// cache: on the tee's observing thread it read blocks another core had written, and cost a
    /// third more (the candidate search 272-296 samples a GiB there, 180-189 here, `perf record
    /// -F 2000`; issue 44, session 12). Every byte is also refused before it goes, not a block
    /// or two later. (`TeeWriter.observe(with:)` can still run a stopping observer on the tee.)
    ///
    /// The observer is then touched only by the tee's thread until its `flush` returns
    /// (`finishTee`: at the stream's end, and by the handle after any transfer), so its owner
    /// reads the digest after the transfer, as it always did.
    private func startObservingOnTee() {
        guard !isObservedByTee, let tee else { return }
        if let streamObserver {
            tee.follow { block in
                streamObserver(block.assumingMemoryBound(to: UInt8.self).span)
            }
            isObservedByTee = true
        }
    }

    /// Inspects a stream's chunk, just teed, and shows it to the observer (here, or on the
    /// tee's thread: `isObservedByTee`). False, with `failure` set, when refused.
    private func inspectStreamed(_ base: UnsafeMutableRawPointer, _ count: Int) -> Bool {
        guard inspect(base, count, isLast: false) else { return false }
        if !isObservedByTee { observe(base, count) }
        return true
    }

    /// Shows a chunk just read to the stream observer, if any.
    private func observe(_ base: UnsafeMutableRawPointer, _ count: Int) {
        guard let streamObserver else { return }
        let bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
        streamObserver(bytes.span)
    }

    /// Appends a chunk to the tee file; false (with `failure` set) when that fails.
    private func appendToTee(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard let tee else { return true }
        do {
            try tee.append(chunk)
            return true
        } catch {
            failure = .tee(path: tee.path, errno: error)
            return false
        }
    }

    /// Writes out what the tee still stages, so the file holds every byte read so far; false
    /// (with `failure` set, unless an earlier failure is already there) when that fails.
    ///
    /// Called at the end of the stream, and by the owner after a transfer that stopped early.
    @discardableResult
    func finishTee() -> Bool {
        if let content { return content.finishTee() }
        guard let tee else { return true }
        do {
            try tee.flush()
            return true
        } catch {
            if failure == nil { failure = .tee(path: tee.path, errno: error) }
            return false
        }
    }

    /// Moves back to `position` so libcurl can send the body again (a 307/308 redirect or an
    /// authentication retry); false when the source is a stream, which cannot rewind.
    func rewind(to position: Int64) -> Bool {
        if position == 0 { inspector?.restart() }
        hasReachedEnd = false
        switch source {
        case .bytes(let bytes):
            guard position >= 0, position <= Int64(bytes.count) else { return false }
            offset = position
            return true
        case .segments(let segments):
            guard position >= 0 else { return false }
            var remaining = position
            var index = 0
            while index < segments.count, remaining >= Int64(segments[index].count) {
                remaining -= Int64(segments[index].count)
                index += 1
            }
            // Past the end only when bytes remain after the last piece.
            guard index < segments.count || remaining == 0 else { return false }
            segmentIndex = index
            segmentOffset = Int(remaining)
            offset = position
            return true
        case .file:
            guard (try? file!.seek(to: position)) != nil else { return false }
            offset = position
            return true
        case .stream:
            return false
        case .encoded:
            // Encoded bytes have no position of their own in the content: only the start.
            guard position == 0, content!.rewind(to: 0) else { return false }
            part = .prefix
            offset = 0
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            return true
        }
    }
}

// MARK: - Trampolines shared by the body read and the mime part read

/// `curl_read_callback` for a `BodyReader` passed (unretained) as the user data.
///
/// The reader's owner (the `EasyHandle` or the `Mime`) outlives the transfer.
let bodyReadTrampoline: curl_read_callback = { buffer, size, count, userData in
    let reader = Unmanaged<BodyReader>.fromOpaque(userData!).takeUnretainedValue()
    let got = reader.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
    return got < 0 ? Int(CURL_READFUNC_ABORT) : got
}

/// `curl_seek_callback` for a `BodyReader`: only `SEEK_SET` is used by libcurl for rewinding.
let bodySeekTrampoline: curl_seek_callback = { userData, offset, origin in
    let reader = Unmanaged<BodyReader>.fromOpaque(userData!).takeUnretainedValue()
    guard origin == SEEK_SET else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
    return reader.rewind(to: Int64(offset)) ? Int32(CURL_SEEKFUNC_OK) : Int32(CURL_SEEKFUNC_CANTSEEK)
}
