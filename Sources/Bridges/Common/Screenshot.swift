import FoundationEssentials

/// A window's pixels as the app drew them (`traitd-adapters --screenshots`): each bridge writes one PNG per
/// window after each layout and before its report, whose extra `screenshot` names the file, so that `traitctl
/// render` and `traitd-view` draw the app's real pixels in its window. Chromium gives a PNG
/// (`Page.captureScreenshot`); the desktop bridge reads the X window with `xwd` and writes it here.
enum Screenshot {
    /// The most captures taken to find two alike in a row: a window that never holds still (a blinking cursor, an
    /// animation) gives its last.
    static let stabilityCaptures = 5

    /// A capture that the next one repeats exactly (Playwright's `toHaveScreenshot` rule: a picture is taken once
    /// two in a row are alike), or the last of `stabilityCaptures`.
    static func stable<Capture: Equatable & Sendable>(
        isolation: isolated (any Actor)? = #isolation, _ capture: () async throws -> Capture
    ) async throws -> Capture {
        var last = try await capture()
        for _ in 1..<stabilityCaptures {
            let next = try await capture()
            if next == last { return next }
            last = next
        }
        return last
    }

    /// Writes `png` to `folder/APP-ADAPTER.png` atomically (a temporary file and a rename: a reader never sees
    /// half a picture), and returns its path.
    static func write(_ png: [UInt8], folder: String, app: String, adapter: String) throws -> String {
        let path = "\(folder)/\(app)-\(adapter).png"
        try Data(png).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    /// An XWD dump (`xwd -id WINDOW -silent`: a TrueColor window of 24 or 32 bits a pixel, as Xvfb's 24-bit
    /// screen gives) as RGB rows, cropped to `crop` (device pixels in the window).
    static func rgb(xwd dump: [UInt8], crop: (x: Int, y: Int, width: Int, height: Int)) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        func field(_ index: Int) -> Int {
            guard dump.count >= 100 else { return 0 }
            return dump[(index * 4)..<(index * 4 + 4)].reduce(0) { $0 << 8 | Int($1) }
        }
        let headerSize = field(0), depth = field(3), width = field(4), height = field(5), byteOrder = field(7)
        let bitsPerPixel = field(11), bytesPerLine = field(12), colours = field(19)
        let masks = [field(14), field(15), field(16)]
        guard dump.count >= 100, depth >= 24, bitsPerPixel == 24 || bitsPerPixel == 32, masks.allSatisfy({ $0 != 0 }) else {
            throw DevToolsError("xwd gave no 24-bit TrueColor picture (depth \(depth), \(bitsPerPixel) bits a pixel)")
        }
        let start = headerSize + 12 * colours
        guard dump.count >= start + bytesPerLine * height else { throw DevToolsError("xwd's picture is cut short") }
        let x0 = max(0, min(crop.x, width)), y0 = max(0, min(crop.y, height))
        let w = max(0, min(crop.width, width - x0)), h = max(0, min(crop.height, height - y0))
        let step = bitsPerPixel / 8
        let shifts = masks.map { $0.trailingZeroBitCount }
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        // Raw buffers: a window is millions of pixels, and this runs before every report.
        dump.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                var out = 0
                for y in y0..<(y0 + h) {
                    var at = start + y * bytesPerLine + x0 * step
                    for _ in 0..<w {
                        var value = 0
                        if byteOrder == 0 {
                            for i in 0..<step { value |= Int(source[at + i]) << (8 * i) }
                        } else {
                            for i in 0..<step { value = value << 8 | Int(source[at + i]) }
                        }
                        target[out] = UInt8(truncatingIfNeeded: (value & masks[0]) >> shifts[0])
                        target[out + 1] = UInt8(truncatingIfNeeded: (value & masks[1]) >> shifts[1])
                        target[out + 2] = UInt8(truncatingIfNeeded: (value & masks[2]) >> shifts[2])
                        out += 3
                        at += step
                    }
                }
            }
        }
        return (w, h, pixels)
    }

}
