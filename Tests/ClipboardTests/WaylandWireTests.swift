import Foundation
import Glibc
import SystemInterop
import Testing

@testable import Clipboard
@testable import WaylandInterop

/// paste's own Wayland wire client (`WaylandWire`, cwayland_wire.c) and the session over it,
/// against a scripted compositor at the other end of a socket pair: no compositor runs. The
/// compositor's bytes are written here by hand (`ScriptedMessage`), apart from the codec they test.
@Suite("The Wayland wire client")
struct WaylandWireTests {
    static let deadline = Duration.seconds(10)

    @Test("an event cut across reads is framed only once whole; two events in one read are two")
    func framing() throws {
        let pair = try FileDescriptor.makeSocketPair()
        let compositor = pair.second
        let wire = WaylandWire(adopting: pair.first)
        let global = ScriptedMessage(2, 0, [.word(7), .string("wl_seat"), .word(9)]).bytes
        let done = ScriptedMessage(3, 0, [.word(41)]).bytes

        try compositor.writeAll(Array(global[..<5]))
        #expect(try wire.read())
        #expect(try wire.next() == nil)
        try compositor.writeAll(Array(global[5..<13]))
        #expect(try wire.read())
        #expect(try wire.next() == nil)
        try compositor.writeAll(Array(global[13...]) + done)
        #expect(try wire.read())

        var first = try #require(try wire.next())
        #expect(first.object == 2 && first.opcode == 0 && first.size == global.count)
        try wire.decode(&first, "usu")
        #expect(first.word(0) == 7 && first.string(1) == "wl_seat" && first.word(2) == 9)
        wire.consume(first)
        var second = try #require(try wire.next())
        try wire.decode(&second, "u")
        #expect(second.object == 3 && second.word(0) == 41)
        wire.consume(second)
        #expect(try wire.next() == nil)
        #expect(try wire.read() == false)
    }

    @Test("a descriptor travels with the message that names it, and still reaches its file")
    func descriptor() throws {
        let pair = try FileDescriptor.makeSocketPair()
        let compositor = WaylandWire(adopting: pair.second)
        let wire = WaylandWire(adopting: pair.first)
        let reader = try FileDescriptor.makeSocketPair()
        let readerEnd = reader.first
        let writerEnd = reader.second
        // What a compositor's `send` event is, framed as a request is: "sh".
        compositor.request(5, 0, "sh", string: "text/plain;charset=utf-8", descriptor: writerEnd.rawValue)
        compositor.request(5, 1)
        try compositor.flush(before: .now + Self.deadline)

        #expect(try wire.read())
        var send = try #require(try wire.next())
        try wire.decode(&send, "sh")
        #expect(send.object == 5 && send.opcode == 0 && send.string(0) == "text/plain;charset=utf-8")
        let received = FileDescriptor(adopting: send.descriptor(1))
        wire.consume(send)
        let cancelled = try #require(try wire.next())
        #expect(cancelled.object == 5 && cancelled.opcode == 1 && cancelled.size == 8)
        wire.consume(cancelled)

        try received.writeAll(Array("over the descriptor".utf8))
        try received.close()
        _ = consume writerEnd
        #expect(String(decoding: try readerEnd.read(upTo: 100), as: UTF8.self) == "over the descriptor")
    }

    @Test("an event that promises a descriptor that never came, or a header no compositor sends, ends the connection")
    func malformed() throws {
        let pair = try FileDescriptor.makeSocketPair()
        let wire = WaylandWire(adopting: pair.first)
        try pair.second.writeAll(ScriptedMessage(5, 0, [.string("text/plain")]).bytes)
        #expect(try wire.read())
        var send = try #require(try wire.next())
        #expect(throws: WaylandError.connectionLost(errno: Errno(rawValue: EPROTO))) { try wire.decode(&send, "sh") }
        #expect(throws: WaylandError.connectionLost(errno: Errno(rawValue: EPROTO))) { try wire.next() }

        let other = try FileDescriptor.makeSocketPair()
        let second = WaylandWire(adopting: other.first)
        try other.second.writeAll([1, 0, 0, 0, 0, 0, 4, 0])  // object 1, size 4: shorter than its header
        #expect(try second.read())
        #expect(throws: WaylandError.connectionLost(errno: Errno(rawValue: EPROTO))) { try second.next() }
    }

