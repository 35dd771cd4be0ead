import DBus
import Synchronization

/// Telling that an app has finished laying out, from its own events: a toolkit that reports its widgets'
/// `BoundsChanged` (`org.a11y.atspi.Event.Object`; GTK 4 emits one for every widget whose place or size changes,
/// as it lays out) tells the bridge when a read of the tree may have straddled a layout.
///
/// Why it is exact: the bus delivers one sender's messages in the order it sent them, and the connection runs
/// signal handlers and completes replies in the order they arrive. So when every reply of a read has come back,
/// every `BoundsChanged` the app sent before its last answer has been counted; if the count did not move during
/// the read, no widget moved between the app's first answer and its last, and the read is of one layout. (Before,
/// the bridge read every frame a second time and compared: a call a widget, about 10 ms for a calculator.)
extension AccessibilityReader {
    /// Counts the app's `BoundsChanged` signals from now on (`boundsChanges`), and asks the registry to have them
    /// sent: GTK 4 sends them regardless, GTK 3's and Qt's bridges only when a listener is registered.
    func followBounds(of bus: String) async throws {
        _ = try? await connection.call(
            destination: "org.a11y.atspi.Registry", path: "/org/a11y/atspi/registry", interface: "org.a11y.atspi.Registry",
            member: "RegisterEvent", [.string("object:bounds-changed"), .array(element: "s", []), .string("")],
            timeout: Self.timeout)
        _ = try await connection.subscribe(
            sender: bus, matching: "interface='org.a11y.atspi.Event.Object',member='BoundsChanged'"
        ) { [self] _ in
            boundsChanges.add(1, ordering: .relaxed)
        }
    }

    /// A read of the tree that no `BoundsChanged` interrupted (the app laid nothing out between its first answer
    /// and its last), tried up to `attempts` times; the last read when every one was interrupted. Only for an app
    /// that has sent `BoundsChanged` before (else its silence would prove nothing): `reportsBounds`.
    func settledTree(bus: String, path: String, attempts: Int = 10) async throws -> AccessibleNode? {
        var tree: AccessibleNode?
        for _ in 0..<attempts {
            let before = boundsChanges.load(ordering: .relaxed)
            tree = try await self.tree(bus: bus, path: path)
            if boundsChanges.load(ordering: .relaxed) == before { break }
        }
        return tree
    }

    /// Whether the app has sent any `BoundsChanged` since `followBounds`: a resize it laid out sends some.
    var reportsBounds: Bool { boundsChanges.load(ordering: .relaxed) > 0 }
}
