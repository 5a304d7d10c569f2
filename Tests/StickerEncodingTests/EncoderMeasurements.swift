import Dispatch
import EncodingTestSupport
import Foundation
import ImageCore
import ImageDecoding
import ImageResize
import StickerEncoding
import WebMEncoding
import WebPEncoding
import XCTest

/// The figures behind Sources/StickerEncoding/NOTES.md: every codec at a few settings on real
/// artwork fitted into 512 px (the size Signal, WhatsApp and Telegram want), with bytes, quality
/// (premultiplied PSNR against the fitted frames, mean over frames) and encode time. Skipped
/// unless `STICKER_ENCODE_MEASURE` lists input files separated by `:`; run in release:
/// `STICKER_ENCODE_MEASURE=a.png:b.webp swift test -c release -Xswiftc -enable-testing --filter EncoderMeasurements`
final class EncoderMeasurements: XCTestCase {
    func testMeasure() throws {
        guard let list = ProcessInfo.processInfo.environment["STICKER_ENCODE_MEASURE"] else {
            throw XCTSkip("set STICKER_ENCODE_MEASURE to measure")
        }
        let maxFrames = Int(ProcessInfo.processInfo.environment["STICKER_ENCODE_MAX_FRAMES"] ?? "") ?? 90
        for path in list.split(separator: ":").map(String.init) {
            let decoded = try ImageDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            var fitted = Resizer.fit(decoded.animation, options: FitOptions(size: 512)).animation
            if fitted.frames.count > maxFrames { fitted.frames = Array(fitted.frames.prefix(maxFrames)) }
            let name = URL(fileURLWithPath: path).lastPathComponent
            let frames = StickerFrames(fitted, animated: fitted.isAnimated)
            let source = frames.rgbaFrames
            print("\n## \(name): \(fitted.frames.count) frames at \(fitted.width)×\(fitted.height), \(fitted.duration.milliseconds) ms, opaque \(source.allSatisfy(\.isOpaque))")
            print("| codec | quality | bytes | PSNR dB | alpha error | ms |")
            print("|---|---|---|---|---|---|")
            var runs: [(String, StickerCodec, EncodeQuality)] = [("png default", .png(.default), .lossless),
                                                                  ("webp m4", .webp(WebPOptions()), .lossless)]
            for q in [50, 75, 90] { runs.append(("webp m4", .webp(WebPOptions()), .level(q))) }
            runs.append(("webp m6", .webp(WebPOptions(method: 6)), .level(75)))
            runs.append(("webp m4 sharpYUV", .webp(WebPOptions(sharpYUV: true)), .level(75)))
            if frames.frameCount > 1 {
                runs.append(("webp m4 mixed", .webp(WebPOptions(allowMixed: true)), .level(75)))
                for cq in [12, 24, 36, 48] {
                    runs.append(("webm s2 2-pass", .webm(WebMOptions()), .level(63 - cq)))
                }
                runs.append(("webm s4 2-pass", .webm(WebMOptions(speed: 4)), .level(63 - 24)))
                runs.append(("webm s2 1-pass", .webm(WebMOptions(twoPass: false)), .level(63 - 24)))
                runs.append(("webm s6 1-pass", .webm(WebMOptions(speed: 6, twoPass: false)), .level(63 - 24)))
                runs.append(("webm s2 2-pass alpha cq 10", .webm(WebMOptions(alphaCQLevel: 10)), .level(63 - 24)))
                runs.append(("webm s2 2-pass alpha cq 10", .webm(WebMOptions(alphaCQLevel: 10)), .level(63 - 48)))
            }
            if let only = ProcessInfo.processInfo.environment["STICKER_ENCODE_ONLY"] {
                runs = runs.filter { $0.0.hasPrefix(only) }
            }
            for (label, codec, quality) in runs {
                let start = DispatchTime.now().uptimeNanoseconds
                let out = try codec.encode(frames, quality: quality)
                let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                let back = try decodeBack(out)
                let differences = zip(source, back).map { ImageDifference($0, $1) }
                let psnr = differences.map(\.premultipliedPSNR).reduce(0, +) / Double(back.count)
                let alphaError = differences.map(\.alphaMean).reduce(0, +) / Double(back.count)
                let q: String = switch quality { case .lossless: "lossless"; case .level(let l): "\(l)" }
                XCTAssertEqual(back.count, out.container == .webm ? source.count : back.count)
                print("| \(label) | \(q)\(out.container == .webm ? " (cq \(63 - (Int(q) ?? 0)))" : "") | \(out.bytes.count) | \(String(format: "%.2f", psnr)) | \(String(format: "%.2f", alphaError)) | \(Int(ms)) |")
            }
            if frames.frameCount > 1, ProcessInfo.processInfo.environment["STICKER_ENCODE_ONLY"] == nil {
                // The bitrate mode aimed at Telegram's 256 KB for the whole animation.
                let seconds = Double(max(1, fitted.duration.roundedMilliseconds)) / 1000
                for aim in [256_000, 128_000] {
                    let kbps = Int(Double(aim) * 8 / 1000 / seconds)
                    let start = DispatchTime.now().uptimeNanoseconds
                    let bytes = try WebMEncoder.encode(frames: source, delays: frames.delays, rate: .bitrate(kilobitsPerSecond: kbps))
                    let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                    print("| webm s2 2-pass VBR aim \(aim) | \(kbps) kbps | \(bytes.count) | | | \(Int(ms)) |")
                }
            }
        }
    }

    /// Every frame of an encoded sticker, as RGBA (the animation's frames on the canvas).
    private func decodeBack(_ out: EncodedSticker) throws -> [Image] {
        if out.container != .webm { return try ImageDecoder.decode(out.bytes).animation.frames.map(\.image) }
        let segment = try EBMLReader.parse(out.bytes)[1]
        let color = try VP9TestDecoder(), alpha = try VP9TestDecoder()
        var images: [Image] = []
        for cluster in segment.all(0x1F43_B675) {
            for e in cluster.children where e.id == 0xA3 || e.id == 0xA0 {
                let block = e.id == 0xA3 ? e : e.first(0xA1)!
                let c = try color.decode(Array(block.body.dropFirst(4)))
                let a = try e.find(0x75A1, 0xA6, 0xA5).map { try alpha.decode(Array($0.body)) }
                images.append(VP9TestDecoder.rgba(c, alpha: a))
            }
        }
        return images
    }
}
