import Foundation
import TestSupport

/// Starts `traitctl watch ARGUMENTS` on the fixture's bus and returns once its subscription is in place (it
/// says "watching" on stderr then).
func startTraitctlWatch(_ fixture: DaemonFixture, _ arguments: [String]) async throws -> ChildProcess {
    let watch = try ChildProcess(Binaries.path("traitctl"), ["watch"] + arguments + ["--bus", fixture.bus.address])
    try await watch.waitForOutput("watching", in: .errors)
    return watch
}
