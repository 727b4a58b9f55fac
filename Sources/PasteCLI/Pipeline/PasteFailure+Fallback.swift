import PasteCore

extension PasteFailure {
    // MARK: - Fallback services (issue 25, item 4)

    /// The stderr line of a text that went to a fallback service.
    ///
    /// `m failed (cannot connect to 127.0.0.1:9: connection refused): the text went to 'backup' instead`
    static func fallbackLine(_ detour: FallbackStage.Detour) -> String {
        "\(shown: detour.from) failed (\(detour.reason)): the text went to '\(shown: detour.to)' instead"
    }

    /// The window's line under the URL of a text that went to a fallback service.
    static func fallbackWindowLine(_ detour: FallbackStage.Detour) -> String {
        "Sent to \(Sanitizer.printable(detour.to, limit: 80)): \(Sanitizer.printable(detour.from, limit: 80)) failed."
    }

    /// Said when the next service of the chain would not keep the text as private as `from`.
    static func fallbackRefusedLine(from: String, to: String) -> String {
        "not falling back from '\(shown: from)' to '\(shown: to)': '\(shown: to)' neither encrypts nor keeps "
            + "pastes private ('fallback-public = \(shown: to)' in [service \"\(shown: from)\"] allows it)"
    }

    /// Said when a fallback cannot honour what the paste asked (`-p`, `--burn`, its size).
    static func fallbackSkippedLine(to: String) -> String {
        "not falling back to '\(shown: to)': it cannot make this paste as asked"
    }

    /// Said when a fallback's request could not be made.
    static func fallbackFailedLine(to: String, error: any Error) -> String {
        // (An outbox entry's request is built to a `PasteFailure`: its cause says why.)
        let why = ((error as? PasteFailure)?.cause ?? (error as? any PasteError))?.message ?? "\(error)"
        return "not falling back to '\(shown: to)': \(why)"
    }
}
