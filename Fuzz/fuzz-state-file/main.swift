// Fuzz target: the state-file loader (state.json) and the limits a loaded state must pass. Any bytes either
// load (and then every restoration state kept is one traitd can publish) or are refused with a reason.
import Limits
import DBus
import FuzzSupport
import Foundation

import StateStore

/// Made once, on first use (libFuzzer may call the target before any top-level code runs).
enum Fixed { static let budget = PublishBudget(limits: Limits()) }

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzTarget.bytes(data, size)
    guard let state = try? StateStore.decode(Data(bytes)) else { return 0 }
    guard let states = try? state.restorationStates() else { return 0 }
    let admitted = Fixed.budget.admit(restoration: states)
    for (app, value) in admitted.kept {
        do {
            try WireLimits.check([.vardict(value)])
        } catch {
            preconditionFailure("kept a restoration state for \(app) that cannot be sent: \(error)")
        }
    }
    return 0
}

FuzzTarget.main(fuzzOneInput)
