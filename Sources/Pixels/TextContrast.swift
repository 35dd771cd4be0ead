#if canImport(Glibc)
    import Glibc
#endif

/// The contrast of text as drawn, from the pixels of its element's region, for text whose colours no one reports
/// (a desktop app's: the accessibility bus gives none): WCAG's contrast ratio between the region's background, its
/// median luminance (text covers less of a label than its background does; a gradient, as Qt's Fusion draws on its
/// buttons, is still a background), and its ink, the darkest or the brightest of its pixels but the 11 most
/// extreme (a glyph's edges blend into the background, but even a full stop's core, 2 device pixels or more a
/// side at the bridges' scale, is the ink itself; a few stray pixels are not), whichever lies further from it. The
/// region's outer 3 pixels are left out: a button's border is not its text. Not measured where the pixels do not
/// tell: a background that varies beyond a gradient (its middle half of pixels spanning more than 1.5:1: a
/// picture behind the text), or no ink at all.
public enum TextContrast {
    /// The ratio (1 to 21) in `region` (x, y, width, height in pixels) of RGB rows (3 bytes a pixel, `width`
    /// wide), and how tall the ink stands in pixels (the rows holding pixels nearer the ink than the background: a
    /// line's cap height, or more with descenders), or nil where the pixels do not tell them.
    public static func measure(rgb pixels: [UInt8], width: Int, height: Int, region: (x: Int, y: Int, width: Int, height: Int))
        -> (ratio: Double, inkHeight: Int)? {
        let x0 = max(region.x + border, 0), y0 = max(region.y + border, 0)
        let x1 = min(region.x + region.width - border, width), y1 = min(region.y + region.height - border, height)
        guard x1 - x0 >= 4, y1 - y0 >= 4 else { return nil }
        var known: [UInt32: Double] = [:]
        var values: [Double] = []
        values.reserveCapacity((x1 - x0) * (y1 - y0))
        for y in y0..<y1 {
            for x in x0..<x1 {
                let at = (y * width + x) * 3
                let colour = UInt32(pixels[at]) << 16 | UInt32(pixels[at + 1]) << 8 | UInt32(pixels[at + 2])
                if let value = known[colour] {
                    values.append(value)
                } else {
                    let value = luminance(colour)
                    known[colour] = value
                    values.append(value)
                }
            }
        }
        values.sort()
        let count = values.count, tail = min(11, count / 4)
        let background = values[count / 2]
        guard contrast(values[count / 4], values[count * 3 / 4]) <= 1.5 else { return nil }
        let dark = values[tail], bright = values[count - 1 - tail]
        let ink = contrast(dark, background) >= contrast(bright, background) ? dark : bright
        let ratio = contrast(ink, background)
        guard ratio > 1.05 else { return nil }
        // The rows where some pixel lies nearer the ink than the background.
        let middle = (ink + background) / 2
        var top: Int?, bottom = 0
        for y in y0..<y1 {
            for x in x0..<x1 {
                let at = (y * width + x) * 3
                let value = known[UInt32(pixels[at]) << 16 | UInt32(pixels[at + 1]) << 8 | UInt32(pixels[at + 2])] ?? background
                if ink < background ? value < middle : value > middle {
                    if top == nil { top = y }
                    bottom = y
                    break
                }
            }
        }
        return (ratio, top.map { bottom - $0 + 1 } ?? 0)
    }

    /// Pixels left out at each side of a region: a border's.
    static let border = 3

    /// WCAG's contrast ratio of two luminances.
    static func contrast(_ a: Double, _ b: Double) -> Double { (max(a, b) + 0.05) / (min(a, b) + 0.05) }

    /// WCAG's relative luminance of a packed RGB colour.
    static func luminance(_ colour: UInt32) -> Double {
        func channel(_ value: UInt32) -> Double {
            let c = Double(value & 0xFF) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(colour >> 16) + 0.7152 * channel(colour >> 8) + 0.0722 * channel(colour)
    }
}
