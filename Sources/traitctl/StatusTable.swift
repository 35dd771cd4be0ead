import TraitClient
import TraitProtocol
import TraitModel
import Vocabulary

/// `traitctl status` as a table a person reads.
struct StatusTable {
    let text: String

    init(_ state: DisplaySnapshot) {
        let size = "\(state.screenSize.width.compact) x \(state.screenSize.height.compact)"
        // In a free-form mode the arrangement means nothing: the mode takes its place, and the windows are listed
        // front to back.
        let mode = state.windowing.isFreeForm ? state.windowing.rawValue : state.arrangement.rawValue
        var lines = ["\(state.device)  \(state.orientation)  \(size) pt @\(state.scale.compact)x  \(mode)  (serial \(state.serial))"]
        let divider = state.dividerPosition > 0 || state.dragging
            ? "divider at \(state.dividerPosition.compact) pt, \(state.dragging ? "being dragged" : "released")" : "no divider"
        let background = state.backgroundApps.isEmpty ? "none" : state.backgroundApps.joined(separator: ", ")
        // The keyboard, while it shows.
        let keyboard = state.keyboardFrame.map { f in
            "; keyboard \(state.keyboard) at \(f.x.compact), \(f.y.compact), \(f.width.compact) x \(f.height.compact)"
        } ?? ""
        lines.append("\(divider); in the background: \(background)\(keyboard)")
        lines.append(DisplayTrait.all.map { "\($0.word) \(state.traits[$0])" }.joined(separator: ", "))
        // The screen each window is on, once there is more than one.
        let showDisplay = !state.displays.isEmpty
        let header = ["APP", "ROLE", "FRAME (x, y, w x h)", "H-CLASS", "V-CLASS", "STATE", "SAFE AREA (t, l, b, r)"]
            + (showDisplay ? ["DISPLAY"] : [])
        let windows = state.windowing.isFreeForm
            ? state.windowsBackToFront.reversed() + state.windows.filter { $0.state == .background } : state.windows
        let rows = windows.map { w -> [String] in
            let f = "\(w.frame.x.compact), \(w.frame.y.compact), \(w.frame.width.compact) x \(w.frame.height.compact)"
            let safe = w.safeAreaInsets.values.map(\.compact).joined(separator: ", ")
            return [w.app, w.role.rawValue, f, w.horizontalSizeClass.rawValue, w.verticalSizeClass.rawValue, w.state.rawValue, safe]
                + (showDisplay ? [w.display] : [])
        }
        if rows.isEmpty {
            lines.append("no apps open")
        } else {
            let widths = header.indices.map { i in ([header] + rows).map { $0[i].count }.max()! }
            for row in [header] + rows {
                lines.append(row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                    .joined(separator: "  ").trimmingTrailingSpaces())
            }
        }
        // The apps' breakpoints that hold (SetBreakpoints), a line a window that has some.
        let holding = windows.filter { !$0.breakpoints.isEmpty }
        if !holding.isEmpty {
            lines.append("breakpoints that hold:")
            lines += holding.map { "  \($0.app): \($0.breakpoints.joined(separator: ", "))" }
        }
        // Windows whose traits are not the display's (an app's SetTraitOverrides) and their custom traits.
        let own = windows.compactMap { w -> String? in
            let differing = DisplayTrait.windowTraits.filter { w.traits.display[$0] != state.traits[$0] }.map { "\($0.word) \(w.traits.display[$0])" }
            let custom = w.traits.custom.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.text)" }
            return differing.isEmpty && custom.isEmpty ? nil : "  \(w.app): " + (differing + custom).joined(separator: ", ")
        }
        if !own.isEmpty {
            lines.append("traits of their own (overrides, custom traits):")
            lines += own
        }
        // The layout checks' findings, a line each, under the table.
        let problems = windows.flatMap { w in w.layoutProblems.map { (w.app, $0) } }
        if !problems.isEmpty {
            lines.append("layout problems:")
            lines += problems.map { app, problem in "  \(app) \(problem)" }
        }
        text = lines.joined(separator: "\n") + "\n"
    }
}


extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}

