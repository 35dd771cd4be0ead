import CZlib

/// A picture as 8-bit RGBA pixels, rows top to bottom: what a screenshot is compared and measured as. Read from
/// and written to PNG here, once, for every part of traitd that handles pixels (the bridges' screenshots, the
/// golden pictures of scenarios).
public struct RGBAImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes: red, green, blue, alpha, a pixel.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "RGBA pixels: \(pixels.count) bytes for \(width) x \(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A picture from RGB bytes (3 a pixel), opaque.
    public init(width: Int, height: Int, rgb: [UInt8]) {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for index in 0..<(width * height) {
            pixels[index * 4] = rgb[index * 3]
            pixels[index * 4 + 1] = rgb[index * 3 + 1]
            pixels[index * 4 + 2] = rgb[index * 3 + 2]
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The largest picture read (a 13-inch iPad at 3x is 14 M pixels; this bounds what a bad file can ask for).
    public static let maximumPixels = 64 << 20

    /// A PNG file's picture: 8 bits a channel, grey, grey and alpha, RGB, RGBA or a palette, not interlaced (what
    /// Chromium's and the bridges' screenshots are). Anything else is refused, saying what it is.
    public init(png data: [UInt8]) throws(PNGError) {
        guard data.count >= 8, data[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw PNGError("not a PNG file (its first bytes are not PNG's signature)")
        }
        var header: [UInt8]?, palette: [UInt8] = [], transparency: [UInt8] = [], compressed: [UInt8] = []
        var at = 8
        while at + 8 <= data.count {
            let length = Int(Self.bigEndian(data, at))
            let kind = String(decoding: data[(at + 4)..<(at + 8)], as: UTF8.self)
            guard length <= data.count - at - 12 else { throw PNGError("chunk \(kind) runs past the end of the file") }
            let body = Array(data[(at + 8)..<(at + 8 + length)])
            switch kind {
            case "IHDR": header = body
            case "PLTE": palette = body
            case "tRNS": transparency = body
            case "IDAT": compressed += body
            default: break
            }
            at += 12 + length
            if kind == "IEND" { break }
        }
        guard let header, header.count == 13 else { throw PNGError("no IHDR chunk") }
        let width = Int(Self.bigEndian(header, 0)), height = Int(Self.bigEndian(header, 4))
        let depth = header[8], colour = header[9], interlace = header[12]
        guard width > 0, height > 0, width * height <= Self.maximumPixels else {
            throw PNGError("a picture of \(width) x \(height) pixels (at most \(Self.maximumPixels) are read)")
        }
        guard depth == 8 else { throw PNGError("\(depth)-bit channels (only 8-bit PNGs are read)") }
        guard interlace == 0 else { throw PNGError("an interlaced PNG (only PNGs that are not are read)") }
        let channels: Int
        switch colour {
        case 0: channels = 1
        case 2: channels = 3
        case 3: channels = 1
        case 4: channels = 2
        case 6: channels = 4
        default: throw PNGError("colour type \(colour), which PNG does not define")
        }
        let stride = width * channels
        var raw = [UInt8](repeating: 0, count: (stride + 1) * height)
        var size = uLongf(raw.count)
        guard uncompress(&raw, &size, compressed, uLong(compressed.count)) == Z_OK, Int(size) == raw.count else {
            throw PNGError("its pixel data does not inflate to \(width) x \(height) pixels")
        }
        // Undo each row's filter (PNG's five: none, sub, up, average, Paeth), in place, row by row: the row above
        // is already undone when the next one reads it.
        let failedRow: Int? = raw.withUnsafeMutableBufferPointer { buffer -> Int? in
            for y in 0..<height {
                let row = y * (stride + 1) + 1, above = row - (stride + 1)
                switch buffer[row - 1] {
                case 0: break
                case 1:
                    var i = channels
                    while i < stride { buffer[row + i] &+= buffer[row + i - channels]; i += 1 }
                case 2:
                    if y > 0 { for i in 0..<stride { buffer[row + i] &+= buffer[above + i] } }
                case 3:
                    for i in 0..<stride {
                        let left = i >= channels ? Int(buffer[row + i - channels]) : 0, up = y > 0 ? Int(buffer[above + i]) : 0
                        buffer[row + i] &+= UInt8((left + up) / 2)
                    }
                case 4:
                    for i in 0..<stride {
                        let left = i >= channels ? Int(buffer[row + i - channels]) : 0, up = y > 0 ? Int(buffer[above + i]) : 0
                        let upLeft = i >= channels && y > 0 ? Int(buffer[above + i - channels]) : 0
                        let p = left + up - upLeft, pa = abs(p - left), pb = abs(p - up), pc = abs(p - upLeft)
                        buffer[row + i] &+= UInt8(pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft)
                    }
                default: return y
                }
            }
            return nil
        }
        if let failedRow { throw PNGError("row \(failedRow) has filter \(raw[failedRow * (stride + 1)]), which PNG does not define") }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var paletteEntry: Int?
        raw.withUnsafeBufferPointer { rows in
            pixels.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let row = y * (stride + 1) + 1, to = y * width * 4
                    for x in 0..<width {
                        let from = row + x * channels, at = to + x * 4
                        switch colour {
                        case 6:
                            out[at] = rows[from]; out[at + 1] = rows[from + 1]; out[at + 2] = rows[from + 2]; out[at + 3] = rows[from + 3]
                        case 2:
                            out[at] = rows[from]; out[at + 1] = rows[from + 1]; out[at + 2] = rows[from + 2]
                        case 0, 4:
                            out[at] = rows[from]; out[at + 1] = rows[from]; out[at + 2] = rows[from]
                            if colour == 4 { out[at + 3] = rows[from + 1] }
                        default:
                            let entry = Int(rows[from])
                            guard entry * 3 + 2 < palette.count else { paletteEntry = entry; return }
                            out[at] = palette[entry * 3]; out[at + 1] = palette[entry * 3 + 1]; out[at + 2] = palette[entry * 3 + 2]
                            if entry < transparency.count { out[at + 3] = transparency[entry] }
                        }
                    }
                }
            }
        }
        if let paletteEntry { throw PNGError("a pixel names palette entry \(paletteEntry), which the palette lacks") }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The picture as a PNG file (8-bit RGBA, no filter, zlib's fastest compression).
    public var png: [UInt8] {
        var raw = [UInt8]()
        raw.reserveCapacity((width * 4 + 1) * height)
        for y in 0..<height {
            raw.append(0)  // filter: none
            raw += pixels[(y * width * 4)..<((y + 1) * width * 4)]
        }
        return PNG.file(width: width, height: height, colourType: 6, rows: raw)
    }

    private static func bigEndian(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }
}

/// PNG's container, written once: the bridges' RGB screenshots and the RGBA pictures of diffs.
public enum PNG {
    /// RGB rows (3 bytes a pixel) as a PNG file (no filter, zlib's fastest compression: it is on the report's path).
    public static func rgb(width: Int, height: Int, pixels: [UInt8]) -> [UInt8] {
        var raw = [UInt8]()
        raw.reserveCapacity((width * 3 + 1) * height)
        for y in 0..<height {
            raw.append(0)  // filter: none
            raw += pixels[(y * width * 3)..<((y + 1) * width * 3)]
        }
        return file(width: width, height: height, colourType: 2, rows: raw)
    }

    /// Filtered rows, compressed into IDAT between IHDR and IEND.
    static func file(width: Int, height: Int, colourType: UInt8, rows raw: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(raw.count))
        var compressed = [UInt8](repeating: 0, count: Int(size))
        let status = compress2(&compressed, &size, raw, uLong(raw.count), Z_BEST_SPEED)
        precondition(status == Z_OK, "zlib could not compress \(raw.count) bytes into a buffer of their bound: \(status)")
        compressed.removeSubrange(Int(size)...)
        func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(kind.utf8) + data
            let crc = UInt32(crc32(0, body, uInt(body.count)))
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
        }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, colourType, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", compressed) + chunk("IEND", [])
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// Why a PNG file could not be read.
public struct PNGError: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
