import Vocabulary

/// The software keyboard: `SetKeyboard`, which window it belongs to, and how every visible window sees it.
///
/// traitd's rules (the reference's sections 1 to 4; what Apple leaves open is a choice, named): the keyboard is
/// on the device's screen only (a window on a monitor has none); every visible window on that screen is told of
/// each change, `local` only in the key window: the front window of the screen in a free-form mode, else the
/// Slide Over window when there is one, else the primary. A change of the keyboard is a transition of every
/// such window (reason `keyboard`, 0.25 s); and any other transition of a window while the keyboard is up
/// re-announces it, with the frame it has then (UIKit re-posts `KeyboardWillShow` after a rotation).
extension Simulation {
    /// Shows, hides or moves the keyboard; `NotOffered` for a mode the device lacks (a split keyboard on an
    /// 11" iPad Pro, any but docked and hardware on a phone).
    public mutating func setKeyboard(_ mode: KeyboardMode) throws(ModelError) -> [Plan] {
        guard profile.offeredKeyboards.contains(mode) else {
            throw .notOffered("\(profile.id) does not offer a \(mode) keyboard; offered: "
                + profile.offeredKeyboards.map(\.rawValue).joined(separator: ", "))
        }
        var next = state
        next.keyboard = mode
        return [commit(next, drag: drag, resizing: resizing, reason: .keyboard, duration: KeyboardNotice.duration)]
            .compactMap { $0 }
    }

    /// The keyboard's frame on the device's screen now, in screen coordinates; nil when hidden.
    public var keyboardFrame: Rect? { profile.keyboardFrame(state.keyboard, state.orientation) }

    /// `mode` where the device offers it, else the nearest it does (a device change): a split keyboard
    /// undocks, and a phone docks a keyboard it cannot undock.
    static func nearestKeyboard(_ mode: KeyboardMode, on profile: DeviceProfile) -> KeyboardMode {
        let offered = profile.offeredKeyboards
        if offered.contains(mode) { return mode }
        return offered.contains(.undocked) ? .undocked : .docked
    }

    /// The window whose app raised the keyboard: the front window of the device's screen in a free-form mode,
    /// else the Slide Over window, else the primary.
    static func keyWindow(_ state: DisplayState, _ windows: [String: WindowGeometry]) -> String? {
        if state.windowing.isFreeForm {
            return state.stacking.first { state.display(of: $0) == ConnectedDisplay.device && windows[$0]?.state != .background }
        }
        let visible = state.apps.filter { windows[$0.name].map { $0.state != .background } ?? false }
        return (visible.first { windows[$0.name]?.role == .slideOver } ?? visible.first { $0.role == .primary })?.name
    }

    /// Gives each visible window on the device's screen the keyboard as it sees it (`WindowGeometry.keyboard`).
    static func attachKeyboard(_ windows: inout [String: WindowGeometry], _ state: DisplayState, profile: DeviceProfile) {
        let frame = profile.keyboardFrame(state.keyboard, state.orientation)
        let screen = profile.screenSize(state.orientation)
        let key = keyWindow(state, windows)
        for (name, window) in windows {
            guard let frame, window.state != .background, window.display == ConnectedDisplay.device else {
                windows[name]?.keyboard = nil
                continue
            }
            windows[name]?.keyboard = WindowKeyboard(
                mode: state.keyboard, frame: frame,
                offscreen: Rect(x: frame.x, y: screen.height, width: frame.width, height: frame.height), local: name == key)
        }
    }
}
