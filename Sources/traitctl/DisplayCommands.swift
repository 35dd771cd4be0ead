import ArgumentParser
import TraitClient

// The commands that change the display: set, open, close (each can wait for the transitions it starts), and
// devices.

struct SetCommand: AsyncParsableCommand {
    enum Property: String, ExpressibleByArgument, CaseIterable {
        case device, orientation, arrangement
    }

    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change the device, the orientation or the arrangement.",
        discussion: """
            Examples: traitctl set device ipad-pro-12.9; traitctl set orientation portrait; \
            traitctl set arrangement split-half --wait
            """)
    @OptionGroup var options: BusOptions
    @Argument(help: "device, orientation or arrangement.") var property: Property
    @Argument(help: "The new value.", completion: .custom(Completions.setValue)) var value: String
    @OptionGroup var wait: WaitOptions

    func run() async throws {
        try await reportingFailures {
            try await options.withClient { client in
                try await wait.around(client) {
                    switch property {
                    case .device: try await client.setDevice(value)
                    case .orientation: try await client.rotate(to: Layout1.Display.rotate.input([.string(value)]))
                    case .arrangement: try await client.setArrangement(Layout1.Display.setArrangement.input([.string(value)]))
                    }
                }
            }
        }
    }
}

struct Open: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Open an app in a role; prints its window's object path.")
    @OptionGroup var options: BusOptions
    @Argument(help: "The app name: 1-64 of A-Z a-z 0-9 _ -.") var app: String
    @Option(help: "primary, secondary, slide-over or pip.", completion: .list(Completions.roles))
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
    static let configuration = CommandConfiguration(abstract: "List the device profiles the daemon knows.")
    @OptionGroup var options: BusOptions

    func run() async throws {
        try await reportingFailures {
            for id in try await options.withClient({ try await $0.listDevices() }) { print(id) }
        }
    }
}