    @Test("the session binds what the registry offers, and reads the selection's offer and its types")
    func scriptedSession() throws {
        let pair = try FileDescriptor.makeSocketPair()
        let compositor = pair.second
        let offer: UInt32 = 0xff00_0001
        // The compositor's answers, each round trip's queued before the session asks: the
        // registry is 2, the first sync 3; then the manager 4, the seat 5, the device 6 and the
        // second sync 7.
        let registry: [ScriptedMessage] = [
            .init(2, 0, [.word(1), .string("wl_seat"), .word(8)]),
            .init(2, 0, [.word(2), .string("zwlr_data_control_manager_v1"), .word(2)]),
            .init(2, 0, [.word(3), .string("wl_output"), .word(4)]),
            .init(3, 0, [.word(0)]),
        ]
        let device: [ScriptedMessage] = [
            .init(1, 1, [.word(3)]),  // delete_id of the answered callback
            .init(5, 0, [.word(3)]),  // the seat's capabilities
            .init(6, 0, [.word(offer)]),
            .init(offer, 0, [.string("text/plain;charset=utf-8")]),
            .init(0xff00_0042, 0, [.string("of an offer not known")]),
            .init(offer, 0, [.string("UTF8_STRING")]),
            .init(6, 1, [.word(offer)]),
            .init(6, 3, [.word(0)]),
            .init(7, 0, [.word(0)]),
        ]
        try compositor.writeAll(registry.flatMap(\.bytes))
        let session = try DataControlSession(wire: WaylandWire(adopting: pair.first), before: .now + Self.deadline)
        #expect(session.globals.map(\.interface) == ["wl_seat", "zwlr_data_control_manager_v1", "wl_output"])
        try compositor.writeAll(device.flatMap(\.bytes))
        try session.makeDevice(before: .now + Self.deadline)
        #expect(session.dataControl == .wlr)
        #expect(session.offeredTypes(.regular) == ["text/plain;charset=utf-8", "UTF8_STRING"])
        #expect(session.offeredTypes(.primary) == nil)

        // What the session asked, byte for byte.
        let asked: [ScriptedMessage] = [
            .init(1, 1, [.word(2)]),  // get_registry
            .init(1, 0, [.word(3)]),  // sync
            .init(2, 0, [.word(2), .string("zwlr_data_control_manager_v1"), .word(2), .word(4)]),  // bind
            .init(2, 0, [.word(1), .string("wl_seat"), .word(1), .word(5)]),
            .init(4, 1, [.word(6), .word(5)]),  // get_data_device
            .init(1, 0, [.word(7)]),
        ]
        try compositor.setNonBlocking()
        #expect(try compositor.readAvailable(upTo: 4096) == asked.flatMap(\.bytes))
    }

    @Test("a source prepared before the upload leaves set_selection and one sync after it; a cancel is no copy")
    func preparedSource() throws {
        for isCancelled in [false, true] {
            let pair = try FileDescriptor.makeSocketPair()
            let compositor = pair.second
            // The scripted session's set-up: registry 2, sync 3; manager 4, seat 5, device 6, sync 7.
            try compositor.writeAll(
                [
                    ScriptedMessage(2, 0, [.word(1), .string("wl_seat"), .word(8)]),
                    .init(2, 0, [.word(2), .string("zwlr_data_control_manager_v1"), .word(2)]),
                    .init(3, 0, [.word(0)]),
                ].flatMap(\.bytes))
            let session = try DataControlSession(
                wire: WaylandWire(adopting: pair.first), before: .now + Self.deadline)
            try compositor.writeAll(ScriptedMessage(7, 0, [.word(0)]).bytes)
            try session.makeDevice(before: .now + Self.deadline)
            try compositor.setNonBlocking()
            _ = try compositor.readAvailable(upTo: 4096)

            // Before the upload: the source (8) and the types every text has, sent at once.
            session.prepareSource(offering: ["text/plain;charset=utf-8", "UTF8_STRING"])
            let prepared: [ScriptedMessage] = [
                .init(4, 0, [.word(8)]),  // create_data_source
                .init(8, 0, [.string("text/plain;charset=utf-8")]),
                .init(8, 0, [.string("UTF8_STRING")]),
            ]
            #expect(try compositor.readAvailable(upTo: 4096) == prepared.flatMap(\.bytes))

            // After it: the rest of the types, set_selection and one sync (9), nothing else;
            // the compositor's answer, queued ahead (a `cancelled` first: another client's copy).
            try compositor.writeAll(
                ((isCancelled ? [ScriptedMessage(8, 1, [])] : []) + [.init(9, 0, [.word(0)])]).flatMap(\.bytes))
            let set = {
                try session.setSelection(
                    .regular, offering: ["text/plain;charset=utf-8", "UTF8_STRING", "STRING"],
                    writeTimeout: .seconds(1), before: .now + Self.deadline
                ) { _ in Array("http://example.invalid/1".utf8) }
            }
            if isCancelled {
                #expect(throws: WaylandError.notOwner) { try set() }
            } else {
                try set()
            }
            let selected: [ScriptedMessage] = [
                .init(8, 0, [.string("STRING")]),
                .init(6, 0, [.word(8)]),  // set_selection
                .init(1, 0, [.word(9)]),  // sync
            ]
            #expect(try compositor.readAvailable(upTo: 4096) == selected.flatMap(\.bytes))
        }
    }

