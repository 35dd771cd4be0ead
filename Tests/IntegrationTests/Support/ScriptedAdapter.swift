import DBus
import Foundation
import TestSupport
import TraitClient

/// An adapter on a bus connection of its own, with a scripted behaviour: it reports at once, after a delay,
/// never, or as failed. Each transition of its app's window gets one report, `root` = the whole window.
// @unchecked: `closed` is read and written under `lock` only; `task` is set once in `init`, then only cancelled.
final class ScriptedAdapter: @unchecked Sendable {
    enum Behaviour: Sendable {
        case fast
        case delayed(seconds: Double)
        case silent
        case failing(String)
    }

    let client: TraitClient
    let app: String
    let name: String
    private var task: Task<Void, Never>?
    private let lock = NSLock()
    /// The transitions whose reports the daemon accepted, and the reports it refused, as they are answered.
    struct Answers: Sendable {
        var accepted: [UInt64] = []
        var refused: [DBusError] = []
    }
    let answers = Watched(Answers())

    init(_ fixture: DaemonFixture, app: String, name: String, behaviour: Behaviour) async throws {
        client = try TraitClient(bus: .address(fixture.bus.address))
        self.app = app
        self.name = name
        let events = try await client.events()
        try await client.registerAdapter(name, for: app)
        task = Task { [client, answers] in
            // The size the window takes, from ViewWillTransitionToSize (a traits-only transition has none: the size
            // it had); the report goes out at ViewWillLayoutSubviews, which the daemon sends last in every transition.
            var size: Size?
            for await event in events where event.app == app {
                switch event {
                case .windowOpened(let window): size = window.frame.size
                case .viewWillTransitionToSize(_, _, let new, _): size = new
                default: break
                }
                guard case .viewWillLayoutSubviews(_, let id) = event else { continue }
                if size == nil, let frame = try? await client.property(Layout1.Window.frame, of: app) { size = frame.size }
                guard let (width, height) = size.map({ ($0.width, $0.height) }) else { continue }
                let report: @Sendable () async -> Void = {
                    var extras: [String: DBusValue] = [:]
                    var frames: [String: Rect] = ["root": Rect(x: 0, y: 0, width: width, height: height)]
                    if case .failing(let reason) = behaviour {
                        extras["error"] = .string(reason)
                        frames = [:]
                    }
                    do {
                        try await client.reportLayout(app: app, transition: id, adapter: name, frames: frames, extras: extras)
                        answers.update { $0.accepted.append(id) }
                    } catch let error as DBusError {
                        answers.update { $0.refused.append(error) }
                    } catch {}
                }
                switch behaviour {
                case .fast, .failing: await report()
                case .delayed(let seconds):
                    Task {
                        try? await Task.sleep(for: .seconds(seconds))
                        await report()
                    }
                case .silent: break
                }
            }
        }
    }

    /// Reports the daemon refused (a late report after the deadline gets `StaleTransition`).
    var refused: [DBusError] { answers.current.refused }

    /// Waits until the daemon has answered `count` reports in all (accepted or refused).
    func waitForAnswers(_ count: Int = 1, timeout: Double = 30) async throws {
        guard await answers.wait(timeout: timeout, until: { $0.accepted.count + $0.refused.count >= count }) != nil else {
            throw TestFailure("\(name): fewer than \(count) reports answered after \(timeout * TestTiming.scale) s")
        }
    }

    /// Leaves the bus, as a crashing adapter would.
    func close() {
        guard lock.withLock({ () -> Bool in defer { closed = true }; return !closed }) else { return }
        task?.cancel()
        client.close()
    }

    private var closed = false

    deinit { close() }
}
