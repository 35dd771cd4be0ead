import Vocabulary

/// The unmodified programs the adapter host's bridges put in apps' windows: web pages (in headless Chromium, as
/// adapter `web`) and desktop apps (on the host's own display, as adapter `desktop`). They come from the
/// configuration's `bridges:` section and from the host's options, which replace the file's for the same app:
///
///     bridges:
///       web: { mail: "file:///home/me/inbox.html" }   # as --web mail=file:///home/me/inbox.html
///       apps: { notes: gnome-calculator }             # as --app notes=gnome-calculator
///
/// A command is split into words as a shell would, without a shell (`ShellWords`), or given as a list of
/// words. The daemon, which runs no bridge, checks only the section's shape.
public struct BridgeSetup: Sendable, Equatable {
    /// A page as app `app`'s adapter `web`.
    public struct WebPage: Sendable, Equatable {
        public var app: String
        public var url: String

        public init(app: String, url: String) {
            self.app = app
            self.url = url
        }
    }

    /// A program as app `app`'s adapter `desktop`.
    public struct DesktopApp: Sendable, Equatable {
        public var app: String
        public var command: [String]

        public init(app: String, command: [String]) {
            self.app = app
            self.command = command
        }
    }

    /// In the order of their apps' names.
    public var web: [WebPage]
    public var apps: [DesktopApp]

    public init(web: [WebPage] = [], apps: [DesktopApp] = []) {
        self.web = web.sorted { $0.app < $1.app }
        self.apps = apps.sorted { $0.app < $1.app }
    }

    public var isEmpty: Bool { web.isEmpty && apps.isEmpty }

    /// This setup with `other`'s pages and programs replacing its own for the same apps (the command line's
    /// over the file's).
    public func laidOver(by other: BridgeSetup) -> BridgeSetup {
        BridgeSetup(web: web.filter { page in !other.web.contains { $0.app == page.app } } + other.web,
                    apps: apps.filter { app in !other.apps.contains { $0.app == app.app } } + other.apps)
    }

    /// Whether `url` is a page under test: a file, or a server on this machine. A bridge never opens the web.
    ///
    /// The URL is parsed, not matched by its start: `http://localhost:@127.0.0.2:8000/` starts like a local
    /// page, but its host is 127.0.0.2 (`localhost:` is a user name), and a browser fetched it. Only a
    /// `file:///` path, or `http://` with no user part and a host that is exactly `localhost`, `127.0.0.1` or
    /// `[::1]` (any case) and at most a numeric port, passes; so does nothing a browser would read otherwise
    /// (a backslash, which it takes for a slash; a tab or a line break, which it drops; any control character).
    public static func isLocalPage(_ url: String) -> Bool {
        guard url.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7f && $0 != "\\" }) else { return false }
        if url.hasPrefix("file:///") { return true }
        guard url.prefix(7).lowercased() == "http://" else { return false }
        let authority = url.dropFirst(7).prefix { !"/?#".contains($0) }.lowercased()
        guard !authority.contains("@") else { return false }
        let host: Substring, port: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            host = authority[...close]
            port = authority[authority.index(after: close)...]
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            port = authority[colon...]
        } else {
            host = authority[...]
            port = ""
        }
        guard ["localhost", "127.0.0.1", "[::1]"].contains(host) else { return false }
        if port.isEmpty { return true }
        let digits = port.dropFirst()
        guard port.first == ":", digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), digits.count <= 5 else { return false }
        return digits.isEmpty || Int(digits)! <= 65535
    }

    /// What `isLocalPage` asks, in words.
    public static let localPageRule = "a file:// or http://localhost page (a page under test, not the web)"
}

extension BridgeSetup {
    /// Parses `bridges:`; its pages and programs replace `base`'s for the same apps.
    static func parse(_ node: Node, _ reader: YAMLReader, base: BridgeSetup) throws -> BridgeSetup {
        let sections = try reader.mapping(node, what: "the bridges", allowed: ["web", "apps"])
        var web: [WebPage] = []
        var apps: [DesktopApp] = []
        if let section = sections["web"] {
            for (app, value, key) in try reader.entries(section, what: "the web pages (app: URL)", allowed: nil) {
                guard AppName.isValid(app) else { throw reader.fail(key, "'\(app)' is not a valid app name: use \(AppName.rule)") }
                let url = try reader.string(value, what: "\(app)'s page, a URL")
                guard isLocalPage(url) else { throw reader.fail(value, "\(app)'s page \(url): the URL must be \(localPageRule)") }
                web.append(WebPage(app: app, url: url))
            }
        }
        if let section = sections["apps"] {
            for (app, value, key) in try reader.entries(section, what: "the desktop apps (app: command)", allowed: nil) {
                guard AppName.isValid(app) else { throw reader.fail(key, "'\(app)' is not a valid app name: use \(AppName.rule)") }
                let words: [String]
                if case .sequence = value {
                    words = try reader.sequence(value, what: "\(app)'s command, as words").map { try reader.string($0, what: "a word") }
                } else {
                    let line = try reader.string(value, what: "\(app)'s command")
                    do {
                        words = try ShellWords.split(line)
                    } catch {
                        throw reader.fail(value, "\(app)'s command: \(error)")
                    }
                }
                guard !words.isEmpty else { throw reader.fail(value, "\(app)'s command has no words") }
                apps.append(DesktopApp(app: app, command: words))
            }
        }
        return base.laidOver(by: BridgeSetup(web: web, apps: apps))
    }
}
