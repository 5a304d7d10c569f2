import ImageCore
import XCTest
@testable import StickerKit

/// `StickerConverter.checkFileSize`: what a file's size alone says of its conversion's memory.
final class FileSizeCheckTests: XCTestCase {
    /// The least a file's conversion holds: the process and its bytes; a file that leaves room
    /// for them passes.
    func testTheLeastIsTheProcessAndTheBytes() throws {
        let least = ConversionMemory.process
        var limits = Limits()
        limits.maxMemory = least + 1_000
        XCTAssertNoThrow(try StickerConverter.checkFileSize(1_000, head: [], limits: limits))
        XCTAssertThrowsError(try StickerConverter.checkFileSize(1_001, head: [0x47, 0x49, 0x46, 0x38, 0x39, 0x61], limits: limits)) { e in
            guard let error = e as? ImageError, case .fileOverMemory(let bytes, let l, let max)? = error.reason as? LimitsError else {
                return XCTFail("\(e)")
            }
            XCTAssertEqual(error.format, .gif)
            XCTAssertEqual(bytes, 1_001)
            XCTAssertEqual(l, least + 1_001)
            XCTAssertEqual(max, limits.maxMemory)
        }
    }

    /// The refusal names the file's size in the unit that suits it: a small file is not "1 MB".
    func testTheRefusalNamesTheFilesSizeInItsUnit() {
        var limits = Limits()
        limits.maxMemory = 1_000_000
        for (bytes, size) in [(206, "206-byte"), (64_513, "65 KB"), (100_000_000, "100 MB"), (100_000_001, "101 MB")] {
            XCTAssertThrowsError(try StickerConverter.checkFileSize(bytes, head: [], limits: limits)) { e in
                let least = Limits.describeMegabytes(ConversionMemory.process + bytes)
                XCTAssertEqual((e as? ImageError)?.message,
                               "converting this \(size) file needs at least \(least) of memory, over the 1 MB limit (--max-memory raises it)")
            }
        }
    }
}
