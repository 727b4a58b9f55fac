import FoundationEssentials
import PasteCore
import Requests

/// `--dry-run`: the exact request that would go out, secrets masked, nothing sent.
///
/// The content itself is never printed (it may be large, or the very secret the guard is
/// about): it shows as `<LABEL, N bytes>`. Every value that came from `${env:…}` or
/// `${file:…}` is masked wherever it appears (URL, headers, fields, JSON body), and so are
/// credential headers and fields written literally.
enum DryRun {
    static func describe(
        _ request: UploadRequest, expansion: ValueExpansion, preview: RequestBuilder.BodyPreview?, label: String
    ) -> String {
        var lines: [String] = []
        // With no body the content is in the URL: the preview shows the URL without it.
        let url = expansion.redact(
            preview?.url.map {
                $0.replacing(RequestBuilder.contentMarker, with: "<\(label), \(preview!.contentBytes) bytes>")
            } ?? request.url)
        lines.append(request.isTCP ? "TCP \(url)" : "\(request.method) \(url)")
        for header in request.headers { lines.append(expansion.redact(Redaction.header(header))) }
        func field(_ name: String, _ value: String) -> String {
            "  \(name)="
                + (Redaction.isSensitiveField(name) && !value.isEmpty ? Redaction.mask : expansion.redact(value))
        }
        switch request.body {
        case .multipart(let fields):
            lines.append("Content-Type: multipart/form-data")
            for part in fields {
                switch part.value {
                case .text(let value): lines.append(field(part.name, value))
                case .content(let source, let fileName, let contentType):
                    lines.append(
                        "  \(part.name)=<\(describe(source, label: label))>"
                            + (fileName.map { "; filename=\($0)" } ?? "")
                            + (contentType.map { "; type=\($0)" } ?? ""))
                }
            }
        case .form(let fields):
            lines.append("Content-Type: application/x-www-form-urlencoded")
            for (index, pair) in fields.enumerated() {
                // The builder puts the content first.
                lines.append(
                    index == 0
                        ? "  \(pair.name)=<\(label), \(pair.value.utf8.count) bytes>" : field(pair.name, pair.value))
            }
        case .raw(let source, let contentType):
            if !request.isTCP { lines.append("Content-Type: \(contentType)") }
            lines.append("  <\(describe(source, label: label))>")
        case .rendered(let bytes, let contentType):
            if bytes.isEmpty && contentType.isEmpty { break }
            lines.append("Content-Type: \(contentType)")
            if let preview {
                let body = preview.text.replacing(
                    RequestBuilder.contentMarker, with: "<\(label), \(preview.contentBytes) bytes>")
                lines.append("  " + expansion.redact(body))
            } else {
                lines.append("  <\(bytes.count) bytes>")
            }
        case .embedded(let prefix, let source, _, let suffix, let contentType):
            lines.append("Content-Type: \(contentType)")
            let body =
                String(decoding: prefix, as: UTF8.self) + "<\(describe(source, label: label))>"
                + String(decoding: suffix, as: UTF8.self)
            lines.append("  " + expansion.redact(body))
        }
        lines.append("result: \(expansion.redact(request.result.configText))")
        if let language = request.guessedLanguage {
            lines.append("(language \(language) guessed from the text; -l text sends none)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func describe(_ source: ContentSource, label: String) -> String {
        switch source {
        case .bytes(let bytes): "\(label), \(bytes.count) bytes"
        case .file(_, let size): "\(label), \(size) bytes, streamed"
        case .stream: "\(label), streamed chunked"
        }
    }
}
