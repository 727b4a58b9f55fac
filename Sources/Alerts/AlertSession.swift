internal import X11Interop

/// One alert: its connection, its window, and the screen facts layout needs.
///
/// The glue between layout (plain Swift) and `AlertWindow` (X11Interop): executes draw commands
/// and runs the dialog event loop with the keyboard grab. Both sides speak X11Interop's value
/// types (`Rect`, `Color`, `FontRole`, `AlertEvent`), so nothing is translated here.
final class AlertSession {
    private let window: AlertWindow
    /// Sizes for this screen's DPI.
    let metrics: Metrics
    /// The monitor under the pointer.
    let monitor: Rect

    /// Opens `displayName` (nil: `$DISPLAY`) and the fonts, for a window of the application `app`.
    init(displayName: String?, app: AppIdentity) throws(AlertError) {
        var patterns: [FontRole: String] = [:]
        for role in FontRole.allCases { patterns[role] = FontPatterns.pattern(for: role) }
        let display = try AlertError.translating { () throws(AlertWindowError) in
            try AlertWindow.openDisplay(named: displayName)
        }
        window = try AlertError.translating { () throws(AlertWindowError) in
            try AlertWindow(
                display: display, fontPatterns: patterns, instanceName: app.instanceName, className: app.className)
        }
        metrics = Metrics(dotsPerInch: display.dotsPerInch)
        let monitors = [display.screenFrame]
        monitor =
            display.pointerLocation().flatMap { Placement.monitor(containing: $0, among: monitors) } ?? monitors[0]
    }

    /// Creates and maps the window.
    func show(frame: Rect, kind: AlertWindowKind, title: String) throws(AlertError) {
        try AlertError.translating { () throws(AlertWindowError) in
            try window.show(frame: frame, kind: kind, title: TextWrapping.sanitized(title), background: Palette.surface)
        }
    }

    /// Gives the shown window a new frame and title (new content in the same window).
    func reshape(frame: Rect, title: String) {
        window.reshape(frame: frame, title: TextWrapping.sanitized(title))
    }

    /// The window's X id.
    var windowID: UInt { window.windowID }

    /// Waits for the next event or the deadline (nil result).
    func nextEvent(until deadline: ContinuousClock.Instant?) throws(AlertError) -> AlertEvent? {
        try AlertError.translating { () throws(AlertWindowError) in try window.nextEvent(until: deadline) }
    }

    /// Executes `commands` into the back buffer and shows the result.
    func draw(_ commands: [DrawCommand]) {
        for command in commands {
            switch command {
            case .fill(let rect, let color, let radius):
                window.fill(rect, color: color, cornerRadius: radius)
            case .text(let text, let x, let baseline, let role, let color, let clip):
                window.drawText(text, x: x, baseline: baseline, role: role, color: color, clip: clip)
            case .polygon(let points, let color):
                window.fillPolygon(points, color: color)
            case .image(let image, let origin):
                window.drawImage(image, at: origin)
            }
        }
        window.present()
    }

    /// Shows a modal dialog of `size`, grabs the keyboard, and feeds events to `handle` until it
    /// finishes. The grab is released on every way out.
    func runDialog<Value: Hashable & Sendable>(
        title: String, size: Size, draw: () -> Void, handle: (AlertEvent) -> Step<Value>
    ) throws(AlertError) -> Value? {
        let frame = Placement.dialogFrame(size: size, monitor: monitor, margin: metrics.screenMargin)
        try show(frame: frame, kind: .dialog, title: title)
        try AlertError.translating { () throws(AlertWindowError) in try window.grabKeyboard() }
        defer { window.releaseKeyboard() }
        draw()
        while true {
            guard let event = try nextEvent(until: nil) else { continue }
            let step: Step<Value> =
                switch event {
                case .exposed: .changed
                case .closeRequested: .finished(nil)
                default: handle(event)
                }
            switch step {
            case .unchanged: continue
            case .changed: draw()
            case .finished(let value): return value
            }
        }
    }
}

extension AlertSession: TextMeasuring {
    func width(of text: String, role: FontRole) -> Int { window.textWidth(text, role: role) }
    func lineHeight(role: FontRole) -> Int { window.lineHeight(role: role) }
    func ascent(role: FontRole) -> Int { window.ascent(role: role) }
}
