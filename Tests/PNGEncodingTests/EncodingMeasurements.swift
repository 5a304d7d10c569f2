import Foundation
import ImageCore
import XCTest
@testable import PNGEncoding

/// The figures behind Sources/PNGEncoding/NOTES.md. Skipped unless `PNGENC_MEASURE_DIR` names a
/// folder made by Tests/Fixtures/encode/make_measure_inputs.py; run it in release:
/// `PNGENC_MEASURE_DIR=/tmp/encmeasure swift test -c release -Xswiftc -enable-testing --filter EncodingMeasurements`
/// It prints tables and checks that every file it encodes decodes back exactly.
final class EncodingMeasurements: XCTestCase {
    struct Input {
        var name: String
        var indexed: [IndexedImage] = []
        var delays: [Delay] = []
        var rgba: Image?
    }

    func load(_ url: URL) throws -> Input {
        let d = [UInt8](try Data(contentsOf: url))
        func u32(_ i: Int) -> Int { Int(d[i]) | Int(d[i + 1]) << 8 | Int(d[i + 2]) << 16 | Int(d[i + 3]) << 24 }
        let magic = String(decoding: d[0..<4], as: UTF8.self)
        let w = u32(4), h = u32(8), p = u32(12), n = u32(16)
        var palette: [RGBA] = []
        var o = 20
        for _ in 0..<p { palette.append(RGBA(d[o], d[o + 1], d[o + 2], d[o + 3])); o += 4 }
        var input = Input(name: url.lastPathComponent)
        let frameBytes = magic == "RGBA" ? w * h * 4 : w * h
        for _ in 0..<n {
            let ms = u32(o); o += 4
            let bytes = Array(d[o..<(o + frameBytes)]); o += frameBytes
            if magic == "RGBA" {
                input.rgba = Image(width: w, height: h, pixels: bytes)
            } else {
                input.indexed.append(IndexedImage(width: w, height: h, palette: palette, indices: bytes))
                input.delays.append(Delay(milliseconds: ms))
            }
        }
        return input
    }

    func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let r = try body()
        return (r, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }

    func testMeasureCorpus() throws {
        guard let dir = ProcessInfo.processInfo.environment["PNGENC_MEASURE_DIR"] else {
            throw XCTSkip("measurements: set PNGENC_MEASURE_DIR to a folder made by Tests/Fixtures/encode/make_measure_inputs.py")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".bin") }.sorted()
        let levels = [1, 3, 6, 9, 10, 12]
        print("| file | strategy | " + levels.map { "L\($0) bytes / ms" }.joined(separator: " | ") + " |")
        var efforts: [String] = []
        for f in files {
            let input = try load(URL(fileURLWithPath: dir).appendingPathComponent(f))
            if input.indexed.count > 1 {
                try measureAnimation(input)
                continue
            }
            let raster: Raster
            if let image = input.rgba {
                raster = TruecolorLayout(fitting: [image]).raster(image.pixels, width: image.width, height: image.height)
            } else {
                let image = input.indexed[0]
                var used = [Bool](repeating: false, count: 256)
                PaletteLayout.markUsed(image.indices, in: &used)
                let layout = PaletteLayout(palette: image.palette, used: used)
                raster = layout.remapped(image.indices).withUnsafeBufferPointer {
                    Raster.packing($0.baseAddress!, width: image.width, height: image.height, bitDepth: layout.bitDepth)
                }
            }
            let compressor = ZlibCompressor()
            let matrix = ProcessInfo.processInfo.environment["PNGENC_MEASURE_MATRIX"] != nil
            for s in FilterStrategy.all where matrix {
                let (filtered, filterMs) = time { ScanlineFilter.filter(raster, strategy: s) }
                var cells: [String] = []
                for level in levels {
                    let (stream, ms) = time { compressor.compress(filtered, level: level) }
                    cells.append("\(stream.count) / \(String(format: "%.0f", ms + filterMs))")
                }
                print("| \(input.name) | \(s) | " + cells.joined(separator: " | ") + " |")
            }
            var row = "| \(input.name) |"
            for effort in Effort.allCases {
                let (png, ms) = input.rgba.map { img in time { PNGEncoder.encode(img, effort: effort) } }
                    ?? time { PNGEncoder.encode(input.indexed[0], effort: effort) }
                let expected = input.rgba ?? input.indexed[0].expanded()
                XCTAssertEqual(try LibPNGDecoder.decode(png), expected, input.name)
                row += " \(png.count) / \(String(format: "%.0f", ms)) |"
            }
            if input.rgba == nil {
                let (est, ms) = time { PNGEncoder.estimatedSize(input.indexed[0]) }
                let def = PNGEncoder.encode(input.indexed[0]).count
                row += " \(est) / \(String(format: "%.0f", ms)) | \(String(format: "%+.1f", Double(est - def) / Double(def) * 100)) % |"
            }
            efforts.append(row)
        }
        print("| file | fast bytes / ms | default | max | estimate | estimate error |")
        efforts.forEach { print($0) }
    }

    func testMeasureFilterKernels() throws {
        guard ProcessInfo.processInfo.environment["PNGENC_MEASURE_DIR"] != nil else {
            throw XCTSkip("measurements: set PNGENC_MEASURE_DIR (see testMeasureCorpus)")
        }
        // Noise is the worst case for branchy code; best of 10 runs on a 618² RGBA frame.
        var r = SeededRandom(1)
        let raster = Raster(width: 618, height: 618, bitsPerPixel: 32, data: (0..<(618 * 618 * 4)).map { _ in r.byte() })
        for s in FilterStrategy.all {
            var best = Double.infinity
            for _ in 0..<10 {
                let (f, ms) = time { ScanlineFilter.filter(raster, strategy: s) }
                XCTAssertEqual(f.count, 618 * (618 * 4 + 1))
                best = min(best, ms)
            }
            print("filter \(s): \(String(format: "%.2f", best)) ms")
        }
    }

    func measureAnimation(_ input: Input) throws {
        var row = "| \(input.name) (\(input.indexed.count) f) |"
        for effort in Effort.allCases {
            let (apng, ms) = try time { try PNGEncoder.encodeAnimation(frames: input.indexed, delays: input.delays, loopCount: 0, effort: effort) }
            row += " \(apng.count) / \(String(format: "%.0f", ms)) |"
            if effort == .fast {
                let decoded = try APNGTestDecoder.decode(apng)
                XCTAssertEqual(decoded.frames, APNGEncoderTests.merged(input.indexed.map { $0.expanded() }, input.delays).0, input.name)
            }
        }
        let (est, ms) = try time { try PNGEncoder.estimatedAnimationSize(frames: input.indexed, delays: input.delays, loopCount: 0) }
        let def = try PNGEncoder.encodeAnimation(frames: input.indexed, delays: input.delays, loopCount: 0).count
        row += " \(est) / \(String(format: "%.0f", ms)) (\(String(format: "%+.1f", Double(est - def) / Double(def) * 100)) %) |"
        // Every frame whole, for comparison: what cropping and blending save.
        let whole = input.indexed.reduce(0) { $0 + PNGEncoder.encode($1, effort: .fast).count }
        row += " \(whole) |"
        print("| animation | fast | default | max | estimate | frames as separate PNGs (fast) |")
        print(row)
    }
}
