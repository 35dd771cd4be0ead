import DBus

/// Waits until the owner of the bus name `name` satisfies `condition` (nil or "" when it has none), as `probe`
/// sees it; throws when `process` (the one expected to take or leave the name) exits first, or after `timeout`
/// seconds (times `TestTiming.scale`).
///
/// Event-driven: the bus's `NameOwnerChanged` and the process's exit, raced in a task group; the timeout only
/// turns a hang into a failure.
public func waitForOwner(
    of name: String, on probe: Connection, process: ChildProcess? = nil, timeout: Double = 60,
    until condition: @escaping @Sendable (String?) -> Bool
) async throws {
    let owner = Watched<String?>(nil)
    let subscription = try await probe.subscribe(
        sender: "org.freedesktop.DBus",
        matching: "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'"
    ) { signal in
        // The subscription sees every signal of the bus to this connection (NameAcquired too): only this one counts.
        guard signal.member == "NameOwnerChanged", signal.arguments.count == 3, signal.arguments[0].string == name,
              let now = signal.arguments[2].string else { return }
        owner.update { $0 = now }
    }
    defer { probe.unsubscribe(subscription) }
    // Asked after subscribing, so that a change in between is seen one way or the other; a signal that came
    // meanwhile is newer than the answer and wins.
    let now = try await probe.nameOwner(name) ?? ""
    owner.update { $0 = $0 ?? now }
    let outcome = await withTaskGroup(of: String?.self) { group in
        group.addTask { await owner.wait(timeout: timeout) { $0 != nil && condition($0 == "" ? nil : $0) }.map { _ in "done" } }
        if let process { group.addTask { await process.wait(timeout: timeout).map { "exited with \($0)" } } }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
    switch outcome {
    case "done": return
    case let exit?:
        throw TestFailure("\(process?.arguments.first ?? "the process") \(exit) while waiting for \(name)'s owner: \(process?.standardError ?? "")")
    case nil:
        throw TestFailure("\(name)'s owner did not change as expected in \(timeout * TestTiming.scale) s: \(process?.standardError ?? "")")
    }
}
