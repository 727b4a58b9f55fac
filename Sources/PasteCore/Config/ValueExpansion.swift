import FoundationEssentials
import SystemInterop

/// Fills the holes of request templates: `${env:NAME}`, `${file:PATH}` and `${cmd:COMMAND}`
/// (where secrets come from), placeholders, and ShareX's `{random:…}`, `{select:…}`,
/// `{prompt:…}` and `{base64:…}`.
///
/// Secrets never appear in argv: they are read from the environment, a file or a command's
/// output at the moment a request is built, and every value that came from a reference is
/// remembered in `secrets` and registered with the run's `Redactor` (`Context.redactor`), so
/// that whatever prints or stores a request (`--dry-run`, `--verbose`, the outbox, the
/// history) masks it by value.
public struct ValueExpansion: Sendable {
    /// The run's environment.
    public var context: Context
    /// The values that came from a reference, to be masked wherever they are shown.
    public private(set) var secrets: [String] = []

    /// How long a `${cmd:…}` command may run before it is stopped (a password manager waiting
    /// for a PIN it will never get must not hang a hotkey forever).
    public static let commandTimeout: Duration = .seconds(10)

    public init(context: Context) { self.context = context }

    /// The value with every reference replaced and placeholders left as written.
    public mutating func expand(_ value: ConfigValue) throws(ConfigError) -> String {
        var result = ""
        for part in value.template.parts {
            if case .reference(let reference) = part {
                result += try resolve(reference, origin: value.origin, key: value.key)
            } else {
                result += (try? Template([part]).configText()) ?? ""
            }
        }
        return result
    }

    /// Renders a request template.
    ///
    /// - Parameters:
    ///   - value: the template and where it was written (for messages).
    ///   - values: the paste's values; a placeholder without one takes its fallback, else "".
    ///   - rendering: which values are escaped, and how.
    /// - Throws: a `ConfigError` for a reference that cannot be resolved, a `RequestError` when
    ///   the person cancels a question, or what `Context.asker` throws when no window can be
    ///   shown.
    public mutating func render(
        _ value: ConfigValue, values: [Placeholder: String], rendering: Rendering = .verbatim
    ) throws(PartError) -> String {
        try render(value.template, origin: value.origin, values: values, rendering: rendering, key: value.key)
    }

    /// Renders `template` (see `render(_:values:rendering:)`); `key` is the config key it was
    /// written at, for messages.
    public mutating func render(
        _ template: Template, origin: (path: String, line: Int)?, values: [Placeholder: String],
        rendering: Rendering, key: String? = nil
    ) throws(PartError) -> String {
        var result = ""
        for part in template.parts {
            switch part {
            case .literal(let text):
                result += text
            case .placeholder(let placeholder, let fallback):
                // A fallback stands for a value: it is escaped as one, once.
                // (Not `??`: its autoclosure rethrows untyped.)
                let value: String
                if let given = values[placeholder] {
                    value = given
                } else if let fallback {
                    value = try render(fallback, origin: origin, values: values, rendering: .verbatim, key: key)
                } else {
                    value = ""
                }
                result += rendering.escaping.apply(value)
            case .reference(let reference):
                let secret = try PartError.lift { () throws(ConfigError) in
                    try resolve(reference, origin: origin, key: key)
                }
                result += rendering.escapesReferences ? rendering.escaping.apply(secret) : secret
            case .answer:
                preconditionFailure("answer values are refused in request templates when the config is read")
            case .random, .select, .prompt, .base64:
                let value = try compute(part, origin: origin, values: values, key: key)
                result += rendering.escapesComputed ? rendering.escaping.apply(value) : value
            }
        }
        return result
    }

    /// Replaces the parts of a result template that can be known before the answer: the
    /// paste's values (percent-encoded, as in a URL) and the person's answers. What is left
    /// reads only the answer, so reading it needs no window.
    public mutating func resolveBeforeAnswer(
        _ template: Template, origin: (path: String, line: Int)?, values: [Placeholder: String]
    ) throws(PartError) -> Template {
        var parts: [Template.Part] = []
        for part in template.parts {
            switch part {
            case .placeholder, .select, .prompt:
                parts.append(.literal(try render(Template([part]), origin: origin, values: values, rendering: .url)))
            case .random(let choices) where !choices.contains(where: \.readsAnswer):
                parts.append(.literal(try compute(part, origin: origin, values: values)))
            case .random(let choices):
                parts.append(
                    .random(
                        try choices.map { (choice) throws(PartError) in
                            try resolveBeforeAnswer(choice, origin: origin, values: values)
                        }))
            case .base64(let inner):
                parts.append(.base64(try resolveBeforeAnswer(inner, origin: origin, values: values)))
            case .answer(let value):
                parts.append(.answer(try resolveBeforeAnswer(value, origin: origin, values: values)))
            case .literal, .reference:
                parts.append(part)
            }
        }
        return Template(parts)
    }

    private mutating func resolveBeforeAnswer(
        _ value: AnswerValue, origin: (path: String, line: Int)?, values: [Placeholder: String]
    ) throws(PartError) -> AnswerValue {
        switch value {
        case .json(let pointer, let input?):
            .json(pointer: pointer, input: try resolveBeforeAnswer(input, origin: origin, values: values))
        case .xml(let path, let input?):
            .xml(path, input: try resolveBeforeAnswer(input, origin: origin, values: values))
        case .regex(let pattern, let group, let input?):
            .regex(
                pattern: pattern, group: group, input: try resolveBeforeAnswer(input, origin: origin, values: values))
        default: value
        }
    }

