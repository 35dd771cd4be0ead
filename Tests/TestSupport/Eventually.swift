import Foundation

/// Waits until `condition` holds, polling every 20 ms, for conditions that need a call or a look at a
/// process's output to check; throws `TestFailure` naming `what` after `timeout` seconds.
public func eventually(_ what: String, timeout: Double = 10, _ condition: () async -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw TestFailure("timed out after \(timeout) s waiting for \(what)")
}
