import Foundation
import PasteCore
import Stores
import TestSupport
import Testing

/// When the outbox cannot be written, the store says why (and the run will say "the text could
/// not be saved", status 74), and leaves no half entry behind. Real faults: a regular file where
/// the folder should be, a path under /proc, a file size limit, and, in a private mount
/// namespace (`PrivateMount`: where none can be had, those tests fail, never skip), a read-only
/// bind mount and a full 64 KiB tmpfs.
@Suite("Store faults")
struct StoreFaultTests {
    let home: TemporaryHome
    static let exerciser = BuiltProducts.path(of: "store-exerciser")

    init() throws {
        home = try TemporaryHome()
    }

    var metadata: OutboxEntry.Metadata { OutboxEntry.Metadata(service: "pastie", created: .distantPast) }

    @Test("a regular file where the outbox folder should be: not saved, and why")
    func fileInPlaceOfFolder() throws {
        let context = Context(environment: home.environment())
        try home.write("not a folder", to: "state/paste/outbox")
        let expected = StoreError.notAFolder(path: context.outboxDirectory, kind: .regular)
        #expect(throws: expected) { try Outbox(context: context).create(metadata, content: Array("text".utf8)) }
        #expect(throws: expected) { try Outbox(context: context).create(metadata, inFlight: true) }
        let notSaved = TextNotSaved(failure: expected, isOnClipboard: true)
        #expect(notSaved.exitStatus == .ioError)
        #expect(
            notSaved.message
                == "the text could not be saved: '\(context.outboxDirectory)' is a regular file, not a folder")
        #expect(notSaved.hint?.hasPrefix("the clipboard still holds the text\n") == true)
    }

    @Test("a regular file where the state folder should be: the folder that failed is named")
    func fileInPlaceOfStateFolder() throws {
        let context = Context(environment: home.environment())
        try home.write("not a folder", to: "state/paste")
        #expect(throws: StoreError.notAFolder(path: context.pasteStateDirectory, kind: .regular)) {
            try Outbox(context: context).create(metadata, content: Array("text".utf8))
        }
    }

    @Test("an outbox under /proc cannot be made: not saved, with the system's reason")
    func underProc() throws {
        #expect(throws: StoreError.cannotCreateFolder(path: "/proc/self/paste", errno: .noSuchFileOrDirectory)) {
            try Outbox(folder: "/proc/self/paste/outbox").create(metadata, content: Array("text".utf8))
        }
    }

    @Test(
        "a write that fails midway (file size limit: EFBIG) is reported, 74, and leaves no entry",
        arguments: ["bytes", "stream"])
    func fileSizeLimit(_ mode: String) throws {
        let folder = home.stateHome.appendingPathComponent("paste/outbox").path
        // dash's ulimit counts 512-byte blocks: 16 KiB, room for the metadata, not the content.
        // SIGXFSZ is ignored (and stays so across exec), so the write fails with EFBIG instead.
        let result = try runProcess(
            "/bin/sh",
            ["-c", "trap '' XFSZ; ulimit -f 32; exec \"$0\" save \"$1\" 100000 \"$2\"", Self.exerciser, folder, mode],
            timeout: 30)
        #expect(result.status == 74, "\(result.err)")
        #expect(result.err.hasPrefix("paste: the text could not be saved: cannot write '\(folder)/"))
        #expect(result.err.contains(".content': file too large\n"), "\(result.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test(
        "a read-only state folder: 74, the text could not be saved: read-only file system")
    func readOnlyFolder() throws {
        let state = home.stateHome.path
        let folder = state + "/paste/outbox"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script =
            "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\" && exec \"$0\" save \"$2\" 1000 bytes"
        let result = try runProcess(
            "/usr/bin/unshare", try PrivateMount.arguments(["sh", "-c", script, Self.exerciser, state, folder]),
            timeout: 30)
        #expect(result.status == 74, "\(result.err)")
        #expect(result.err.hasPrefix("paste: the text could not be saved: cannot open '\(folder)/"))
        #expect(result.err.hasSuffix(".content': read-only file system\n"), "\(result.err)")
    }

    @Test(
        "a full disk (a 64 KiB tmpfs): 74, no space left on device, and no orphan",
        arguments: ["bytes", "stream"])
    func fullDisk(_ mode: String) throws {
        let mount = home.root.appendingPathComponent("small").path
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        // What is left in the outbox is listed from inside the namespace, before it goes.
        let script =
            "mount -t tmpfs -o size=64k tmpfs \"$1\" && { \"$0\" save \"$1/outbox\" 200000 \"$2\"; status=$?; "
            + "ls -A \"$1/outbox\"; exit $status; }"
        let result = try runProcess(
            "/usr/bin/unshare", try PrivateMount.arguments(["sh", "-c", script, Self.exerciser, mount, mode]),
            timeout: 30)
        #expect(result.status == 74, "\(result.err)")
        #expect(result.err.hasPrefix("paste: the text could not be saved: cannot write '\(mount)/outbox/"))
        #expect(result.err.hasSuffix(".content': no space left on device\n"), "\(result.err)")
        #expect(result.out.isEmpty, "left in the outbox: \(result.out)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: mount).isEmpty, "the mount outlived its namespace")
    }
}

@Suite("Store messages")
struct StoreMessageTests {
    @Test("a path in a store's message is shown escaped")
    func escapedPath() {
        #expect(
            StoreError.cannotOpen(path: "/x\u{07}", errno: .permissionDenied).message
                == "cannot open '/x\\a': permission denied")
    }
}
