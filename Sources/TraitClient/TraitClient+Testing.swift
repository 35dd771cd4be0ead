import DBus
import TraitProtocol

/// `org.traitd.Layout1.Testing`, served by `traitd --testing` or `--clock virtual`: what exact tests need.
extension TraitClient {
    /// Moves traitd's virtual clock `milliseconds` forward and returns once every timer due in that span (each
    /// adapter deadline) has fired and its signals were sent; returns the clock's time, in milliseconds since
    /// traitd started. `NotOffered` with the real clock; `UnknownInterface` without `--testing`.
    @discardableResult
    public func advanceClock(by milliseconds: UInt64) async throws -> UInt64 {
        try await call(Layout1.Testing.advanceClock, milliseconds, path: Self.rootPath, interface: Layout1.testingInterface)
    }
}
