import DBus
import Foundation
import TestSupport
import Testing

@Suite struct ConnectionTests {
    static let echo = InterfaceDescription(
        name: "org.example.Echo",
        methods: [.init("Echo", in: [.init("value", "v")], out: [.init("value", "v")]),
                  .init("Fail", in: [.init("text", "s")])],
        properties: [.init("Count", "u")])

    /// A service connection exporting /echo, and a client connection, on a private bus.
    func withService(_ body: (Connection, Connection, ObjectServer) async throws -> Void) async throws {
        let bus = try await PrivateBus()
        let service = try Connection(bus: .address(bus.address))
        let client = try Connection(bus: .address(bus.address))
        defer { client.close(); service.close() }
        let server = ObjectServer(connection: service, managerPath: "/")
        let count = Locked<UInt32>(0)
        service.perform {
            server.export("/echo", [ObjectServer.Interface(Self.echo, call: { call in
                count.withLock { $0 += 1 }
                if call.member == "Fail" { throw DBusError("org.example.Error.Nope", call.arguments[0].string!) }
                return call.arguments
            }, properties: { ["Count": .uint32(count.withLock { $0 })] })])
        }
        try await body(service, client, server)
        withExtendedLifetime(bus) {}
    }

    @Test func valuesRoundTripThroughTheBus() async throws {
        try await withService { service, client, _ in
            let values: [DBusValue] = [
                .string("héllo"), .double(-1.5), .uint64(.max), .int32(-7), .boolean(true), .byte(200),
                .objectPath("/a/b"), .vardict(["k": .structure([.double(1), .double(2)])]),
                .array(element: "s", []), .array(element: "{s(dd)}", [.dictEntry(.string("x"), .doubles([3, 4]))]),
            ]
            for value in values {
                let reply = try await client.call(
                    destination: service.uniqueName, path: "/echo", interface: "org.example.Echo", member: "Echo",
                    [.variant(value)])
                #expect(reply == [.variant(value)], "round trip of \(value.signature)")
            }
        }
    }

    /// A body past the object server's `IncomingLimit` is refused by name before the handler runs (the handler
    /// counts its calls in `Count`); a body within it is answered. Arrays of fixed-size values are counted, not
    /// walked, so a 1 MB `ay` is measured at once.
    @Test func aBodyPastTheIncomingLimitIsRefusedBeforeTheHandlerRuns() async throws {
        try await withService { service, client, server in
            service.perform {
                server.incomingLimit = IncomingLimit(bytes: 4096, depth: 8, errorName: "org.example.Error.TooBig",
                                                     bytesSetting: "bytes-setting", depthSetting: "depth-setting")
            }
            func echo(_ value: DBusValue) async throws -> [DBusValue] {
                try await client.call(destination: service.uniqueName, path: "/echo", interface: "org.example.Echo",
                                      member: "Echo", [.variant(value)])
            }
            #expect(try await echo(.string("small")) == [.variant(.string("small"))])
            let bytes = DBusValue.array(element: "y", Array(repeating: .byte(1), count: 1_000_000))
            let wide = await #expect(throws: DBusError.self) { _ = try await echo(bytes) }
            #expect(wide?.name == "org.example.Error.TooBig" && wide?.message.contains("more than 4096 bytes (bytes-setting)") == true)
            var deep = DBusValue.int32(1)
            for _ in 0..<10 { deep = .structure([deep]) }
            let nested = await #expect(throws: DBusError.self) { _ = try await echo(deep) }
            #expect(nested?.message.contains("more than 8 containers (depth-setting)") == true, "\(String(describing: nested))")
            let count = try await client.call(destination: service.uniqueName, path: "/echo", interface: "org.freedesktop.DBus.Properties",
                                              member: "Get", [.string("org.example.Echo"), .string("Count")])
            #expect(count == [.variant(.uint32(1))], "only the small call reached the handler")
        }
    }

