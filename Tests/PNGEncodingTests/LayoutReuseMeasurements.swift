import Foundation
import ImageCore
import XCTest
@testable import PNGEncoding

/// The APNG speed figures in Sources/PNGEncoding/NOTES.md: process CPU time (user + system, all
/// threads) of a `.fast` encode, a fresh `.default` encode and a `.default` encode reusing the
/// `.fast` layout. Skipped unless `PNGENC_LAYOUT_DIR` names a folder of palette APNGs (e.g. the
/// stickers `stickerkit resize … --size large` writes); each is decoded and its frames re-encoded.
/// Run in release:
/// `PNGENC_LAYOUT_DIR=/tmp/out swift test -c release -Xswiftc -enable-testing --filter LayoutReuseMeasurements`
final class LayoutReuseMeasurements: XCTestCase {
    static func cpuMilliseconds() -> Double {
        var u = rusage()
        getrusage(RUSAGE_SELF.rawValue, &u)
        let user = Double(u.ru_utime.tv_sec) * 1e3 + Double(u.ru_utime.tv_usec) / 1e3
        let system = Double(u.ru_stime.tv_sec) * 1e3 + Double(u.ru_stime.tv_usec) / 1e3
        return user + system
    }

    /// The result of `body` and its smallest CPU time over `runs` runs.
    func cpu<T>(_ runs: Int, _ body: () throws -> T) rethrows -> (T, Double) {
        var best = Double.infinity
        var result: T?
        for _ in 0..<runs {
            let start = Self.cpuMilliseconds()
            result = try body()
            best = min(best, Self.cpuMilliseconds() - start)
        }
        return (result!, best)
    }

    func testMeasureLayoutReuse() throws {
        guard let dir = ProcessInfo.processInfo.environment["PNGENC_LAYOUT_DIR"] else {
            throw XCTSkip("measurements: set PNGENC_LAYOUT_DIR to a folder of palette APNGs")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".png") }.sorted()
        print("| animation | frames → written | fast bytes / ms | default bytes / ms | default, layout reused: ms | same layout / bytes |")
        var totals = [0.0, 0.0, 0.0]
        for f in files {
            let decoded = try APNGTestDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir).appendingPathComponent(f))))
            guard decoded.frames.count > 1, let frames = RealArtworkTests.exactIndexed(decoded.frames) else { continue }
            let delays = decoded.delays.map { Delay(numerator: $0.0, denominator: $0.1) }
            let (fast, fastMs) = try cpu(3) {
                try PNGEncoder.encodeAnimationWithLayout(frames: frames, delays: delays, effort: .fast, alwaysAnimated: true)
            }
            let (fresh, freshMs) = try cpu(2) {
                try PNGEncoder.encodeAnimationWithLayout(frames: frames, delays: delays, effort: .default, alwaysAnimated: true)
            }
            let (reused, reusedMs) = try cpu(2) {
                try PNGEncoder.encodeAnimation(frames: frames, delays: delays, effort: .default, alwaysAnimated: true, layout: fast.layout)
            }
            XCTAssertEqual(try APNGTestDecoder.decode(reused).frames, APNGEncoderTests.merged(decoded.frames, delays).0, f)
            totals[0] += fastMs; totals[1] += freshMs; totals[2] += reusedMs
            print("| \(f) | \(frames.count) → \(fast.layout.writtenFrameCount) | \(fast.bytes.count) / \(Int(fastMs)) | "
                  + "\(fresh.bytes.count) / \(Int(freshMs)) | \(Int(reusedMs)) | "
                  + "\(fresh.layout.frames == fast.layout.frames ? "yes" : "NO") / \(reused == fresh.bytes ? "yes" : "NO (\(reused.count))") |")
        }
        print("| total | | \(Int(totals[0])) | \(Int(totals[1])) | \(Int(totals[2])) | |")
    }
}
