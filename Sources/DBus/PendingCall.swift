import CDBus

/// The completion of one pending call, called exactly once whichever path completes it first.
final class PendingCallState: Sendable {
    typealias Completion = @Sendable (Result<[DBusValue], any Error>) -> Void
    private let completion: Locked<Completion?>

    init(_ completion: @escaping Completion) { self.completion = Locked(completion) }

    /// A call whose connection closed before it was sent or answered: libdbus frees the pending call (or the
    /// loop drops the unsent job) without a reply, and the caller hears `Disconnected` instead of waiting forever.
    deinit {
        take()?(.failure(DBusError(DBusError.disconnectedName, "the connection closed before the reply came")))
    }

    func complete(_ pending: OpaquePointer) {
        guard let taken = take() else { return }
        guard let raw = dbus_pending_call_steal_reply(pending) else {
            taken(.failure(DBusError(DBusError.noReplyName, "no reply")))
            return
        }
        let reply = Message(owning: raw)
        let arguments = reply.arguments()
        if reply.kind == .error {
            let text = arguments.first?.string ?? ""
            taken(.failure(DBusError(reply.errorName ?? DBusError.failedName, text)))
        } else {
            taken(.success(arguments))
        }
    }

    func finish(_ result: Result<[DBusValue], any Error>) {
        take()?(result)
    }

    private func take() -> Completion? {
        completion.withLock { completion in
            defer { completion = nil }
            return completion
        }
    }
}
