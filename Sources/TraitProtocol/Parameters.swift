import DBus
import Vocabulary

/// traitd's argument types: strings it checks (non-empty, at most 256 bytes, app and adapter names), the
/// model's enums by their names, and geometry. Each decodes in one step and refuses with `InvalidArgs` and a
/// message that says what was wrong and what is allowed.
extension Parameter where Value == String {
    /// No string argument of ours needs more than this; a longer one is refused before it is echoed or parsed.
    public static var maximumStringLength: Int { 256 }

    /// A non-empty string of at most `maximumStringLength` bytes; `what` names it in refusals ("the device").
    public static func text(_ name: String, what: String) -> Self {
        string(name).map(decode: { s in
            guard !s.isEmpty else { throw DBusError.invalidArgs("\(what) is empty") }
            guard s.utf8.count <= maximumStringLength else {
                throw DBusError.invalidArgs(
                    "\(what) is \(s.utf8.count) bytes long; at most \(maximumStringLength) are allowed")
            }
            return s
        }, encode: { $0 })
    }

    /// An app name (`AppName.rule`).
    public static func appName(_ name: String) -> Self {
        text(name, what: "the app name").map(decode: { app in
            guard AppName.isValid(app) else {
                throw DBusError.invalidArgs("'\(app.printable)' is not a valid app name: use \(AppName.rule)")
            }
            return app
        }, encode: { $0 })
    }

    /// An adapter name (`ReportName.rule`).
    public static func adapterName(_ name: String) -> Self {
        text(name, what: "the adapter name").map(decode: { adapter in
            try ReportName.check(adapter, what: "adapter")
            return adapter
        }, encode: { $0 })
    }
}

extension Parameter {
    /// One of a model enum's cases, by its name (`landscape-left`); anything else is refused with the list.
    public static func choice(_ name: String, what: String) -> Self
    where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
        Parameter<String>.text(name, what: what).map(decode: { text in
            guard let value = Value(rawValue: text) else {
                let names = Value.allCases.map(\.rawValue)
                throw DBusError.invalidArgs(
                    "unknown \(what) '\(text.printable)'; \(Suggestion.phrase(text, among: names))expected one of: \(names.joined(separator: ", "))")
            }
            return value
        }, encode: { $0.rawValue })  // a closure: `\.rawValue` went through the key-path runtime on every encode
    }
}

extension Parameter where Value == Rect {
    /// `(dddd)`: x, y, width, height.
    public static func rect(_ name: String) -> Self {
        Parameter<[Double]>.doubles(name, count: 4).map(decode: { Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) },
                                                        encode: { [$0.x, $0.y, $0.width, $0.height] })
    }
}

extension Parameter where Value == EdgeInsets {
    /// `(dddd)`: top, left, bottom, right.
    public static func insets(_ name: String) -> Self {
        Parameter<[Double]>.doubles(name, count: 4).map(decode: { EdgeInsets(top: $0[0], left: $0[1], bottom: $0[2], right: $0[3]) },
                                                        encode: { $0.values })
    }
}

extension Parameter where Value == Size {
    /// `(dd)`: width, height.
    public static func size(_ name: String) -> Self {
        Parameter<[Double]>.doubles(name, count: 2).map(decode: { Size(width: $0[0], height: $0[1]) },
                                                        encode: { [$0.width, $0.height] })
    }
}

extension Parameter where Value == Reflow {
    /// `(sd)`: the widest element, the page's width in points.
    public static func reflow(_ name: String) -> Self {
        Self(name, "(sd)", extract: { value in
            guard value.hasSignature("(sd)"), let fields = value.elements, let element = fields[0].string,
                  case .double(let width) = fields[1] else { return nil }
            return Reflow(element: element, width: width)
        }, encode: { .structure([.string($0.element), .double($0.width)]) })
    }
}

