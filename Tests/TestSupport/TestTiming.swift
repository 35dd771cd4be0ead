import Foundation

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
