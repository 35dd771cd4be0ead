import Foundation

/// Waits until `condition` holds, polling every 20 ms, for conditions that need a call or a look at a
/// process's output to check; throws `TestFailure` naming `what` after `timeout` seconds.
public func eventually(_ what: String, timeout: Double = 10, _ condition: () async -> Bool) async throws {
    let timeout = timeout * TestTiming.scale
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw TestFailure("timed out after \(timeout) s waiting for \(what)")
}

/// How much longer than usual the tests wait for a process or a condition: `TRAITD_TEST_TIME_SCALE` (`make tsan`
/// sets 4, as ThreadSanitizer makes every process several times slower), 1 otherwise. It stretches waits only,
/// never what a test asserts about order or outcome.
public enum TestTiming {
    public static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["TRAITD_TEST_TIME_SCALE"], let value = Double(text), value >= 1
        else { return 1 }
        return value
    }()
}
