import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// Inputs the fuzzers (Fuzz/, scripts/fuzz) found crashing or misbehaving, minimised. Each must now
/// give a clean ImageError, strict and lenient, under default and small limits; the README in the
/// folder says what each one broke.
final class HostileRegressionTests: XCTestCase {
    static let folder = Hostile.fixtures.appendingPathComponent("fuzz-regressions")

    /// The limits the fuzz targets run under (Fuzz/Sources/FuzzSupport/FuzzHarness.swift).
    static let fuzzLimits = Limits(maxWidth: 4096, maxHeight: 4096, maxPixels: 4_000_000, maxFrames: 200, maxTotalBytes: 64 << 20)

    func testEveryFuzzRegressionGivesACleanError() throws {
        let files = Hostile.files(under: Self.folder)
        if files.isEmpty { throw XCTSkip("no fuzz regressions recorded") }
        for url in files {
            let bytes = try Hostile.bytes(url)
            for limits in [Limits.default, Self.fuzzLimits] {
                for lenient in [false, true] {
                    let what = "\(url.lastPathComponent) (lenient \(lenient), maxPixels \(limits.maxPixels))"
                    do {
                        let decoded = try ImageDecoder.decode(bytes, options: .init(limits: limits, lenient: lenient))
                        // Lenient mode may salvage; strict mode must refuse.
                        XCTAssertTrue(lenient, "\(what): strict mode decoded a damaged file")
                        let a = decoded.animation
                        for frame in a.frames { XCTAssertEqual(frame.image.pixels.count, a.width * a.height * 4, what) }
                        XCTAssertFalse(decoded.warnings.isEmpty, "\(what): salvaged without a warning")
                    } catch let error as ImageError {
                        XCTAssertFalse(error.message.isEmpty, what)
                        XCTAssertNotNil(error.format, "\(what): \(error)")
                    } catch {
                        XCTFail("\(what): expected ImageError, got \(error)")
                    }
                }
            }
        }
    }
}
