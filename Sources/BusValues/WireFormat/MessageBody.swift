/// What `WireWriter` writes after a message's header fields: the body's signature and the body, in one of two
/// ways. Either is the same bytes for the same arguments (`SignalBytesTests`).
package protocol MessageBody {
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
package struct ValuesBody: MessageBody {
    package let values: [DBusValue]
    package let signatureLength: Int
    package let expectedBytes: Int

    package init(_ values: [DBusValue]) {
        self.values = values
        var largestArray = 0, bytes = 0, signatureLength = 0
        for value in values {
            bytes = value.wireEnd(from: bytes, &largestArray)
            signatureLength += value.signatureLength
        }
        self.signatureLength = signatureLength
        expectedBytes = bytes
    }

    package var declaredDepth: Int { 0 }  // the writer measures the values themselves

    package func writeSignature(_ writer: inout WireWriter) {
        let signatureAt = writer.offset
        writer.signature(of: values)
        writer.validateSignature(at: signatureAt, single: false)
    }

    package func write(_ writer: inout WireWriter) {
        for value in values { writer.write(value) }
    }

    package func accepts(bodyBytes: Int) -> Bool { bodyBytes == expectedBytes }
}
