import PasteCore

extension SecretGuard {
    /// Every trigger literal the scanner's prefilter looks for, each once, in table order: the
    /// rows' (`SecretRule.table`) and then the decoders' (`SecretDecoder.table`), spelled as
    /// there (a literal that ignores case is listed in the case the table gives).
    ///
    /// What `paste --internal-guard-literals` prints for scripts/bench, which times the guard
    /// against `rg -F -f` over the same literals. A trigger that spans lines (a YAML block
    /// scalar's `: |` and its line end) is listed by its first line, which finds at least
    /// where it does: `rg -F -f` reads one literal a line.
    public static var triggerLiterals: [String] {
        var literals: [String] = []
        for trigger in SecretRule.table.flatMap(\.triggers) + SecretDecoder.table.flatMap(\.triggers) {
            let line = String(trigger.prefix { $0 != "\n" && $0 != "\r" })
            if !line.isEmpty, !literals.contains(line) { literals.append(line) }
        }
        return literals
    }
}
