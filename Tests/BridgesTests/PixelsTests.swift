import Foundation
import Pixels
import Testing
import TestSupport

/// Pictures read from PNG as libpng reads them (through GdkPixbuf: Debian's own files of every colour type and
/// filter), written and read back, and compared as pixelmatch compares them.
@Suite struct PixelsTests {
    /// Python's documentation's pictures (palette, RGB, RGBA; every filter) and Chromium's icon, pixel for pixel
    /// what GdkPixbuf (libpng) reads.
    @Test(arguments: ["/usr/share/doc/python3.11/html/_images/logging_flow.png", "/usr/share/doc/python3.11/html/_images/tk_msg.png",
                      "/usr/share/doc/python3.11/html/_images/win_installer.png", "/usr/share/pixmaps/chromium.png"])
    func aPngReadsAsLibpngReadsIt(path: String) async throws {
        let image = try RGBAImage(png: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let script = """
            import sys, gi
            gi.require_version('GdkPixbuf', '2.0')
            from gi.repository import GdkPixbuf
            p = GdkPixbuf.Pixbuf.new_from_file(sys.argv[1])
            if not p.get_has_alpha(): p = p.add_alpha(False, 0, 0, 0)
            data, stride = p.get_pixels(), p.get_rowstride()
            open(sys.argv[2], 'wb').write(b''.join(data[y * stride:y * stride + p.get_width() * 4] for y in range(p.get_height())))
            """
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("libpng-\(UUID().uuidString).rgba")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try await ChildProcess.run("/usr/bin/python3", ["-c", script, path, out.path])
        let libpng = [UInt8](try Data(contentsOf: out))
        #expect(run.status == 0 && libpng.count == image.width * image.height * 4, "\(path): \(run)")
        #expect(libpng == image.pixels, "\(path): \(image.width) x \(image.height) differs from libpng's pixels")
    }

    @Test func aPictureIsWrittenAndReadBackAndBadFilesAreRefused() throws {
        let pixels = (0..<(7 * 5 * 4)).map { UInt8($0 % 256) }
        let image = RGBAImage(width: 7, height: 5, pixels: pixels)
        #expect(try RGBAImage(png: image.png) == image)
        let rgb = PNG.rgb(width: 2, height: 1, pixels: [255, 0, 0, 0, 0, 255])
        #expect(try RGBAImage(png: rgb).pixels == [255, 0, 0, 255, 0, 0, 255, 255])
        #expect(throws: PNGError("not a PNG file (its first bytes are not PNG's signature)")) { try RGBAImage(png: Array("GIF89a".utf8)) }
        #expect(throws: PNGError.self) { try RGBAImage(png: Array(image.png.prefix(40))) }
    }

    /// A white picture with a black square: the same picture matches; one pixel changed is found where it is; a
    /// grey pixel at the square's edge is anti-aliasing, allowed; a colour within the threshold is no difference.
    @Test func picturesAreComparedAsPixelmatchComparesThem() {
        func picture(_ change: (inout [UInt8], Int) -> Void = { _, _ in }) -> RGBAImage {
            var pixels = [UInt8](repeating: 255, count: 20 * 20 * 4)
            for y in 5..<10 { for x in 5..<10 { let at = (y * 20 + x) * 4; pixels[at] = 0; pixels[at + 1] = 0; pixels[at + 2] = 0 } }
            change(&pixels, 20)
            return RGBAImage(width: 20, height: 20, pixels: pixels)
        }
        let base = picture()
        #expect(PixelDiff.compare(base, base) == PixelDiff(differing: 0, antiAliased: 0, bounds: nil))
        let moved = picture { pixels, width in let at = (15 * width + 16) * 4; pixels[at] = 0; pixels[at + 1] = 0; pixels[at + 2] = 200 }
        let found = PixelDiff.compare(base, moved, drawing: true)
        #expect(found.differing == 1 && found.bounds?.x == 16 && found.bounds?.y == 15 && found.bounds?.width == 1)
        #expect(found.picture?.pixels[(15 * 20 + 16) * 4 ..< (15 * 20 + 16) * 4 + 3] == [255, 0, 0])
        let edge = picture { pixels, width in let at = (7 * width + 10) * 4; pixels[at] = 128; pixels[at + 1] = 128; pixels[at + 2] = 128 }
        #expect(PixelDiff.compare(base, edge) == PixelDiff(differing: 0, antiAliased: 1, bounds: nil))
        let faint = picture { pixels, width in let at = (15 * width + 16) * 4; pixels[at] = 250 }
        #expect(PixelDiff.compare(base, faint).differing == 0)
    }

    /// Text's contrast from pixels: dark grey ink on a light grey face, measured; the face's border (3 px at the
    /// region's edge) is not ink; a vertical gradient is still a background; a noisy picture is not measured.
    @Test func textContrastIsMeasuredOnItsPixels() throws {
        func region(_ background: (Int, Int) -> UInt8, ink: UInt8?) -> [UInt8] {
            var pixels = [UInt8](repeating: 0, count: 60 * 40 * 3)
            for y in 0..<40 {
                for x in 0..<60 {
                    let border = x < 2 || y < 2 || x >= 58 || y >= 38
                    let stem = x >= 28 && x < 32 && y >= 10 && y < 30
                    let value = border ? 40 : stem ? (ink ?? background(x, y)) : background(x, y)
                    pixels[(y * 60 + x) * 3] = value; pixels[(y * 60 + x) * 3 + 1] = value; pixels[(y * 60 + x) * 3 + 2] = value
                }
            }
            return pixels
        }
        let whole = (x: 0, y: 0, width: 60, height: 40)
        let grey = try #require(TextContrast.measure(rgb: region({ _, _ in 200 }, ink: 120), width: 60, height: 40, region: whole))
        #expect(abs(grey.ratio - 2.66) < 0.05 && grey.inkHeight == 20, "\(grey)")
        let gradient = try #require(TextContrast.measure(rgb: region({ _, y in UInt8(190 + y / 4) }, ink: 30), width: 60, height: 40, region: whole))
        #expect(gradient.ratio > 9, "\(gradient)")
        #expect(TextContrast.measure(rgb: region({ x, y in UInt8((x * 37 + y * 91) % 256) }, ink: 0), width: 60, height: 40, region: whole) == nil)
        #expect(TextContrast.measure(rgb: region({ _, _ in 200 }, ink: nil), width: 60, height: 40, region: whole) == nil)
    }
}
