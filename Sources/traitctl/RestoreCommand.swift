import ArgumentParser
import DBus
import Foundation
import ScenarioTraces
import TraitClient

/// `traitctl restore get|set APP KEY=VALUE...`: an app's restoration state, the dictionary that nothing the
/// simulation does may change.
struct Restore: AsyncParsableCommand {
    enum Action: String, ExpressibleByArgument, CaseIterable {
        case get, set
    }

    static let configuration = CommandConfiguration(
        abstract: "Show or set an app's restoration state.",
        discussion: """
            'set' merges the pairs into the current state (with --replace, replaces it; with --replace and no \
            pairs, clears it). A value is typed by its form: 42 is an int64, 1.5 a double, true/false a \
            boolean, anything else a string; prefix string: to force a string (name=string:42). \
            Example: traitctl restore set mail selection=inbox scroll=120.5
            """)
    @OptionGroup var options: BusOptions
    @Argument(help: "get or set.") var action: Action
    @Argument(help: "The app.") var app: String
    @Argument(help: "For set: KEY=VALUE pairs.") var pairs: [String] = []
    @Flag(help: "For set: replace the whole state instead of merging.") var replace = false

    func validate() throws {
        if action == .get, !pairs.isEmpty { throw ValidationError("'restore get' takes only the app") }
        if action == .set, pairs.isEmpty, !replace {
            throw ValidationError("'restore set' needs KEY=VALUE pairs (or --replace with none, to clear)")
        }
        _ = try parsedPairs()
    }

    func parsedPairs() throws -> [String: DBusValue] {
        var result: [String: DBusValue] = [:]
        for pair in pairs {
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                throw ValidationError("'\(pair)' is not KEY=VALUE")
            }
            result[String(pair[..<eq])] = Self.value(String(pair[pair.index(after: eq)...]))
        }
        return result
    }

    static func value(_ text: String) -> DBusValue { TextValue.value(text) }

    func run() async throws {
        try await reportingFailures {
            try await options.withClient { client in
                if action == .set {
                    var state = replace ? [:] : try await client.restorationState(of: app)
                    state.merge(try parsedPairs()) { $1 }
                    do {
                        try await client.setRestorationState(state, for: app)
                    } catch let error as DBusError where error.name == DBusError.unknownObjectName {
                        // Only the app's own window may change its state; in the background it has none.
                        throw DBusError(error.name, "\(app) is in the background: its restoration state can be read "
                            + "but only set from its window ('traitctl open \(app)' brings it back)")
                    }
                }
                let state = try await client.restorationState(of: app)
                for key in state.keys.sorted() { print("\(key)=\(Self.render(state[key]!))") }
            }
        }
    }

    static func render(_ value: DBusValue) -> String {
        switch value.unwrapped {
        case .string(let s): return s
        case .boolean(let b): return String(b)
        case .double(let d): return String(d)
        case .int64(let n): return String(n)
        case .int32(let n): return String(n)
        case .uint32(let n): return String(n)
        case .uint64(let n): return String(n)
        case .int16(let n): return String(n)
        case .uint16(let n): return String(n)
        case .byte(let n): return String(n)
        case let other: return "<\(other.signature)> \(other)"
        }
    }
}
