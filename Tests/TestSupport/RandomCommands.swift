import TraitModel
import Vocabulary

/// Random commands of every kind, as a user (or a script) would send them: devices, rotations, arrangements,
/// apps opened and closed, divider drags, every setting, the windowing modes, frames, tiles, raises, live
/// resizes, displays connected, moved to and disconnected. Many are refused in the state they meet (a frame
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
        switch random.below(20) {
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
        default: return .moveToDisplay(app: app, display: random.pick([ConnectedDisplay.device, "external-1", "external-1"]))
        }
    }
}
