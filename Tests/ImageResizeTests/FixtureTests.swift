import XCTest
import Foundation
import ImageCore
@testable import ImageResize

/// `Resizer.fit` against fits computed independently by scripts/resize_reference.py (numpy,
/// dense weight matrices, the quality judge's geometry) on the same generated images.
final class FixtureTests: XCTestCase {
    static let alphas: [UInt8] = [0, 255, 255, 128, 37, 255, 200]

    /// The image of scripts/resize_reference.py `pattern`.
    static func pattern(_ w: Int, _ h: Int, visible: (Int, Int, Int, Int)?) -> Image {
        var img = Image(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                var inside = true
                if let v = visible { inside = v.0 <= x && x < v.0 + v.2 && v.1 <= y && y < v.1 + v.3 }
                img[x, y] = RGBA(UInt8((x * 37 + y * 11) & 255), UInt8((x * y * 7 + 13) & 255),
                                 UInt8(((x * 5 + y * 29) & 255) ^ 0x5A), inside ? alphas[(x * 3 + y * 5) % 7] : 0)
            }
        }
        return img
    }

    func testFitsMatchTheIndependentReference() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/resize/reference_fits.txt").standardizedFileURL
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        var i = 0, cases = 0
        while i < lines.count {
            let f = lines[i].split(separator: " ").map(String.init)
            i += 1
            guard f.first == "case", f.count == 8 else { continue }
            let (w, h, size, inset) = (Int(f[2])!, Int(f[3])!, Int(f[4])!, Int(f[6])!)
            let trim = f[7] == "trim"
            let img = Self.pattern(w, h, visible: trim ? (5, 3, 17, 12) : nil)
            let options = FitOptions(size: size, fit: FitMode(rawValue: f[5])!, trim: trim, inset: inset)
            let out = fitStill(img, options)
            var worst = 0
            for y in 0..<size {
                let expected = Self.bytes(hex: lines[i + y])
                XCTAssertEqual(expected.count, size * 4)
                for x in 0..<size {
                    let e = expected[(x * 4)..<(x * 4 + 4)].map(Int.init)
                    let p = out[x, y]
                    let got = [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
                    worst = max(worst, abs(e[3] - got[3]))
                    if e[3] == 0 || got[3] == 0 {
                        XCTAssertLessThanOrEqual(max(e[3], got[3]), 1, "\(f[1]) at \(x),\(y)")
                        continue
                    }
                    for c in 0..<3 { worst = max(worst, abs(e[c] - got[c])) }
                }
            }
            XCTAssertLessThanOrEqual(worst, 1, "case \(f[1])")
            i += size
            cases += 1
        }
        XCTAssertEqual(cases, 6)
    }

    private static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var it = hex.utf8.makeIterator()
        while let hi = it.next(), let lo = it.next() {
            out.append(UInt8(nibble(hi) << 4 | nibble(lo)))
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> Int {
        c >= 97 ? Int(c) - 87 : Int(c) - 48
    }
}
