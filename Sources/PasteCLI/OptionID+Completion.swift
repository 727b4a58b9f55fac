/// What the shell completions (completions/, written by `CompletionScript`) know of each option
/// beyond `optionTable`: what its value is, which options it excludes and whether it repeats.
///
/// A `switch` over every case with no default: a new option does not build until it says how
/// it completes.
extension OptionID {
    /// What an option's value is, for completing it.
    public enum CompletionValue: Sendable, Equatable {
        /// No value: a flag.
        case none
        /// A file name; `label` names it in zsh's listing.
        case file(label: String)
        /// A ShareX custom uploader: `*.sxcu` files (and folders to find them in).
        case shareXFile
        /// A service name, from `paste --list-services` (of the config named by `--config`).
        case service
        /// A URL.
        case url
        /// One of these words.
        case words(label: String, [String])
        /// Free text, nothing to complete; `label` names it in zsh's listing.
        case text(label: String)
    }

    /// What the option's value is (`.none` for a flag: exactly the options whose
    /// `OptionSpec.argument` is nil).
    public var completionValue: CompletionValue {
        switch self {
        case .file: .file(label: "file")
        case .config: .file(label: "config file")
        case .importSxcu: .shareXFile
        case .service: .service
        case .url, .delete: .url
        case .expiry: .words(label: "duration", ["10m", "1h", "1d", "7d", "30d", "never"])
        case .title: .text(label: "title")
        case .lang: .text(label: "language")
        case .timeout: .text(label: "seconds")
        case .update: .text(label: "living paste name")
        case .null, .clipboard, .primary, .image, .initConfig, .listServices, .private, .burn, .new, .noCopy, .json,
            .quiet, .verbose, .dryRun, .qr, .force, .insecure, .notify, .noNotify, .prompt, .pick, .history, .retry,
            .outbox, .deleteLast, .help, .version, .redact, .bindKey, .unbindKey:
            .none
        }
    }

    /// The options that cannot follow this one on a command line, for zsh's `_arguments`
    /// (which then leaves them out); the option itself is listed when it may come only once.
    /// `nil`: it ends the options (`--help`, `--version`: nothing is offered after them).
    public var excludes: [OptionID]? {
        switch self {
        case .help, .version: nil
        case .clipboard, .primary: [.clipboard, .primary]
        case .service, .url: [.service, .url]
        case .notify, .noNotify: [.notify, .noNotify]
        case .json: [.verbose]
        case .verbose: [.verbose, .json]
        case .null, .title, .lang, .private, .expiry, .quiet, .dryRun, .update, .redact: [self]
        case .file, .image, .config, .initConfig, .listServices, .importSxcu, .burn, .new, .noCopy, .qr, .force,
            .timeout, .insecure, .prompt, .pick, .history, .retry, .outbox, .delete, .deleteLast, .bindKey, .unbindKey:
            []
        }
    }

    /// Whether the option may be given more than once (`-f` names one file each time).
    public var repeats: Bool { self == .file }
}
