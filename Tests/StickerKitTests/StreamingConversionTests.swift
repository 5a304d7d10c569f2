import Foundation
import ImageCore
import XCTest
@testable import StickerKit

/// Large sources are converted by decoding once per size and fitting each frame as it arrives
/// (`StickerConverter.streamingThreshold`); the bytes written must be those of the decode-once
/// path. Tests force either path with the threshold.
final class StreamingConversionTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func fixture(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(path)))
    }

    /// Converts `bytes` held whole and streamed (from the first frame, and, with `midway`, from
    /// the third on, which switches paths mid-decode) and requires the same result.
    func assertStreamingChangesNothing(_ path: String, _ options: ConversionOptions, midway: Bool = false,
                                       file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = try Self.fixture(path)
        let whole = try StickerConverter.convert(bytes, options: options, streamingThreshold: .max)
        let canvasBytes = whole.width * whole.height * 4
        for threshold in midway ? [0, 2 * canvasBytes] : [0] {
            let what = "\(path) trim \(options.trim), threshold \(threshold)"
            let streamed = try StickerConverter.convert(bytes, options: options, streamingThreshold: threshold)
            XCTAssertEqual(streamed.format, whole.format, what, file: file, line: line)
            XCTAssertEqual([streamed.width, streamed.height, streamed.frames], [whole.width, whole.height, whole.frames], what,
                           file: file, line: line)
            XCTAssertEqual(streamed.warnings, whole.warnings, what, file: file, line: line)
            XCTAssertEqual(streamed.outputs.map(\.size), whole.outputs.map(\.size), what, file: file, line: line)
            for (s, w) in zip(streamed.outputs, whole.outputs) {
                switch (s.result, w.result) {
                case (.success(let a), .success(let b)):
                    XCTAssertTrue(a.bytes == b.bytes, "\(what) at \(s.size): output bytes differ", file: file, line: line)
                    XCTAssertEqual(a.report, b.report, "\(what) at \(s.size)", file: file, line: line)
                case (.failure(let a), .failure(let b)):
                    XCTAssertEqual(a, b, what, file: file, line: line)
                default:
                    XCTFail("\(what) at \(s.size): \(s.result) vs \(w.result)", file: file, line: line)
                }
            }
        }
    }

    func testStreamedAnimationsGiveTheSameBytes() throws {
        // Two sizes: without trim the first is fitted in the pass that finds the source large,
        // the second in a pass of its own. Fast settings: the search is not under test (and is
        // slow in debug builds).
        func options(trim: Bool) -> ConversionOptions {
            ConversionOptions(sizes: [.small, .regular], trim: trim, maxBytes: 60_000, effort: .fast, maxColors: 32)
        }
        try assertStreamingChangesNothing("gif/cogs_small_transparent.gif", options(trim: false), midway: true)
        try assertStreamingChangesNothing("gif/cogs_small_transparent.gif", options(trim: true), midway: true)
        try assertStreamingChangesNothing("webp/ring_200_6f.webp", options(trim: false))
        try assertStreamingChangesNothing("png/maneki_neko_palette_3f.apng", options(trim: true))
    }

    /// Stills are never streamed (their peak is their own decode); any threshold gives the same bytes.
    func testStillsGiveTheSameBytesAtAnyThreshold() throws {
        for path in ["encode/oc_music_note_sparse.png"] {
            for trim in [false, true] {
                try assertStreamingChangesNothing(path, ConversionOptions(sizes: StickerSize.allCases, trim: trim, inset: 4,
                                                                          effort: .fast))
            }
        }
    }

    func testStreamingKeepsDecodingErrorsAndNoSizesIsNoWork() throws {
        let cut = try Self.fixture("broken/truncated_gif_40pct.gif")
        func error(_ threshold: Int) -> ImageError? {
            do {
                // Trim: the streamed first pass only scans for bounds, and meets the cut there.
                _ = try StickerConverter.convert(cut, options: ConversionOptions(sizes: [.small], trim: true), streamingThreshold: threshold)
            } catch let error as ImageError {
                return error
            } catch {}
            return nil
        }
        XCTAssertNotNil(error(.max))
        XCTAssertEqual(error(0), error(.max))
        let none = try StickerConverter.convert(try Self.fixture("gif/cogs_small_transparent.gif"),
                                                options: ConversionOptions(sizes: []), streamingThreshold: 0)
        XCTAssertEqual(none.frames, 5)
        XCTAssertTrue(none.outputs.isEmpty)
    }
}