/// `traitctl status --json`: the state as scripts read it, its shape fixed (frames and insets as arrays of
/// numbers, size classes beside the other traits), whatever the client's Swift types look like.
struct StatusJSON: Encodable {
    struct Window: Encodable {
        let path: String
        let app: String
        let role: String
        /// x, y, width, height.
        let frame: [Double]
        /// top, left, bottom, right.
        let safeAreaInsets: [Double]
        let horizontalSizeClass: String
        let verticalSizeClass: String
        let state: String
        /// The screen it is on: `device` or an external display's id.
        let display: String
        let idiom: String
        let displayScale: Double
        let adapters: [String]
        let layouts: [String: [String: [Double]]]
        let layoutProblems: [Problem]
        /// iPadOS 26's window controls, x, y, width, height in window coordinates (zeros without), and the safe
        /// area adapted to them (`horizontal`, `vertical`: top, left, bottom, right).
        let windowControls: [Double]
        let cornerAdaptedInsets: [String: [Double]]
        /// The window's trait collection by UIKit's names (its `Traits`): strings, the display scale a number, and
        /// the custom traits the app named (`SetTraitOverrides`) as they are.
        let traits: [String: TraitValue]
        /// The app's breakpoints that hold (`Breakpoints`), sorted.
        let breakpoints: [String]
    }

    /// One trait's value as JSON: a string, a number (the display scale), or a custom trait's boolean or integer.
    enum TraitValue: Encodable {
        case text(String), number(Double), flag(Bool), integer(Int64)
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .text(let s): try c.encode(s)
            case .number(let n): try c.encode(n)
            case .flag(let b): try c.encode(b)
            case .integer(let n): try c.encode(n)
            }
        }

        init(_ value: CustomTraitValue) {
            switch value {
            case .bool(let b): self = .flag(b)
            case .integer(let n): self = .integer(n)
            case .double(let n): self = .number(n)
            case .string(let s): self = .text(s)
            }
        }
    }

    /// One of `LayoutProblems`.
    struct Problem: Encodable {
        let adapter: String
        let element: String
        let rule: String
        let message: String
    }

    let serial: UInt64
    let device: String
    let orientation: String
    let screenSize: [Double]
    let scale: Double
    let arrangement: String
    let dividerPosition: Double
    let dragging: Bool
    let backgroundApps: [String]
    /// The display-wide settings by traitctl's word (`appearance`: `dark`).
    let traits: [String: String]
    /// `split-view`, `stage-manager` or `windowed`.
    let windowing: String
    /// The apps whose windows are on screen, front to back.
    let stacking: [String]
    /// The connected external displays' ids.
    let displays: [String]
    /// The software keyboard's mode, and its frame on the device's screen (x, y, width, height; zeros while hidden).
    let keyboard: String
    let keyboardFrame: [Double]
    let windows: [Window]

    init(_ s: DisplaySnapshot) {
        (serial, device, orientation, scale, arrangement) = (s.serial, s.device, s.orientation.rawValue, s.scale, s.arrangement.rawValue)
        screenSize = [s.screenSize.width, s.screenSize.height]
        (dividerPosition, dragging, backgroundApps) = (s.dividerPosition, s.dragging, s.backgroundApps)
        traits = Dictionary(uniqueKeysWithValues: DisplayTrait.all.map { ($0.word, s.traits[$0]) })
        (windowing, stacking, displays) = (s.windowing.rawValue, s.stacking, s.displays)
        (keyboard, keyboardFrame) = (s.keyboard.rawValue, (s.keyboardFrame ?? .zero).values)
        windows = s.windows.map { w in
            Window(path: w.path, app: w.app, role: w.role.rawValue, frame: w.frame.values, safeAreaInsets: w.safeAreaInsets.values,
                   horizontalSizeClass: w.horizontalSizeClass.rawValue, verticalSizeClass: w.verticalSizeClass.rawValue,
                   state: w.state.rawValue, display: w.display, idiom: w.idiom.rawValue, displayScale: w.displayScale, adapters: w.adapters,
                   layouts: w.layouts.mapValues { $0.mapValues(\.values) },
                   layoutProblems: w.layoutProblems.map { Problem(adapter: $0.adapter, element: $0.element, rule: $0.rule.rawValue, message: $0.message) },
                   windowControls: (w.windowControls ?? .zero).values,
                   cornerAdaptedInsets: ["horizontal": w.cornerAdaptedInsets.horizontal.values, "vertical": w.cornerAdaptedInsets.vertical.values],
                   traits: Dictionary(uniqueKeysWithValues: TraitCollection.Field.all.map { field in
                       let (key, value) = field.entry(in: w.traits)
                       if case .double(let n) = value.unwrapped { return (key, TraitValue.number(n)) }
                       return (key, .text(value.unwrapped.string ?? "\(value)"))
                   } + w.traits.custom.map { ($0.key, TraitValue($0.value)) }),
                   breakpoints: w.breakpoints)
        }
    }
}