    /// The value of a ShareX function part.
    private mutating func compute(
        _ part: Template.Part, origin: (path: String, line: Int)?, values: [Placeholder: String], key: String? = nil
    ) throws(PartError) -> String {
        func text(_ template: Template) throws(PartError) -> String {
            try render(template, origin: origin, values: values, rendering: .verbatim, key: key)
        }
        switch part {
        case .random(let choices):
            let texts = try choices.map(text)
            var generator = SystemRandomNumberGenerator()
            return texts.randomElement(using: &generator) ?? ""
        case .base64(let inner):
            return Data(try text(inner).utf8).base64EncodedString()
        case .prompt(let title, let initial):
            let titleText = try text(title)
            let initialText = try text(initial)
            let key = "prompt\u{0}\(titleText)\u{0}\(initialText)"
            if let answer = context.cache.value(for: key) { return answer }
            guard let asker = context.asker else { throw PartError(RequestError.cannotAsk(question: titleText)) }
            guard let answer = try asker.askText(title: titleText, initial: initialText) else {
                throw PartError(RequestError.cancelled)
            }
            context.cache.store(answer, for: key)
            return answer
        case .select(let choices):
            // As ShareX does: empty choices are dropped; one choice needs no question.
            let texts = try choices.map(text).filter { !$0.isEmpty }
            guard texts.count > 1 else { return texts.first ?? "" }
            let key = "select\u{0}" + texts.joined(separator: "\u{0}")
            if let answer = context.cache.value(for: key) { return answer }
            guard let asker = context.asker else {
                throw PartError(RequestError.cannotAsk(question: texts.joined(separator: " | ")))
            }
            guard let index = try asker.choose(among: texts, title: "Choose"), texts.indices.contains(index) else {
                throw PartError(RequestError.cancelled)
            }
            context.cache.store(texts[index], for: key)
            return texts[index]
        default:
            preconditionFailure("not a computed part")
        }
    }

    /// The secret a reference stands for, remembered for masking.
    private mutating func resolve(
        _ reference: Reference, origin: (path: String, line: Int)?, key: String?
    ) throws(ConfigError) -> String {
        let path = origin?.path ?? "built-in"
        let line = origin?.line ?? 0
        let secret: String
        switch reference.kind {
        case .env:
            guard let value = context.environment[reference.argument] else {
                throw .missingEnvironment(path: path, line: line, name: reference.argument)
            }
            secret = value
        case .file:
            var file = reference.argument
            if file.hasPrefix("~/") { file = context.home + file.dropFirst() }
            let contents: FileSystem.Contents
            do {
                contents = try FileSystem.readFile(file, limit: Configuration.maximumFileBytes)
            } catch {
                throw .unreadableSecretFile(
                    path: path, line: line, file: file, reason: FileSystem.reason(readingFile: error))
            }
            // Private like the config (paste-config(5)): a token others can read is refused.
            guard contents.status.mode & 0o077 == 0 else {
                throw .secretFileReadableByOthers(
                    path: path, line: line, key: key ?? "${file:…}", file: file, mode: contents.status.mode)
            }
            // A trailing newline is how editors end files, never part of the secret.
            secret = Self.droppingTrailingNewlines(String(decoding: contents.bytes, as: UTF8.self))
        case .cmd:
            secret = try runCommand(reference.argument, path: path, line: line)
        }
        if !secrets.contains(secret) {
            secrets.append(secret)
            // Masked from now on in whatever the run prints or stores.
            context.redactor.register(secret)
        }
        return secret
    }

    /// What `command` prints, once per run (the cache is keyed by the command's text).
    private func runCommand(_ command: String, path: String, line: Int) throws(ConfigError) -> String {
        let key = "cmd\u{0}" + command
        if let cached = context.cache.value(for: key) { return cached }
        func failed(_ failure: CommandFailure) -> ConfigError {
            .commandFailed(path: path, line: line, command: command, failure: failure)
        }
        let words: [String]
        do {
            words = try CommandWords.split(command)
        } catch {
            throw .badTemplate(
                path: path, line: line, key: "${cmd:…}",
                problem: .badCommand(command, reason: error.description))
        }
        guard let runner = context.commandRunner else { throw failed(.unavailable) }
        switch runner.run(words, environment: context.environment, timeout: Self.commandTimeout) {
        case .success(let bytes):
            let output = Self.droppingTrailingNewlines(String(decoding: bytes, as: UTF8.self))
            guard !output.isEmpty else { throw failed(.printedNothing) }
            context.cache.store(output, for: key)
            return output
        case .failure(let failure):
            throw failed(failure)
        }
    }

    private static func droppingTrailingNewlines(_ text: String) -> String {
        // By scalar: "\r\n" is one Character, which `hasSuffix("\n")` does not see.
        var scalars = Substring(text).unicodeScalars
        while let last = scalars.last, last == "\n" || last == "\r" { scalars.removeLast() }
        return String(scalars)
    }

    /// The text with every expanded secret masked.
    public func redact(_ text: String) -> String {
        var result = text
        for secret in secrets where secret.count >= Redactor.shortestValue {
            result = result.replacingAll(secret, with: Redaction.mask)
        }
        return result
    }
}
