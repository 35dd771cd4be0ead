import DefaultConfig
import FoundationEssentials
import TraitModel

/// Reads device profiles (`Config/devices/*.yaml`): the built-in ones, then any directory given.
public enum ProfileLoader {
    /// Parses one profile file. `file` names it in errors.
    public static func parse(_ text: String, file: String) throws -> DeviceProfile {
        let reader = YAMLReader(file: file)
        guard let root = try reader.document(text) else { throw reader.fail(nil, "expected a device profile, found an empty file") }
        let keys = ["id", "name", "idiom", "scale", "confidence", "screen", "divider-width", "slide-over-height-inset",
                    "landscape", "portrait"]
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
                                             allowed: ["vertical"] + DeviceProfile.Slot.allCases.map(\.rawValue))
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
            return .init(vertical: try reader.choice(vertical, what: "size class", SizeClass.self), widths: widths)
        }

        let profile = DeviceProfile(
            id: id,
            name: try map["name"].map { try reader.string($0, what: "a model name") } ?? id,
            idiom: try map["idiom"].map { try reader.choice($0, what: "idiom", Idiom.self) } ?? .pad,
            scale: try map["scale"].map { try reader.number($0, what: "the display scale", range: 1...4) } ?? 2,
            confidence: try map["confidence"].map { try reader.string($0, what: "a confidence") } ?? "high",
            landscapeScreen: landscapeScreen,
            dividerWidth: try map["divider-width"].map { try reader.number($0, what: "the divider width", range: 0...100) } ?? 10,
            slideOverHeightInset: try reader.number(try required("slide-over-height-inset"),
                                                    what: "the Slide Over height inset", range: 0...1000),
            landscape: try table("landscape"), portrait: try table("portrait"))
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
