import Foundation
import XCTest
@testable import StickerKit

/// The README's platform table (between `<!-- platform-rules -->` markers) says exactly what
/// `StickerTarget.all` holds: the rules live in the library, and the table cannot drift from them.
final class PlatformRulesReadmeTests: XCTestCase {
    private func readmeRows() throws -> [String: [String]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: "<!-- platform-rules -->"), "README.md has no platform-rules table")
        let end = try XCTUnwrap(text.range(of: "<!-- /platform-rules -->", range: start.upperBound..<text.endIndex))
        var rows: [String: [String]] = [:]
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("|") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = cells.first, name != "platform", !name.hasPrefix("---") else { continue }
            rows[name] = Array(cells)
        }
        return rows
    }

    private func bytes(_ n: Int) -> String {
        let f = NumberFormatter()
        f.numberStyle = .decimal
        f.groupingSeparator = ","
        f.usesGroupingSeparator = true
        return f.string(from: NSNumber(value: n))!
    }

    private func containerName(_ target: StickerTarget, animated: Bool) -> String {
        switch target.container(animated: animated) {
        case .png: "PNG"
        case .apng: "APNG"
        case .webp: "WebP"
        case .webm: "WebM"
        }
    }

    func testReadmeTableMatchesTheRules() throws {
        let rows = try readmeRows()
        XCTAssertEqual(Set(rows.keys), Set(StickerTarget.all.map(\.name)), "one row per platform")
        for t in StickerTarget.all {
            let row = try XCTUnwrap(rows[t.name], t.name)
            XCTAssertEqual(row.count, 8, t.name)
            XCTAssertEqual(row[1], containerName(t, animated: false), "\(t.name) still")
            XCTAssertTrue(row[2].hasPrefix(containerName(t, animated: true)), "\(t.name) animation")
            XCTAssertEqual(row[3], t.canvasDescription, "\(t.name) side")
            XCTAssertEqual(row[4], "\(bytes(t.stillBytes)) / \(bytes(t.animationBytes))", "\(t.name) bytes")
            XCTAssertEqual(row[5], t.maxDurationMs.map { "≤ \($0 / 1000) s" } ?? "—", "\(t.name) duration")
            XCTAssertEqual(row[6], t.maxFPS.map { "≤ \(Int($0))" } ?? "—", "\(t.name) fps")
            let pictures = t.packIcons.map { icon in
                // A picture whose animation has a name or cap of its own says both.
                let animated = t.fileName(of: icon, animated: true)
                return "\(icon.fileName) \(icon.dimensions) ≤ \(bytes(icon.maxBytes))"
                    + (animated != icon.fileName || icon.animatedMaxBytes != icon.maxBytes ? " (animated: \(animated) ≤ \(bytes(icon.animatedMaxBytes)))" : "")
            }
            XCTAssertEqual(row[7], pictures.isEmpty ? "—" : pictures.joined(separator: ", "), "\(t.name) pack picture")
        }
    }
}
