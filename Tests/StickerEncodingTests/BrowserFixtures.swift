import Foundation
import ImageCore
import StickerEncoding
import TestSupport
import WebMEncoding
import WebPEncoding
import XCTest

/// Writes the files `scripts/test-webm-browser` plays in headless Chromium: an alpha WebM and an
/// animated lossless WebP made through the seam, and `expected.json` with each frame's timing and
/// the source pixels at a few points (transparent, translucent, opaque). Skipped unless
/// `STICKER_ENCODE_BROWSER_DIR` names the folder to write.
final class BrowserFixtures: XCTestCase {
    func testWriteBrowserFixtures() throws {
        guard let dir = ProcessInfo.processInfo.environment["STICKER_ENCODE_BROWSER_DIR"] else {
            throw XCTSkip("set STICKER_ENCODE_BROWSER_DIR to write the browser fixtures")
        }
        let side = 256
        let frames = (0..<8).map { Image(width: side, height: side,
                                          pixels: syntheticStickerPixels(width: side, height: side, phase: $0 * 3, seed: 9)) }
        // Points: a corner (transparent), the shadow ring (translucent), the disc (opaque), an edge.
        func points(_ image: Image) -> [[Int]] {
            var out: [[Int]] = [[4, 4], [side / 2, side / 2], [side / 2 + 20, side / 2 - 10]]
            // First translucent and first opaque pixel along the middle row, from the left.
            if let x = (0..<side).first(where: { image[$0, side / 2].a > 20 && image[$0, side / 2].a < 200 }) { out.append([x, side / 2]) }
            if let x = (0..<side).first(where: { image[$0, side / 2].a == 255 }) { out.append([x + 3, side / 2]) }
            return out.map { p in let c = image[p[0], p[1]]; return p + [Int(c.r), Int(c.g), Int(c.b), Int(c.a)] }
        }
        let videoDelays = Array(repeating: Delay(numerator: 1, denominator: 8), count: frames.count)
        let webpDelays = (0..<frames.count).map { Delay(milliseconds: 60 + 20 * $0) }
        let video = try StickerCodec.webm(WebMOptions()).encode(
            StickerFrames(pixels: .rgba(frames), delays: videoDelays, animated: true), quality: .level(45))
        let webp = try StickerCodec.webp(WebPOptions(exact: true)).encode(
            StickerFrames(pixels: .rgba(frames), delays: webpDelays, loopCount: 0, animated: true), quality: .lossless)
        let videoTimes = Delay.millisecondTimeline(videoDelays), webpTimes = Delay.millisecondTimeline(webpDelays)
        let expected: [String: Any] = [
            "webm": ["file": "sticker.webm", "size": side, "frames": frames.indices.map { i in
                ["start": videoTimes[i], "duration": videoTimes[i + 1] - videoTimes[i], "points": points(frames[i])] as [String: Any]
            }],
            "webp": ["file": "sticker.webp", "size": side, "frames": frames.indices.map { i in
                ["start": webpTimes[i], "duration": webpTimes[i + 1] - webpTimes[i], "points": points(frames[i])] as [String: Any]
            }],
        ]
        let url = URL(fileURLWithPath: dir)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Data(video.bytes).write(to: url.appendingPathComponent("sticker.webm"))
        try Data(webp.bytes).write(to: url.appendingPathComponent("sticker.webp"))
        try JSONSerialization.data(withJSONObject: expected, options: [.prettyPrinted, .sortedKeys])
            .write(to: url.appendingPathComponent("expected.json"))
    }
}