    @Test("a protocol error from the compositor is one clear line")
    func protocolError() throws {
        let pair = try FileDescriptor.makeSocketPair()
        let ours = pair.first
        let compositor = pair.second
        try compositor.writeAll(
            ScriptedMessage(1, 0, [.word(2), .word(0), .string("invalid global wl_foo (1)")]).bytes)
        let wire = WaylandWire(adopting: ours)
        let error = #expect(throws: WaylandError.self) {
            _ = try DataControlSession(wire: wire, before: .now + Self.deadline)
        }
        #expect(error == .protocolError(interface: "wl_registry", code: 0, message: "invalid global wl_foo (1)"))
        #expect(
            ClipboardError.compositorFailed(try #require(error)).message
                == "the Wayland compositor's clipboard failed: it reported a protocol error on wl_registry (code 0): "
                + "invalid global wl_foo (1)")
    }

    @Test("the compositor going away ends the wait at once")
    func compositorGone() throws {
        let pair = try FileDescriptor.makeSocketPair()
        let ours = pair.first
        try pair.second.close()
        let wire = WaylandWire(adopting: ours)
        #expect(throws: WaylandError.connectionLost(errno: .brokenPipe)) {
            _ = try DataControlSession(wire: wire, before: .now + Self.deadline)
        }
    }
}

/// The opcodes and signatures paste speaks (`WaylandObject`, the literals in
/// `DataControlSession`), held to the protocols' XML in protocols/: with no wayland-scanner
/// output any more, this is what keeps the two in step.
@Suite("The data-control opcodes against protocols/*.xml")
struct DataControlProtocolFileTests {
    /// An interface's requests and events: name -> (opcode, signature in libwayland's letters).
    struct Interface {
        var requests: [String: Message] = [:]
        var events: [String: Message] = [:]
    }

    struct Message: Equatable {
        var opcode: UInt16
        var signature: String
    }

