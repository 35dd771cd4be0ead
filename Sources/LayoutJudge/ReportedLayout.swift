import Vocabulary

/// A report as the judge reads it: every element's frame, what each element is (`kinds`) and which scroll
/// view each scrolled element scrolls in (`scrolledIn`). Built once, where the report is accepted; a report
/// that names what it does not hold, or scrolls in circles, is refused there.
public struct ReportedLayout: Sendable, Equatable {
    /// Element frames in window coordinates, in points.
    public var frames: [String: Rect]
    /// What each element is; an element without one is `content`.
    public var kinds: [String: ElementKind]
    /// Element -> the element it scrolls in (a scroll view, which the report also holds).
    public var scrolledIn: [String: String]
    /// The smallest size the app lays itself out at, where the window is smaller (`minimumSize`); nil otherwise.
    public var minimumSize: Size?
    /// The page's width and widest element, where it is wider than its window (`reflow`); nil otherwise.
    public var reflow: Reflow?
    /// Elements known only by their content box (`contentBoxes`): drawn larger than their frames, so not judged
    /// by their size.
    public var contentBoxes: Set<String>
    /// Elements whose text does not fit them (`clippedText`), by their name or, for one the report has no frame
    /// for, by their place (`#main>ul>li.3`).
    public var clippedText: [String: ClippedText]
    /// Elements whose text stands out too little from its background (`lowContrast`), by name or place.
    public var lowContrast: [String: LowContrast]

    /// Why a report's `scrolledIn`, `minimumSize`, `reflow` or `clippedText` cannot be read, for a person, and which it is.
    public struct Invalid: Error, Equatable {
        public var key: String
        public var message: String
    }

    public init(frames: [String: Rect], kinds: [String: ElementKind] = [:], scrolledIn: [String: String] = [:],
                minimumSize: Size? = nil, reflow: Reflow? = nil, contentBoxes: Set<String> = [],
                clippedText: [String: ClippedText] = [:], lowContrast: [String: LowContrast] = [:]) throws(Invalid) {
        for element in contentBoxes.sorted() where frames[element] == nil {
            throw Invalid(key: "contentBoxes", message: "contentBoxes names element '\(element)', which the report has no frame for")
        }
        if let minimumSize, !(minimumSize.width.isFinite && minimumSize.height.isFinite && minimumSize.width >= 0 && minimumSize.height >= 0) {
            throw Invalid(key: "minimumSize", message: "minimumSize must be finite and not negative; got \(minimumSize)")
        }
        if let reflow, !(reflow.width.isFinite && reflow.width >= 0) {
            throw Invalid(key: "reflow", message: "reflow's width must be finite and not negative; got \(reflow.width)")
        }
        for (element, clipped) in clippedText.sorted(by: { $0.key < $1.key }) {
            try Self.checkPlace(element, key: "clippedText")
            let needed = clipped.needed
            guard needed.width.isFinite, needed.height.isFinite, needed.width >= 0, needed.height >= 0 else {
                throw Invalid(key: "clippedText", message: "clippedText's size for '\(element)' must be finite and not negative; got \(needed)")
            }
        }
        for (element, low) in lowContrast.sorted(by: { $0.key < $1.key }) {
            try Self.checkPlace(element, key: "lowContrast")
            guard (1...21).contains(low.ratio), (1...21).contains(low.required), low.ratio < low.required else {
                throw Invalid(key: "lowContrast", message: "lowContrast's ratios for '\(element)' must be from 1 to 21, "
                              + "the contrast below the one required; got \(low.ratio) and \(low.required)")
            }
        }
        for (element, scroller) in scrolledIn.sorted(by: { $0.key < $1.key }) {
            guard frames[element] != nil else {
                throw Invalid(key: "scrolledIn", message: "scrolledIn names element '\(element)', which the report has no frame for")
            }
            guard frames[scroller] != nil else {
                throw Invalid(key: "scrolledIn", message: "element '\(element)' scrolls in '\(scroller)', which the report has no frame for")
            }
            // Follow the chain out: it must end at an element that scrolls in nothing.
            var seen: Set<String> = [element]
            var next: String? = scroller
            while let current = next {
                guard seen.insert(current).inserted else {
                    throw Invalid(key: "scrolledIn", message: "element '\(element)' scrolls in itself (through '\(current)')")
                }
                next = scrolledIn[current]
            }
        }
        self.frames = frames
        self.kinds = kinds
        self.scrolledIn = scrolledIn
        self.minimumSize = minimumSize
        self.reflow = reflow
        self.contentBoxes = contentBoxes
        self.clippedText = clippedText
        self.lowContrast = lowContrast
    }

    /// An element named by a report's extra, with or without a frame: a name or a place (`#main>ul>li.3`), which
    /// is a name too: no spaces (a problem's element has none), and short enough to read.
    private static func checkPlace(_ element: String, key: String) throws(Invalid) {
        guard !element.isEmpty, element.utf8.count <= 128, !element.contains(where: { $0.isWhitespace || $0.isNewline }),
              element.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) else {
            throw Invalid(key: key, message: "\(key)'s element '\(element.prefix(40))' must be 1 to 128 bytes without spaces")
        }
    }

    /// What `element` is: its declared kind, or `content`.
    public func kind(of element: String) -> ElementKind { kinds[element] ?? .content }
}

/// What traitd published to the window a report answers: the geometry the layout is judged against.
public struct PublishedWindow: Sendable, Equatable {
    /// The window's size in points (its frame's; the layout's coordinates start at its top-left corner).
    public var size: Size
    public var safeAreaInsets: EdgeInsets
    public var idiom: Idiom
    /// A docked keyboard (or shortcut bar) in the window's coordinates, where it reaches into the window; nil
    /// without one (hidden, undocked, split and floating keyboards are the person's to move).
    public var dockedKeyboard: Rect?
    /// iPadOS 26's window controls in the window's coordinates; nil without.
    public var windowControls: Rect?

    public init(size: Size, safeAreaInsets: EdgeInsets, idiom: Idiom, dockedKeyboard: Rect? = nil, windowControls: Rect? = nil) {
        self.size = size
        self.safeAreaInsets = safeAreaInsets
        self.idiom = idiom
        self.dockedKeyboard = dockedKeyboard
        self.windowControls = windowControls
    }

    /// The window in its own coordinates.
    public var bounds: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }
}
