extension Settings {
    /// Every key of `[paste]`, in the order paste-config(5) lists them: what an unknown key
    /// is compared with for its "did you mean" (the names of the key table, `keys`).
    public static var configKeys: [String] { keys.map(\.name) }
}

extension ServiceProfile {
    /// Every key of `[service "NAME"]`: what an unknown key is compared with for its "did you
    /// mean" (the names of the key table, `keys`).
    public static var configKeys: [String] { keys.map(\.name) }
}

/// The section names a config may hold.
enum ConfigSections {
    static let names = ["paste", "service"]
}
