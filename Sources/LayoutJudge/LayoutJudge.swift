import Vocabulary

/// The checks of one report against the window it answers, read top to bottom: which part of each element
/// shows, then each rule in turn (`LayoutRule`'s order), each finding one problem per element (or pair).
///
/// How the checks tell things apart (docs/adapters.md, "Layout checks"):
/// - **What an element is** comes from the report (`kinds`). Backgrounds and containers may fill the window
///   under the safe area and lie under what they hold; content, controls and text must stay in the safe area
///   and apart.
/// - **Scrolled content** is named by the report (`scrolledIn`: element -> its scroll view). It is judged only
///   by the part of it that shows through its scroll view (and that scroll view's, outwards); an element
///   scrolled wholly out of sight is not judged at all. Whatever scrolls in nothing is judged whole: content
///   that overflows its window is a problem, content a person can scroll to is not; nor is content the safe
///   area's bottom edge cuts (a person scrolls it up from under the home indicator).
/// - **An element that holds another** is not overlapping it: `overlap` is two foreground elements that share
///   area while neither holds the other (within `tolerance`), as a label on a card, not a label over a label.
public enum LayoutJudge {
    /// How far (in points) an edge may pass another and still count as within it: the solver's and a
    /// pixel grid's rounding, not a layout's mistake.
    public static let tolerance = 0.01
    /// Two elements that share at most this much (a border each draws on the same line) touch; they do not overlap.
    public static let sharedBorder = 1.0
    /// Every problem of `layout`, reported by `adapter`, against `window`, by the run's `checks` (which
    /// target size, which rules off): by rule, and within a rule the worst first (the farthest past an edge, the
    /// largest overlap, the smallest control), then by element, so that a report that can publish only its first
    /// few shows those. A rule that is off is not reported, and what it would have explained (the widgets an app
    /// too large for its window carries past the edge) is not reported instead.
    public static func problems(
        of layout: ReportedLayout, adapter: String, in window: PublishedWindow, checks: LayoutChecks = LayoutChecks()
    ) -> [LayoutProblem] {
        let shown = visibleParts(of: layout)
        let names = shown.keys.sorted()
        var problems: [(problem: LayoutProblem, severity: Double)] = []
        func found(_ element: String, _ rule: LayoutRule, _ message: String, severity: Double) {
            problems.append((LayoutProblem(adapter: adapter, element: element, rule: rule, message: message), severity))
        }

        // minimum-size: the app is larger than its window, said once; what it carries past the window's edge within
        // its own size is that problem, not one more each (the app's window is its bounds from here on).
        let bounds = window.bounds
        var carried = bounds
        if let minimum = layout.minimumSize, minimum.width > window.size.width + tolerance || minimum.height > window.size.height + tolerance {
            found(layout.frames["window"] == nil ? "app" : "window", .minimumSize,
                  "the app is at least \(minimum) pt; its window is \(window.size) pt, and what the app draws "
                    + overflow(Rect(x: 0, y: 0, width: minimum.width, height: minimum.height), past: bounds, edges: "the window's")
                    + " is cut off", severity: farthest(Rect(x: 0, y: 0, width: minimum.width, height: minimum.height), past: bounds))
            carried = Rect(x: 0, y: 0, width: max(minimum.width, window.size.width), height: max(minimum.height, window.size.height))
        }
        // reflow: the page is wider than its window, so it scrolls sideways; named by its widest element.
        if let reflow = layout.reflow, reflow.width > window.size.width + tolerance {
            found(reflow.element, .reflow, "the page is \(reflow.width.compact) pt wide in a \(window.size.width.compact)-pt window, "
                    + "so it scrolls sideways (WCAG 1.4.10 Reflow: content fits 320 CSS px across without horizontal scrolling); "
                    + "its widest element is '\(reflow.element)'", severity: reflow.width - window.size.width)
            carried = Rect(x: 0, y: 0, width: max(carried.width, reflow.width), height: carried.height)
        }

        // outside-window: any element, by what of it shows (within an app too large for its window: past what
        // the app itself takes).
        var outside: Set<String> = []
        for name in names where !bounds.contains(shown[name]!, tolerance: tolerance) {
            outside.insert(name)
            guard !carried.contains(shown[name]!, tolerance: tolerance) else { continue }
            found(name, .outsideWindow, "\(describe(name, layout)) reaches "
                    + overflow(shown[name]!, past: bounds, edges: "the window's")
                    + " (the window is \(window.size) pt)", severity: farthest(shown[name]!, past: bounds))
        }

        // outside-safe-area: content, controls and text inside the window but not inside its safe area. Content
        // in a scroll view is not judged by the bottom edge: a person scrolls it up from under the home indicator
        // (its scroll view is judged like any element).
        let safe = window.safeAreaInsets.inset(bounds)
        let scrolledSafe = Rect(x: safe.x, y: safe.y, width: safe.width, height: bounds.maxY - safe.y)
        for name in names where layout.kind(of: name).isForeground && !outside.contains(name) {
            let area = layout.scrolledIn[name] == nil ? safe : scrolledSafe
            guard !area.contains(shown[name]!, tolerance: tolerance) else { continue }
            found(name, .outsideSafeArea, "\(describe(name, layout)) reaches "
                    + overflow(shown[name]!, past: area, edges: "the safe area's")
                    + " (safe-area insets top \(window.safeAreaInsets.top.compact), left \(window.safeAreaInsets.left.compact), "
                    + "bottom \(window.safeAreaInsets.bottom.compact), right \(window.safeAreaInsets.right.compact))",
                  severity: farthest(shown[name]!, past: safe))
        }

        // overlap: two foreground elements sharing area, neither holding the other. Sorted by left edge, each
        // element meets only those that start before it ends.
        let foreground = names.filter { layout.kind(of: $0).isForeground }.sorted { (shown[$0]!.x, $0) < (shown[$1]!.x, $1) }
        var pairs: [(String, String, Rect)] = []
        for (index, first) in foreground.enumerated() {
            let a = shown[first]!
            for second in foreground[(index + 1)...] {
                let b = shown[second]!
                if b.x >= a.maxX - tolerance { break }
                // Sharing a border of a point or less is touching, as a person sees it (qt6ct's two tab-scroll arrows).
                guard let shared = a.intersection(b), shared.width > Self.sharedBorder, shared.height > Self.sharedBorder,
                      !a.contains(b, tolerance: tolerance), !b.contains(a, tolerance: tolerance) else { continue }
                pairs.append(first < second ? (first, second, shared) : (second, first, shared))
            }
        }
        for (first, second, shared) in pairs.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
            found("\(first) & \(second)", .overlap, "\(describe(first, layout)) and \(describe(second, layout)) overlap by "
                    + "\(shared.size) pt, and neither holds the other", severity: shared.width * shared.height)
        }

