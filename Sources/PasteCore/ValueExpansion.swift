import SystemInterop

/// Expands `${env:NAME}` and `${file:PATH}` in config values, where secrets come from.
///
/// Secrets never appear in argv: they are read from the environment or a file at the moment a
/// request is built, and every expanded value is remembered so `--dry-run` and `--verbose` can
/// mask it.
public struct ValueExpansion: Sendable {
    /// The run's environment.
    public var context: Context
    /// The values that came from a reference, to be masked wherever they are shown.
    public private(set) var secrets: [String] = []

    public init(context: Context) { self.context = context }

    /// The value with every reference replaced.
    public mutating func expand(_ value: ConfigValue) throws(ConfigError) -> String {
        guard value.hasReference else { return value.raw }
        let path = value.origin?.path ?? "built-in"
        let line = value.origin?.line ?? 0
        var result = ""
        var rest = Substring(value.raw)
        while let start = rest.firstRange(of: "${") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                throw .syntax(path: path, line: line, expected: "'}' to close '${'")
            }
            let reference = rest[start.upperBound..<end]
            rest = rest[rest.index(after: end)...]
            if reference.hasPrefix("env:") {
                let name = String(reference.dropFirst(4))
                guard let secret = context.environment[name] else {
                    throw .missingEnvironment(path: path, line: line, name: name)
                }
                secrets.append(secret)
                result += secret
            } else if reference.hasPrefix("file:") {
                var file = String(reference.dropFirst(5))
                if file.hasPrefix("~/") { file = context.home + file.dropFirst() }
                let contents: FileSystem.Contents
                do {
                    contents = try FileSystem.readFile(file, limit: Configuration.maximumFileBytes)
                } catch {
                    throw .unreadableSecretFile(path: path, line: line, file: file, reason: error.message)
                }
                // A trailing newline is how editors end files, never part of the secret.
                var secret = String(decoding: contents.bytes, as: UTF8.self)
                while secret.hasSuffix("\n") || secret.hasSuffix("\r") { secret.removeLast() }
                secrets.append(secret)
                result += secret
            } else {
                throw .syntax(path: path, line: line, expected: "${env:NAME} or ${file:PATH}")
            }
        }
        return result + rest
    }

    /// The text with every expanded secret masked.
    public func redact(_ text: String) -> String {
        var result = text
        for secret in secrets where secret.count >= 3 {
            result = result.replacingAll(secret, with: Redaction.mask)
        }
        return result
    }
}
