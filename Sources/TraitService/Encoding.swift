import DBus
import TraitProtocol
import TraitModel

/// How model values look on the bus.
enum Encoding {
    static func frame(_ r: Rect) -> DBusValue { .doubles([r.x, r.y, r.width, r.height]) }

    /// Safe-area insets as `(dddd)`: top, left, bottom, right.
    static func insets(_ e: EdgeInsets) -> DBusValue { .doubles(e.values) }

    static func size(_ s: Size) -> DBusValue { .doubles([s.width, s.height]) }

    /// A trait collection as `a{sv}`: `horizontalSizeClass` s, `verticalSizeClass` s, `idiom` s, `displayScale` d.
    static func traits(_ t: TraitCollection) -> [String: DBusValue] {
        [
            "horizontalSizeClass": .string(t.horizontalSizeClass.rawValue),
            "verticalSizeClass": .string(t.verticalSizeClass.rawValue),
            "idiom": .string(t.idiom.rawValue),
            "displayScale": .double(t.displayScale),
        ]
    }

    /// `ViewWillTransitionToSize`'s context: `duration` d, `reason` s, `orientation` s, `frame` (dddd),
    /// `safeAreaInsets` (dddd), `snapshot` b, and `screenSize` (dd), the screen in the new orientation (it
    /// arrives before the display's PropertiesChanged, so an adapter can tell a window narrower than the screen
    /// from this signal alone).
    static func context(_ c: TransitionContext, window: WindowGeometry, screen: DBusValue?) -> [String: DBusValue] {
        var fields: [String: DBusValue] = [
            "duration": .double(c.duration),
            "reason": .string(c.reason.rawValue),
            "orientation": .string(c.orientation.rawValue),
            "frame": Encoding.frame(window.frame),
            "safeAreaInsets": insets(window.safeArea),
            "snapshot": .boolean(c.reason == .snapshot),
        ]
        if let screen { fields["screenSize"] = screen }
        return fields
    }

    static func windowProperties(app: String, _ w: WindowGeometry) -> [String: DBusValue] {
        [
            "App": .string(app),
            "Role": .string(w.role.rawValue),
            "Frame": frame(w.frame),
            "HorizontalSizeClass": .string(w.traits.horizontalSizeClass.rawValue),
            "VerticalSizeClass": .string(w.traits.verticalSizeClass.rawValue),
            "Traits": .vardict(traits(w.traits)),
            "State": .string(w.state.rawValue),
            "SafeAreaInsets": insets(w.safeArea),
        ]
    }

    /// `Layouts`: adapter -> element -> frame, as `a{sa{s(dddd)}}`, sorted.
    static func layouts(_ frames: [String: [String: Rect]]) -> DBusValue {
        .array(element: "{sa{s(dddd)}}", frames.keys.sorted().map { adapter in
            let elements = frames[adapter]!
            return .dictEntry(.string(adapter), .array(element: "{s(dddd)}", elements.keys.sorted().map {
                .dictEntry(.string($0), frame(elements[$0]!))
            }))
        })
    }

    /// `LayoutExtras`: adapter -> extras, as `a{sa{sv}}`, sorted.
    static func layoutExtras(_ extras: [String: [String: DBusValue]]) -> DBusValue {
        .array(element: "{sa{sv}}", extras.keys.sorted().map { .dictEntry(.string($0), .vardict(extras[$0]!)) })
    }

    static func displayProperties(_ sim: Simulation) -> [String: DBusValue] {
        [
            "Device": .string(sim.state.device),
            "Orientation": .string(sim.state.orientation.rawValue),
            "ScreenSize": size(sim.geometry.screen),
            "Scale": .double(sim.profile.scale),
            "Arrangement": .string(sim.state.arrangement.rawValue),
            "Windows": .objectPaths(sim.appNames.map(Layout1.windowPath)),
            "Serial": .uint64(sim.serial),
            "DividerPosition": .double(sim.dividerPosition),
            "Dragging": .boolean(sim.drag != nil),
            "BackgroundApps": .strings(sim.state.background),
        ]
    }

    /// The property names that a change of these display properties touches.
    static func displayPropertyNames(_ changes: Set<DisplayProperty>) -> [String] {
        changes.flatMap { change -> [String] in
            switch change {
            case .device: return ["Device"]
            case .orientation: return ["Orientation"]
            case .screenSize: return ["ScreenSize"]
            case .scale: return ["Scale"]
            case .arrangement: return ["Arrangement"]
            case .windows: return ["Windows", "BackgroundApps"]
            case .divider: return ["DividerPosition"]
            case .dragging: return ["Dragging"]
            }
        } + ["Serial"]
    }
}

extension ModelError {
    /// The D-Bus error a refusal becomes.
    var dbusError: DBusError {
        switch self {
        case .invalidArgument(let m): return .invalidArgs(m)
        case .notOffered(let m): return DBusError(Layout1.Error.notOffered, m)
        case .noSuchApp(let m): return DBusError(Layout1.Error.noSuchApp, m)
        case .appExists(let m): return DBusError(Layout1.Error.appExists, m)
        case .roleTaken(let m): return DBusError(Layout1.Error.roleTaken, m)
        case .missingApp(let m): return DBusError(Layout1.Error.missingApp, m)
        case .notDragging(let m): return DBusError(Layout1.Error.notDragging, m)
        case .dragging(let m): return DBusError(Layout1.Error.dragging, m)
        case .noDivider(let m): return DBusError(Layout1.Error.noDivider, m)
        }
    }
}
