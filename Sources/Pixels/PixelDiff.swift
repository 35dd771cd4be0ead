/// Two pictures compared pixel by pixel as Mapbox's pixelmatch compares them (no Swift package does; the
/// algorithm, re-written here, is pixelmatch's: ISC-licensed, used by Playwright's `toHaveScreenshot`): a pixel
/// differs when its colours are further apart than `threshold` in the YIQ colour space (perceived difference,
/// alpha blended over white), unless it is anti-aliasing, an edge pixel drawn differently by a renderer
/// (Vysniauskas' 2009 detector: among its 8 neighbours both a darker and a brighter one, each sitting in a run of
/// like pixels in both pictures), which is counted apart and allowed.
public struct PixelDiff: Sendable, Equatable {
    /// Pixels that differ, not counting anti-aliasing.
    public var differing: Int
    /// Pixels that differ only as anti-aliasing.
    public var antiAliased: Int
    /// The smallest rectangle holding every differing pixel, in pixels: (x, y, width, height); nil when none do.
    public var bounds: (x: Int, y: Int, width: Int, height: Int)?
    /// The differing pixels in red over the first picture faded (anti-aliasing in yellow): where to look.
    public var picture: RGBAImage?

    public static func == (a: PixelDiff, b: PixelDiff) -> Bool {
        a.differing == b.differing && a.antiAliased == b.antiAliased && a.bounds?.x == b.bounds?.x && a.bounds?.y == b.bounds?.y
            && a.bounds?.width == b.bounds?.width && a.bounds?.height == b.bounds?.height
    }

    public init(differing: Int, antiAliased: Int, bounds: (x: Int, y: Int, width: Int, height: Int)?, picture: RGBAImage? = nil) {
        self.differing = differing
        self.antiAliased = antiAliased
        self.bounds = bounds
        self.picture = picture
    }

    /// Playwright's default for `toHaveScreenshot`'s `threshold` is 0.2; pixelmatch's own 0.1.
    public static let defaultThreshold = 0.1

    /// Compares `a` and `b` (the same size); with `drawing`, also makes the picture of where they differ.
    public static func compare(_ a: RGBAImage, _ b: RGBAImage, threshold: Double = defaultThreshold, drawing: Bool = false) -> PixelDiff {
        precondition(a.width == b.width && a.height == b.height, "pictures of different sizes are not compared pixel by pixel")
        let (width, height) = (a.width, a.height)
        // The largest YIQ distance is 35215; `threshold` is a share of it, squared as the distance is.
        let maximumDelta = 35215 * threshold * threshold
        var differing = 0, antiAliased = 0
        var (minX, minY, maxX, maxY) = (width, height, -1, -1)
        var out: [UInt8] = drawing ? [UInt8](repeating: 255, count: a.pixels.count) : []
        a.pixels.withUnsafeBufferPointer { p in
            b.pixels.withUnsafeBufferPointer { q in
                for y in 0..<height {
                    for x in 0..<width {
                        let at = (y * width + x) * 4
                        let same = p[at] == q[at] && p[at + 1] == q[at + 1] && p[at + 2] == q[at + 2] && p[at + 3] == q[at + 3]
                        var colour: (UInt8, UInt8, UInt8)?
                        if !same {
                            let delta = colourDelta(p, q, at, at, yOnly: false)
                            if abs(delta) > maximumDelta {
                                if isAntiAliased(p, x, y, width, height, q) || isAntiAliased(q, x, y, width, height, p) {
                                    antiAliased += 1
                                    colour = (255, 255, 0)
                                } else {
                                    differing += 1
                                    colour = (255, 0, 0)
                                    (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
                                }
                            }
                        }
                        if drawing {
                            if let colour {
                                (out[at], out[at + 1], out[at + 2]) = colour
                            } else {
                                // The first picture, faded to a tenth of its contrast: context for the red.
                                let grey = UInt8(255 - (255 - Int(brightness(p, at).rounded())) / 10)
                                (out[at], out[at + 1], out[at + 2]) = (grey, grey, grey)
                            }
                        }
                    }
                }
            }
        }
        let box: (x: Int, y: Int, width: Int, height: Int)? = maxX < 0 ? nil : (minX, minY, maxX - minX + 1, maxY - minY + 1)
        return PixelDiff(differing: differing, antiAliased: antiAliased, bounds: box,
                         picture: drawing ? RGBAImage(width: width, height: height, pixels: out) : nil)
    }

    /// Whether the pixel at (x, y) of `image` is anti-aliasing: among its neighbours at most two alike, and both
    /// its darkest and its brightest neighbour in a run of like pixels (3 or more) in both pictures.
    static func isAntiAliased(_ image: UnsafeBufferPointer<UInt8>, _ x: Int, _ y: Int, _ width: Int, _ height: Int,
                              _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0), x2 = min(x + 1, width - 1), y2 = min(y + 1, height - 1)
        let at = (y * width + x) * 4
        var zeroes = x == x0 || x == x2 || y == y0 || y == y2 ? 1 : 0
        var (minimum, maximum) = (0.0, 0.0)
        var (minX, minY, maxX, maxY) = (0, 0, 0, 0)
        for ny in y0...y2 {
            for nx in x0...x2 where nx != x || ny != y {
                let delta = colourDelta(image, image, at, (ny * width + nx) * 4, yOnly: true)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minimum {
                    minimum = delta
                    (minX, minY) = (nx, ny)
                } else if delta > maximum {
                    maximum = delta
                    (maxX, maxY) = (nx, ny)
                }
            }
        }
        // No darker or no brighter neighbour: not anti-aliasing.
        if minimum == 0 || maximum == 0 { return false }
        return (hasManySiblings(image, minX, minY, width, height) && hasManySiblings(other, minX, minY, width, height))
            || (hasManySiblings(image, maxX, maxY, width, height) && hasManySiblings(other, maxX, maxY, width, height))
    }

