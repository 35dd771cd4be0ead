/// What can be set on the display by name: `traitctl set WORD VALUE` (and `get WORD`), a scenario's
/// `set: { WORD: VALUE }`, a matrix's keys, and the Python client's `set(**changes)` (whose keyword arguments
/// spell a setting's `-` as `_`: `content_size`). One of the display's commands, or a display-wide setting.
///
/// The words are defined here once; each front end reads the value in its own way (a scenario with the file's
/// line and column, traitctl with its own message) and turns it into the command it names.
public enum SetWord: Hashable, Sendable, CustomStringConvertible {
    /// `SetDevice`: a device id.
    case device
    /// `Rotate`: an orientation.
    case orientation
    /// `SetArrangement`: a Split View arrangement.
    case arrangement
    /// `SetWindowing`: split-view, stage-manager or windowed.
    case windowing
    /// `SetKeyboard`: a keyboard mode.
    case keyboard
    /// `SetTraits`: one display-wide setting, by its word (`appearance`, `content-size`, ...).
    case setting(DisplayTrait)

    /// The display's commands, in the order the documents list them.
    public static let commands: [SetWord] = [.device, .orientation, .arrangement, .windowing, .keyboard]
    /// Every word: the commands', then each setting's (`DisplayTrait.all`).
    public static let all: [SetWord] = commands + DisplayTrait.all.map(SetWord.setting)

    /// The word as written: `device`, `orientation`, ..., `content-size`.
    public var word: String {
        switch self {
        case .device: "device"
        case .orientation: "orientation"
        case .arrangement: "arrangement"
        case .windowing: "windowing"
        case .keyboard: "keyboard"
        case .setting(let trait): trait.word
        }
    }

    public var description: String { word }

    /// The word `word` names, or nil.
    public init?(word: String) {
        guard let found = Self.all.first(where: { $0.word == word }) else { return nil }
        self = found
    }
}
