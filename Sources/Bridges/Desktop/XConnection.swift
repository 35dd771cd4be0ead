import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A connection the desktop bridge keeps to its own X display (the host's Xvfb), to resize and raise the apps'
/// windows with one request each instead of a process each (`xdotool windowsize` cost 6-13 ms a transition on
/// this project's machine: a fork, an exec and an X connection's setup, every time).
///
/// It speaks the two messages of the X11 protocol it needs, and no more: the connection setup (no
/// authorisation: the host's Xvfb accepts local clients, as xdotool's connection did) and `ConfigureWindow`
/// (core request 12, the request `XResizeWindow` and `XRaiseWindow` send), which has no reply. The server's
/// errors, if any, are read and dropped: the bridge learns whether a size took from the accessibility bus,
/// as it did after xdotool.
final class XConnection {
    private let socket: Int32
    /// The first screen's root window, from the setup.
    private var root: UInt32 = 0

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to display `display` (`:N`) through its local socket, `/tmp/.X11-unix/XN`.
    init(display: String) throws {
        guard display.hasPrefix(":"), let number = Int(display.dropFirst().prefix { $0 != "." }) else {
            throw Failure(description: "not a local X display: '\(display)'")
        }
        let path = "/tmp/.X11-unix/X\(number)"
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw Failure(description: "cannot connect to \(path): \(reason)")
        }
        do {
            try setUp()
        } catch {
            close(socket)
            throw error
        }
    }

    deinit { close(socket) }

    /// Sets `window`'s size in device pixels (`XResizeWindow`).
    func resize(window: UInt32, width: Int, height: Int) throws {
        try configure(window: window, mask: Self.widthBit | Self.heightBit, values: [UInt32(width), UInt32(height)])
    }

    /// Sets the root window's property `name` to the text `value` (`xprop -root -set`): how an X display tells
    /// its clients where the accessibility bus is (`AT_SPI_BUS`, which Qt reads; GTK reads AT_SPI_BUS_ADDRESS).
    /// `InternAtom` (core request 16) is the one request here with a reply, read before anything else is sent.
    func setRootProperty(_ name: String, to value: String) throws {
        try confirmed("ChangeProperty(\(name))") {
            let nameBytes = Self.padded(Array(name.utf8))
            try send([Self.internAtom, 0] + Self.bytes(UInt16(2 + nameBytes.count / 4)) + Self.bytes(UInt16(name.utf8.count)) + [0, 0]
                     + nameBytes)
            let reply = try receive(32)
            guard reply[0] == 1 else { throw Failure(description: "the X server refused InternAtom(\(name)): error \(reply[1])") }
            let atom = UInt32(reply[8]) | UInt32(reply[9]) << 8 | UInt32(reply[10]) << 16 | UInt32(reply[11]) << 24
            let data = Self.padded(Array(value.utf8))
            try send([Self.changeProperty, 0] + Self.bytes(UInt16(6 + data.count / 4)) + Self.bytes(root) + Self.bytes(atom)
                     + Self.bytes(Self.stringAtom) + [8, 0, 0, 0] + Self.bytes(UInt32(value.utf8.count)) + data)
        }
    }

    /// Moves the pointer to (`x`, `y`) on the root window (`XWarpPointer`, core request 41), and waits for the server
    /// to have done it (a round trip).
    func warpPointer(x: Int16, y: Int16) throws {
        try confirmed("WarpPointer") {
            try send([Self.warpPointer, 0] + Self.bytes(UInt16(6)) + Self.bytes(UInt32(0)) + Self.bytes(root)
                     + [0, 0, 0, 0, 0, 0, 0, 0] + Self.bytes(UInt16(bitPattern: x)) + Self.bytes(UInt16(bitPattern: y)))
        }
    }

    /// Sends `requests` on the blocking socket, then a round trip (GetInputFocus, core request 43): what they did is
    /// done once its reply comes, or the server's error for them comes first. Closed without one, the
    /// connection's last request was dropped.
    private func confirmed(_ what: String, _ requests: () throws -> Void) throws {
        drain()
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) & ~O_NONBLOCK)
        defer { _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK) }
        try requests()
        try send([Self.getInputFocus, 0] + Self.bytes(UInt16(1)))
        let answer = try receive(32)
        guard answer[0] == 1 else { throw Failure(description: "the X server refused \(what): error \(answer[1])") }
    }

    /// Puts `window` above its siblings (`XRaiseWindow`).
    func raise(window: UInt32) throws {
        try configure(window: window, mask: Self.stackModeBit, values: [Self.above])
    }

    // The protocol: every number little endian, as the setup's first byte ('l') tells the server, whatever this
    // machine's order; each request a multiple of four bytes.

    private static let configureWindow: UInt8 = 12
    private static let internAtom: UInt8 = 16, changeProperty: UInt8 = 18, warpPointer: UInt8 = 41, getInputFocus: UInt8 = 43
    /// The predefined atom `STRING`.
    private static let stringAtom: UInt32 = 31
    private static let widthBit: UInt16 = 0x04, heightBit: UInt16 = 0x08, stackModeBit: UInt16 = 0x40
    private static let above: UInt32 = 0

    /// The setup: byte order, protocol 11.0, no authorisation; the server's answer is read whole and checked.
    private func setUp() throws {
        var request: [UInt8] = [UInt8(ascii: "l"), 0]
        request += Self.bytes(UInt16(11)) + Self.bytes(UInt16(0)) + Self.bytes(UInt16(0)) + Self.bytes(UInt16(0)) + [0, 0]
        try send(request)
        let head = try receive(8)
        let more = Int(UInt16(head[6]) | UInt16(head[7]) << 8) * 4
        let rest = try receive(more)
        guard head[0] == 1 else {
            let reason = String(decoding: rest.prefix(Int(head[1])), as: UTF8.self)
            throw Failure(description: "the X server refused the connection: \(reason.isEmpty ? "status \(head[0])" : reason)")
        }
        // The first screen's root window: after 32 bytes of fixed fields, the vendor's name (padded) and the
        // pixmap formats (8 bytes each).
        let vendor = ((Int(rest[16]) | (Int(rest[17]) << 8)) + 3) & ~3, formats = Int(rest[21])
        let at = 32 + vendor + 8 * formats
        guard rest.count >= at + 4 else { throw Failure(description: "the X server's setup names no screen") }
        root = UInt32(rest[at]) | UInt32(rest[at + 1]) << 8 | UInt32(rest[at + 2]) << 16 | UInt32(rest[at + 3]) << 24
        // From here on only errors can come, and nothing waits for them.
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
    }

    private func configure(window: UInt32, mask: UInt16, values: [UInt32]) throws {
        drain()
        var request: [UInt8] = [Self.configureWindow, 0] + Self.bytes(UInt16(3 + values.count))
        request += Self.bytes(window) + Self.bytes(mask) + [0, 0]
        for value in values { request += Self.bytes(value) }
        try send(request)
    }

    /// Reads and drops whatever the server sent (errors of earlier requests: 32 bytes each).
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(socket, &buffer, buffer.count) > 0 {}
    }

    private func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { throw Failure(description: "write to the X server: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    private func receive(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = bytes[offset...].withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw Failure(description: "the X server closed the connection during setup") }
            offset += got
        }
        return bytes
    }

    private static func bytes(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }
    /// `bytes` and zeros to a multiple of four.
    private static func padded(_ bytes: [UInt8]) -> [UInt8] { bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4) }
    private static func bytes(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> ($0 * 8)) & 0xff) } }
}
