import FoundationEssentials
import Glibc
import TraitModel
import Vocabulary

/// Reading the state file back: the whole load traitd starts from (`restore`), what a decoding error says of
/// its field, and a file that fails moved aside, never overwritten.
extension StateStore {
    /// What `restore` found.
    public enum Restored: Sendable {
        /// No state file yet: a first start.
        case nothing
        /// The file loaded. When it dropped anything (restoration states past the limits, settings of a later
        /// version), the file as it was is kept at `copy`.
        case restored(RestoredState, copy: String?)
        /// The file broke a rule (`problems`, each `field: what was expected`) or could not be read; it now
        /// lives at `movedTo` (nil when even that failed, and the store saves nothing so as not to overwrite it).
        case refused(movedTo: String?, problems: [StateProblem])
    }

    /// Reads the state file and checks it whole (`RestoredState.make`): what the daemon starts from. A file
    /// that fails is moved aside; no content of the file can make this trap or throw.
    public func restore(_ context: RestoredState.Context) -> Restored {
        do throws(RestoredState.Refusal) {
            guard let data = try read() else { return .nothing }
            let restored = try RestoredState.make(from: data, context)
            remember(data)
            // The file as it was is kept aside when anything was dropped from it.
            let droppedAny = !restored.dropped.isEmpty || !restored.droppedSettings.isEmpty
            return .restored(restored, copy: droppedAny ? moveAside() : nil)
        } catch {
            return .refused(movedTo: moveAside(), problems: error.problems)
        }
    }

    /// The state file's bytes, or nil when there is none (a first start).
    private func read() throws(RestoredState.Refusal) -> Data? {
        // A temporary file is a write that a crash cut short; the state file beside it is whole.
        unlink(path + ".tmp")
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RestoredState.Refusal([StateProblem("the file", "a file traitd can read; \(String(cString: strerror(errno)))")])
        }
        return data
    }

    /// The file as loaded is what is on disk: saving the same state again writes nothing.
    private func remember(_ data: Data) {
        shared.withLock {
            $0.lastWritten = data
            $0.latest = data
        }
    }

    /// A state file's bytes as a `SavedState` of this version (its restoration states still encoded: they are
    /// read once, by `RestoredState.make`). `dropped`, when given, collects the settings left out
    /// (`DisplayTraits.init(from:)`).
    static func decode(_ data: Data, dropped: DroppedSettings? = nil) throws -> SavedState {
        let decoder = JSONDecoder()
        if let dropped { decoder.userInfo[DroppedSettings.key] = dropped }
        let state = try decoder.decode(SavedState.self, from: data)
        guard state.version == SavedState.currentVersion else {
            throw Problem("it has version \(state.version); this traitd reads version \(SavedState.currentVersion)")
        }
        return state
    }

    /// A decoding error as the field it is about and what was expected there.
    static func problem(decoding error: any Error) -> StateProblem {
        func field(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "the file" : path.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }
                .joined().trimmingPrefix(".").description
        }
        switch error {
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            return StateProblem("the file", "a traitd state file (JSON); this is not one (\(context.debugDescription))")
        case DecodingError.dataCorrupted(let context):
            return StateProblem(field(context.codingPath), context.debugDescription)
        case DecodingError.keyNotFound(let key, let context):
            return StateProblem(field(context.codingPath + [key]), "a value; the file has none")
        case DecodingError.typeMismatch(let type, let context):
            return StateProblem(field(context.codingPath), "a value of type \(type); it has another type")
        case DecodingError.valueNotFound(let type, let context):
            return StateProblem(field(context.codingPath), "a value of type \(type); it is null")
        case let problem as Problem:
            return StateProblem("the file", problem.description)
        default:
            return StateProblem("the file", "\(error)")
        }
    }

    /// Moves the state file aside as `state.json.corrupt-<time>` (for a file that parsed but that the
    /// simulation refuses, too); returns where it went, or nil when even that failed, in which case the store
    /// stops saving so that the file is not overwritten.
    func moveAside() -> String? {
        let stamp = Self.localTimeStamp()
        var target = path + ".corrupt-" + stamp
        var n = 1
        while FileManager.default.fileExists(atPath: target) {
            n += 1
            target = path + ".corrupt-" + stamp + "-\(n)"
        }
        if rename(path, target) == 0 {
            shared.withLock {
                $0.lastWritten = nil
                $0.latest = nil
            }
            return target
        }
        shared.withLock { $0.disabled = true }
        return nil
    }
}
