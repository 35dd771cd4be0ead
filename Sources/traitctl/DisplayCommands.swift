import Foundation
import ArgumentParser
import TraitConfig
import TraitClient
import DBus

// The commands that change the display: set, open, close (each can wait for the transitions it starts), and
// devices.

struct SetCommand: AsyncParsableCommand {
    /// The property a word `set` (and `get`) takes names.
    static func property(of word: SetWord) -> String {
        switch word {
        case .device: Layout1.Display.device.name
        case .orientation: Layout1.Display.orientation.name
        case .arrangement: Layout1.Display.arrangement.name
        case .windowing: Layout1.Display.windowing.name
        case .keyboard: Layout1.Display.keyboard.name
        case .setting(let trait): trait.property
        }
    }
    /// The words `set` takes: the display's commands', then every display-wide setting's (`SetWord.all`).
    static let properties = SetWord.all.map(\.word)

    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change the device, the orientation, the arrangement, the windowing mode, the keyboard or a display-wide setting.",
        discussion: """
            Examples: traitctl set device ipad-pro-12.9; traitctl set orientation portrait; \
            traitctl set arrangement split-half --wait; traitctl set windowing stage-manager; \
            traitctl set keyboard docked (hidden, undocked, split, floating, hardware); \
            traitctl set appearance dark; \
            traitctl set content-size accessibility-large (or increment, decrement); \
            traitctl set direction right-to-left; traitctl set contrast high; traitctl set legibility bold; \
            traitctl set reduce-motion on. A setting with no value prints its current one, as simctl ui does.
            """)
    @OptionGroup var options: BusOptions
    @Argument(help: "device, orientation, arrangement, windowing, keyboard, \(DisplayTrait.wordList).",
              completion: .list(SetCommand.properties))
    var property: String
    @Argument(help: "The new value (a setting without one prints its current value).",
              completion: .custom(Completions.setValue))
    var value: String?
    @OptionGroup var wait: WaitOptions

    func validate() throws {
        guard Self.properties.contains(property) else {
            throw ValidationError("unknown property '\(property)'; expected one of: \(Self.properties.joined(separator: ", "))")
        }
        if value == nil, DisplayTrait.withWord(property) == nil {
            throw ValidationError("set \(property) needs a value")
        }
    }

    func run() async throws {
        try await reportingFailures {
            try await options.withClient { client in
                let word = SetWord(word: property)!  // validate() checked it
                if case .setting(let trait) = word {
                    return try await setTrait(trait, client)
                }
                let value = value!
                try await wait.around(client) {
                    switch word {
                    case .device: try await client.setDevice(value)
                    case .orientation: try await client.rotate(to: Layout1.Display.rotate.input([.string(value)]))
                    case .arrangement: try await client.setArrangement(Layout1.Display.setArrangement.input([.string(value)]))
                    case .windowing: try await client.setWindowing(Layout1.Display.setWindowing.input([.string(value)]))
                    case .keyboard: try await client.setKeyboard(Layout1.Display.setKeyboard.input([.string(value)]))
                    case .setting: []
                    }
                }
            }
        }
    }

    /// `set appearance dark`; `set content-size increment|decrement` from the current size; `set appearance`
    /// alone prints the current value.
    private func setTrait(_ trait: DisplayTrait, _ client: TraitClient) async throws {
        let current = try await Layout1.Display.trait(trait).value.decode(client.rawProperty(trait.property))
        guard let typed = value else { return print(current) }
        var next: String
        if trait.isOrdered, typed == "increment" || typed == "decrement" {
            let index = trait.values.firstIndex(of: current) ?? 0
            next = trait.values[typed == "increment" ? min(index + 1, trait.values.count - 1) : max(index - 1, 0)]
        } else if let known = trait.value(typed: typed) {
            next = known
        } else {
            let extra = trait.isOrdered ? ", increment, decrement" : trait.isFlag ? " (or true, false)" : ""
            throw DBusError.invalidArgs("unknown \(trait.word) '\(typed)'; expected one of: \(trait.valueList)\(extra)")
        }
        try await wait.around(client) { try await client.setTraits([trait: next]) }
    }
}

struct Open: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open an app in a role; prints its window's object path.")
    @OptionGroup var options: BusOptions
    @Argument(help: "The app name: 1-64 of A-Z a-z 0-9 _ -.") var app: String
    @Option(help: "primary, secondary, slide-over or pip; window in stage-manager and windowed.",
            completion: .list(Completions.roles))
    var role: String = "secondary"
    @OptionGroup var wait: WaitOptions

    func run() async throws {
        try await reportingFailures {
            try await options.withClient { client in
                // Checked here as the daemon checks them, with its messages, before anything is sent.
                let (app, role) = try Layout1.Display.openApp.input([.string(app), .string(role)])
                try await wait.around(client) {
                    let opened = try await client.openApp(app, role: role)
                    print(opened.window)
                    return opened.transitions
                }
            }
        }
    }
}

struct Close: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Close an app.")
    @OptionGroup var options: BusOptions
    @Argument(help: "The app name.") var app: String
    @OptionGroup var wait: WaitOptions

    func run() async throws {
        try await reportingFailures {
            try await options.withClient { client in try await wait.around(client) { try await client.closeApp(app) } }
        }
    }
}

struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the device profiles: traitctl's catalog, or with --daemon the running daemon's.",
        discussion: """
            Without --daemon no daemon is needed: the catalog traitctl loads itself, the built-in profiles and \
            those in ~/.config/traitd/devices. --daemon asks the daemon on --bus (ListDevices: also the profiles \
            of its config's device-directories), and says so on stderr. --json describes each profile (DeviceJSON: \
            names, screen, scale, idiom, gamut, confidence, orientations, windowing, the keyboard, and per \
            orientation the widths, arrangements and safe area); a profile the daemon lists that traitctl's \
            catalog lacks is named on stderr.
            """)
    @OptionGroup var options: BusOptions
    @Flag(help: "Describe every profile as JSON (an array, sorted by id).") var json = false
    @Flag(help: "Ask the running daemon (ListDevices) instead of reading the catalog.") var daemon = false

    func run() async throws {
        try await reportingFailures {
            let catalog = try ProfileLoader.catalog(directories: [DaemonConfig.userDeviceDirectory])
            var ids = catalog.ids
            if daemon {
                ids = try await options.withClient { try await $0.listDevices() }
                FileHandle.standardError.write(Data("traitctl: the profiles of the daemon on the \(options.bus) bus\n".utf8))
            }
            guard json else { return ids.forEach { print($0) } }
            let unknown = ids.filter { catalog.profiles[$0] == nil }
            if !unknown.isEmpty {
                FileHandle.standardError.write(Data("traitctl: not described (not in traitctl's catalog): \(unknown.joined(separator: ", "))\n".utf8))
            }
            print(try jsonText(ids.compactMap { catalog.profiles[$0] }.map(DeviceJSON.init)))
        }
    }
}
