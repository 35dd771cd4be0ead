import TraitClient

/// `traitctl status` as a table a person reads.
struct StatusTable {
    let text: String

    init(_ state: DisplaySnapshot) {
        let size = state.screenSize.count == 2 ? "\(n(state.screenSize[0])) x \(n(state.screenSize[1]))" : "?"
        var lines = ["\(state.device)  \(state.orientation)  \(size) pt @\(n(state.scale))x  \(state.arrangement)  (serial \(state.serial))"]
        let header = ["APP", "ROLE", "FRAME (x, y, w x h)", "H-CLASS", "V-CLASS", "STATE"]
        let rows = state.windows.map { w -> [String] in
            let f = w.frame.count == 4 ? "\(n(w.frame[0])), \(n(w.frame[1])), \(n(w.frame[2])) x \(n(w.frame[3]))" : "?"
            return [w.app, w.role, f, w.horizontalSizeClass, w.verticalSizeClass, w.state]
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

private func n(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d) }

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
