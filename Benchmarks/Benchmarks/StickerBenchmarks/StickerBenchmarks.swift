import Benchmark
import Foundation
import StickerKit
import ImageDecoding
import ImageQuantize
import ImageResize
import PNGEncoding

// Stage and pipeline benchmarks, named `Stage.operation/input/params`. Inputs come from the
// repository's samples/ folder; each benchmark decodes what it needs in setup, outside the
// measured loop. Run from this folder: `swift package benchmark` (see the README).

private let samples = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("samples")

private func sample(_ name: String) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: samples.appendingPathComponent(name)))) ?? []
}

private func decoded(_ name: String) -> Animation {
    (try? ImageDecoder.decode(sample(name)).animation) ?? Animation(still: Image(width: 1, height: 1))
}

/// A 2048² image with smooth colour, soft alpha and noise: the resize stage's worst friend.
private func synthetic(_ side: Int) -> Image {
    var px = [UInt8](repeating: 0, count: side * side * 4)
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for y in 0..<side {
        for x in 0..<side {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let n = Int(seed >> 59)
            let i = (y * side + x) * 4
            px[i] = UInt8((x * 255 / side + n) & 255)
            px[i + 1] = UInt8((y * 255 / side + n) & 255)
            px[i + 2] = UInt8(((x + y) * 127 / side) & 255)
            px[i + 3] = UInt8(min(255, max(0, 400 - abs(x - side / 2) * 300 / side - abs(y - side / 2) * 300 / side)))
        }
    }
    return Image(width: side, height: side, pixels: px)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
                                           maxDuration: .seconds(3), maxIterations: 1000)

    // Decode, per format.
    for (name, file) in [("png/teddybear-744x1052", "oc_teddybear.png"), ("jpeg/rocket-640x427", "rocket_640x427.jpg"),
                         ("webp/dice-800x600", "webp_gallery_dice_alpha.webp"), ("gif/cogs-5f", "cogs_small_transparent.gif"),
                         ("apng/elephant-34f", "elephant_480x400_34f.png")] {
        let bytes = sample(file)
        Benchmark("Decode.\(name)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try? ImageDecoder.decode(bytes)) }
        }
    }

    // Resize: area average 2048² → 618², and a memcpy of the same source as the yardstick.
    let big = synthetic(2048)
    Benchmark("Resize.areaAverage/synthetic-2048/618") { benchmark in
        let anim = Animation(still: big)
        for _ in benchmark.scaledIterations { blackHole(Resizer.fit(anim, options: FitOptions(size: 618))) }
    }
    Benchmark("Memory.memcpy/synthetic-2048/16MB") { benchmark in
        var dst = [UInt8](repeating: 0, count: big.pixels.count)
        for _ in benchmark.scaledIterations {
            big.pixels.withUnsafeBytes { s in dst.withUnsafeMutableBytes { d in d.copyMemory(from: s) } }
            blackHole(dst[dst.count / 2])
        }
    }

    // Quantize and encode one 618² sticker: the histogram + palette stage and the remap stage
    // apart (the palette for the remap is built in setup), and the encoders on the result.
    let teddy = Resizer.fit(decoded("oc_teddybear.png"), options: FitOptions(size: 618)).animation.frames[0].image
    let photo = Resizer.fit(decoded("rocket_640x427.jpg"), options: FitOptions(size: 618)).animation.frames[0].image
    let wine = Resizer.fit(decoded("wine_portrait_2560x3837.jpg"), options: FitOptions(size: 618)).animation.frames[0].image
    for (label, image) in [("teddybear", teddy), ("rocket", photo), ("wine", wine)] {
        Benchmark("Quantize.histogramPalette/\(label)-618/256") { benchmark in
            for _ in benchmark.scaledIterations {
                var histogram = ImageQuantize.Histogram()
                histogram.add(image)
                blackHole(Quantizer.palette(from: histogram, maxColors: 256))
            }
        }
        var histogram = ImageQuantize.Histogram()
        histogram.add(image)
        let palette = Quantizer.palette(from: histogram, maxColors: 256)
        Benchmark("Quantize.remap/\(label)-618/256-dither") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(Quantizer.remap([image], to: palette, dithering: 1)) }
        }
    }
    for (label, image) in [("teddybear", teddy), ("rocket", photo)] {
        let indexed = Quantizer.quantize([image], options: QuantizeOptions(maxColors: 256, dithering: 1)).frames[0]
        for effort in Effort.allCases {
            Benchmark("Encode.indexed/\(label)-618/\(effort.rawValue)") { benchmark in
                for _ in benchmark.scaledIterations { blackHole(PNGEncoder.encode(indexed, effort: effort)) }
            }
        }
        Benchmark("Encode.truecolor/\(label)-618/default") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(PNGEncoder.encode(image, effort: .default)) }
        }
    }

    // APNG frame optimisation + deflate on a quantized animation.
    let elephant = Resizer.fit(decoded("elephant_480x400_34f.png"), options: FitOptions(size: 408)).animation
    let elephantQ = Quantizer.quantize(elephant.frames.map(\.image), options: QuantizeOptions(maxColors: 256, dithering: 0.5))
    Benchmark("Encode.apng/elephant-408-34f/default") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try? PNGEncoder.encodeAnimation(frames: elephantQ.frames, delays: elephant.frames.map(\.delay),
                                                      loopCount: 0, effort: .default))
        }
    }

    // The whole pipeline, budget search included.
    for (name, file, size) in [("still/teddybear", "oc_teddybear.png", StickerSize.large),
                               ("still/rocket", "rocket_640x427.jpg", .large),
                               ("still/stop-sign", "oc_stop_sign_shadow.png", .large),
                               ("animated/elephant", "elephant_480x400_34f.png", .regular),
                               ("animated/ring", "ring_200_6f.webp", .large)] {
        let bytes = sample(file)
        Benchmark("Pipeline.\(name)/\(size.pixels)/500KB") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try? StickerConverter.convert(bytes, options: ConversionOptions(sizes: [size])))
            }
        }
    }
}
