/// A UIKit size class: how much room a window has along one axis, in broad terms.
public enum SizeClass: String, Sendable, CaseIterable, Codable {
    case compact
    case regular
}

/// The kind of device the traits describe (`UIUserInterfaceIdiom`).
public enum Idiom: String, Sendable, CaseIterable, Codable {
    case pad
    case phone
}