    /// The interfaces of a protocol file (one tag a line, as the files are written).
    static func interfaces(in file: String) throws -> [String: Interface] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("protocols/" + file), encoding: .utf8)
        var interfaces: [String: Interface] = [:]
        var current = ""
        var message: (name: String, isEvent: Bool)?
        func attribute(_ name: String, _ line: Substring) -> String? {
            guard let start = line.range(of: name + "=\"") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        }
        for line in text.split(separator: "\n") {
            if line.contains("<interface "), let name = attribute("name", line) {
                current = name
                interfaces[name] = Interface()
            } else if line.contains("<request ") || line.contains("<event "), let name = attribute("name", line) {
                let isEvent = line.contains("<event ")
                message = (name, isEvent)
                let count = isEvent ? interfaces[current]!.events.count : interfaces[current]!.requests.count
                let entry = Message(opcode: UInt16(count), signature: "")
                if isEvent {
                    interfaces[current]!.events[name] = entry
                } else {
                    interfaces[current]!.requests[name] = entry
                }
            } else if line.contains("<arg "), let (name, isEvent) = message, let type = attribute("type", line) {
                let letter =
                    switch type {
                    case "int": "i"
                    case "uint": "u"
                    case "object": "o"
                    case "new_id": "n"
                    case "string": "s"
                    case "fd": "h"
                    default: "?" + type
                    }
                let nullable = attribute("allow-null", line) == "true" ? "?" : ""
                if isEvent {
                    interfaces[current]!.events[name]!.signature += nullable + letter
                } else {
                    interfaces[current]!.requests[name]!.signature += nullable + letter
                }
            }
        }
        return interfaces
    }

    @Test(
        "both protocols put each request and event where paste sends and reads it",
        arguments: [
            ("ext-data-control-v1.xml", "ext_data_control_"),
            ("wlr-data-control-unstable-v1.xml", "zwlr_data_control_"),
        ])
    func opcodes(file: String, prefix: String) throws {
        let interfaces = try Self.interfaces(in: file)
        let manager = try #require(interfaces[prefix + "manager_v1"])
        #expect(
            manager.requests["create_data_source"] == Message(opcode: WaylandObject.createDataSource, signature: "n"))
        #expect(manager.requests["get_data_device"] == Message(opcode: WaylandObject.getDataDevice, signature: "no"))
        #expect(manager.requests["destroy"] == Message(opcode: WaylandObject.destroyManager, signature: ""))
        #expect(manager.events.isEmpty)
        let device = try #require(interfaces[prefix + "device_v1"])
        #expect(device.requests["set_selection"] == Message(opcode: WaylandObject.setSelection, signature: "?o"))
        #expect(device.requests["destroy"] == Message(opcode: WaylandObject.destroy, signature: ""))
        #expect(
            device.requests["set_primary_selection"]
                == Message(opcode: WaylandObject.setPrimarySelection, signature: "?o"))
        #expect(device.events["data_offer"] == Message(opcode: WaylandObject.dataOffer, signature: "n"))
        #expect(device.events["selection"] == Message(opcode: WaylandObject.selection, signature: "?o"))
        #expect(device.events["finished"] == Message(opcode: WaylandObject.finished, signature: ""))
        #expect(device.events["primary_selection"] == Message(opcode: WaylandObject.primarySelection, signature: "?o"))
        let source = try #require(interfaces[prefix + "source_v1"])
        #expect(source.requests["offer"] == Message(opcode: WaylandObject.offerType, signature: "s"))
        #expect(source.requests["destroy"] == Message(opcode: WaylandObject.destroy, signature: ""))
        #expect(source.events["send"] == Message(opcode: WaylandObject.send, signature: "sh"))
        #expect(source.events["cancelled"] == Message(opcode: WaylandObject.cancelled, signature: ""))
        let offer = try #require(interfaces[prefix + "offer_v1"])
        #expect(offer.requests["receive"] == Message(opcode: WaylandObject.receive, signature: "sh"))
        #expect(offer.requests["destroy"] == Message(opcode: WaylandObject.destroy, signature: ""))
        #expect(offer.events["offer"] == Message(opcode: WaylandObject.offerType, signature: "s"))
    }
}

/// One message as a compositor frames it (the Wayland wire format, written out here apart from
/// cwayland_wire.c): the object, the size and opcode, the arguments, in the host's byte order.
struct ScriptedMessage {
    enum Argument {
        case word(UInt32)
        case string(String)
    }

    let object: UInt32
    let opcode: UInt16
    let arguments: [Argument]

    init(_ object: UInt32, _ opcode: UInt16, _ arguments: [Argument]) {
        self.object = object
        self.opcode = opcode
        self.arguments = arguments
    }

    var bytes: [UInt8] {
        var body: [UInt8] = []
        for argument in arguments {
            switch argument {
            case .word(let word): body += Self.bytes(of: word)
            case .string(let string):
                let terminated = Array(string.utf8) + [0]
                body += Self.bytes(of: UInt32(terminated.count)) + terminated
                body += [UInt8](repeating: 0, count: (4 - terminated.count % 4) % 4)
            }
        }
        let size = UInt32(8 + body.count)
        return Self.bytes(of: object) + Self.bytes(of: size << 16 | UInt32(opcode)) + body
    }

    private static func bytes(of word: UInt32) -> [UInt8] {
        withUnsafeBytes(of: word) { Array($0) }
    }
}
