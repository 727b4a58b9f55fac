/// What the person chose in the secret guard's dialog: the answers its buttons carry.
enum SecretChoice: Hashable, Sendable {
    case uploadAnyway
    case uploadPrivately
    case cancel
}