    @Test func errorsComeBackNamed() async throws {
        try await withService { service, client, _ in
            await #expect(throws: DBusError("org.example.Error.Nope", "because")) {
                _ = try await client.call(destination: service.uniqueName, path: "/echo", interface: "org.example.Echo",
                                          member: "Fail", [.string("because")])
            }
            // Wrong argument types are refused before the handler runs.
            let error = await #expect(throws: DBusError.self) {
                _ = try await client.call(destination: service.uniqueName, path: "/echo", interface: "org.example.Echo",
                                          member: "Fail", [.int32(1)])
            }
            #expect(error?.name == DBusError.invalidArgsName)
            #expect(error?.message.contains("takes (s text)") == true)
            let unknown = await #expect(throws: DBusError.self) {
                _ = try await client.call(destination: service.uniqueName, path: "/nothing", interface: "org.example.Echo",
                                          member: "Echo", [.variant(.byte(1))])
            }
            #expect(unknown?.name == DBusError.unknownObjectName)
        }
    }

    @Test func propertiesAndIntrospection() async throws {
        try await withService { service, client, _ in
            _ = try await client.call(destination: service.uniqueName, path: "/echo", interface: "org.example.Echo",
                                      member: "Echo", [.variant(.byte(1))])
            let count = try await client.call(destination: service.uniqueName, path: "/echo",
                                              interface: "org.freedesktop.DBus.Properties", member: "Get",
                                              [.string("org.example.Echo"), .string("Count")])
            #expect(count == [.variant(.uint32(1))])
            let xml = try await client.call(destination: service.uniqueName, path: "/echo",
                                            interface: "org.freedesktop.DBus.Introspectable", member: "Introspect")
            #expect(xml.first?.string?.contains("<method name=\"Echo\">") == true)
            let root = try await client.call(destination: service.uniqueName, path: "/",
                                             interface: "org.freedesktop.DBus.Introspectable", member: "Introspect")
            #expect(root.first?.string?.contains("<node name=\"echo\"/>") == true)
            // Peer is answered by libdbus.
            _ = try await client.call(destination: service.uniqueName, path: "/echo",
                                      interface: "org.freedesktop.DBus.Peer", member: "Ping")
        }
    }

    @Test func signalsReachSubscribers() async throws {
        try await withService { service, client, _ in
            let received = AsyncStream<Connection.Signal>.makeStream()
            client.subscribe(sender: service.uniqueName) { received.continuation.yield($0) }
            try await client.addMatch("type='signal',interface='org.example.Echo'")
            for i in 0..<50 {
                try service.emit(path: "/echo", interface: "org.example.Echo", member: "Tick", [.uint32(UInt32(i))])
            }
            var seen: [UInt32] = []
            for await signal in received.stream where signal.member == "Tick" {
                if case .uint32(let n) = signal.arguments[0] { seen.append(n) }
                if seen.count == 50 { break }
            }
            #expect(seen == Array(0..<50))
        }
    }

    static let ticker = InterfaceDescription(
        name: "org.example.Ticker", methods: [.init("Tick", in: [.init("value", "v")], out: [.init("value", "v")])],
        signals: [.init("Ticked", [.init("value", "v")])])

    /// Signals emitted on the connection's thread go to the socket as `WireWriter` wrote them (`SocketWriter`),
    /// beside libdbus: each arrives with its values, numbered from 2³¹ (libdbus numbers its own from 1), and
    /// before the reply libdbus sends after it. A signal larger than the socket's buffer is written in parts,
    /// the rest as the bus drains it, whole and before the one after it.
    @Test func signalsWrittenToTheSocketArriveWholeAndInOrderWithReplies() async throws {
        try await withService { service, client, server in
            service.perform {
                server.export("/ticker", [ObjectServer.Interface(Self.ticker, call: { call in
                    try service.emit(path: "/ticker", interface: "org.example.Ticker", member: "Ticked", call.arguments)
                    return call.arguments
                }, properties: { [:] })])
            }
            let ticked = Locked<[(serial: UInt32, arguments: [DBusValue])]>([])
            client.addHandler { message in
                if message.kind == .signal, message.member == "Ticked" {
                    let entry = (message.serial, message.arguments())
                    ticked.withLock { $0.append(entry) }
                }
                return false
            }
            try await client.addMatch("type='signal',interface='org.example.Ticker'")
            // 1 MiB: past a Unix socket's send buffer (about 200 KiB by default), so written in parts.
            let large = DBusValue.array(element: "y", Array(repeating: .byte(7), count: 1024 * 1024))
            let values = WireWriterTests.bodies.flatMap { $0 } + [large, .string("after the large one")]
            for (index, value) in values.enumerated() {
                let heardFirst = Locked(false)
                let call = try Message.methodCall(destination: service.uniqueName, path: "/ticker",
                                                  interface: "org.example.Ticker", member: "Tick")
                try call.append([.variant(value)])
                let reply = try await client.call(call, onReply: {
                    heardFirst.withLock { $0 = ticked.withLock { $0.count } == index + 1 }
                })
                #expect(value == large ? reply == [.variant(large)] : reply.description == [DBusValue.variant(value)].description)
                #expect(heardFirst.withLock { $0 }, "the signal of call \(index) came before its reply")
            }
            let heard = ticked.withLock { $0 }
            // As text where a NaN is among them (not equal to itself); the large one as it is.
            #expect(heard.map { $0.arguments == [.variant(large)] ? "large" : $0.arguments.description }
                    == values.map { $0 == large ? "large" : [DBusValue.variant($0)].description })
            #expect(heard.allSatisfy { $0.serial >= 1 << 31 }, "numbered by SocketWriter: \(heard.map(\.serial))")
            #expect(Set(heard.map(\.serial)).count == heard.count)
        }
    }

    /// A method return sent on the connection's thread goes to the socket as `WireWriter` writes it
    /// (`Connection.sendReturn`): the bytes libdbus builds for it (`makeReturn`, `append`), and the caller gets
    /// its values back.
    @Test func aMethodReturnWrittenToTheSocketIsTheOneLibdbusBuilds() async throws {
        let bus = try await PrivateBus()
        let service = try Connection(bus: .address(bus.address))
        let client = try Connection(bus: .address(bus.address))
        defer { client.close(); service.close() }
        let same = Locked<[Bool]>([])
        service.addHandler { message in
            guard message.kind == .methodCall, message.member == "Echo" else { return false }
            let values = message.arguments()
            let built = message.makeReturn()
            try? built.append(values)
            let equal = (try? Marshalling.bytes(of: built)).map { $0 == Marshalling.directReturnBytes(to: message, values) }
            same.withLock { $0.append(equal ?? false) }
            try? service.sendReturn(to: message, values)
            return true
        }
        let values = WireWriterTests.bodies.flatMap { $0 }
        for value in values {
            let reply = try await client.call(destination: service.uniqueName, path: "/echo", interface: "org.example.Echo",
                                              member: "Echo", [.variant(value), .string("second")])
            #expect(reply.description == [DBusValue.variant(value), .string("second")].description)
        }
        #expect(same.withLock { $0 } == Array(repeating: true, count: values.count))
        withExtendedLifetime(bus) {}
    }

    /// What the bus refuses (it would close the connection that sent it) is refused before it is sent, on the
    /// connection's thread (where signals go to the socket directly) and from any other; the connection stays.
    @Test func aSignalTheBusWouldRefuseIsNotSentAndTheConnectionStays() async throws {
        try await withService { service, client, _ in
            for (body, path) in WireWriterTests.refused {
                #expect(throws: DBusError.self) { try service.emit(path: path, interface: "org.example.T", member: "M", body) }
                let thrown = await withCheckedContinuation { continuation in
                    service.perform {
                        do {
                            try service.emit(path: path, interface: "org.example.T", member: "M", body)
                            continuation.resume(returning: false)
                        } catch {
                            continuation.resume(returning: true)
                        }
                    }
                }
                #expect(thrown, "\(body) at \(path) emitted on the connection's thread")
            }
            let reply = try await client.call(destination: service.uniqueName, path: "/echo", interface: "org.example.Echo",
                                              member: "Echo", [.variant(.string("still here"))])
            #expect(reply == [.variant(.string("still here"))])
        }
    }

    /// A connection dropped without `close()` (from another thread, or by the last job on its own thread)
    /// closes itself: its thread stops without touching the freed object, and the bus sees it leave.
    @Test func aConnectionDroppedWithoutCloseLeavesTheBusAndNothingCrashes() async throws {
        let bus = try await PrivateBus()
        let watcher = try Connection(bus: .address(bus.address))
        defer { watcher.close() }
        for fromItsOwnThread in [false, true] {
            var dropped: Connection? = try Connection(bus: .address(bus.address))
            let name = dropped!.uniqueName
            // Busy while it goes: a subscription, a timer and a stream of signals to dispatch.
            dropped!.subscribe(sender: watcher.uniqueName) { _ in }
            try await dropped!.addMatch("type='signal',interface='org.example.Noise'")
            dropped!.schedule(after: 0.05) {}
            for i in 0..<20 {
                try watcher.emit(path: "/noise", interface: "org.example.Noise", member: "Tick", [.uint32(UInt32(i))])
            }
            #expect(try await watcher.nameOwner(name) == name)
            if fromItsOwnThread {
                // The job holds the last reference, so deinit runs on the connection's own thread.
                let last = dropped!
                dropped = nil
                last.perform { [last] in
                    usleep(50_000)  // long enough for the test's own reference to go first
                    _ = last.uniqueName
                }
            } else {
                dropped = nil
            }
            try await waitForOwner(of: name, on: watcher) { $0 == nil }
        }
        // The process is still here, and the bus still answers.
        #expect(try await watcher.nameOwner("org.freedesktop.DBus") == "org.freedesktop.DBus")
        withExtendedLifetime(bus) {}
    }

    /// A connection closed on its own thread by a job that holds its last reference: its `deinit` then runs on
    /// that thread between two rounds of the loop, and the next round must not dispatch the freed connection
    /// (under `make tsan` this was a SEGV in `dbus_connection_dispatch`; without a sanitizer, a read of freed
    /// memory that usually went unnoticed).
    @Test func aConnectionClosedAndDroppedOnItsOwnThreadStopsWithoutTouchingIt() async throws {
        let bus = try await PrivateBus()
        let watcher = try Connection(bus: .address(bus.address))
        defer { watcher.close() }
        for _ in 0..<3 {
            var dropped: Connection? = try Connection(bus: .address(bus.address))
            let name = dropped!.uniqueName
            try await dropped!.addMatch("type='signal',interface='org.example.Noise'")
            for i in 0..<20 {  // something to dispatch while it goes
                try watcher.emit(path: "/noise", interface: "org.example.Noise", member: "Tick", [.uint32(UInt32(i))])
            }
            #expect(try await watcher.nameOwner(name) == name)
            let last = dropped!
            dropped = nil
            last.perform { [last] in last.close() }
            try await waitForOwner(of: name, on: watcher) { $0 == nil }
        }
        #expect(try await watcher.nameOwner("org.freedesktop.DBus") == "org.freedesktop.DBus")
        withExtendedLifetime(bus) {}
    }

    /// A handler that drops the last reference to its connection: `deinit` then runs inside the loop's drain of
    /// libdbus's queue, with more messages behind the one being handled. The drain must neither dispatch the
    /// freed connection nor hand the next message to the freed object (under `make tsan` this was a SEGV in
    /// `dbus_connection_dispatch`, which killed the test process).
    @Test func aHandlerThatDropsTheLastReferenceStopsTheDrain() async throws {
        final class Holder: @unchecked Sendable {
            private let lock = NSLock()
            private var connection: Connection?
            private var count = 0
            var handled: Int { lock.withLock { count } }
            func hold(_ connection: Connection?) { lock.withLock { self.connection = connection } }
            /// The first message lets go of the connection (outside the lock: its deinit runs here).
            func handle() {
                let last = lock.withLock { () -> Connection? in
                    count += 1
                    defer { connection = nil }
                    return connection
                }
                _ = last
            }
        }
        let bus = try await PrivateBus()
        let watcher = try Connection(bus: .address(bus.address))
        defer { watcher.close() }
        for _ in 0..<3 {
            let holder = Holder()
            var dropped: Connection? = try Connection(bus: .address(bus.address))
            let name = dropped!.uniqueName
            try await dropped!.addMatch("type='signal',interface='org.example.Noise'")
            dropped!.addHandler { message in
                if message.member == "Tick" { holder.handle() }
                return false
            }
            holder.hold(dropped)
            dropped = nil  // the holder has the last reference now; the handler lets go of it
            for i in 0..<50 {  // a burst: the first is handled with the rest still queued
                try watcher.emit(path: "/noise", interface: "org.example.Noise", member: "Tick", [.uint32(UInt32(i))])
            }
            try await waitForOwner(of: name, on: watcher) { $0 == nil }
            #expect(holder.handled >= 1)
        }
        // The process is still here, and the bus still answers.
        #expect(try await watcher.nameOwner("org.freedesktop.DBus") == "org.freedesktop.DBus")
        withExtendedLifetime(bus) {}
    }

    @Test func pathElementEscapingIsReversible() {
        for name in ["mail", "my-app", "a_b", "", "x-_-y", "UPPER09"] {
            let escaped = Validation.escapePathElement(name)
            #expect(Validation.isValidObjectPath("/w/" + escaped), "\(escaped)")
            #expect(Validation.unescapePathElement(escaped) == name)
        }
        #expect(Validation.escapePathElement("a-b") != Validation.escapePathElement("a_b"))
        #expect(!Validation.isValidString("a\u{0}b"))
    }
}
