import ArgumentParser
import DBus
import Foundation
import TraitClient
import TraitProtocol

/// `traitctl get PROPERTY [--app APP]`: one property, printed for scripts.
struct Get: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print one property of the display, or of an app's window with --app.",
        discussion: """
            Strings and numbers print as they are; everything else as one line of JSON. Examples: \
            traitctl get Orientation; traitctl get Frame --app mail; traitctl get Traits --app notes. A setting's \
            traitctl word prints its value as traitctl set takes it: traitctl get appearance; traitctl get reduce-motion; \
            and so does every word of traitctl set: traitctl get orientation; traitctl get keyboard.
            """)
    @OptionGroup var options: BusOptions
    @Argument(help: "Display: Device, Orientation, ScreenSize, Scale, Arrangement, Windows, Serial, DividerPosition, Dragging, BackgroundApps, Appearance, ContentSizeCategory, LayoutDirection, Contrast, LegibilityWeight, ReduceMotion, Windowing, Stacking, Displays, Keyboard, KeyboardFrame, or set's words (device, orientation, arrangement, windowing, keyboard, \(DisplayTrait.wordList)). Window: \(Layout1.Window.properties.map(\.name).joined(separator: ", ")).")
    var property: String
    @Option(help: "Read the property of this app's window.") var app: String?

    func run() async throws {
        try await reportingFailures {
            if app == nil, let trait = DisplayTrait.withWord(property) {
                let value = try await options.withClient { try await $0.rawProperty(trait.property) }
                return print(try Layout1.Display.trait(trait).value.decode(value))
            }
            // set's words for the display (orientation, keyboard, ...) read the property they set.
            let property = app == nil ? SetWord(word: self.property).map(SetCommand.property(of:)) ?? self.property : self.property
            let value = try await options.withClient { client in
                guard let app else { return try await client.rawProperty(property) }
                do {
                    return try await client.rawProperty(property, path: TraitClient.windowPath(app), interface: TraitClient.windowInterface)
                } catch let error as DBusError where error.name == DBusError.unknownObjectName {
                    throw DBusError(error.name, "\(app) has no window (traitctl status lists the apps on screen)")
                }
            }
            print(try Self.text(value))
        }
    }

    /// Plain text for a string or a number, one line of JSON (keys sorted, `/` unescaped) for the rest.
    static func text(_ value: DBusValue) throws -> String {
        switch value.unwrapped {
        case .string(let s), .objectPath(let s), .signature(let s): return s
        default: return try jsonLine(json(value))
        }
    }

    /// The value as Foundation's JSON objects: a dictionary for a{..}, an array for other arrays and structures.
    static func json(_ value: DBusValue) -> Any {
        switch value {
        case .byte(let v): return Int(v)
        case .boolean(let v): return v
        case .int16(let v): return Int(v)
        case .uint16(let v): return Int(v)
        case .int32(let v): return Int(v)
        case .uint32(let v): return Int(v)
        case .int64(let v): return v
        case .uint64(let v): return v
        case .double(let v): return v
        case .string(let s), .objectPath(let s), .signature(let s): return s
        case .variant(let inner): return json(inner)
        case .structure(let fields): return fields.map(json)
        case .dictEntry(let key, let value): return [json(key), json(value)]
        case .array(let element, let items) where element.hasPrefix("{"):
            var dictionary: [String: Any] = [:]
            for case .dictEntry(let key, let value) in items { dictionary[key.string ?? "\(json(key))"] = json(value) }
            return dictionary
        case .array(_, let items): return items.map(json)
        }
    }
}
