import Testing
import WaylandInterop

@testable import Clipboard

/// The rule that picks the side holding the later copy when an X program owns the X selection
/// beside a Wayland one (docs/design.md, "Two clipboards, one last copy"), case by case; the
/// compositors' behaviour behind it is shown end to end in WaylandEndToEndTests+NewerCopy and
/// SidNewerCopyTests.
@Suite("Which side holds the later copy")
struct NewerSideTests {
    typealias Side = DataControlClipboard.NewerSide

    @Test(
        "the rule's rows",
        arguments: [
            // (focused, window manager, protocol, same contents) -> side
            (false, "wlroots wm", DataControlProtocol.ext, true, Side.wayland),
            (true, "wlroots wm", .ext, false, .x),
            (true, "KWin", .ext, false, .x),
            (false, "KWin", .ext, false, .wayland),
            (false, "KWin", .wlr, false, .undecided),
            (false, "wlroots wm", .ext, false, .undecided),
            (false, "wlroots wm", .wlr, false, .undecided),
            (false, nil, .ext, false, .undecided),
        ] as [(Bool, String?, DataControlProtocol, Bool, Side)])
    func rows(_ row: (Bool, String?, DataControlProtocol, Bool, Side)) {
        #expect(
            DataControlClipboard.newerSide(
                isXWindowFocused: row.0, windowManager: row.1, protocol: row.2, isSame: row.3) == row.4)
    }
}
