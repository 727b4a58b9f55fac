import PasteCore
import SecretGuard

/// The secret guard's question at a hotkey, in words: what the window and the desktop
/// notification say, and which answers they offer.
///
/// Every finding is named (up to `listed`, then a count), so a file with an AWS access key id
/// on line 1 and its secret on line 2 names both: the person decides on all of it, not on the
/// first thing seen. "Upload as private" is offered only where the service's private mode
/// differs from what it does anyway: on a service whose every paste is unlisted (termbin,
/// paste.rs, PrivateBin) it would promise nothing more than "Upload anyway".
struct SecretQuestion: Equatable {
    /// The findings named by kind and line before the rest are counted.
    static let listed = 5

    /// The question's text.
    var message: String
    /// Whether "Upload as private" is offered.
    var offersPrivate: Bool
    /// Whether "Upload with secrets masked" is offered: the text is held whole, in memory or a
    /// file (a stream being sent as it is read cannot be masked: `PasteInput.isMaskable`).
    var offersMasked = true
    /// Whether it comes first (the default answer): the service is public, where a pasted key
    /// is out in the open (not PrivateBin's encrypted pastes, not an always-private service).
    var masksFirst: Bool

    /// The question for `findings` (at least one) about an upload to `service`.
    init(findings: [SecretFinding], service: ServiceProfile) {
        precondition(!findings.isEmpty, "the guard asks only about a finding")
        let named = findings.prefix(Self.listed).map(\.description)
        var list = named.joined(separator: ", ")
        if findings.count > Self.listed { list += " and \(findings.count - Self.listed) more" }
        let subject = findings.count == 1 ? "a secret" : "\(findings.count) secrets"
        message = "This text looks like it holds \(subject): \(list). Upload it to \(service.name)?"
        offersPrivate = Self.privateDiffersFromDefault(service)
        masksFirst = !service.protectsContent
    }

    /// The answers offered, in order, with their notification action keys and labels.
    var answers: [(choice: SecretChoice, key: String, label: String)] {
        var answers: [(choice: SecretChoice, key: String, label: String)] = [
            (.uploadAnyway, NotificationActionKey.upload, "Upload anyway")
        ]
        if offersMasked {
            let masked = (SecretChoice.uploadMasked, NotificationActionKey.redact, "Upload with secrets masked")
            if masksFirst { answers.insert(masked, at: 0) } else { answers.append(masked) }
        }
        return answers
    }

    /// Whether `-p` changes anything on `service`: it can be honoured, and the service's
    /// default is not already unlisted (`isAlwaysPrivate`, or PrivateBin, whose pastes are
    /// always unlisted and encrypted).
    static func privateDiffersFromDefault(_ service: ServiceProfile) -> Bool {
        service.canBePrivate && !service.isAlwaysPrivate && service.format != .privatebin
    }
}
