/// What `WireWriter` writes after a message's header fields: the body's signature and the body, in one of two
/// ways. Either is the same bytes for the same arguments (`SignalBytesTests`).
protocol MessageBody {
    /// Characters of the body's signature (0: no body).
    var signatureLength: Int { get }
    /// Bytes the body is expected to take, to size the buffer (it grows if they are more).
    var expectedBytes: Int { get }
    /// Containers that the body's declared types nest, whatever the values (an empty array's element counts).
    var declaredDepth: Int { get }
    /// The body's signature as a signature value, checked.
    func writeSignature(_ writer: inout WireWriter)
    func write(_ writer: inout WireWriter)
    /// Whether the bytes written are as many as the body said.
    func accepts(bodyBytes: Int) -> Bool
}

/// Values of any type: the signature is made from them and checked by libdbus's rules, the size measured
/// beforehand (and the bytes written held to it).
struct ValuesBody: MessageBody {
    let values: [DBusValue]
    let signatureLength: Int
    let expectedBytes: Int

    init(_ values: [DBusValue]) {
        self.values = values
        var largestArray = 0, bytes = 0, signatureLength = 0
        for value in values {
            bytes = value.wireEnd(from: bytes, &largestArray)
            signatureLength += value.signatureLength
        }
        self.signatureLength = signatureLength
        expectedBytes = bytes
    }

    var declaredDepth: Int { 0 }  // the writer measures the values themselves

    func writeSignature(_ writer: inout WireWriter) {
        let signatureAt = writer.offset
        writer.signature(of: values)
        writer.validateSignature(at: signatureAt, single: false)
    }

    func write(_ writer: inout WireWriter) {
        for value in values { writer.write(value) }
    }

    func accepts(bodyBytes: Int) -> Bool { bodyBytes == expectedBytes }
}

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
