extension Template {
    /// The text with placeholders filled from `values` and every other hole standing in as
    /// `x`: for checking at load time what a template becomes (is a `json` template JSON once
    /// filled?), without reading a secret, running a command or asking anyone.
    public func sample(values: [Placeholder: String], rendering: Rendering) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .literal(let literal): text += literal
            case .placeholder(let placeholder, let fallback):
                text += rendering.escaping.apply(
                    values[placeholder] ?? fallback?.sample(values: values, rendering: .verbatim) ?? "")
            case .reference, .answer, .random, .select, .prompt, .base64:
                text += "x"
            }
        }
        return text
    }
}
