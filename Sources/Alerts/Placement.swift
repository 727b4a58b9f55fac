internal import X11Interop

/// Where windows go on the monitor under the pointer.
enum Placement {
    /// A notification: the monitor's top-right corner, `margin` away from its edges.
    static func notificationFrame(size: Size, monitor: Rect, margin: Int) -> Rect {
        let fitted = fit(size, in: monitor, margin: margin)
        return Rect(
            x: monitor.maxX - margin - fitted.width, y: monitor.y + margin, width: fitted.width,
            height: fitted.height)
    }

    /// A dialog: centred horizontally, a little above the middle (where eyes rest).
    static func dialogFrame(size: Size, monitor: Rect, margin: Int) -> Rect {
        let fitted = fit(size, in: monitor, margin: margin)
        let x = monitor.x + (monitor.width - fitted.width) / 2
        let y = monitor.y + max(margin, (monitor.height - fitted.height) / 3)
        return Rect(x: x, y: y, width: fitted.width, height: fitted.height)
    }

    /// The monitor holding `point`, the first one if none does (the pointer on a gap).
    static func monitor(containing point: Point, among monitors: [Rect]) -> Rect? {
        monitors.first(where: { $0.contains(point) }) ?? monitors.first
    }

    private static func fit(_ size: Size, in monitor: Rect, margin: Int) -> Size {
        Size(
            width: min(size.width, max(1, monitor.width - 2 * margin)),
            height: min(size.height, max(1, monitor.height - 2 * margin)))
    }
}
