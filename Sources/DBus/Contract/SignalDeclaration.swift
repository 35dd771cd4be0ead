/// A signal of an interface, declared once with its typed arguments and its documentation: the server
/// emits it with `arguments(_:)`, a client reads it strictly with `decode(_:)`.
public struct SignalDeclaration<Arguments: Sendable>: Sendable {
    public let description: InterfaceDescription.Signal
    private let encoder: @Sendable (Arguments) -> [DBusValue]
    private let decoder: @Sendable ([DBusValue]) throws -> Arguments

    public var name: String { description.name }

    public func arguments(_ values: Arguments) -> [DBusValue] { encoder(values) }

    /// The signal's arguments, decoded; arguments of another shape throw, naming what came.
    public func decode(_ values: [DBusValue]) throws -> Arguments {
        guard values.hasSignature(description.signature) else {
            throw DBusError.invalidArgs("\(name) carried '\(values.signature)'; expected '\(description.signature)'")
        }
        return try DBusError.inContext(name) { try decoder(values) }
    }

    init(
        _ description: InterfaceDescription.Signal, encode: @escaping @Sendable (Arguments) -> [DBusValue],
        decode: @escaping @Sendable ([DBusValue]) throws -> Arguments
    ) {
        self.description = description
        encoder = encode
        decoder = decode
    }
}

extension Declare {
    public static func signal(_ name: String, doc: String) -> SignalDeclaration<Void> {
        SignalDeclaration(.init(name, doc: doc), encode: { _ in [] }, decode: { _ in () })
    }

    public static func signal<A>(_ name: String, _ a: Parameter<A>, doc: String) -> SignalDeclaration<A> {
        SignalDeclaration(.init(name, [a.argument], doc: doc), encode: { [a.encode($0)] }, decode: { try a.decode($0[0]) })
    }

    public static func signal<A, B>(_ name: String, _ a: Parameter<A>, _ b: Parameter<B>, doc: String)
        -> SignalDeclaration<(A, B)>
    {
        SignalDeclaration(
            .init(name, [a.argument, b.argument], doc: doc), encode: { [a.encode($0.0), b.encode($0.1)] },
            decode: { (try a.decode($0[0]), try b.decode($0[1])) })
    }

    public static func signal<A, B, C>(
        _ name: String, _ a: Parameter<A>, _ b: Parameter<B>, _ c: Parameter<C>, doc: String
    ) -> SignalDeclaration<(A, B, C)> {
        SignalDeclaration(
            .init(name, [a.argument, b.argument, c.argument], doc: doc),
            encode: { [a.encode($0.0), b.encode($0.1), c.encode($0.2)] },
            decode: { (try a.decode($0[0]), try b.decode($0[1]), try c.decode($0[2])) })
    }

    public static func signal<A, B, C, D>(
        _ name: String, _ a: Parameter<A>, _ b: Parameter<B>, _ c: Parameter<C>, _ d: Parameter<D>, doc: String
    ) -> SignalDeclaration<(A, B, C, D)> {
        SignalDeclaration(
            .init(name, [a.argument, b.argument, c.argument, d.argument], doc: doc),
            encode: { [a.encode($0.0), b.encode($0.1), c.encode($0.2), d.encode($0.3)] },
            decode: { (try a.decode($0[0]), try b.decode($0[1]), try c.decode($0[2]), try d.decode($0[3])) })
    }

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
            })
    }
}
