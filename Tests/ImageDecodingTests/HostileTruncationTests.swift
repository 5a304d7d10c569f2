import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// Every fixture that decodes, cut at 64 offsets: never a crash; strict mode gives an ImageError;
/// lenient mode gives an error or a valid animation on the intact file's canvas.
final class HostileTruncationTests: XCTestCase {
    /// 64 cut lengths: 16 in the first 256 bytes (headers and first chunks live there) and 48
    /// evenly spread over the rest, always shorter than the file.
    static func cuts(_ count: Int) -> [Int] {
        var cuts = Set<Int>()
        for i in 0..<16 { cuts.insert(min(count - 1, i * 16)) }
        var i = 0
        while cuts.count < min(64, count) && i < 4 * 64 {
            cuts.insert(min(count - 1, 256 + (count - 256) * (i % 48) / 48 + i / 48))
            i += 1
        }
        return cuts.sorted()
    }

    /// Files over this size are cut at 16 of the 64 offsets, keeping the sweep to a few seconds in
    /// a debug build. (Not first-frame-only: that mode rightly stops reading before a late cut.)
    static let bigFile = 100_000

    func testTruncationAt64OffsetsNeverCrashes() throws {
        let candidates = Hostile.files(under: Hostile.fixtures).filter { !$0.path.contains("/fuzz-regressions/") }
            + Hostile.files(under: Hostile.samples)
        var swept = 0
        var lenientDecodes = 0
        for url in candidates {
            let bytes = try Hostile.bytes(url)
            let name = url.pathComponents.suffix(2).joined(separator: "/")
            let big = bytes.count > Self.bigFile
            let options = DecodeOptions()
            // Only files that decode intact are swept: the broken ones have their own tests.
            guard let intact = try? ImageDecoder.decode(bytes, options: options) else { continue }
            swept += 1
            var cuts = Self.cuts(bytes.count)
            if big { cuts = stride(from: 0, to: cuts.count, by: 4).map { cuts[$0] } }
            for cut in cuts {
                let prefix = Array(bytes[0..<cut])
                let what = "\(name) cut at \(cut) of \(bytes.count)"
                if ImageDecoder.sniff(bytes) == .gif, let early = try? ImageDecoder.decode(prefix, options: options) {
                    // A GIF cut exactly between records cannot be told from one written without its
                    // trailer (browsers show those): accepted, with a warning, keeping whole frames.
                    XCTAssertTrue(early.warnings.contains { $0.contains("without a trailer") }, "\(what): \(early.warnings)")
                    XCTAssertLessThanOrEqual(early.animation.frames.count, intact.animation.frames.count, what)
                    XCTAssertEqual(early.animation.frames.first?.image, intact.animation.frames.first?.image, what)
                } else if let error = Hostile.decodeError(prefix, options, what) {
                    XCTAssertFalse(error.message.isEmpty, what)
                    if cut > 64 {
                        // Past the header, a cut is damage to a file of a known format.
                        XCTAssertNotNil(error.format, "\(what): \(error)")
                    }
                }
                var lenient = options
                lenient.lenient = true
                do {
                    let salvaged = try ImageDecoder.decode(prefix, options: lenient)
                    lenientDecodes += 1
                    let a = salvaged.animation
                    XCTAssertEqual(a.width, intact.animation.width, what)
                    XCTAssertEqual(a.height, intact.animation.height, what)
                    XCTAssertFalse(a.frames.isEmpty, what)
                    XCTAssertLessThanOrEqual(a.frames.count, intact.animation.frames.count, what)
                    for frame in a.frames {
                        XCTAssertEqual(frame.image.pixels.count, a.width * a.height * 4, what)
                    }
                    XCTAssertFalse(salvaged.warnings.isEmpty, "\(what): salvaged without saying so")
                } catch let error as ImageError {
                    XCTAssertFalse(error.message.isEmpty, what)
                } catch {
                    XCTFail("\(what) (lenient): expected ImageError, got \(error)")
                }
            }
        }
        print("truncation sweep: \(swept) files, \(lenientDecodes) lenient salvages")
        // Guard against the sweep silently finding nothing (a moved folder, say).
        XCTAssertGreaterThanOrEqual(swept, 40, "only \(swept) fixtures decoded")
        XCTAssertGreaterThan(lenientDecodes, 100, "lenient mode salvaged almost nothing")
    }
}
