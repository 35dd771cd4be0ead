import TraitClient
import TraitModel

/// `traitctl status` as a table a person reads.
struct StatusTable {
    let text: String

    init(_ state: DisplaySnapshot) {
        let size = state.screenSize.count == 2 ? "\(state.screenSize[0].compact) x \(state.screenSize[1].compact)" : "?"
        var lines = ["\(state.device)  \(state.orientation)  \(size) pt @\(state.scale.compact)x  \(state.arrangement)  (serial \(state.serial))"]
        let divider = state.dividerPosition > 0 || state.dragging
            ? "divider at \(state.dividerPosition.compact) pt, \(state.dragging ? "being dragged" : "released")" : "no divider"
        let background = state.backgroundApps.isEmpty ? "none" : state.backgroundApps.joined(separator: ", ")
        lines.append("\(divider); in the background: \(background)")
        let header = ["APP", "ROLE", "FRAME (x, y, w x h)", "H-CLASS", "V-CLASS", "STATE", "SAFE AREA (t, l, b, r)"]
        let rows = state.windows.map { w -> [String] in
            let f = w.frame.count == 4 ? "\(w.frame[0].compact), \(w.frame[1].compact), \(w.frame[2].compact) x \(w.frame[3].compact)" : "?"
            let safe = w.safeAreaInsets.count == 4 ? w.safeAreaInsets.map(\.compact).joined(separator: ", ") : "?"
            return [w.app, w.role, f, w.horizontalSizeClass, w.verticalSizeClass, w.state, safe]
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
