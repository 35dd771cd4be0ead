#if canImport(Glibc)
    import Glibc
#endif

/// Waits for a program to open a file in a folder (inotify's `IN_OPEN`), within a limit: how the desktop bridge
/// knows a Qt app has read its theme's new settings, which the theme re-reads on a timer of its own, not at once
/// (`QtTheme`). The watch begins when it is made, so it is made before the file is written: an open that follows
/// the write at once is not missed.
final class ConfigReadWatch: Sendable {
    private let descriptor: Int32

    init(folder: String) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else {
            // EMFILE here is the user's inotify instances (fs.inotify.max_user_instances, 128 on Debian), not files:
            // every dbus-daemon, GTK app and Chromium of the user holds one.
            let reason = errno == EMFILE
                ? "all of this user's inotify instances are in use (fs.inotify.max_user_instances); stop some programs or raise the limit"
                : String(cString: strerror(errno))
            throw DevToolsError("cannot watch \(folder): \(reason)")
        }
        guard inotify_add_watch(descriptor, folder, UInt32(IN_OPEN)) >= 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw DevToolsError("cannot watch \(folder): \(reason)")
        }
    }

    deinit { close(descriptor) }

    /// Whether `name` in the folder was opened since the watch began, waiting up to `limit` on a thread of its own
    /// (never on the cooperative pool).
    func opened(_ name: String, within limit: Duration) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            startThread { [self] in
                continuation.resume(returning: waitForOpen(of: Array(name.utf8), until: .now + limit))
            }
        }
    }

    private func waitForOpen(of name: [UInt8], until deadline: ContinuousClock.Instant) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline - .now
            guard left > .zero else { return false }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
            let ready = poll(&poller, 1, Int32(clamping: milliseconds))
            guard ready > 0 else { continue }  // interrupted, or the time is up (checked above)
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { continue }
            // struct inotify_event: wd (4 bytes), mask (4), cookie (4), len (4), then len bytes of name, NUL-padded.
            var offset = 0
            while offset + 16 <= count {
                let length = buffer[offset + 12..<offset + 16].withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
                let start = offset + 16, end = min(start + length, count)
                if Array(buffer[start..<end].prefix { $0 != 0 }) == name { return true }
                offset = start + length
            }
        }
    }
}