extension Parameter where Value == ClippedText {
    /// `(sdd)`: how the text is cut, and the width and height it needs.
    public static func clippedText(_ name: String) -> Self {
        Self(name, "(sdd)", extract: { value in
            guard value.hasSignature("(sdd)"), let fields = value.elements, let word = fields[0].string,
                  let cut = ClippedText.Cut(rawValue: word), case .double(let width) = fields[1],
                  case .double(let height) = fields[2] else { return nil }
            return ClippedText(cut: cut, needed: Size(width: width, height: height))
        }, encode: { .structure([.string($0.cut.rawValue), .double($0.needed.width), .double($0.needed.height)]) })
    }
}

extension Parameter where Value == LowContrast {
    /// `(dd)`: the contrast ratio, and the ratio required.
    public static func lowContrast(_ name: String) -> Self {
        Self(name, "(dd)", extract: { value in
            guard value.hasSignature("(dd)"), let fields = value.elements, case .double(let ratio) = fields[0],
                  case .double(let required) = fields[1] else { return nil }
            return LowContrast(ratio: ratio, required: required)
        }, encode: { .structure([.double($0.ratio), .double($0.required)]) })
    }
}

/// An object and its properties, as `GetState` lists the windows.
public struct ObjectProperties: Sendable, Equatable {
    public var path: String
    public var properties: [String: DBusValue]
    public init(path: String, properties: [String: DBusValue]) {
        self.path = path
        self.properties = properties
    }
}

extension Parameter where Value == [ObjectProperties] {
    /// `a(oa{sv})`.
    public static func objects(_ name: String) -> Self {
        Self(name, "a(oa{sv})", extract: { value in
            guard value.hasSignature("a(oa{sv})"), let items = value.elements else { return nil }
            return items.map { item in
                let fields = item.elements!
                return ObjectProperties(path: fields[0].string!, properties: fields[1].dictionary!)
            }
        }, encode: { objects in
            .array(element: "(oa{sv})", objects.map { .structure([.objectPath($0.path), .vardict($0.properties)]) })
        })
    }
}

extension Parameter where Value == [AdapterRegistration] {
    /// `a(sss)`: app, adapter, owner.
    public static func registrations(_ name: String) -> Self {
        Self(name, "a(sss)", extract: { value in
            guard value.hasSignature("a(sss)"), let items = value.elements else { return nil }
            return items.map { item in
                let f = item.elements!.map { $0.string! }
                return AdapterRegistration(app: f[0], adapter: f[1], owner: f[2])
            }
        }, encode: { list in
            .array(element: "(sss)", list.map { .structure([.string($0.app), .string($0.adapter), .string($0.owner)]) })
        })
    }
}

extension Parameter where Value == [UInt64] {
    /// `at`: the ids of the transitions a command started, in the order they began (see ``Layout1/Display``).
    public static func transitionIDs(_ name: String) -> Self {
        Self(name, "at", extract: { value in
            guard value.hasSignature("at"), let items = value.elements else { return nil }
            return items.map { if case .uint64(let id) = $0 { id } else { 0 } }
        }, encode: { .array(element: "t", $0.map { .uint64($0) }) })
    }
}

/// One signal of traitd's journal (`GetEvents`): the Serial it was sent at, where from, and its arguments.
public struct JournalEntry: Sendable, Equatable {
    public var serial: UInt64
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]

    public init(serial: UInt64, path: String, interface: String, member: String, arguments: [DBusValue]) {
        self.serial = serial
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}

extension Parameter where Value == [JournalEntry] {
    /// `a(tossav)`: serial, object path, interface, member, arguments (each in a variant).
    public static func journal(_ name: String) -> Self {
        Self(name, "a(tossav)", extract: { value in
            guard value.hasSignature("a(tossav)"), let items = value.elements else { return nil }
            var entries: [JournalEntry] = []
            for item in items {
                guard let f = item.elements, case .uint64(let serial) = f[0], case .objectPath(let path) = f[1],
                      let interface = f[2].string, let member = f[3].string, let arguments = f[4].elements else { return nil }
                // One variant layer each, which the journal added: an argument of type v keeps its own.
                entries.append(JournalEntry(serial: serial, path: path, interface: interface, member: member,
                                            arguments: arguments.map { if case .variant(let inner) = $0 { inner } else { $0 } }))
            }
            return entries
        }, encode: { list in
            .array(element: "(tossav)", list.map {
                .structure([.uint64($0.serial), .objectPath($0.path), .string($0.interface), .string($0.member),
                            .array(element: "v", $0.arguments.map(DBusValue.variant))])
            })
        })
    }
}

