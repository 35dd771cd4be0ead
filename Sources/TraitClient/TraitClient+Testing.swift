import DBus
import TraitProtocol
import Vocabulary

/// `org.traitd.Layout1.Testing`, served by `traitd --testing` or `--clock virtual`: what exact tests need.
extension TraitClient {
    /// Moves traitd's virtual clock `milliseconds` forward and returns once every timer due in that span (each
    /// adapter deadline) has fired and its signals were sent; returns the clock's time, in milliseconds since
    /// traitd started. `NotOffered` with the real clock; `UnknownInterface` without `--testing`.
    @discardableResult
    public func advanceClock(by milliseconds: UInt64) async throws -> UInt64 {
        try await call(Layout1.Testing.advanceClock, milliseconds, path: Self.rootPath, interface: Layout1.testingInterface)
    }

    /// Sets the simulation back to the configuration's starting state without a restart (restoration states
    /// emptied, adapters still registered, `Serial` still growing); returns the transitions it started.
    @discardableResult
    public func reset() async throws -> [UInt64] {
        try await call(Layout1.Testing.reset, (), path: Self.rootPath, interface: Layout1.testingInterface)
    }

    /// Keeps the whole simulation under `name` (in the daemon's memory), replacing a snapshot of that name.
    public func saveSnapshot(_ name: String) async throws {
        try await call(Layout1.Testing.saveSnapshot, name, path: Self.rootPath, interface: Layout1.testingInterface)
    }

    /// Brings snapshot `name` back, one transition per changed window; returns the transitions it started.
    @discardableResult
    public func restoreSnapshot(_ name: String) async throws -> [UInt64] {
        try await call(Layout1.Testing.restoreSnapshot, name, path: Self.rootPath, interface: Layout1.testingInterface)
    }

    /// The names of the snapshots the daemon keeps, sorted.
    public func listSnapshots() async throws -> [String] {
        try await call(Layout1.Testing.listSnapshots, (), path: Self.rootPath, interface: Layout1.testingInterface)
    }

    /// The window size classes and breakpoints driven since the daemon started (`DrivenAdaptation`), sorted;
    /// empty from a daemon older than the method (its modes still count).
    public func adaptationCoverage() async throws -> [DrivenAdaptation] {
        do {
            let (classes, breakpoints) = try await call(Layout1.Testing.adaptationCoverage, (), path: Self.rootPath,
                                                        interface: Layout1.testingInterface)
            return classes + breakpoints
        } catch let error as DBusError where error.name == DBusError.unknownMethodName {
            return []
        }
    }

    /// Every mode a window has been in since the daemon started (`DrivenMode`), sorted: what a run covered. A
    /// daemon without `--testing` does not count them: its refusal says so.
    public func coverage() async throws -> [DrivenMode] {
        do {
            return try await call(Layout1.Testing.coverage, (), path: Self.rootPath, interface: Layout1.testingInterface)
        } catch let error as DBusError where error.name == DBusError.unknownInterfaceName || error.name == DBusError.unknownMethodName {
            throw DBusError(error.name, "this daemon does not count coverage: start it with traitd --testing")
        }
    }
}
