/// The commented config `paste --init-config` writes: the built-in services by name, the
/// `[paste] service =` line that chooses one, and what decides whether a paste is private and
/// when it expires. It parses as it is (a test loads it) and behaves as no config does, except
/// that the first upload is no longer announced: the person has seen where pastes go.
public enum StarterConfig {
    /// The file's text.
    public static var text: String {
        let names = BuiltInServices.all.map(\.name)
        let width = (names.map(\.count).max() ?? 0) + 2
        let services = BuiltInServices.all.map { profile in
            "#   " + profile.name + String(repeating: " ", count: width - profile.name.count) + profile.summary
        }
        return """
            # paste(1) configuration, written by 'paste --init-config'. Every key is described in
            # paste-config(5); lines starting with # are comments.

            [paste]
                # Where pastes go when neither -S NAME nor PASTE_SERVICE chooses. The built-in
                # services ('paste --list-services' lists them with your own):
            \(services.map { "    " + $0 }.joined(separator: "\n"))
                service = \(BuiltInServices.defaultName)

                # Private and expiry: a paste is as public as the service makes it; -p asks for an
                # unlisted one (refused where the service cannot make it), and -e DURATION (10m, 1h,
                # 7d) when it goes, else the service's own default. A service of your own can be
                # private for every paste with 'always-private = true' in its section.

                # Where a clipboard image goes (none by default: no image reaches a public host).
                # image-service = NAME

                # Whether the URL is put on the clipboard (said when there is no display to put it on).
                # copy = true

            # A service of your own (paste-config(5) RECIPES has more):
            # [service "mine"]
            #     url = https://paste.example/api/paste
            #     format = form
            #     content-field = content
            #     result = body

            """
    }
}
