import Foundation
import TestSupport

extension DaemonFixture {
    /// Stops the daemon, puts the state file `Tests/IntegrationTests/Fixtures/state-files/NAME` (one written by an
    /// earlier release) in its state directory, and starts it again: what a user's upgrade does.
    func restart(withStateFile name: String) async throws {
        let file = stateDirectory.appendingPathComponent("state.json")
        daemon.kill(SIGTERM)
        _ = await daemon.wait(timeout: 30)
        let saved = Binaries.repository.appendingPathComponent("Tests/IntegrationTests/Fixtures/state-files/" + name)
        try? FileManager.default.removeItem(at: file)
        try FileManager.default.copyItem(at: saved, to: file)
        try await restart()
    }
}
