import XCTest
@testable import StickerPackaging

/// `SHA256Stream`: pieces hashed in turn give `SHA256.hex` of them joined.
final class SHA256StreamTests: XCTestCase {
    func testPiecesGiveTheDigestOfTheWhole() {
        let whole = (0..<3_000_001).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 3) }
        for cuts in [[], [0], [1], [64, 65, 1_000_000], [2_999_999]] {
            let stream = SHA256Stream()
            var start = 0
            for end in cuts + [whole.count] {
                whole[start..<end].withUnsafeBytes { stream.update($0) }
                start = end
            }
            XCTAssertEqual(stream.hex(), SHA256.hex(whole), "cut at \(cuts)")
        }
        XCTAssertEqual(SHA256Stream().hex(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let abc = SHA256Stream()
        Array("ab".utf8).withUnsafeBytes { abc.update($0) }
        Array("c".utf8).withUnsafeBytes { abc.update($0) }
        XCTAssertEqual(abc.hex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
