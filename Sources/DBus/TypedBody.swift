import BusValues

/// A signal's arguments as Swift values, written by the parameters its declaration was made of; the signature
/// is the declaration's, checked once when it was declared.
struct TypedBody<Arguments: Sendable>: MessageBody {
    let signal: SignalDeclaration<Arguments>
    let arguments: Arguments

    var signatureLength: Int { signal.signature.utf8.count }
    /// Most of traitd's signals take a few hundred bytes.
    var expectedBytes: Int { 512 }
    var declaredDepth: Int { signal.declaredDepth }

    func writeSignature(_ writer: inout WireWriter) { writer.signatureValue(signal.signature) }

    func write(_ writer: inout WireWriter) { signal.write(arguments, &writer) }

    func accepts(bodyBytes: Int) -> Bool { true }
}

extension WireWriter {
    /// The same signal from its declaration's typed arguments, written as their parameters write them, without
    /// making their `DBusValue`s: the same bytes (`SignalDeclaration.write`, tested equal to the values' way).
    static func signal<Arguments: Sendable>(
        path: String, interface: String, member: String, _ signal: SignalDeclaration<Arguments>, _ arguments: Arguments
    ) -> Written? {
        self.signal(path: path, interface: interface, member: member, TypedBody(signal: signal, arguments: arguments))
    }
}
