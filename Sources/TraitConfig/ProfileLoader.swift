import DefaultConfig
import FoundationEssentials
import TraitModel
import Vocabulary

/// Reads device profiles (`Config/devices/*.yaml`): the built-in ones, then any directory given.
public enum ProfileLoader {
    /// Parses one profile file. `file` names it in errors.
    public static func parse(_ text: String, file: String) throws -> DeviceProfile {
        let reader = YAMLReader(file: file)
        guard let root = try reader.document(text) else { throw reader.fail(nil, "expected a device profile, found an empty file") }
        let keys = ["id", "name", "idiom", "scale", "confidence", "screen", "orientations", "divider-width",
                    "slide-over-height-inset", "landscape", "portrait", "display-gamut", "free-form", "keyboard"]
        let map = try reader.mapping(root, what: "a device profile", allowed: keys)
        func required(_ key: String) throws -> Node {
            guard let node = map[key] else { throw reader.fail(root, "missing key '\(key)' in the device profile") }
            return node
        }
        let id = try reader.string(try required("id"), what: "a profile id")
        guard isValidProfileID(id) else {
            throw reader.fail(map["id"], "profile id '\(id)' must use 1-64 characters from A-Z, a-z, 0-9, '.', '_' and '-'")
        }
        let screenNode = try required("screen")
        let screen = try reader.mapping(screenNode, what: "the screen size", allowed: ["width", "height"])
        guard let w = screen["width"], let h = screen["height"] else {
            throw reader.fail(screenNode, "expected the screen's width and height")
        }
        let landscapeScreen = Size(
            width: try reader.number(w, what: "the screen width", range: 1...10_000),
            height: try reader.number(h, what: "the screen height", range: 1...10_000))

        func table(_ key: String) throws -> DeviceProfile.OrientationTable {
            let node = try required(key)
            let entries = try reader.mapping(node, what: "the \(key) table",
                                             allowed: ["vertical", "safe-area"] + DeviceProfile.Slot.allCases.map(\.rawValue))
            var widths: [DeviceProfile.Slot: DeviceProfile.WindowWidth] = [:]
            for slot in DeviceProfile.Slot.allCases {
                guard let entry = entries[slot.rawValue] else { continue }
                let fields = try reader.mapping(entry, what: "a window width", allowed: ["width", "horizontal"])
                guard let width = fields["width"], let horizontal = fields["horizontal"] else {
                    throw reader.fail(entry, "expected { width: NUMBER, horizontal: compact|regular }")
                }
                widths[slot] = .init(
                    try reader.number(width, what: "a window width", range: 1...10_000),
                    try reader.choice(horizontal, what: "size class", SizeClass.self))
            }
            guard let vertical = entries["vertical"] else {
                throw reader.fail(node, "missing key 'vertical' (the vertical size class) in the \(key) table")
            }
            var safeArea = EdgeInsets.zero
            if let insets = entries["safe-area"] {
                let sides = ["top", "left", "bottom", "right"]
                let fields = try reader.mapping(insets, what: "the safe area", allowed: sides)
                let values = try sides.map { side in
                    guard let value = fields[side] else {
                        throw reader.fail(insets, "expected { top: N, left: N, bottom: N, right: N } (points); '\(side)' is missing")
                    }
                    return try reader.number(value, what: "the \(side) safe-area inset", range: 0...1000)
                }
                safeArea = EdgeInsets(top: values[0], left: values[1], bottom: values[2], right: values[3])
            }
            return .init(vertical: try reader.choice(vertical, what: "size class", SizeClass.self), widths: widths,
                         safeArea: safeArea)
        }

        var orientations = Orientation.allCases
        if let node = map["orientations"] {
            orientations = try reader.sequence(node, what: "the offered orientations").map {
                try reader.choice($0, what: "orientation", Orientation.self)
            }
            guard !orientations.isEmpty else { throw reader.fail(node, "a profile must offer at least one orientation") }
        }
        let landscape = try table("landscape")
        let portrait = try table("portrait")
        let offersSlideOver = landscape.widths[.slideOver] != nil || portrait.widths[.slideOver] != nil
        var slideOverHeightInset = 0.0
        if let node = map["slide-over-height-inset"] {
            slideOverHeightInset = try reader.number(node, what: "the Slide Over height inset", range: 0...1000)
        } else if offersSlideOver {
            throw reader.fail(root, "missing key 'slide-over-height-inset' in the device profile (it offers slide-over)")
        }

        let dividerWidth = try map["divider-width"].map { try reader.number($0, what: "the divider width", range: 0...100) } ?? 10
        var freeForm = FreeFormRules(tileGap: dividerWidth)
        if let node = map["free-form"] {
            let fields = try reader.mapping(node, what: "the free-form window rules",
                                            allowed: ["regular-width", "minimum-width", "minimum-height", "tile-gap",
                                                      "window-controls-width", "window-controls-height"])
            if let n = fields["regular-width"] {
                freeForm.regularWidth = try reader.number(n, what: "the width from which a window is regular", range: 1...10_000)
            }
            if let n = fields["minimum-width"] {
                freeForm.minimumSize.width = try reader.number(n, what: "the minimum window width", range: 1...min(landscapeScreen.width, landscapeScreen.height))
            }
            if let n = fields["minimum-height"] {
                freeForm.minimumSize.height = try reader.number(n, what: "the minimum window height", range: 1...min(landscapeScreen.width, landscapeScreen.height))
            }
            if let n = fields["window-controls-width"] {
                freeForm.windowControls.width = try reader.number(n, what: "the window controls' width", range: 0...1000)
            }
            if let n = fields["window-controls-height"] {
                freeForm.windowControls.height = try reader.number(n, what: "the window controls' height", range: 0...1000)
            }
            if let n = fields["tile-gap"] {
                freeForm.tileGap = try reader.number(n, what: "the gap between tiles", range: 0...100)
            }
        }

        let idiom = try map["idiom"].map { try reader.choice($0, what: "idiom", Idiom.self) } ?? .pad
        var keyboard: KeyboardTable?
        if let node = map["keyboard"] {
            let fields = try reader.mapping(node, what: "the keyboard", allowed: ["portrait", "landscape", "split", "confidence"])
            func height(_ key: String) throws -> KeyboardTable.Height {
                guard let entry = fields[key] else { throw reader.fail(node, "missing key '\(key)' ({ keys: N, bar: N }) in the keyboard") }
                let parts = try reader.mapping(entry, what: "the keyboard's height", allowed: ["keys", "bar"])
                guard let keys = parts["keys"], let bar = parts["bar"] else { throw reader.fail(entry, "expected { keys: N, bar: N } (points)") }
                return .init(keys: try reader.number(keys, what: "the keys' height", range: 1...2000),
                             bar: try reader.number(bar, what: "the predictive bar's height", range: 0...200))
            }
            let split = try fields["split"].map { try reader.flag($0, what: "split (true or false)") } ?? (idiom == .pad)
            if split && idiom == .phone { throw reader.fail(fields["split"], "a phone has no split keyboard") }
            keyboard = KeyboardTable(portrait: try height("portrait"), landscape: try height("landscape"), offersSplit: split,
                                     confidence: try fields["confidence"].map { try reader.string($0, what: "a confidence") } ?? "unknown")
        }
        let profile = DeviceProfile(
            id: id,
            name: try map["name"].map { try reader.string($0, what: "a model name") } ?? id,
            idiom: idiom,
            scale: try map["scale"].map { try reader.number($0, what: "the display scale", range: 1...4) } ?? 2,
            confidence: try map["confidence"].map { try reader.string($0, what: "a confidence") } ?? "high",
            landscapeScreen: landscapeScreen,
            dividerWidth: dividerWidth,
            slideOverHeightInset: slideOverHeightInset,
            landscape: landscape, portrait: portrait, orientations: orientations,
            gamut: try map["display-gamut"].map { try reader.choice($0, what: "display gamut", DisplayGamut.self) } ?? .srgb,
            freeForm: freeForm, keyboard: keyboard)
        if let (section, problem) = profile.inconsistencies().first {
            throw reader.fail(map[section] ?? root, "inconsistent profile '\(id)': \(problem)")
        }
        return profile
    }

    /// Profile ids are names on the bus and in files: `[A-Za-z0-9._-]{1,64}`.
    static func isValidProfileID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count) && AppName.isValid(id.replacing(".", with: "_"))
    }

    /// The built-in profiles, then every `*.yaml` in `directories` (later ones replace earlier ones by id).
    /// Directories that do not exist are skipped; a file that does not parse is an error.
    public static func catalog(directories: [String] = []) throws -> DeviceCatalog {
        var catalog = DeviceCatalog()
        for file in DefaultConfig.deviceProfiles {
            catalog.add(try parse(file.text, file: "<embedded>/" + file.name))
        }
        for directory in directories {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ConfigError(file: path, line: 1, column: 1, message: "cannot read the file")
                }
                catalog.add(try parse(String(decoding: data, as: UTF8.self), file: path))
            }
        }
        return catalog
    }
}