extension Parameter where Value == [Explanation] {
    /// `a(ss)`: topic, sentence (`Explain`).
    public static func explanations(_ name: String) -> Self {
        Self(name, "a(ss)", extract: { value in
            guard value.hasSignature("a(ss)"), let items = value.elements else { return nil }
            return items.map { item in
                let f = item.elements!.map { $0.string! }
                return Explanation(f[0], f[1])
            }
        }, encode: { list in .array(element: "(ss)", list.map { .structure([.string($0.topic), .string($0.text)]) }) })
    }
}

extension Parameter where Value == [LayoutProblem] {
    /// `a(ssss)`: adapter, element, rule, message (`LayoutProblems`); a rule this side does not know is refused,
    /// naming it.
    public static func layoutProblems(_ name: String) -> Self {
        Self(name, "a(ssss)", decode: { value in
            guard value.hasSignature("a(ssss)"), let items = value.elements else {
                throw DBusError.invalidArgs("\(name) must be 'a(ssss)', but it is '\(value.signature)'")
            }
            return try items.map { item in
                let f = item.elements!.map { $0.string! }
                guard let rule = LayoutRule(rawValue: f[2]) else {
                    throw DBusError.invalidArgs("\(name): unknown layout rule '\(f[2].printable)'; expected one of: "
                                                + LayoutRule.allCases.map(\.rawValue).joined(separator: ", "))
                }
                return LayoutProblem(adapter: f[0], element: f[1], rule: rule, message: f[3])
            }
        }, encode: { list in
            .array(element: "(ssss)", list.map {
                .structure([.string($0.adapter), .string($0.element), .string($0.rule.rawValue), .string($0.message)])
            })
        })
    }
}

extension Parameter where Value == [DrivenMode] {
    /// `a(sssssas)`: device class, orientation, placement, horizontal and vertical size class, the settings
    /// away from their defaults as `WORD=VALUE` (`Coverage`); a word this side does not know is refused, naming it.
    public static func drivenModes(_ name: String) -> Self {
        Self(name, "a(sssssas)", decode: { value in
            guard value.hasSignature("a(sssssas)"), let items = value.elements else {
                throw DBusError.invalidArgs("\(name) must be 'a(sssssas)', but it is '\(value.signature)'")
            }
            return try items.map { item in
                let f = item.elements!
                do {
                    return try DrivenMode(words: f.prefix(5).map { $0.string! }, settings: f[5].elements!.map { $0.string! })
                } catch {
                    throw DBusError.invalidArgs("\(name): \(error)")
                }
            }
        }, encode: { list in
            .array(element: "(sssssas)", list.map { mode in
                .structure(mode.words.map(DBusValue.string) + [.array(element: "s", mode.settings.map { .string($0.description) })])
            })
        })
    }
}

extension Parameter where Value == [DrivenAdaptation] {
    /// `a(ss)`: each window size class driven, as the trait's name and the class
    /// (`windowWidthSizeClass`, `medium`), for `AdaptationCoverage`; a name or class this side does not know is
    /// refused, naming it.
    public static func windowSizeClassCoverage(_ name: String) -> Self {
        Self(name, "a(ss)", decode: { value in
            guard value.hasSignature("a(ss)"), let items = value.elements else {
                throw DBusError.invalidArgs("\(name) must be 'a(ss)', but it is '\(value.signature)'")
            }
            return try items.map { item in
                let f = item.elements!
                let (trait, class_) = (f[0].string!, f[1].string!)
                guard let driven = DrivenAdaptation(trait: trait, value: class_) else {
                    throw DBusError.invalidArgs("\(name): unknown window size class \(trait.printable) '\(class_.printable)'")
                }
                return driven
            }
        }, encode: { list in
            .array(element: "(ss)", list.compactMap(\.windowSizeClass).map { .structure([.string($0.trait), .string($0.value)]) })
        })
    }

