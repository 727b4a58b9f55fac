import X11Interop

/// One alert's window and connection, seen through Alerts' own types.
///
/// The glue between layout (plain Swift) and `AlertWindow` (X11Interop): converts geometry and
/// colours, executes draw commands, and runs the dialog event loop with the keyboard grab.
final class AlertSession {
    private let window: AlertWindow
    /// Sizes for this screen's DPI.
    let metrics: Metrics
    /// The monitor under the pointer.
    let monitor: Rect

    init(displayName: String?) throws(AlertError) {
        var patterns: [TextStyle: String] = [:]
        for role in FontRole.allCases { patterns[TextStyle(role)] = FontPatterns.pattern(for: role) }
        do {
            window = try AlertWindow(displayName: displayName, fontPatterns: patterns)
        } catch {
            throw AlertError(error)
        }
        metrics = Metrics(dotsPerInch: window.dotsPerInch)
        let pointer = window.pointerLocation()
        let screen = window.monitor
        let monitors = [Rect(x: screen.x, y: screen.y, width: screen.width, height: screen.height)]
        monitor = Placement.monitor(containing: Point(x: pointer.x, y: pointer.y), among: monitors) ?? monitors[0]
    }

    /// Creates and maps the window.
    func show(frame: Rect, kind: AlertWindowKind, title: String) throws(AlertError) {
        do {
            try window.show(
                frame: DrawingRect(x: frame.x, y: frame.y, width: frame.width, height: frame.height), kind: kind,
                title: TextWrapping.sanitized(title), background: DrawingColor(Palette.surface))
        } catch {
            throw AlertError(error)
        }
    }

    /// Waits for the next event or the deadline (nil result).
    func nextEvent(until deadline: ContinuousClock.Instant?) throws(AlertError) -> InputEvent? {
        do {
            return try window.nextEvent(until: deadline).map(InputEvent.init)
        } catch {
            throw AlertError(error)
        }
    }

    /// Executes `commands` into the back buffer and shows the result.
    func draw(_ commands: [DrawCommand]) {
        for command in commands {
            switch command {
            case .fill(let rect, let color, let radius):
                window.fill(DrawingRect(rect), color: DrawingColor(color), cornerRadius: radius)
            case .text(let text, let x, let baseline, let role, let color, let clip):
                window.drawText(
                    text, x: x, baseline: baseline, style: TextStyle(role), color: DrawingColor(color),
                    clip: clip.map(DrawingRect.init))
            }
        }
        window.present()
    }

    /// Shows a modal dialog of `size`, grabs the keyboard, and feeds events to `handle` until it
    /// finishes. The grab is released on every way out.
    func runDialog<Value: Hashable & Sendable>(
        title: String, size: Size, draw: () -> Void, handle: (InputEvent) -> Step<Value>
    ) throws(AlertError) -> Value? {
        let frame = Placement.dialogFrame(size: size, monitor: monitor, margin: metrics.screenMargin)
        try show(frame: frame, kind: .dialog, title: title)
        do {
            try window.grabKeyboard()
        } catch {
            throw AlertError(error)
        }
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
    func width(of text: String, role: FontRole) -> Int { window.textWidth(text, style: TextStyle(role)) }
    func lineHeight(role: FontRole) -> Int { window.lineHeight(style: TextStyle(role)) }
    func ascent(role: FontRole) -> Int { window.ascent(style: TextStyle(role)) }
}

// MARK: - Conversions between layout types and X11Interop's value types

extension TextStyle {
    init(_ role: FontRole) {
        switch role {
        case .heading: self = .heading
        case .body: self = .body
        case .secondary: self = .secondary
        }
    }
}

extension DrawingRect {
    init(_ rect: Rect) { self.init(x: rect.x, y: rect.y, width: rect.width, height: rect.height) }
}

extension DrawingColor {
    init(_ color: Color) { self.init(rgb: color.rgb) }
}

extension AlertError {
    /// The Alerts error for an `AlertWindowError`.
    init(_ error: AlertWindowError) {
        switch error {
        case .noDisplay: self = .noDisplay
        case .cannotOpenDisplay(let name): self = .cannotOpenDisplay(name: name)
        case .fontUnavailable(let pattern): self = .fontUnavailable(pattern: pattern)
        case .notMapped: self = .windowNotMapped
        case .keyboardGrabFailed(let status): self = .keyboardGrabFailed(status: status)
        case .connectionLost: self = .connectionLost
        }
    }
}

extension AlertKey {
    init(_ key: AlertWindowKey) {
        switch key {
        case .up: self = .up
        case .down: self = .down
        case .left: self = .left
        case .right: self = .right
        case .pageUp: self = .pageUp
        case .pageDown: self = .pageDown
        case .home: self = .home
        case .end: self = .end
        case .enter: self = .enter
        case .escape: self = .escape
        case .tab: self = .tab
        case .backTab: self = .backTab
        case .backspace: self = .backspace
        case .delete: self = .delete
        case .text(let text): self = .text(text)
        }
    }
}

extension InputEvent {
    init(_ event: AlertWindowEvent) {
        switch event {
        case .exposed: self = .exposed
        case .key(let key): self = .key(AlertKey(key))
        case .pointerPressed(let point, let button): self = .pressed(Point(x: point.x, y: point.y), button: button)
        case .pointerMoved(let point): self = .moved(Point(x: point.x, y: point.y))
        case .scrolled(let lines): self = .scrolled(lines: lines)
        case .closeRequested: self = .closeRequested
        }
    }
}
