import FoundationEssentials
import SystemInterop

extension Settings {
    mutating func apply(_ entry: ConfigFile.Entry, path: String) throws(ConfigError) {
        func bad(_ expected: String) -> ConfigError {
            .badValue(path: path, line: entry.line, key: entry.key, value: entry.value, expected: expected)
        }
        func seconds(_ range: SettingRange.Seconds) throws(ConfigError) -> Double {
            guard let value = range.parse(entry.value) else { throw bad("\(range) (such as 10, 2.5s, 1m)") }
            return value
        }
        func duration(_ range: SettingRange.Seconds) throws(ConfigError) -> Duration {
            .seconds(try seconds(range))
        }
        switch entry.key {
        case "service":
            guard !entry.value.isEmpty else { throw bad("a service name") }
            service = entry.value
            serviceLine = entry.line
        case "notify":
            guard let mode = NotifyMode(rawValue: entry.value.lowercased()) else { throw bad("auto, always or never") }
            notify = mode
        case "notify-style":
            guard let style = NotifyStyle(rawValue: entry.value.lowercased()) else {
                throw bad("auto, window or desktop")
            }
            notifyStyle = style
        case "picker":
            guard !entry.value.allSatisfy(\.isWhitespace) else { throw bad("a command, such as 'fuzzel --dmenu'") }
            picker = entry.value
        case "timeout": timeout = try duration(SettingRange.timeout)
        case "connect-timeout": connectTimeout = try duration(SettingRange.connectTimeout)
        case "stall-timeout": stallTimeout = try duration(SettingRange.stallTimeout)
        case "response-timeout": responseTimeout = try duration(SettingRange.responseTimeout)
        case "clipboard-timeout": clipboardTimeout = try duration(SettingRange.clipboardTimeout)
        case "clipboard":
            guard let setting = ClipboardSetting(rawValue: entry.value.lowercased()) else {
                throw bad("auto, x11 or wayland")
            }
            clipboard = setting
        case "max-clipboard":
            guard let bytes = SettingRange.maximumClipboard.parse(entry.value) else {
                throw bad("\(SettingRange.maximumClipboard) (such as 1G, 256M)")
            }
            maximumClipboardBytes = Int(bytes)
        case "notify-timeout": notifyTimeout = try duration(SettingRange.notifyTimeout)
        case "max-retry-after": maximumRetryAfter = try seconds(SettingRange.maximumRetryAfter)
        case "repeat-window":
            guard let value = SettingRange.repeatWindow.parse(entry.value) else {
                throw bad("\(SettingRange.repeatWindow) (such as 5m), or 0")
            }
            repeatWindow = .seconds(value)
        case "retries":
            guard let value = SettingRange.retries.parse(entry.value) else { throw bad("\(SettingRange.retries)") }
            retries = value
        case "retry-max-attempts":
            guard let value = Int(entry.value), (1...Settings.retryMaximumAttemptsLimit).contains(value) else {
                throw bad("a whole number from 1 to \(Settings.retryMaximumAttemptsLimit)")
            }
            retryMaximumAttempts = value
        case "copy":
            guard let value = Bool(configText: entry.value) else { throw bad("true or false") }
            copy = value
            isCopyExplicit = value
        case "image-service":
            guard !entry.value.isEmpty else { throw bad("a service name") }
            imageService = entry.value
            imageServiceLine = entry.line
        case "ca-file", "ca-path", "proxy", "no-proxy": try connection.apply(entry, path: path)
        default:
            throw .unknownKey(path: path, line: entry.line, section: "paste", key: entry.key)
        }
    }
}
