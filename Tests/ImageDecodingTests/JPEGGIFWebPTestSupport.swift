import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// Fixture access and comparisons shared by the JPEG, GIF, WebP and colour tests.
enum OtherFormatFixture {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The bytes of `Tests/Fixtures/<path>`.
    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
    }

    /// Largest absolute difference between two byte arrays of equal length (Int.max when not).
    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard a.count == b.count else { return .max }
        var m = 0
        for i in 0..<a.count { m = max(m, abs(Int(a[i]) - Int(b[i]))) }
        return m
    }

    /// Runs `body`, requires an `ImageError` of `kind`, and returns it.
    static func expectError<T>(_ kind: ImageError.Kind, file: StaticString = #filePath, line: UInt = #line,
                               _ body: () throws -> T) -> ImageError? {
        do {
            _ = try body()
            XCTFail("expected a \(kind) error, got a result", file: file, line: line)
        } catch let error as ImageError {
            XCTAssertEqual(error.kind, kind, "\(error)", file: file, line: line)
            return error
        } catch {
            XCTFail("expected ImageError, got \(error)", file: file, line: line)
        }
        return nil
    }

    /// Evenly spread cut lengths in 0..<count, plus the first and last few.
    static func cutPoints(_ count: Int, steps: Int = 120) -> [Int] {
        var cuts = Set(stride(from: 0, to: count, by: max(1, count / steps)))
        for k in 0..<min(16, count) { cuts.insert(k); cuts.insert(count - 1 - k) }
        return cuts.sorted()
    }
}