    /// Whether the pixel at (x, y) has 3 or more neighbours of exactly its colour.
    static func hasManySiblings(_ image: UnsafeBufferPointer<UInt8>, _ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Bool {
        let x0 = max(x - 1, 0), y0 = max(y - 1, 0), x2 = min(x + 1, width - 1), y2 = min(y + 1, height - 1)
        let at = (y * width + x) * 4
        var zeroes = x == x0 || x == x2 || y == y0 || y == y2 ? 1 : 0
        for ny in y0...y2 {
            for nx in x0...x2 where nx != x || ny != y {
                let other = (ny * width + nx) * 4
                if image[at] == image[other] && image[at + 1] == image[other + 1] && image[at + 2] == image[other + 2]
                    && image[at + 3] == image[other + 3] {
                    zeroes += 1
                }
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    /// The squared YIQ distance of two pixels, each blended over white by its alpha; signed by which is brighter
    /// (negative where the second is). `yOnly`: the brightness difference alone.
    static func colourDelta(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ j: Int, yOnly: Bool) -> Double {
        func blended(_ p: UnsafeBufferPointer<UInt8>, _ k: Int) -> (Double, Double, Double) {
            let alpha = Double(p[k + 3]) / 255
            func over(_ c: UInt8) -> Double { 255 + (Double(c) - 255) * alpha }
            return (over(p[k]), over(p[k + 1]), over(p[k + 2]))
        }
        let (r1, g1, b1) = blended(a, i), (r2, g2, b2) = blended(b, j)
        let y = luma(r1, g1, b1) - luma(r2, g2, b2)
        if yOnly { return y }
        let iDelta = (r1 * 0.59597799 - g1 * 0.27417610 - b1 * 0.32180189) - (r2 * 0.59597799 - g2 * 0.27417610 - b2 * 0.32180189)
        let qDelta = (r1 * 0.21147017 - g1 * 0.52261711 + b1 * 0.31114694) - (r2 * 0.21147017 - g2 * 0.52261711 + b2 * 0.31114694)
        let delta = 0.5053 * y * y + 0.299 * iDelta * iDelta + 0.1957 * qDelta * qDelta
        return y > 0 ? -delta : delta
    }

    private static func luma(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.29889531 + g * 0.58662247 + b * 0.11448223 }

    private static func brightness(_ p: UnsafeBufferPointer<UInt8>, _ k: Int) -> Double {
        let alpha = Double(p[k + 3]) / 255
        return 255 + (luma(Double(p[k]), Double(p[k + 1]), Double(p[k + 2])) - 255) * alpha
    }
}
