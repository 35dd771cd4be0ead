import TraitModel
import Vocabulary

/// Random commands of every kind, as a user (or a script) would send them: devices, rotations, arrangements,
/// apps opened and closed, divider drags, every setting, the windowing modes, frames, tiles, raises, live
/// resizes, displays connected, moved to and disconnected, the keyboard, and what apps declare and ask (size
/// restrictions, supported orientations, geometry requests, breakpoints, trait overrides). Many are refused in the state they meet (a frame
/// in Split View, a fifth window...): a walk tries the refusals too. The same seed gives the same commands.
public struct RandomCommands {
    public var random: SeededRandom
    /// The apps a walk opens, moves and closes.
    public static let apps = ["mail", "notes", "maps", "music", "photos", "books", "news"]
    public static let devices = ["ipad-9.7", "ipad-pro-11-m4", "ipad-pro-12.9", "ipad-mini-7", "iphone-15"]

    public init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// The next command; `state` only guides the choice of apps (mostly open ones where a command needs one).
    public mutating func next(in state: DisplayState) -> Command {
        let open = state.apps.map(\.name)
        let app = open.isEmpty || random.chance(0.1) ? random.pick(Self.apps) : random.pick(open)
        switch random.below(25) {
        case 0: return .setDevice(random.pick(Self.devices))
        case 1: return .rotate(random.pick(Orientation.allCases))
        case 2: return .setArrangement(random.pick(Arrangement.allCases))
        case 3: return .openApp(random.pick(Self.apps), random.pick([.primary, .secondary, .pip, .window]))
        case 4: return .closeApp(app)
        case 5: return random.chance(0.5) ? .beginDividerDrag : .endDividerDrag
        case 6: return .moveDivider(Double(random.int(0...1400)))
        case 7:
            let trait = random.pick(DisplayTrait.all)
            return .setTraits([trait: random.pick(trait.values)])
        case 8: return .setWindowing(random.pick(Windowing.allCases))
        case 9:
            return .setFrame(app: app, Rect(x: Double(random.int(-20...900)), y: Double(random.int(-20...700)),
                                           width: Double(random.int(200...1400)), height: Double(random.int(200...1100))))
        case 10: return .tile(app: app, random.pick(TilePosition.allCases))
        case 11: return .raise(app: app)
        case 12: return .beginResize(app: app)
        case 13, 14: return .resizeTo(app: app, Size(width: Double(random.int(100...1500)), height: Double(random.int(100...1200))))
        case 15: return .endResize(app: app)
        case 16: return .connectDisplay(profile: random.pick(ExternalScreen.profiles).profile)
        case 17: return .disconnectDisplay(id: random.pick(["external-1", "external-2"]))
        case 18: return .setKeyboard(random.pick(KeyboardMode.allCases))
        case 19: return .setSizeRestrictions(app: app, randomRestrictions())
        case 20: return .setSupportedOrientations(app: app, Orientation.allCases.filter { _ in random.chance(0.5) })
        case 21:
            let size = random.chance(0.5) ? randomSize() : nil
            let origin = random.chance(0.3) ? (x: Double(random.int(-50...900)), y: Double(random.int(-50...700))) : nil
            let orientations = random.chance(0.6) ? Orientation.allCases.filter { _ in random.chance(0.4) } : []
            return .requestGeometryUpdate(app: app, GeometryRequest(orientations: orientations, size: size, origin: origin))
        case 22: return .setTraitOverrides(app: app, randomOverrides())
        case 23:
            let conditions = ["max-width: 500sp", "min-width: 700pt and min-aspect-ratio: 4/3", "max-height: 600px or max-width: 400px"]
            return .setBreakpoints(app: app, Dictionary(uniqueKeysWithValues: ["narrow", "wide", "short"].filter { _ in random.chance(0.5) }
                .map { ($0, try! BreakpointCondition(parsing: random.pick(conditions))) }))
        default: return .moveToDisplay(app: app, display: random.pick([ConnectedDisplay.device, "external-1", "external-1"]))
        }
    }

    /// Overrides of a few system traits and custom traits, sometimes a value of another type than the trait's
    /// default (refused): a walk tries the refusals too.
    private mutating func randomOverrides() -> TraitOverrideRequest {
        var request = TraitOverrideRequest()
        for trait in DisplayTrait.windowTraits where random.chance(0.3) {
            request.system[.display(trait)] = random.pick(trait.values)
        }
        if random.chance(0.2) { request.system[.horizontalSizeClass] = random.pick(SizeClass.allCases).rawValue }
        if random.chance(0.3) { request.custom["com.example.density"] = .init(defaultValue: .string("regular"), override: random.chance(0.5) ? .string("compact") : nil) }
        if random.chance(0.3) { request.custom["com.example.badges"] = .init(override: random.chance(0.9) ? .bool(random.chance(0.5)) : .integer(2)) }
        return request
    }

    private mutating func randomSize() -> Size {
        Size(width: Double(random.int(100...1500)), height: Double(random.int(100...1200)))
    }

    /// Mostly satisfiable restrictions, sometimes not (a minimum above the maximum, or a maximum below the
    /// smallest window): the refusals are walked too.
    private mutating func randomRestrictions() -> SizeRestrictions {
        let minimum = Size(width: Double(random.int(0...800)), height: Double(random.int(0...700)))
        let maximum = random.chance(0.15) ? randomSize()
            : Size(width: minimum.width + Double(random.int(0...900)), height: minimum.height + Double(random.int(0...700)))
        return SizeRestrictions(minimum: minimum, maximum: maximum)
    }
}
