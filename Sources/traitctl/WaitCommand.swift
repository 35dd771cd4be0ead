import ArgumentParser
import DBus
import Foundation
import TraitClient
import Vocabulary

/// `traitctl wait --until 'mail.horizontalSizeClass == compact and display.Orientation == portrait'`: returns
/// once the condition holds, re-checking it at every signal of the daemon (`kubectl wait --for`'s idea).
struct Wait: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Wait until a condition on the display's and the windows' properties holds.",
        discussion: """
            CONDITION is TERM [and TERM]..., a TERM OBJECT.PROPERTY OP VALUE: OBJECT is display or an app's name, \
            PROPERTY one of its properties (Orientation, Frame, State..., the first letter in either case), a key of \
            a window's Traits (userInterfaceStyle, activeAppearance...) or a setting's word (appearance, \
            content-size...), OP ==, !=, < or > (< and > compare numbers), VALUE a word or a number. Exit 0 once it \
            holds (at once if it does), 1 with the last values when --timeout passes first; a window that does not \
            exist has no value, so only != holds of it. Example: traitctl wait --until 'notes.State == background'.
            """)
    @OptionGroup var options: BusOptions
    @Option(help: ArgumentHelp("The condition (see above).", valueName: "condition")) var until: String
    @Option(help: "Seconds to wait before giving up (exit 1).") var timeout: Double = 30

    func validate() throws {
        do {
            _ = try WaitCondition(until)
        } catch let error as WaitCondition.Mistake {
            throw ValidationError(error.description)
        }
        try SecondsOption.check(timeout)
    }

    func run() async throws {
        let condition = try WaitCondition(until)
        try await reportingFailures {
            let (held, values) = try await options.withClient { client in
                // Subscribed before the first read: a change between the two is not missed.
                let signals = try await client.signals()
                return try await withThrowingTaskGroup(of: (Bool, [String])?.self) { group in
                    group.addTask {
                        var values = try await condition.values(client)
                        if condition.holds(values) { return (true, condition.describe(values)) }
                        FileHandle.standardError.write(Data("waiting: \(condition.describe(values).joined(separator: ", "))\n".utf8))
                        for await _ in signals {
                            values = try await condition.values(client)
                            if condition.holds(values) { return (true, condition.describe(values)) }
                        }
                        return nil
                    }
                    group.addTask { [timeout] in
                        try await Task.sleep(for: .seconds(timeout))
                        return (false, condition.describe(try await condition.values(client)))
                    }
                    defer { group.cancelAll() }
                    // The watch ends only when the daemon goes: then the time-out answers.
                    while let result = try await group.next() {
                        if let result { return result }
                    }
                    throw ExitCode(1)
                }
            }
            guard held else {
                FileHandle.standardError.write(Data("traitctl wait: after \(timeout.compact) s, '\(until)' does not hold: \(values.joined(separator: ", "))\n".utf8))
                throw ExitCode(1)
            }
            print(values.joined(separator: ", "))
        }
    }
}

/// `OBJECT.PROPERTY OP VALUE [and ...]`, parsed once and checked against the daemon's state (`GetState`).
struct WaitCondition: Sendable {
    struct Term: Sendable {
        let object: String
        let property: String
        let op: String
        let value: String
        var text: String { "\(object).\(property) \(op) \(value)" }
    }

    struct Mistake: Error, CustomStringConvertible {
        let description: String
    }

    let terms: [Term]

    init(_ text: String) throws {
        var terms: [Term] = []
        for part in text.components(separatedBy: " and ") {
            let words = part.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard words.count == 3 else {
                throw Mistake(description: "expected OBJECT.PROPERTY OP VALUE (mail.horizontalSizeClass == compact), got '\(part.trimmingCharacters(in: .whitespaces))'")
            }
            guard ["==", "!=", "<", ">"].contains(words[1]) else {
                throw Mistake(description: "unknown comparison '\(words[1])' in '\(part)'; expected ==, !=, < or >")
            }
            let path = words[0].split(separator: ".", maxSplits: 1).map(String.init)
            guard path.count == 2, !path[1].isEmpty else {
                throw Mistake(description: "'\(words[0])' is not OBJECT.PROPERTY (display.Orientation, mail.State)")
            }
            terms.append(Term(object: path[0], property: path[1], op: words[1], value: words[2]))
        }
        self.terms = terms
    }

    /// Each term's value now (nil: no such window, or no such property of it).
    func values(_ client: TraitClient) async throws -> [String?] {
        let reply = try await client.connection.call(
            destination: TraitClient.busName, path: TraitClient.rootPath, interface: TraitClient.displayInterface, member: "GetState")
        let display = reply.count > 1 ? reply[1].dictionary ?? [:] : [:]
        var windows: [String: [String: DBusValue]] = [:]
        for item in reply.count > 2 ? reply[2].elements ?? [] : [] {
            guard let fields = item.elements, fields.count == 2, let path = fields[0].string, let app = Layout1.app(path: path) else { continue }
            windows[app] = fields[1].dictionary ?? [:]
        }
        return terms.map { term in
            let properties = term.object == "display" ? display : windows[term.object]
            guard let properties else { return nil }
            return Self.lookUp(term.property, in: properties, isDisplay: term.object == "display").flatMap { try? Get.text($0) }
        }
    }

    /// A property by its name (either case of its first letter), a setting's word, or a key of `Traits`.
    private static func lookUp(_ name: String, in properties: [String: DBusValue], isDisplay: Bool) -> DBusValue? {
        let capitalised = name.prefix(1).uppercased() + name.dropFirst()
        if let value = properties[name] ?? properties[capitalised] { return value }
        if isDisplay, let trait = DisplayTrait.withWord(name) { return properties[trait.property] }
        return properties["Traits"]?.unwrapped.dictionary?[name]
    }

    func holds(_ values: [String?]) -> Bool {
        zip(terms, values).allSatisfy { term, value in
            guard let value else { return term.op == "!=" }
            let numbers = (Double(value), Double(term.value))
            switch term.op {
            case "==": return numbers.0 != nil && numbers.1 != nil ? numbers.0 == numbers.1 : value == term.value
            case "!=": return numbers.0 != nil && numbers.1 != nil ? numbers.0 != numbers.1 : value != term.value
            case "<": return numbers.0 != nil && numbers.1 != nil && numbers.0! < numbers.1!
            default: return numbers.0 != nil && numbers.1 != nil && numbers.0! > numbers.1!
            }
        }
    }

    /// `mail.horizontalSizeClass is compact` for each term.
    func describe(_ values: [String?]) -> [String] {
        zip(terms, values).map { term, value in "\(term.object).\(term.property) is \(value ?? "absent")" }
    }
}
