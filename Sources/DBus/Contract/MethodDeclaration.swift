/// A method of an interface, declared once with its typed arguments, its outputs and its documentation.
///
/// The server binds a handler to it (`bind`): the handler gets the arguments already decoded, as `Input`,
/// and returns `Output`; a client calls it (`arguments(_:)` to send, `reply(_:)` to read the answer
/// strictly). The introspection XML comes from `description`.
///
///     static let rotate = Declare.method("Rotate", .orientation("orientation"), doc: "Rotates the display.")
///     Display.rotate.bind { call, orientation in try run(.rotate(orientation), call) }
public struct MethodDeclaration<Input: Sendable, Output: Sendable>: Sendable {
    public let description: InterfaceDescription.Method
    private let decodeInput: @Sendable ([DBusValue]) throws -> Input
    private let encodeInput: @Sendable (Input) -> [DBusValue]
    private let decodeOutput: @Sendable ([DBusValue]) throws -> Output
    private let encodeOutput: @Sendable (Output) -> [DBusValue]

    init(
        _ description: InterfaceDescription.Method,
        decodeInput: @escaping @Sendable ([DBusValue]) throws -> Input,
        encodeInput: @escaping @Sendable (Input) -> [DBusValue],
        decodeOutput: @escaping @Sendable ([DBusValue]) throws -> Output,
        encodeOutput: @escaping @Sendable (Output) -> [DBusValue]
    ) {
        self.description = description
        self.decodeInput = decodeInput
        self.encodeInput = encodeInput
        self.decodeOutput = decodeOutput
        self.encodeOutput = encodeOutput
    }

    public var name: String { description.name }

    /// The server side: `handler` answers calls of this method with their arguments decoded.
    public func bind(_ handler: @escaping (ObjectServer.MethodCall, Input) throws -> Output) -> ObjectServer.Method {
        ObjectServer.Method(name) { [decodeInput, encodeOutput] call in
            encodeOutput(try handler(call, try decodeInput(call.arguments)))
        }
    }

    /// The server side: the reply's values for `output`, for a handler that sends its reply later
    /// (`ObjectServer.MethodCall.deferReply()`).
    public func outputValues(_ output: Output) -> [DBusValue] { encodeOutput(output) }

    /// The arguments of a call decoded and checked as the server does, with the server's refusals: a client can
    /// check what a person typed before it calls (`traitctl set orientation sideways`).
    public func input(_ arguments: [DBusValue]) throws -> Input {
        let got = arguments.signature
        guard got == description.inputSignature else {
            throw DBusError.invalidArgs("\(name) takes '\(description.inputSignature)', not '\(got)'")
        }
        return try decodeInput(arguments)
    }

    /// The client side: the call's arguments.
    public func arguments(_ input: Input) -> [DBusValue] { encodeInput(input) }

    /// The client side: the reply, decoded; a reply of another shape throws, naming what it got.
    public func reply(_ values: [DBusValue]) throws -> Output {
        guard values.hasSignature(description.outputSignature) else {
            throw DBusError.invalidArgs("\(name) replied '\(values.signature)'; expected '\(description.outputSignature)'")
        }
        return try DBusError.inContext("\(name) replied") { try decodeOutput(values) }
    }

    /// Adds one output.
    public func returning<R>(_ r: Parameter<R>) -> MethodDeclaration<Input, R> where Output == Void {
        MethodDeclaration<Input, R>(
            description.adding(outputs: [r.argument]), decodeInput: decodeInput, encodeInput: encodeInput,
            decodeOutput: { try r.decode($0[0]) }, encodeOutput: { [r.encode($0)] })
    }

    /// Adds two outputs.
    public func returning<R, S>(_ r: Parameter<R>, _ s: Parameter<S>) -> MethodDeclaration<Input, (R, S)>
    where Output == Void {
        MethodDeclaration<Input, (R, S)>(
            description.adding(outputs: [r.argument, s.argument]), decodeInput: decodeInput, encodeInput: encodeInput,
            decodeOutput: { (try r.decode($0[0]), try s.decode($0[1])) },
            encodeOutput: { [r.encode($0.0), s.encode($0.1)] })
    }

    /// Adds three outputs.
    public func returning<R, S, T>(_ r: Parameter<R>, _ s: Parameter<S>, _ t: Parameter<T>)
        -> MethodDeclaration<Input, (R, S, T)> where Output == Void
    {
        MethodDeclaration<Input, (R, S, T)>(
            description.adding(outputs: [r.argument, s.argument, t.argument]), decodeInput: decodeInput,
            encodeInput: encodeInput,
            decodeOutput: { (try r.decode($0[0]), try s.decode($0[1]), try t.decode($0[2])) },
            encodeOutput: { [r.encode($0.0), s.encode($0.1), t.encode($0.2)] })
    }
}

/// Builds declarations: `Declare.method(...)`, `Declare.signal(...)`, `Declare.property(...)`.
public enum Declare {
    public static func method(_ name: String, doc: String) -> MethodDeclaration<Void, Void> {
        MethodDeclaration(
            .init(name, doc: doc), decodeInput: { _ in () }, encodeInput: { _ in [] }, decodeOutput: { _ in () },
            encodeOutput: { _ in [] })
    }

    public static func method<A>(_ name: String, _ a: Parameter<A>, doc: String) -> MethodDeclaration<A, Void> {
        MethodDeclaration(
            .init(name, in: [a.argument], doc: doc), decodeInput: { try a.decode($0[0]) }, encodeInput: { [a.encode($0)] },
            decodeOutput: { _ in () }, encodeOutput: { _ in [] })
    }

    public static func method<A, B>(_ name: String, _ a: Parameter<A>, _ b: Parameter<B>, doc: String)
        -> MethodDeclaration<(A, B), Void>
    {
        MethodDeclaration(
            .init(name, in: [a.argument, b.argument], doc: doc),
            decodeInput: { (try a.decode($0[0]), try b.decode($0[1])) },
            encodeInput: { [a.encode($0.0), b.encode($0.1)] }, decodeOutput: { _ in () }, encodeOutput: { _ in [] })
    }

    public static func method<A, B, C, D>(
        _ name: String, _ a: Parameter<A>, _ b: Parameter<B>, _ c: Parameter<C>, _ d: Parameter<D>, doc: String
    ) -> MethodDeclaration<(A, B, C, D), Void> {
        MethodDeclaration(
            .init(name, in: [a.argument, b.argument, c.argument, d.argument], doc: doc),
            decodeInput: { (try a.decode($0[0]), try b.decode($0[1]), try c.decode($0[2]), try d.decode($0[3])) },
            encodeInput: { [a.encode($0.0), b.encode($0.1), c.encode($0.2), d.encode($0.3)] },
            decodeOutput: { _ in () }, encodeOutput: { _ in [] })
    }
}

extension InterfaceDescription.Method {
    fileprivate func adding(outputs more: [InterfaceDescription.Argument]) -> Self {
        Self(name, in: inputs, out: outputs + more, doc: doc)
    }
}
