import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The Qt platform theme the desktop bridge gives a Qt app so that it follows the display's settings as GTK apps
/// do through XSETTINGS: Debian's `qt5ct` for Qt 5 and `qt6ct` for Qt 6 (`QT_QPA_PLATFORMTHEME`), by the Qt the
/// app's executable links, where the theme's plugin is installed. Qt takes one theme name, and a Qt 6 app given
/// `qt5ct` finds no such plugin, so the name is chosen per app; an app started through a script is not looked
/// into and keeps Qt's defaults. The theme reads `XDG_CONFIG_HOME/qtNct/qtNct.conf` (`ToolkitSettings.qtConfiguration`):
/// - text size: the general and fixed fonts at Qt's default 9 pt times the text's scale (Qt's DPI stays pinned at
///   96, `DesktopSession.environment`: a KDE app scales its whole window by its DPI);
/// - dark: the theme's own `darker` colour scheme; contrast is not followed (neither theme has a high-contrast
///   scheme);
/// - Qt's own style (Fusion) and the icon theme GTK apps draw with (Adwaita).
/// The theme re-reads its file when its folder changes, after a timer of its own (3 s in qt5ct's source), so after
/// a change the bridge waits for the app to open the file (`ConfigReadWatch`), then for its layout to settle.
struct QtTheme: Sendable, Equatable {
    /// `qt5ct` or `qt6ct`: the plugin's key, its configuration folder and file's name.
    let name: String
    /// Qt's major version, as in the library the executable links (`libQt5Core.so`).
    let major: Int

    static let qt5 = QtTheme(name: "qt5ct", major: 5)
    static let qt6 = QtTheme(name: "qt6ct", major: 6)

    /// The folder under `XDG_CONFIG_HOME` and the file the theme reads.
    var folder: String { name }
    var file: String { "\(name).conf" }
    /// The theme's colour schemes (Debian's paths).
    var colourSchemes: String { "/usr/share/\(name)/colors" }

    /// Whether the theme's plugin is installed for Qt `major` (in any multiarch folder).
    var isInstalled: Bool {
        let libraries = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []
        return libraries.contains {
            FileManager.default.fileExists(atPath: "/usr/lib/\($0)/qt\(major)/plugins/platformthemes/lib\(name).so")
        }
    }

    /// The theme for the Qt `command` links (its executable found on `PATH`, read for the name of Qt's core
    /// library in its dynamic section), where that theme is installed; nil for any other program.
    static func forCommand(_ command: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> QtTheme? {
        guard let executable = locate(command, path: path) else { return nil }
        let fd = open(executable, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // The dynamic string table lies near the start of the file; 64 MiB bounds the read of any executable.
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while bytes.count < 64 << 20 {
            let count = read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        let links = { (library: String) in bytes.firstRange(of: Array(library.utf8)) != nil }
        let theme = links("libQt6Core.so") ? qt6 : links("libQt5Core.so") ? qt5 : nil
        return theme.flatMap { $0.isInstalled ? $0 : nil }
    }

    /// `command` as `execvp` would find it: a path as it is, a name in the first folder of `path` that has it.
    static func locate(_ command: String, path: String?) -> String? {
        if command.contains("/") { return command }
        for folder in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(command)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
