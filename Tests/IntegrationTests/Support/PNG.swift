import Foundation
import Testing

/// Width and height from a PNG's IHDR chunk (bytes 16-23, big-endian), after checking the signature.
func pngSize(_ data: Data) throws -> (Int, Int) {
    let bytes = [UInt8](data)
    try #require(bytes.count > 24 && bytes[0..<8] == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "a PNG signature")
    try #require(String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR")
    func be(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (be(16), be(20))
}
