import PasteCore

/// An outbox entry whose `--url` held credentials written literally (`http://alice:PW@…`, a
/// `?api_key=…`): the outbox keeps the URL with them masked (it never stores a secret), so
/// the entry cannot go again by itself. Held until the person sends it another way.
struct CredentialsNotKept: PasteError {
    /// The entry's URL as stored, credentials masked.
    var url: String

    var message: String {
        "the URL '\(shown: url, limit: Sanitizer.shownURLLength)' held credentials, which the outbox does not keep"
    }

    var hint: String? {
        "write them as ${env:NAME} in --url (kept as written), or send the text again with its URL"
    }

    var exitStatus: ExitStatus { .config }
}
