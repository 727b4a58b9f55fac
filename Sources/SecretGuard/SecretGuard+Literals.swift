import PasteCore

extension SecretGuard {
    /// Every trigger literal the scanner's prefilter looks for, each once, in table order: the
    /// rows' (`SecretRule.table`) and then the decoders' (`SecretDecoder.table`), spelled as
    /// there (a literal that ignores case is listed in the case the table gives).
    ///
    /// What `paste --internal-guard-literals` prints for scripts/bench, which times the guard
    /// against `rg -F -f` over the same literals.
    public static var triggerLiterals: [String] {
        var literals: [String] = []
        for trigger in SecretRule.table.flatMap(\.triggers) + SecretDecoder.table.flatMap(\.triggers)
        where !literals.contains(trigger) {
            literals.append(trigger)
        }
        return literals
    }
}
