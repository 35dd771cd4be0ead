import Foundation
import Pixels

// `make bench-pixels`: the golden-picture check's speed, beside its anchors. A matching pair of 656 x 547 pictures
// (looks-same's published case: 18 ms for such a pair) made from a real picture, Python's documentation's
// logging_flow.png (python3.11-doc) cut to that size; each pair read from PNG and compared as `traitctl scenario run
// --check` does (decode both, PixelDiff at Playwright's threshold). Prints the median of 30 runs; the peer on the
// same pair (Python's pixelmatch, run by the make target) prints beside it.
// Usage: pixel-benchmark SOURCE.png OUT-FOLDER  (writes OUT-FOLDER/a.png, b.png equal to it and c.png nudged)

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: pixel-benchmark SOURCE.png OUT-FOLDER\n".utf8))
    exit(64)
}
let source = try RGBAImage(png: [UInt8](try Data(contentsOf: URL(fileURLWithPath: arguments[1]))))
let (width, height) = (656, 547)
guard source.width >= width, source.height >= height else {
    FileHandle.standardError.write(Data("pixel-benchmark: \(arguments[1]) is smaller than \(width) x \(height)\n".utf8))
    exit(65)
}
var pixels: [UInt8] = []
for y in 0..<height { pixels += source.pixels[(y * source.width * 4)..<((y * source.width + width) * 4)] }
let picture = RGBAImage(width: width, height: height, pixels: pixels)
let a = URL(fileURLWithPath: arguments[2]).appendingPathComponent("a.png"), b = URL(fileURLWithPath: arguments[2]).appendingPathComponent("b.png")
let c = URL(fileURLWithPath: arguments[2]).appendingPathComponent("c.png")
try Data(picture.png).write(to: a)
try Data(picture.png).write(to: b)
// A pair that matches without being equal, as real captures that pass are: every seventh pixel's red moved by
// 3 (below any threshold), so that the colours of those pixels are compared, not only their bytes.
var nudged = picture
for index in Swift.stride(from: 0, to: width * height, by: 7) { nudged.pixels[index * 4] = nudged.pixels[index * 4] < 128 ? nudged.pixels[index * 4] + 3 : nudged.pixels[index * 4] - 3 }
try Data(nudged.png).write(to: c)

func median(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        times.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    return times.sorted()[runs / 2]
}
for (label, second) in [("equal pair ", b), ("nudged pair", c)] {
    let fileA = [UInt8](try Data(contentsOf: a)), fileB = [UInt8](try Data(contentsOf: second))
    var differing = -1
    let whole = try median(30) {
        differing = PixelDiff.compare(try RGBAImage(png: fileA), try RGBAImage(png: fileB), threshold: 0.2).differing
    }
    let decoded = (try RGBAImage(png: fileA), try RGBAImage(png: fileB))
    let compareOnly = median(30) { differing = PixelDiff.compare(decoded.0, decoded.1, threshold: 0.2).differing }
    print(String(format: "%@ traitd (Pixels): read both PNGs and compare %7.2f ms, compare alone %7.2f ms (%d pixels differ)",
                 label, whole, compareOnly, differing))
}
