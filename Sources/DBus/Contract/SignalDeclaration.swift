/// A signal of an interface, declared once with its typed arguments and its documentation: the server
/// emits it (`Connection.emit(path:interface:_:_:)` writes the arguments' bytes through their parameters;
/// `arguments(_:)` gives them as values), a client reads it strictly with `decode(_:)`.
public struct SignalDeclaration<Arguments: Sendable>: Sendable {
    public let description: InterfaceDescription.Signal
    private let encoder: @Sendable (Arguments) -> [DBusValue]
    private let decoder: @Sendable ([DBusValue]) throws -> Arguments
    /// Writes the arguments as the body whose signature is `description.signature`.
    let write: @Sendable (Arguments, inout WireWriter) -> Void
    /// The body's signature (`description.signature`, kept: that one is built at each call) and the
    /// containers its types nest (`MessageBody.declaredDepth`).
    let signature: String
    let declaredDepth: Int

    public var name: String { description.name }

    public func arguments(_ values: Arguments) -> [DBusValue] { encoder(values) }

    /// The signal's arguments, decoded; arguments of another shape throw, naming what came.
    public func decode(_ values: [DBusValue]) throws -> Arguments {
        guard values.hasSignature(signature) else {
            throw DBusError.invalidArgs("\(name) carried '\(values.signature)'; expected '\(signature)'")
        }
        return try DBusError.inContext(name) { try decoder(values) }
    }

    /// The signature is checked here, once: a signal's bytes are written under it without another look.
    @usableFromInline
    init(
        _ description: InterfaceDescription.Signal, encode: @escaping @Sendable (Arguments) -> [DBusValue],
        decode: @escaping @Sendable ([DBusValue]) throws -> Arguments,
        write: @escaping @Sendable (Arguments, inout WireWriter) -> Void
    ) {
        signature = description.signature
        precondition(signature.isEmpty || SignatureRules.isValid(signature),
                     "the signal \(description.name)'s signature '\(signature)' is not valid")
        self.description = description
        encoder = encode
        decoder = decode
        self.write = write
        declaredDepth = DBusValue.depth(ofSignature: signature)
    }
}

extension Declare {
    @inlinable  // its closures are specialised where the signal is declared
    public static func signal(_ name: String, doc: String) -> SignalDeclaration<Void> {
        SignalDeclaration(.init(name, doc: doc), encode: { _ in [] }, decode: { _ in () }, write: { _, _ in })
    }

    @inlinable  // its closures are specialised where the signal is declared
    public static func signal<A>(_ name: String, _ a: Parameter<A>, doc: String) -> SignalDeclaration<A> {
        SignalDeclaration(.init(name, [a.argument], doc: doc), encode: { [a.encode($0)] }, decode: { try a.decode($0[0]) },
                          write: { a.writer($0, &$1) })
    }

    @inlinable  // its closures are specialised where the signal is declared
    public static func signal<A, B>(_ name: String, _ a: Parameter<A>, _ b: Parameter<B>, doc: String)
        -> SignalDeclaration<(A, B)>
    {
        SignalDeclaration(
            .init(name, [a.argument, b.argument], doc: doc), encode: { [a.encode($0.0), b.encode($0.1)] },
            decode: { (try a.decode($0[0]), try b.decode($0[1])) },
            write: { a.writer($0.0, &$1); b.writer($0.1, &$1) })
    }

    @inlinable  // its closures are specialised where the signal is declared
    public static func signal<A, B, C>(
        _ name: String, _ a: Parameter<A>, _ b: Parameter<B>, _ c: Parameter<C>, doc: String
    ) -> SignalDeclaration<(A, B, C)> {
        SignalDeclaration(
            .init(name, [a.argument, b.argument, c.argument], doc: doc),
            encode: { [a.encode($0.0), b.encode($0.1), c.encode($0.2)] },
            decode: { (try a.decode($0[0]), try b.decode($0[1]), try c.decode($0[2])) },
            write: { a.writer($0.0, &$1); b.writer($0.1, &$1); c.writer($0.2, &$1) })
    }

    @inlinable  // its closures are specialised where the signal is declared
    public static func signal<A, B, C, D>(
        _ name: String, _ a: Parameter<A>, _ b: Parameter<B>, _ c: Parameter<C>, _ d: Parameter<D>, doc: String
    ) -> SignalDeclaration<(A, B, C, D)> {
        SignalDeclaration(
            .init(name, [a.argument, b.argument, c.argument, d.argument], doc: doc),
            encode: { [a.encode($0.0), b.encode($0.1), c.encode($0.2), d.encode($0.3)] },
            decode: { (try a.decode($0[0]), try b.decode($0[1]), try c.decode($0[2]), try d.decode($0[3])) },
            write: { a.writer($0.0, &$1); b.writer($0.1, &$1); c.writer($0.2, &$1); d.writer($0.3, &$1) })
    }

    @inlinable  // its closures are specialised where the signal is declared
    public static func signal<A, B, C, D, E, F>(
        _ name: String, _ a: Parameter<A>, _ b: Parameter<B>, _ c: Parameter<C>, _ d: Parameter<D>, _ e: Parameter<E>,
        _ f: Parameter<F>, doc: String
    ) -> SignalDeclaration<(A, B, C, D, E, F)> {
        SignalDeclaration(
            .init(name, [a.argument, b.argument, c.argument, d.argument, e.argument, f.argument], doc: doc),
            encode: { [a.encode($0.0), b.encode($0.1), c.encode($0.2), d.encode($0.3), e.encode($0.4), f.encode($0.5)] },
            decode: {
                (try a.decode($0[0]), try b.decode($0[1]), try c.decode($0[2]), try d.decode($0[3]), try e.decode($0[4]),
                 try f.decode($0[5]))
            },
            write: {
                a.writer($0.0, &$1); b.writer($0.1, &$1); c.writer($0.2, &$1); d.writer($0.3, &$1); e.writer($0.4, &$1)
                f.writer($0.5, &$1)
            })
    }
}