    /// `a(ssb)`: each breakpoint driven, as its app, its name and whether it held, for `AdaptationCoverage`.
    public static func breakpointCoverage(_ name: String) -> Self {
        Self(name, "a(ssb)", decode: { value in
            guard value.hasSignature("a(ssb)"), let items = value.elements else {
                throw DBusError.invalidArgs("\(name) must be 'a(ssb)', but it is '\(value.signature)'")
            }
            return items.map { item in
                let f = item.elements!
                return .breakpoint(app: f[0].string!, name: f[1].string!, applied: f[2] == .boolean(true))
            }
        }, encode: { list in
            .array(element: "(ssb)", list.compactMap { driven -> DBusValue? in
                guard case .breakpoint(let app, let name, let applied) = driven else { return nil }
                return .structure([.string(app), .string(name), .boolean(applied)])
            })
        })
    }
}

extension Parameter where Value == [Orientation] {
    /// `as`: orientations, each checked (an unknown one is refused, naming those there are).
    public static func orientations(_ name: String) -> Self {
        Parameter<[String]>.strings(name).map(decode: { words in
            try words.map { word in
                guard let orientation = Orientation(rawValue: word) else {
                    throw DBusError.invalidArgs("unknown orientation '\(word.printable)' in \(name); expected: \(Orientation.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return orientation
            }
        }, encode: { $0.map(\.rawValue) })
    }
}

extension Parameter where Value == SizeRestrictions {
    /// `((dd)(dd))`: the minimum and the maximum size.
    public static func sizeRestrictions(_ name: String) -> Self {
        Self(name, "((dd)(dd))", extract: { value in
            guard value.hasSignature("((dd)(dd))"), let pair = value.elements, pair.count == 2,
                  let low = pair[0].doubles, let high = pair[1].doubles else { return nil }
            return SizeRestrictions(minimum: Size(width: low[0], height: low[1]), maximum: Size(width: high[0], height: high[1]))
        }, encode: { .structure([.doubles([$0.minimum.width, $0.minimum.height]), .doubles([$0.maximum.width, $0.maximum.height])]) })
    }
}

extension Parameter where Value == GeometryRequest {
    /// `a{sv}` with `orientations` (as), `size` ((dd)) and `origin` ((dd)), as `UIWindowScene.GeometryPreferences`
    /// holds them; another key, or a value of another type, is refused, naming it.
    public static func geometryRequest(_ name: String) -> Self {
        let orientations = Parameter<[Orientation]>.orientations("orientations"), size = Parameter<Size>.size("size")
        return Parameter<[String: DBusValue]>.vardict(name).map(decode: { entries in
            var request = GeometryRequest()
            for (key, value) in entries {
                switch key {
                case "orientations": request.orientations = try orientations.decode(value.unwrapped)
                case "size": request.size = try size.decode(value.unwrapped)
                case "origin":
                    let point = try Parameter<Size>.size("origin").decode(value.unwrapped)
                    request.origin = (point.width, point.height)
                default:
                    throw DBusError.invalidArgs("unknown key '\(key.printable)' in \(name); expected orientations (as), size ((dd)), origin ((dd))")
                }
            }
            return request
        }, encode: { request in
            var entries: [String: DBusValue] = [:]
            if !request.orientations.isEmpty { entries["orientations"] = orientations.encode(request.orientations) }
            if let s = request.size { entries["size"] = size.encode(s) }
            if let o = request.origin { entries["origin"] = .doubles([o.x, o.y]) }
            return entries
        })
    }
}

