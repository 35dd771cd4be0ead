import Vocabulary

/// What an app declares of its window and asks of the system: size restrictions, supported orientations, and
/// geometry requests (UIKit's `UISceneSizeRestrictions`, `supportedInterfaceOrientations`,
/// `requestGeometryUpdate(_:)`).
///
/// traitd's rules (the reference's section 6; Apple's where it documents them):
/// - Size restrictions hold a free-form window, as far as its screen allows (the screen wins over a minimum
///   larger than it): `SetFrame` outside them is refused (`OutOfRange`, naming them),
///   and every other change holds the window within them (`fitFrames`, in `commit`): a tile, a live
///   resize, a geometry request, a rotation, another device or screen, entering free-form windowing, and the
///   declaration itself. Restrictions are finite, not negative, a minimum not above the maximum, and a maximum
///   no smaller than the smallest window. Split View, Slide Over and Picture in Picture windows are placed by
///   the system: the restrictions are published and kept, not applied.
/// - Supported orientations decide the interface orientation where the app owns the screen: on a phone, the
///   primary app; on an iPad, iPadOS 26's orientation lock, the app whose window fills the screen (the full
///   arrangement, or a free-form window as large as the screen). Turning the device to an orientation the app
///   does not support leaves the interface where it is when that is supported, else in the supported one
///   nearest the device's (UIKit's rule); declaring them turns an interface that is in an unsupported one.
/// - A geometry request's orientations are refused with UISceneError 101 (geometryRequestDenied) when none is
///   supported by the app and offered by the device, with 100 (geometryRequestUnsupported) where the app does not
///   own the screen; its size and origin apply to free-form windows only (100 elsewhere).
extension Simulation {
    public mutating func setSizeRestrictions(_ app: String, _ restrictions: SizeRestrictions) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        try checkOpen(app)
        if let problem = restrictions.problem(smallestWindow: profile.freeForm.minimumSize, on: profile.id) {
            throw .invalidArgument(problem)
        }
        var next = state
        next.declarations[app, default: SceneDeclarations()].sizeRestrictions = restrictions
        // `commit` holds the window within them (`fitFrames`), as at every change.
        return moveInOneStage(to: next, reason: .resize)
    }

    /// The app's breakpoints, in place of those it had: a transition where the ones that apply change (the
    /// window lays out again, `BreakpointApplied` before its layout pass, as libadwaita applies a breakpoint at
    /// the next size allocation); a property change only where they do not.
    public mutating func setBreakpoints(_ app: String, _ breakpoints: [String: BreakpointCondition]) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        try checkOpen(app)
        guard breakpoints.count <= SceneDeclarations.maximumBreakpoints else {
            throw .invalidArgument("a window has at most \(SceneDeclarations.maximumBreakpoints) breakpoints; got \(breakpoints.count)")
        }
        if let problem = breakpoints.keys.sorted().lazy.compactMap(SceneDeclarations.breakpointNameProblem).first {
            throw .invalidArgument(problem)
        }
        var next = state
        next.declarations[app, default: SceneDeclarations()].breakpoints = breakpoints
        return moveInOneStage(to: next, reason: .resize)
    }

    /// The app's trait overrides, in place of those it had (`TraitOverrides.replaced(by:)`): a trait transition
    /// of its window where its traits change (`TraitDidChange` for each system or custom trait that does, in
    /// UIKit's order), a property change only where they do not. Refused whole, naming the first problem.
    public mutating func setTraitOverrides(_ app: String, _ request: TraitOverrideRequest) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        try checkOpen(app)
        let overrides = (state.declarations[app]?.traitOverrides ?? TraitOverrides()).replaced(by: request)
        if let problem = overrides.problem { throw .invalidArgument(problem) }
        var next = state
        next.declarations[app, default: SceneDeclarations()].traitOverrides = overrides
        return moveInOneStage(to: next, reason: .traits)
    }

    public mutating func setSupportedOrientations(_ app: String, _ orientations: [Orientation]) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        try checkOpen(app)
        var next = state
        next.declarations[app, default: SceneDeclarations()].supportedOrientations = Orientation.allCases.filter(orientations.contains)
        let supported = next.declarations[app]!
        guard orientationOwner == app, !supported.supports(state.orientation),
              let turn = Self.nearest(to: state.orientation, among: supported.supportedOrientations.filter(profile.offers)) else {
            return moveInOneStage(to: next, reason: .rotation)
        }
        return try rotate(next, to: turn)
    }

    public mutating func requestGeometryUpdate(_ app: String, _ request: GeometryRequest) throws(ModelError) -> [Plan] {
        try refuseDuringDrag()
        try checkOpen(app)
        guard !request.isEmpty else { throw .invalidArgument("a geometry request names orientations, a size or an origin") }
        var plans: [Plan] = []
        if !request.orientations.isEmpty {
            guard orientationOwner == app else {
                throw .geometryRequestUnsupported("'\(app)' does not own the screen (its window does not fill it, or another app's is "
                    + "primary): the interface orientation is not its to request")
            }
            let supported = state.declarations[app] ?? SceneDeclarations()
            let candidates = request.orientations.filter { supported.supports($0) && profile.offers($0) }
            guard let target = candidates.contains(state.orientation) ? state.orientation : candidates.first else {
                let declared = supported.supportedOrientations.isEmpty ? "all" : supported.supportedOrientations.map(\.rawValue).joined(separator: ", ")
                throw .geometryRequestDenied("none of the requested orientations is supported. Requested: "
                    + request.orientations.map(\.rawValue).joined(separator: ", ") + "; supported: \(declared) (the app's), "
                    + profile.orientations.map(\.rawValue).joined(separator: ", ") + " (\(profile.id)'s)")
            }
            plans += try rotate(state, to: target)
        }
        if request.size != nil || request.origin != nil {
            guard state.windowing.isFreeForm, state.app(named: app)?.role == .window, let frame = windows[app]?.frame else {
                throw .geometryRequestUnsupported("a size and an origin are for a Stage Manager or windowed app's window; '\(app)' is placed by the system")
            }
            let size = request.size ?? frame.size
            let origin = request.origin ?? (frame.x, frame.y)
            guard [size.width, size.height, origin.x, origin.y].allSatisfy(\.isFinite) else {
                throw .invalidArgument("a requested size and origin are finite numbers")
            }
            var next = state
            // Held now, not only at the commit: a requested size of 0 or below is no window's frame yet.
            next.frames[app] = Self.held(app, Rect(x: origin.x, y: origin.y, width: size.width, height: size.height), in: state, profile: profile)
            plans += moveInOneStage(to: next, reason: .resize)
        }
        return plans
    }

    /// The app whose supported orientations decide the interface orientation now, if any (see above).
    var orientationOwner: String? { Self.orientationOwner(in: state, profile: profile) }

    /// `orientationOwner` of `state` on `profile` (a state a command is still making: another device's).
    static func orientationOwner(in state: DisplayState, profile: DeviceProfile) -> String? {
        guard let primary = state.windowing.isFreeForm ? state.stacking.first : state.app(holding: .primary)?.name else { return nil }
        if profile.idiom == .phone { return primary }
        if state.windowing.isFreeForm {
            let screen = profile.screenSize(state.orientation)
            return state.frames[primary] == Rect(x: 0, y: 0, width: screen.width, height: screen.height) ? primary : nil
        }
        return state.arrangement == .full ? primary : nil
    }

    /// `orientation` on `profile`, or where the app that owns the screen in `state` keeps the interface when it
    /// does not support it: the supported and offered one nearest (UIKit's rule, as `interfaceOrientation`).
    static func ownersOrientation(_ orientation: Orientation, in state: DisplayState, profile: DeviceProfile) -> Orientation {
        guard let owner = orientationOwner(in: state, profile: profile), let declared = state.declarations[owner],
              !declared.supports(orientation) else { return orientation }
        return nearest(to: orientation, among: declared.supportedOrientations.filter(profile.offers)) ?? orientation
    }

    /// Where a rotation to `orientation` leaves the interface: there, or where the app that owns the screen
    /// keeps it (the current orientation when supported, else the supported one nearest).
    func interfaceOrientation(turningTo orientation: Orientation) -> Orientation {
        guard let owner = orientationOwner, let declared = state.declarations[owner], !declared.supports(orientation) else {
            return orientation
        }
        if declared.supports(state.orientation) { return state.orientation }
        return Self.nearest(to: orientation, among: declared.supportedOrientations.filter(profile.offers)) ?? orientation
    }

    /// The one of `candidates` nearest `orientation`: the same one, then the other of its kind, then the first.
    static func nearest(to orientation: Orientation, among candidates: [Orientation]) -> Orientation? {
        if candidates.contains(orientation) { return orientation }
        return candidates.first { $0.isLandscape == orientation.isLandscape } ?? candidates.first
    }

    /// `frame` as `app`'s free window can have it in `state`: its size held within the app's size restrictions
    /// (when it declared any), then fitted to the window's screen (`FreeFormRules.fit`).
    static func held(_ app: String, _ frame: Rect, in state: DisplayState, profile: DeviceProfile) -> Rect {
        let size = state.declarations[app]?.sizeRestrictions?.clamp(frame.size) ?? frame.size
        return profile.freeForm.fit(Rect(x: frame.x, y: frame.y, width: size.width, height: size.height),
                                    screen: screen(of: app, in: state, profile: profile))
    }

    func checkOpen(_ app: String) throws(ModelError) {
        guard state.app(named: app) != nil else {
            throw .noSuchApp("no app '\(app.shortened)' is open; open apps: " + (appNames.isEmpty ? "none" : appNames.joined(separator: ", ")))
        }
    }
}
