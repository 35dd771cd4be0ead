import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a child started through `Spawn` (the tests' `ChildProcess`, `traitctl run`) gets of its parent.
@Suite struct SpawnTests {
    /// Standard input, output and error, and no other descriptor, even one the parent made without close-on-exec
    /// (as ThreadSanitizer's symbolizer makes its pipes). Before, a `dbus-daemon` a test had started held such a
    /// pipe: when the test process crashed, the symbolizer on the other end never saw it close, kept the test
    /// runner's output open, and `make tsan` waited for good.
    @Test func aChildHoldsOnlyItsStandardStreams() async throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(fcntl(fds[1], F_GETFD) & FD_CLOEXEC == 0, "the pipe is inheritable, as a careless library's would be")
        let (status, stdout, stderr) = try await ChildProcess.run("/bin/sh", ["-c", "ls /proc/$$/fd"])
        #expect(status == 0, "\(stderr)")
        let open = Set(stdout.split(whereSeparator: \.isNewline).compactMap { Int32($0) })
        #expect(open == [0, 1, 2], "the shell holds \(open.sorted()); the parent's pipe is \(fds)")
    }

    /// A command past its deadline is killed with what it started: its process group (before, only the command
    /// was, and a pytest past its 60 s left its buses and daemons parented to 1). The grandchild's pid comes
    /// through a file the shell writes before it waits; the deadline passing is what is tried.
    @Test func aCommandPastItsDeadlineTakesWhatItStartedWithIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pid").path
        await #expect(throws: TestFailure.self) {
            _ = try await ChildProcess.run("/bin/sh", ["-c", "sleep 600 & echo $! > \(file).part && mv \(file).part \(file); wait"],
                                           timeout: 3)
        }
        let grandchild = try #require(pid_t(String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)),
                                      "the shell had not started its child within the deadline")
        #expect(await ChildProcess.waitForExit(ofProcess: grandchild), "sleep (\(grandchild)) outlived the command killed at its deadline")
    }
}
