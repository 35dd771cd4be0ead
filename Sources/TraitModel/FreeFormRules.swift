import Vocabulary

/// How a device lays out free-form windows (Stage Manager, windowed apps): the numbers no public source gives,
/// chosen here with their reasons, and overridable per profile (`free-form:` in a device file).
///
/// - `regularWidth`: a window is horizontally regular from this width (`SizeClass.narrowestRegularWidth`, 678 pt:
///   the narrowest regular split width in the iPad tables; every table agrees with any value from 640 to 678).
/// - `minimumSize`: 320 x 320 pt. 320 pt is the narrowest width iOS layouts are made for (the iPhone SE, Slide
///   Over, the 1/3 split on the 9.7" iPad), and the height of the shortest screen an app runs on (the SE in
///   landscape), so an app that works anywhere works at the minimum.
/// - `tileGap`: the divider's width (10 pt on every iPad): Split View leaves that between two apps; tiles too.
/// - A new window opens at 2/3 of the screen's width and 3/4 of its height, cascaded `cascadeStep` pt right and
///   down from the top-left corner for each window already on the stage, back to the corner when the next step
///   would leave the screen.
public struct FreeFormRules: Sendable, Hashable {
    public var regularWidth: Double
    public var minimumSize: Size
    public var tileGap: Double
    /// iPadOS 26's window controls (close, minimise, arrange) at a window's top leading corner: 80 x 32 pt, the
    /// reference's choice (section 5: Apple gives no size; the band they sit in is 32 pt tall with the status bar
    /// shown, and apps clear them with about 40 pt).
    public var windowControls: Size
    public static let cascadeStep = 32.0

    public init(regularWidth: Double = SizeClass.narrowestRegularWidth, minimumSize: Size = Size(width: 320, height: 320),
                tileGap: Double = 10, windowControls: Size = Size(width: 80, height: 32)) {
        self.regularWidth = regularWidth
        self.minimumSize = minimumSize
        self.tileGap = tileGap
        self.windowControls = windowControls
    }

    /// Stage Manager's limit of windows on the iPad's stage (`uikit-transitions.md`, "Free-form windows").
    public static let stageLimit = 4

    /// The horizontal size class of a free window `width` wide.
    public func horizontal(width: Double) -> SizeClass { SizeClass.horizontal(width: width, threshold: regularWidth) }

    /// The frame of a window opened with `onStage` windows already there.
    public func defaultFrame(screen: Size, onStage: Int) -> Rect {
        let size = Size(width: max(minimumSize.width, (screen.width * 2 / 3).rounded()),
                        height: max(minimumSize.height, (screen.height * 3 / 4).rounded()))
        var step = Self.cascadeStep * Double(onStage)
        if step + size.width > screen.width || step + size.height > screen.height { step = 0 }
        return Rect(x: step, y: step, width: min(size.width, screen.width), height: min(size.height, screen.height))
    }

    /// The frame of a tile: halves and quarters of the screen with `tileGap` between them.
    public func tile(_ position: TilePosition, screen: Size) -> Rect {
        let half = Size(width: ((screen.width - tileGap) / 2).rounded(.down), height: ((screen.height - tileGap) / 2).rounded(.down))
        let (column, row) = position.cell
        let x = column.map { $0 == 0 ? 0 : screen.width - half.width } ?? 0
        let y = row.map { $0 == 0 ? 0 : screen.height - half.height } ?? 0
        return Rect(x: x, y: y, width: column == nil ? screen.width : half.width,
                    height: row == nil ? screen.height : half.height)
    }

    /// Why `frame` is not a window on `screen`, or nil: at least the minimum size, at most the screen, inside it.
    public func problem(with frame: Rect, screen: Size) -> String? {
        if !frame.isFinite { return "the frame's numbers must be finite; got \(frame)" }
        let minimum = "\(minimumSize.width.compact) x \(minimumSize.height.compact)"
        let maximum = "\(screen.width.compact) x \(screen.height.compact)"
        if frame.width < minimumSize.width || frame.height < minimumSize.height
            || frame.width > screen.width || frame.height > screen.height {
            return "a window's size must be from \(minimum) to the screen's \(maximum) pt; got "
                + "\(frame.width.compact) x \(frame.height.compact)"
        }
        if frame.x < 0 || frame.y < 0 || frame.x + frame.width > screen.width || frame.y + frame.height > screen.height {
            return "a \(frame.width.compact) x \(frame.height.compact) window must lie inside the \(maximum) screen: "
                + "x from 0 to \((screen.width - frame.width).compact), y from 0 to \((screen.height - frame.height).compact); "
                + "got x \(frame.x.compact), y \(frame.y.compact)"
        }
        return nil
    }

    /// `frame` made a window on `screen`: its size kept between the minimum and the screen, then moved (not
    /// shrunk further) to lie inside. What a rotation or a device change does to a free window.
    public func fit(_ frame: Rect, screen: Size) -> Rect {
        let width = min(max(frame.width, minimumSize.width), screen.width)
        let height = min(max(frame.height, minimumSize.height), screen.height)
        return Rect(x: min(max(frame.x, 0), screen.width - width), y: min(max(frame.y, 0), screen.height - height),
                    width: width, height: height)
    }

    /// The size a live resize step reaches: anchored at the window's top-left corner, `size` held between the
    /// minimum and what is left of the screen to the right and below (a finger cannot drag past the edge).
    public func resized(_ frame: Rect, to size: Size, screen: Size) -> Rect {
        Rect(x: frame.x, y: frame.y,
             width: min(max(size.width, minimumSize.width), screen.width - frame.x),
             height: min(max(size.height, minimumSize.height), screen.height - frame.y))
    }
}
