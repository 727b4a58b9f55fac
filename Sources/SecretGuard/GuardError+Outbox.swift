import PasteCore

extension GuardError: OutboxClassifiable {
    public var outboxVerdict: OutboxFailure.Verdict { .held }
}
