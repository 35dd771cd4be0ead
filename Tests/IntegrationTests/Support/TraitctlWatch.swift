import Foundation
import TestSupport

/// Starts `traitctl watch ARGUMENTS` on the fixture's bus and returns once its subscription is in place (it
/// says "watching" on stderr then).
func startTraitctlWatch(_ fixture: DaemonFixture, _ arguments: [String]) async throws -> ChildProcess {
    let watch = try ChildProcess(Binaries.path("traitctl"), ["watch"] + arguments + ["--bus", fixture.bus.address])
    let deadline = Date().addingTimeInterval(10)
    while !watch.standardError.contains("watching"), Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
    return watch
}
