import XCTest
import StickerKit
@testable import StickerPackaging

/// Converted stickers written into a catalog pass `check`: the contract between the pipeline,
/// the catalog and the checker.
final class PackEndToEndTests: XCTestCase {
    func testConvertedStickersInACatalogPassCheck() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let still = TestPNG.still(500, 400) { x, y in
            let d = (x - 250) * (x - 250) + (y - 200) * (y - 200)
            return d < 150 * 150 ? [UInt8(x % 256), UInt8(y % 256), 90, 255] : [0, 0, 0, 0]
        }
        let anim = TestPNG.apng(320, 320, delays: [(1, 10), (1, 10), (1, 10)])
        for size in StickerSize.allCases {
            var stickers: [CatalogSticker] = []
            for (name, input) in [("still art", still), ("spin", anim)] {
                let result = try StickerConverter.convert(input, options: ConversionOptions(sizes: [size]))
                let out = try result.outputs[0].result.get()
                stickers.append(CatalogSticker(name: name, label: StickerNaming.label(fromFileName: name),
                                               content: .file(bytes: out.bytes, fileExtension: "png")))
            }
            let path = dir.appendingPathComponent("\(size.rawValue).xcstickers")
            try StickerCatalog(gridSize: size, stickers: stickers).write(to: path.path)
            let pack = path.appendingPathComponent(StickerCatalog.packFolderName)
            var reports: [StickerCheckReport] = []
            for folder in ["spin.sticker", "still art.sticker"] {
                let file = pack.appendingPathComponent(folder).appendingPathComponent(folder.replacingOccurrences(of: ".sticker", with: ".png"))
                let r = StickerChecker.check([UInt8](try Data(contentsOf: file)), path: file.path)
                XCTAssertTrue(r.passes, "\(size) \(folder): \(r.findings)")
                XCTAssertEqual(r.findings.filter { $0.severity == .warning }, [], "\(size) \(folder)")
                XCTAssertEqual(r.facts.width, size.pixels)
                XCTAssertEqual(r.transparent, true)
                reports.append(r)
            }
            XCTAssertEqual(reports[0].facts.format, "APNG")
            XCTAssertEqual(reports[0].facts.frames, 3)
            XCTAssertEqual(StickerChecker.checkPack(folder: pack.path, stickers: reports).findings, [])
        }
    }
}
