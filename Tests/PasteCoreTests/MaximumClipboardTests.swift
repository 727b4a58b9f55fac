import Testing

@testable import PasteCore

/// `max-clipboard` in `[paste]`: the most bytes paste reads from a selection.
@Suite("The max-clipboard setting")
struct MaximumClipboardTests {
    static func settings(_ value: String) throws -> Settings {
        try Configuration(file: ConfigFile(parsing: "[paste]\nmax-clipboard = \(value)\n", path: "/c")).settings
    }

    @Test("1 GiB by default")
    func defaultValue() throws {
        #expect(Settings().maximumClipboardBytes == 1 << 30)
        #expect(
            try Configuration(file: ConfigFile(parsing: "[paste]\n", path: "/c")).settings.maximumClipboardBytes == 1
                << 30)
    }

    @Test(
        "sizes from 1K to 64G are taken, in bytes or binary units",
        arguments: [
            ("1K", 1 << 10), ("1024", 1024), ("256M", 256 << 20), ("2G", 2 << 30), ("64G", 64 << 30),
            ("68719476736", 64 << 30),
        ])
    func accepted(_ value: String, _ bytes: Int) throws {
        #expect(try Self.settings(value).maximumClipboardBytes == bytes)
    }

    @Test(
        "anything else is a config error naming the range (exit 78), never a trap",
        arguments: [
            "0", "1023", "65G", "68719476737", "lots", "-1G", "", "99999999999G", "9223372036854775807",
            "99999999999999999999",
        ])
    func refused(_ value: String) {
        #expect {
            try Self.settings(value)
        } throws: { error in
            guard let error = error as? ConfigError else { return false }
            return error.message
                == "/c:2: bad value '\(value)' for 'max-clipboard': expected a size from 1K to 64G (such as 1G, 256M)"
                && error.exitStatus == .config
        }
    }
}
