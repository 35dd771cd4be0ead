import ArgumentParser
import TraitClient
import DBus

// The commands of a free-form window (Stage Manager, windowed apps): frame, resize, tile, raise. Each can wait
// for the transitions it starts; the display must be in stage-manager or windowed windowing
// (`traitctl set windowing stage-manager`).

struct Frame: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Move and size an app's free-form window.",
        discussion: "Example: traitctl frame mail 0 0 700 600 --wait. Points, from the screen's top-left corner.")
    @OptionGroup var options: BusOptions
    @Argument(help: "The app name.") var app: String
    @Argument(help: "x, y, width and height in points.") var numbers: [Double]
    @OptionGroup var wait: WaitOptions

    func validate() throws {
        guard numbers.count == 4 else { throw ValidationError("frame takes X Y WIDTH HEIGHT; got \(numbers.count) number(s)") }
    }

    func run() async throws {
        let frame = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        try await reportingFailures {
            try await options.withClient { client in try await wait.around(client) { try await client.setFrame(frame, of: app) } }
        }
    }
}

struct Resize: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Resize an app's free-form window, at once or live.",
        discussion: """
            The top-left corner stays. With --live STEPS it is a live resize as a finger makes it: BeginResize, \
            STEPS ResizeTo from the current size to WIDTH x HEIGHT, EndResize (a step that comes while the \
            window's transition is open waits, and only the latest waiting one is applied). Example: \
            traitctl resize mail 500 600 --live 20 --wait.
            """)
    @OptionGroup var options: BusOptions
    @Argument(help: "The app name.") var app: String
    @Argument(help: "The new width in points.") var width: Double
    @Argument(help: "The new height in points.") var height: Double
    @Option(help: ArgumentHelp("Resize live in this many steps.", valueName: "steps")) var live: Int?
    @OptionGroup var wait: WaitOptions

    func validate() throws {
        if let live, !(1...10_000).contains(live) { throw ValidationError("--live takes 1 to 10000 steps; got \(live)") }
    }

    func run() async throws {
        try await reportingFailures {
            try await options.withClient { client in
                try await wait.around(client) {
                    let frame = try await client.property(Layout1.Window.frame, of: app)
                    guard let steps = live else {
                        return try await client.setFrame(Rect(x: frame.x, y: frame.y, width: width, height: height), of: app)
                    }
                    var started = try await client.beginResize(app)
                    for step in 1...steps {
                        let t = Double(step) / Double(steps)
                        let size = Size(width: (frame.width + (width - frame.width) * t).rounded(),
                                        height: (frame.height + (height - frame.height) * t).rounded())
                        started += try await client.resize(app, to: size)
                    }
                    started += try await client.endResize(app)
                    return started
                }
            }
        }
    }
}

struct Tile: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Put an app's free-form window in a tile: \(TilePosition.names).")
    @OptionGroup var options: BusOptions
    @Argument(help: "The app name.") var app: String
    @Argument(help: "\(TilePosition.names).", completion: .list(TilePosition.allCases.map(\.rawValue)))
    var position: String
    @OptionGroup var wait: WaitOptions

    func run() async throws {
        try await reportingFailures {
            let position = try Layout1.Window.tile.input([.string(position)])
            try await options.withClient { client in try await wait.around(client) { try await client.tile(app, position) } }
        }
    }
}

struct Raise: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Bring an app's free-form window to the front.")
    @OptionGroup var options: BusOptions
    @Argument(help: "The app name.") var app: String
    @OptionGroup var wait: WaitOptions

    func run() async throws {
        try await reportingFailures {
            try await options.withClient { client in try await wait.around(client) { try await client.raise(app) } }
        }
    }
}

struct DisplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "display",
        abstract: "Connect, disconnect and list external displays; move a free-form window to one.",
        subcommands: [Connect.self, Disconnect.self, List.self, Move.self])

    struct Connect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Plug in an external monitor; prints its id (external-1).",
            discussion: "external-1080p (1920 x 1080 at 1x), external-1440p (2560 x 1440 at 2x), external-4k (3840 x 2160 at 2x).")
        @OptionGroup var options: BusOptions
        @Argument(help: "external-1080p, external-1440p or external-4k.",
                  completion: .list(["external-1080p", "external-1440p", "external-4k"]))
        var profile: String

        func run() async throws {
            try await reportingFailures { print(try await options.withClient { try await $0.connectDisplay(profile) }) }
        }
    }

    struct Disconnect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unplug an external monitor: its windows come back.")
        @OptionGroup var options: BusOptions
        @Argument(help: "The display's id (traitctl display list).") var id: String
        @OptionGroup var wait: WaitOptions

        func run() async throws {
            try await reportingFailures {
                try await options.withClient { client in try await wait.around(client) { try await client.disconnectDisplay(id) } }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The screens: the device's, then each external display with its profile, size and windows.")
        @OptionGroup var options: BusOptions

        func run() async throws {
            try await reportingFailures {
                try await options.withClient { client in
                    let state = try await client.state()
                    for (id, size, scale, profile) in try await DisplayList.screens(state, client) {
                        let windows = state.windowsBackToFront.reversed().filter { $0.display == id }.map(\.app)
                        print("\(id)  \(profile)  \(size.width.compact) x \(size.height.compact) pt @\(scale.compact)x  "
                              + (windows.isEmpty ? "no windows" : windows.joined(separator: ", ")))
                    }
                }
            }
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move an app's free-form window to a display (device or an id).")
        @OptionGroup var options: BusOptions
        @Argument(help: "The app name.") var app: String
        @Argument(help: "device, or an external display's id.") var display: String
        @OptionGroup var wait: WaitOptions

        func run() async throws {
            try await reportingFailures {
                try await options.withClient { client in try await wait.around(client) { try await client.move(app, toDisplay: display) } }
            }
        }
    }
}

/// Every screen of the display: the device's own, then the external displays (read from their objects).
enum DisplayList {
    static func screens(_ state: DisplaySnapshot, _ client: TraitClient) async throws
        -> [(id: String, size: Size, scale: Double, profile: String)]
    {
        typealias E = Layout1.ExternalDisplay
        var screens = [(id: "device", size: state.screenSize, scale: state.scale, profile: state.device)]
        for id in state.displays {
            let path = Layout1.externalDisplayPath(id)
            let interface = Layout1.externalDisplayInterface
            screens.append((
                id, try E.screenSize.value.decode(await client.rawProperty(E.screenSize.name, path: path, interface: interface)),
                try E.scale.value.decode(await client.rawProperty(E.scale.name, path: path, interface: interface)),
                try E.profile.value.decode(await client.rawProperty(E.profile.name, path: path, interface: interface))))
        }
        return screens
    }
}
