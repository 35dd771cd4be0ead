import Vocabulary

/// A desktop app's accessibility snapshot (`AriaSnapshot`, the format pages have too), from the widgets it draws
/// (`DesktopApp.drawn`): AT-SPI's roles as ARIA's (`push button` and GTK 4's `button` are both `button`), the
/// states a snapshot writes from AT-SPI's (`checked`, `disabled` where neither enabled nor sensitive, `expanded`,
/// `pressed`, `selected`), text as text. What only arranges others (panels, fillers, scroll panes, GTK 4's
/// boxes, groups without a name) is left out and its children take its place, as a page's generic `<div>`s are;
/// a label that says its parent's name again is left out (a button's own label), and a name GTK 4 makes of a
/// class's (`GtkMenuButton`) is no name.
enum DesktopAria {
    /// The window's children as snapshot nodes.
    static func nodes(of window: AccessibleNode) -> [AriaNode] {
        window.children.flatMap(convert)
    }

    /// AT-SPI's role names (as GTK 3, GTK 4 and Qt give them) to ARIA's; a role not here arranges others and is
    /// left out.
    static let roles: [String: String] = [
        "push button": "button", "button": "button", "toggle button": "button",
        "check box": "checkbox", "radio button": "radio", "switch": "switch",
        "label": AriaNode.textRole, "static": AriaNode.textRole, "caption": AriaNode.textRole,
        "entry": "textbox", "password text": "textbox",
        "heading": "heading", "link": "link", "image": "img", "icon": "img",
        "page tab list": "tablist", "page tab": "tab", "menu bar": "menubar", "menu": "menu", "popup menu": "menu",
        "menu item": "menuitem", "check menu item": "menuitemcheckbox", "radio menu item": "menuitemradio",
        "combo box": "combobox", "spin button": "spinbutton", "slider": "slider", "scroll bar": "scrollbar",
        "separator": "separator", "tool bar": "toolbar", "status bar": "status", "dialog": "dialog",
        "alert": "alert", "list": "list", "list item": "listitem", "list box": "listbox", "table": "table",
        "table row": "row", "table cell": "cell", "table column header": "columnheader", "table row header": "rowheader",
        "tree": "tree", "tree table": "treegrid", "tree item": "treeitem", "progress bar": "progressbar",
        "level bar": "meter", "grouping": "group", "group": "group", "form": "form", "tool tip": "tooltip",
    ]

    /// GTK 4 names a widget that has no name after its class (`GtkMenuButton`, `AdwSqueezer`): no name a person
    /// is told.
    static func isClassName(_ name: String) -> Bool {
        (name.hasPrefix("Gtk") || name.hasPrefix("Adw")) && name.count > 3 && name.allSatisfy { $0.isASCII && $0.isLetter }
            && name.dropFirst(3).first?.isUppercase == true
    }

    private static func convert(_ node: AccessibleNode) -> [AriaNode] {
        let children = node.children.flatMap(convert)
        // Text is a label or a field no one types into (GTK 3 calls both `text`).
        let role = node.role == "text" ? (node.editable ? "textbox" : AriaNode.textRole) : roles[node.role]
        guard let role else { return children }
        let name = isClassName(node.name) ? "" : AriaSnapshot.normalised(node.name)
        // GTK 4 makes every box a group: a group without a name only arranges its children.
        if role == "group", name.isEmpty { return children }
        if role == AriaNode.textRole {
            return name.isEmpty ? children : [AriaNode(role: role, name: name)]
        }
        var attributes: [String] = []
        if node.has(.checked), ["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"].contains(role) {
            attributes.append("checked")
        }
        if !node.has(.enabled) && !node.has(.sensitive) { attributes.append("disabled") }
        if node.has(.expanded) { attributes.append("expanded") }
        if role == "button", node.has(.pressed) || (node.role == "toggle button" && node.has(.checked)) { attributes.append("pressed") }
        if node.has(.selected), ["tab", "listitem", "row", "cell", "treeitem", "option"].contains(role) { attributes.append("selected") }
        // A button's own label says its name again.
        let kept = children.filter { !($0.role == AriaNode.textRole && $0.name == name && $0.children.isEmpty) }
        return [AriaNode(role: role, name: name, attributes: attributes, children: kept)]
    }
}
