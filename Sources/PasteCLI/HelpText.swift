import PasteCore

/// The version of the paste suite.
public let pasteVersion = "0.1.0"

/// `paste --help`: grouped by task, under 80 columns, generated from `optionTable`.
///
/// - Parameter programName: the name paste was run as (`pasteit`): its usage, examples and
///   man page are that name's; coreutils' `paste(1)` stays coreutils'.
public func helpText(programName name: String = "paste") -> String {
    let defaultHost =
        BuiltInServices.named(BuiltInServices.defaultName).map { ConnectionPolicy.host(of: $0.url.raw) } ?? ""
    var lines = [
        "Usage: \(name) [OPTIONS]".padding(to: 34) + "upload stdin (when piped) or the clipboard",
        "       \(name) -f FILE [-f FILE…]".padding(to: 34) + "upload files, one paste each",
        "",
        "Uploads text to a pastebin, prints the paste's URL and puts it on the clipboard.",
        "With no service chosen it asks before sending to \(BuiltInServices.defaultName) (\(defaultHost), public);",
        "-S NAME sends elsewhere, and --init-config writes a config that chooses.",
        "Any operand, or coreutils' -d, -s or -z, runs coreutils paste(1) instead.",
    ]
    for group in OptionSpec.Group.allCases {
        lines.append("")
        lines.append(group.rawValue + ":")
        for spec in optionTable where spec.group == group {
            var left = "  " + (spec.short.map { "-\($0), " } ?? "    ") + "--" + spec.long
            if let argument = spec.argument { left += " " + argument }
            if left.count < 26 {
                lines.append(left.padding(to: 26) + spec.help)
            } else {
                lines.append(left)
                lines.append(String(repeating: " ", count: 26) + spec.help)
            }
        }
    }
    /// Where an example's description starts.
    let exampleColumn = 35
    var examples = [
        "  dmesg | paste                    a pipeline's output; the URL on stdout",
        "  paste                            at a hotkey: clipboard up, a window says how",
        "  paste -f build.log -t 'CI run'   a file, with a title",
        "  paste -S termbin -e 1d           another service; gone after a day",
        "  url=$(paste -q --no-copy < f)    in a script",
        "  paste --retry                    from cron: send what failed before",
        "  paste --outbox                   what waits; show, send or drop ID",
    ]
    if name != "paste" {
        // The command renamed, its description kept in its column (one space at least).
        examples = examples.map { line in
            let command = line.prefix(exampleColumn).replacing(/(^|[\s(|])paste(?=[\s)]|$)/) { $0.output.1 + name }
            let trimmed = String(command.reversed().drop { $0 == " " }.reversed())
            return (trimmed + " ").padding(to: exampleColumn) + line.dropFirst(exampleColumn)
        }
    }
    lines +=
        ["", "Examples:"] + examples + [
            "",
            "Exit status: 0 ok, 64 usage, 65 bad input, 66 no input, 69 service failed,",
            "70 internal error, 74 I/O error (or the text could not be saved), 75 temporary",
            "failure (text kept in the outbox), 77 refused by the secret guard, 78 config",
            "error, 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM (130 also: cancelled).",
            "",
            "Environment: PASTE_SERVICE, PASTE_CONFIG, DISPLAY, NO_COLOR, XDG_CONFIG_HOME,",
            "XDG_STATE_HOME, http_proxy/https_proxy/no_proxy, SSL_CERT_FILE/CURL_CA_BUNDLE.",
            "Config keys for private CAs and proxies: ca-file, proxy (paste-config(5)).",
            "See \(name)(1) and paste-config(5).",
        ]
    return lines.joined(separator: "\n") + "\n"
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
