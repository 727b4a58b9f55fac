/// What the person chose in the secret guard's dialog: the answers its buttons carry.
enum SecretChoice: Hashable, Sendable {
    case uploadAnyway
    /// "Upload with secrets masked": each finding replaced by `[redacted: KIND]` (`GuardStage.mask`).
    case uploadMasked
    case uploadPrivately
    case cancel
}
