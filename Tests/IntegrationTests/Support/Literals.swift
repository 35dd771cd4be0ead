import TraitClient

// Test-only sugar: the model's values written as the bus writes them, so that assertions read like the
// contract (`state.orientation == "portrait"`, `window.frame == [0, 0, 694, 768]`). A literal that is not a
// valid value stops the test at once, naming it. The client's API itself takes and returns only typed values.

extension Orientation: ExpressibleByStringLiteral {
    public init(stringLiteral name: String) { self = literal(name) }
}

extension Arrangement: ExpressibleByStringLiteral {
    public init(stringLiteral name: String) { self = literal(name) }
}

extension Role: ExpressibleByStringLiteral {
    public init(stringLiteral name: String) { self = literal(name) }
}

extension AppState: ExpressibleByStringLiteral {
    public init(stringLiteral name: String) { self = literal(name) }
}

extension SizeClass: ExpressibleByStringLiteral {
    public init(stringLiteral name: String) { self = literal(name) }
}

/// x, y, width, height.
extension Rect: ExpressibleByArrayLiteral {
    public init(arrayLiteral values: Double...) {
        precondition(values.count == 4, "a Rect literal has 4 numbers: x, y, width, height; not \(values)")
        self.init(x: values[0], y: values[1], width: values[2], height: values[3])
    }
}

/// top, left, bottom, right.
extension EdgeInsets: ExpressibleByArrayLiteral {
    public init(arrayLiteral values: Double...) {
        precondition(values.count == 4, "an EdgeInsets literal has 4 numbers: top, left, bottom, right; not \(values)")
        self.init(top: values[0], left: values[1], bottom: values[2], right: values[3])
    }
}

/// width, height.
extension Size: ExpressibleByArrayLiteral {
    public init(arrayLiteral values: Double...) {
        precondition(values.count == 2, "a Size literal has 2 numbers: width, height; not \(values)")
        self.init(width: values[0], height: values[1])
    }
}

private func literal<Value: RawRepresentable<String> & CaseIterable>(_ name: String) -> Value {
    guard let value = Value(rawValue: name) else {
        preconditionFailure("'\(name)' is not a \(Value.self): \(Value.allCases.map(\.rawValue))")
    }
    return value
}
