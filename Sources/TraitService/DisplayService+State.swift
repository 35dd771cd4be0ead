import DBus
import StateStore
import TraitModel
import TraitProtocol

/// What the service saves: the state handed to the store after every change, and replies that wait until it
/// is on disk.
extension DisplayService {
    /// Hands the current state to the store (written in the background, atomically; writes that follow one
    /// another closely are grouped). With `reply`, the reply (empty) waits for the write that holds this state,
    /// registered with it under the store's lock (`SetRestorationState`'s promise, and what its test counts:
    /// registered after the hand-over, a write could come between and the reply would wait for none).
    func save(replyWhenDurable reply: ObjectServer.DeferredReply? = nil) {
        guard let store else {
            reply?.send(.success([]))
            return
        }
        let state: SavedState
        do {
            state = try SavedState(display: simulation.state, restoration: core.restoration.states)
        } catch {
            logger.error("cannot encode the state: \(error)")
            reply?.send(.failure(DBusError(DBusError.ioErrorName, "the state cannot be encoded: \(error)")))
            return
        }
        guard let reply else { return store.save(state) }
        store.save(state, whenDurable: Self.answering(reply, [], path: store.path))
    }

    /// Takes `call`'s reply out of the object server's hands and sends `values` once the state is on disk
    /// (`replyWhenSaved`); does nothing when it is there already (a command that changed nothing) or no state is
    /// kept: the object server then replies at once.
    func replyOnceSaved(_ call: ObjectServer.MethodCall, _ values: @autoclosure () -> [DBusValue]) {
        guard let store, !store.isDurable else { return }
        replyWhenSaved(call.deferReply(), values())
    }

    /// Sends `values` as the call's reply once every state handed to the store so far is on disk: at once when
    /// it is (or when traitd keeps no state), else after the write that holds it, which every call waiting
    /// meanwhile shares (group commit). `IOError` when it cannot be written: the change stays made, but the
    /// caller learns that a crash would lose it.
    func replyWhenSaved(_ reply: ObjectServer.DeferredReply, _ values: [DBusValue]) {
        guard let store else { return reply.send(.success(values)) }
        store.whenSaved(Self.answering(reply, values, path: store.path))
    }

    /// The store's completion that answers `reply`: `values`, or `IOError` saying the change will not survive.
    private static func answering(
        _ reply: ObjectServer.DeferredReply, _ values: [DBusValue], path: String
    ) -> StateStore.Completion {
        { result in
            switch result {
            case .success: reply.send(.success(values))
            case .failure(let problem):
                reply.send(.failure(DBusError(
                    DBusError.ioErrorName,
                    "the change was made but could not be saved to \(path) (\(problem)); it will be lost when traitd stops")))
            }
        }
    }
}
