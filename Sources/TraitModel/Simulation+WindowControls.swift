import Vocabulary

/// iPadOS 26's window controls (close, minimise, arrange): where they are on each window, and the safe area
/// adapted to them.
///
/// traitd's rules (the reference's section 5): in Stage Manager and windowed apps every window that does not
/// fill its screen has the controls at its top leading corner (top right in right to left), the profile's
/// `windowControls` size (80 x 32 pt); a window that fills its screen, a Split View or Slide Over window and
/// Picture in Picture have none. They add nothing to `SafeAreaInsets` (iPadOS 26 reports 0 there); the window's
/// `CornerAdaptedInsets` give the regions UIKit 26's corner adaptation does.
extension Simulation {
    static func attachWindowControls(_ windows: inout [String: WindowGeometry], _ state: DisplayState, profile: DeviceProfile) {
        let size = profile.freeForm.windowControls
        let rightToLeft = state.traits.isRightToLeft
        for (name, window) in windows {
            var controls: Rect?
            if window.role == .window, window.state != .background {
                let screen = Self.screen(of: name, in: state, profile: profile)
                if window.frame != Rect(x: 0, y: 0, width: screen.width, height: screen.height) {
                    controls = Rect(x: rightToLeft ? window.frame.width - size.width : 0, y: 0, width: size.width, height: size.height)
                }
            }
            windows[name]?.windowControls = controls
            windows[name]?.cornerAdaptedInsets = CornerAdaptedInsets(safeArea: window.safeArea, controls: controls, width: window.frame.width)
        }
    }
}