        // small-target: controls on a touch screen, by their whole frame (scrolling does not shrink a button), held
        // to the run's rule. One the adapter knows only by its content box is drawn larger by a padding no one
        // reported, and the sentence says so. (Left out of the rule, GNOME's 24-pt window buttons and 34-pt keys
        // went unreported to spare one pill button drawn 44 pt tall: a hand count of the corpus found 107 true
        // problems lost for one false.) By WCAG's rule an undersized control passes when a circle of the minimum
        // around its centre meets no other control and no other undersized control's circle (its spacing).
        let minimum = checks.targetSize.minimum
        let controls = names.filter { layout.kind(of: $0) == .control }
        let undersized = controls.filter {
            let frame = layout.frames[$0]!
            return frame.width < minimum - tolerance || frame.height < minimum - tolerance
        }
        for name in undersized {
            let frame = layout.frames[name]!
            if checks.targetSize == .wcag24px, spaced(name, minimum, controls: controls, undersized: undersized, layout) { continue }
            let size = layout.contentBoxes.contains(name)
                ? "is \(frame.size) pt inside its padding (its content box: the toolkit does not give the padding)"
                : "is \(frame.size) pt"
            let rule: String
            switch checks.targetSize {
            case .apple44pt:
                rule = "on \(window.idiom == .pad ? "an iPad" : "a phone") a control needs at least 44 x 44 pt to be hit reliably"
            case .wcag24px:
                rule = "WCAG 2.5.8 (Target Size, Minimum) asks for at least 24 x 24 CSS px, or a 24-px circle around it "
                    + "that meets no other target"
            }
            found(name, .smallTarget, "control '\(name)' \(size); \(rule)", severity: -min(frame.width, frame.height))
        }
        // under-keyboard: controls and text whose visible part a docked keyboard covers (content may run under it,
        // as a scroll view's does, insetting its content).
        if let keyboard = window.dockedKeyboard {
            for name in names where [.control, .text].contains(layout.kind(of: name)) && !outside.contains(name) {
                guard let covered = shown[name]!.intersection(keyboard), covered.width > tolerance, covered.height > tolerance else { continue }
                found(name, .underKeyboard, "\(describe(name, layout)) lies \(covered.height.compact) pt under the docked "
                        + "keyboard (its top at \(keyboard.y.compact) pt in the window); lay it out on the keyboard guide",
                      severity: covered.height)
            }
        }
        // under-window-controls: controls and text whose visible part the window controls cover.
        if let controls = window.windowControls {
            for name in names where [.control, .text].contains(layout.kind(of: name)) && !outside.contains(name) {
                guard let covered = shown[name]!.intersection(controls), covered.width > tolerance, covered.height > tolerance else { continue }
                found(name, .underWindowControls, "\(describe(name, layout)) lies under the window controls \(controls) by "
                        + "\(covered.size) pt; lay it out on safeHorizontal or safeVertical",
                      severity: covered.width * covered.height)
            }
        }
        // clipped-text: text the adapter measured as not fitting its element (an ellipsis, a clipped edge, lines
        // clamped), by the element's name or place; the worst cut first, then those by place (their room unknown).
        for (element, clipped) in layout.clippedText.sorted(by: { $0.key < $1.key }) {
            let box = layout.frames[element]
            let how: String
            switch clipped.cut {
            case .ellipsized: how = "is cut short with an ellipsis"
            case .clipped: how = "is cut off at an edge (its element's or a container's)"
            case .clamped: how = "shows fewer lines than it has"
            }
            let room = box.map { ", its element \($0.size) pt" } ?? ""
            found(element, .clippedText, "the text of '\(element)' \(how): it needs \(clipped.needed) pt\(room)",
                  severity: box.map { max(clipped.needed.width - $0.width, clipped.needed.height - $0.height) } ?? 0)
        }
        // low-contrast: text the adapter measured against its background (WCAG 1.4.3); the lowest contrast first.
        for (element, low) in layout.lowContrast.sorted(by: { $0.key < $1.key }) {
            let large = low.required < 4.5 ? "large text (24 px, or 18.66 px bold)" : "text of its size"
            found(element, .lowContrast, "the text of '\(element)' stands out from its background by \(Self.ratio(low.ratio)); "
                    + "WCAG 1.4.3 asks \(Self.ratio(low.required)) of \(large)",
                  severity: low.required - low.ratio)
        }
        problems.removeAll { checks.leavesOut($0.problem) }
        guard !problems.isEmpty else { return [] }
        return problems.sorted { a, b in
            (ruleOrder[a.problem.rule]!, -a.severity, a.problem.element) < (ruleOrder[b.problem.rule]!, -b.severity, b.problem.element)
        }.map(\.problem)
    }

    /// WCAG 2.5.8's spacing: a circle of diameter `minimum` centred on `name` meets no other control's frame and
    /// no other undersized control's circle.
    private static func spaced(
        _ name: String, _ minimum: Double, controls: [String], undersized: [String], _ layout: ReportedLayout
    ) -> Bool {
        let frame = layout.frames[name]!
        let centre = (x: frame.x + frame.width / 2, y: frame.y + frame.height / 2), radius = minimum / 2
        for other in controls where other != name {
            let box = layout.frames[other]!
            // The circle meets a rectangle where the rectangle's nearest point is within the radius.
            let dx = centre.x - min(max(centre.x, box.x), box.maxX), dy = centre.y - min(max(centre.y, box.y), box.maxY)
            if dx * dx + dy * dy < radius * radius - tolerance { return false }
        }
        for other in undersized where other != name {
            let box = layout.frames[other]!
            let dx = centre.x - (box.x + box.width / 2), dy = centre.y - (box.y + box.height / 2)
            if dx * dx + dy * dy < minimum * minimum - tolerance { return false }
        }
        return true
    }

    /// Each rule's place in `LayoutRule.allCases`: the order problems are listed in.
    private static let ruleOrder = Dictionary(uniqueKeysWithValues: LayoutRule.allCases.enumerated().map { ($1, $0) })

    /// A contrast ratio as WCAG writes it: `2.85:1`, `4.5:1`.
    private static func ratio(_ value: Double) -> String { "\(((value * 100).rounded(.down) / 100).compact):1" }

    /// How far `rect` passes the farthest edge of `area`.
    private static func farthest(_ rect: Rect, past area: Rect) -> Double {
        max(area.y - rect.y, area.x - rect.x, rect.maxY - area.maxY, rect.maxX - area.maxX)
    }

    /// What of each element shows: its frame, cut to its scroll view's visible part (outwards along the chain);
    /// elements scrolled wholly out of sight are left out.
    static func visibleParts(of layout: ReportedLayout) -> [String: Rect] {
        var shown: [String: Rect?] = [:]
        func visible(_ name: String) -> Rect? {
            if let known = shown[name] { return known }
            let frame = layout.frames[name]!
            // `ReportedLayout` refused chains that loop or name an element it does not hold.
            let part = layout.scrolledIn[name].map { scroller in visible(scroller).flatMap(frame.intersection) } ?? frame
            shown[name] = .some(part)
            return part
        }
        return layout.frames.keys.reduce(into: [:]) { result, name in
            if let part = visible(name) { result[name] = part }
        }
    }

    /// `button 'undo' (x, y, w, h)`: the element as a sentence names it.
    private static func describe(_ name: String, _ layout: ReportedLayout) -> String {
        "\(layout.kind(of: name)) '\(name)' \(layout.frames[name]!)"
    }

    /// `12 pt past the window's right edge and 4 pt past its bottom edge`.
    private static func overflow(_ rect: Rect, past area: Rect, edges whose: String) -> String {
        let amounts = [("top", area.y - rect.y), ("left", area.x - rect.x),
                       ("bottom", rect.maxY - area.maxY), ("right", rect.maxX - area.maxX)]
        let over = amounts.filter { $0.1 > tolerance }
        return over.enumerated().map { index, edge in
            "\(edge.1.compact) pt past \(index == 0 ? whose : "its") \(edge.0) edge"
        }.joined(separator: " and ")
    }
}
