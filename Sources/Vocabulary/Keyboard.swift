/// The software keyboard's mode (`SetKeyboard`, the display's `Keyboard`): where it is, as iPadOS shows it.
/// Which modes a device offers is its profile's (`DeviceProfile.offeredKeyboards`): a phone has `hidden`,
/// `docked` and `hardware`; an iPad all, `split` except on the 11" and 12.9" iPad Pros from 2018 on.
public enum KeyboardMode: String, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case hidden
    /// At the bottom of the screen, full width: what apps make room for.
    case docked
    /// Lifted off the bottom edge (an iPad): apps are told it hid.
    case undocked
    /// In two halves at the side edges (an iPad): apps are told it hid.
    case split
    /// iPhone-sized, over the apps (an iPad): apps are told it hid.
    case floating
    /// A hardware keyboard is attached: only the shortcut bar shows, docked at the bottom.
    case hardware

    /// The name on the bus and in config files, also in text and logs.
    public var description: String { rawValue }

    /// Docked at the bottom edge, full width: `UIKeyboardLayoutGuide` tracks it, and apps get `KeyboardWillShow`.
    public var isDocked: Bool { self == .docked || self == .hardware }

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// The keyboard as one window sees it (`WindowGeometry.keyboard`): the mode, the frame in screen coordinates
/// (the current orientation, as UIKit's `UIKeyboardFrameEndUserInfoKey`), and whether the window is the key
/// window whose app raised it (`UIKeyboardIsLocalUserInfoKey`). A window off the device's screen, or with the
/// keyboard hidden, has none.
public struct WindowKeyboard: Sendable, Hashable {
    public var mode: KeyboardMode
    public var frame: Rect
    /// Where the keyboard is when it slides away: the same size, below the screen's bottom edge (a show's begin
    /// frame, a hide's end frame).
    public var offscreen: Rect
    public var local: Bool

    public init(mode: KeyboardMode, frame: Rect, offscreen: Rect, local: Bool) {
        self.mode = mode
        self.frame = frame
        self.offscreen = offscreen
        self.local = local
    }
}

/// One keyboard notification (`UIResponder.keyboardWillShowNotification` and its five siblings), as a window's
/// signal carries it.
public struct KeyboardNotice: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        case willChangeFrame = "KeyboardWillChangeFrame", willShow = "KeyboardWillShow", willHide = "KeyboardWillHide"
        case didChangeFrame = "KeyboardDidChangeFrame", didShow = "KeyboardDidShow", didHide = "KeyboardDidHide"
    }

    public var kind: Kind
    /// The keyboard's frame before and after, in screen coordinates.
    public var begin: Rect
    public var end: Rect
    /// Seconds (0.25, as UIKit posts; 0 with Reduce Motion).
    public var duration: Double
    /// `UIView.AnimationCurve`'s raw value: 7, the keyboard's undocumented spring, as UIKit posts it.
    public var curve: Int32
    /// The window's app raised the keyboard (the key window).
    public var local: Bool

    public static let curve: Int32 = 7
    public static let duration = 0.25

    public init(_ kind: Kind, begin: Rect, end: Rect, duration: Double, curve: Int32 = Self.curve, local: Bool) {
        self.kind = kind
        self.begin = begin
        self.end = end
        self.duration = duration
        self.curve = curve
        self.local = local
    }

    /// What one change of the keyboard posts, in traitd's order (the reference records none): before the
    /// window lays out, `KeyboardWillChangeFrame` then `KeyboardWillShow` (a docked keyboard after: a show, or a
    /// re-post with the new frame after a rotation) or `KeyboardWillHide` (a docked keyboard before and not
    /// after: hidden, undocked, split or floating, as UIKit tells apps); after it, the `Did` twins.
    public static func notices(from before: WindowKeyboard?, to after: WindowKeyboard?, duration: Double)
        -> (will: [KeyboardNotice], did: [KeyboardNotice]) {
        guard before != nil || after != nil else { return ([], []) }
        let begin = before?.frame ?? after!.offscreen
        let end = after?.frame ?? before!.offscreen
        let local = after?.local ?? before!.local
        let shows = after?.mode.isDocked == true
        let hides = !shows && before?.mode.isDocked == true
        func notice(_ kind: Kind) -> KeyboardNotice { KeyboardNotice(kind, begin: begin, end: end, duration: duration, local: local) }
        var will = [notice(.willChangeFrame)], did = [notice(.didChangeFrame)]
        if shows { will.append(notice(.willShow)); did.append(notice(.didShow)) }
        if hides { will.append(notice(.willHide)); did.append(notice(.didHide)) }
        return (will, did)
    }
}
