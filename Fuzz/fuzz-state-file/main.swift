// Fuzz target: the whole state-file load, as traitd starts (`RestoredState.make`: decode, check every field
// against the rules the commands keep, build the simulation, admit the restoration states). Any bytes either
// load or are refused with the fields that fail; none trap. What loads must be a state the commands could
// hold (no rule broken, display ids unique), every restoration state kept one traitd can publish, and saving
// it and loading it again must give the same state (what a restart does).
import BusValues
import FoundationEssentials
import FuzzSupport
import StateStore
import TraitConfig
import TraitModel

/// Made once, on first use (libFuzzer may call the target before any top-level code runs).
enum Fixed {
    static let context: RestoredState.Context = {
        let config = DaemonConfig.embedded()
        // swiftlint:disable:next force_try
        let catalog = try! ProfileLoader.catalog()
        return RestoredState.Context(catalog: catalog, transitions: config.transitions,
                                     windowedLimit: config.windowedLimit, limits: config.limits)
    }()
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzTarget.bytes(data, size)
    guard let restored = try? RestoredState.make(from: Data(bytes), Fixed.context) else { return 0 }
    let state = restored.simulation.state
    let broken = Simulation.problems(in: state, profile: restored.simulation.profile, windowedLimit: Fixed.context.windowedLimit)
    precondition(broken.isEmpty, "loaded a state that breaks the rules: \(broken)")
    precondition(Set(state.displays.map(\.id)).count == state.displays.count, "two displays share an id")
    for (app, value) in restored.restoration {
        do {
            try WireLimits.check([.vardict(value)])
        } catch {
            preconditionFailure("kept a restoration state for \(app) that cannot be sent: \(error)")
        }
    }
    // A restart: the state saved and loaded again is the same state.
    guard let saved = try? SavedState(display: state, restoration: restored.restoration),
          let again = try? JSONEncoder().encode(saved) else {
        preconditionFailure("a loaded state cannot be saved")
    }
    do {
        let reloaded = try RestoredState.make(from: again, Fixed.context)
        precondition(reloaded.simulation.state == state, "the state changed across a save and a load")
        precondition(reloaded.restoration == restored.restoration, "restoration states changed across a save and a load")
    } catch {
        preconditionFailure("a loaded state, saved, does not load again: \(error)")
    }
    return 0
}

FuzzTarget.main(fuzzOneInput)
