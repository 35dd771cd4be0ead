import DBus
import Testing

/// A body read from its bytes (`WireReader`, what `Message.arguments()` reads with) against the same body read
/// with libdbus's iterator: the same values, every type, both byte orders.
@Suite struct WireReaderTests {
    @Test(arguments: WireWriterTests.bodies + [
        [.array(element: "a{sa(dddd)}", [.array(element: "{sa(dddd)}", []), .array(element: "{sa(dddd)}", [
            .dictEntry(.string("k"), .array(element: "(dddd)", [.structure([.double(1), .double(2), .double(3), .double(4)])])),
        ])]), .variant(.array(element: "ay", [.array(element: "y", [])]))],
        [.structure([.int16(-1)]), .array(element: "n", [.int16(3), .int16(-4)]), .array(element: "x", [.int64(.min)])],
    ] as [[DBusValue]])
    func aBodyReadFromItsBytesIsWhatTheIteratorReads(body: [DBusValue]) throws {
        let bytes = try Marshalling.encode(body)  // written by libdbus's iterator
        let read = try Marshalling.decode(bytes)
        #expect(try read.description == Marshalling.decodeThroughTheIterator(bytes).description)  // NaN: as text
        #expect(read.description == body.description)
    }

    /// The body's size and depth as `IncomingLimit` counts them, measured over the bytes, are the iterator's
    /// measures, under every limit (the walk stops at the first one passed, at the same place).
    @Test(arguments: WireWriterTests.bodies + [[.array(element: "y", Array(repeating: .byte(1), count: 300)), .string("after")]])
    func aBodyMeasuredOverItsBytesIsWhatTheIteratorMeasures(body: [DBusValue]) throws {
        let bytes = try Marshalling.encode(body)
        for (size, depth) in [(8, 64), (64, 2), (100, 5), (1 << 20, 64), (1 << 20, 1)] {
            let limit = IncomingLimit(bytes: size, depth: depth, errorName: "org.example.E", bytesSetting: "b", depthSetting: "d")
            let measures = try Marshalling.bodyMeasures(bytes, upTo: limit)
            #expect(measures.fromTheBytes != nil, "measured over the bytes")
            #expect(measures.fromTheBytes.map { [$0.bytes, $0.depth] } == [measures.throughTheIterator.bytes, measures.throughTheIterator.depth],
                    "limit \(size) bytes, depth \(depth)")
        }
    }

    /// A big-endian signal (path /t, interface a.b, member M, body `us`: 7, "hi"), written out by hand as a
    /// big-endian peer sends it: each number in the message's own byte order.
    @Test func aBigEndianBodyReadsInItsOwnOrder() throws {
        let bytes: [UInt8] = [
            0x42, 4, 0, 1, 0, 0, 0, 11, 0, 0, 0, 1, 0, 0, 0, 56,           // 'B', signal, body 11 bytes, serial 1, fields 56
            1, 1, 0x6F, 0, 0, 0, 0, 2, 0x2F, 0x74, 0, 0, 0, 0, 0, 0,          // path "/t"
            2, 1, 0x73, 0, 0, 0, 0, 3, 0x61, 0x2E, 0x62, 0, 0, 0, 0, 0,       // interface "a.b"
            3, 1, 0x73, 0, 0, 0, 0, 1, 0x4D, 0, 0, 0, 0, 0, 0, 0,             // member "M"
            8, 1, 0x67, 0, 2, 0x75, 0x73, 0,                                  // signature "us"
            0, 0, 0, 7, 0, 0, 0, 2, 0x68, 0x69, 0,                            // 7, "hi"
        ]
        #expect(try Marshalling.decode(bytes) == [.uint32(7), .string("hi")])
        #expect(try Marshalling.decodeThroughTheIterator(bytes) == [.uint32(7), .string("hi")])
    }
}
