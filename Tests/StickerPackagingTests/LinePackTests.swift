import Foundation
import StickerPackaging
import XCTest

/// LINE's upload archive (`LinePack`): its set rules, entry names and marker. The archive is
/// read back by a ZIP reader that is not ours (Python's zipfile).
final class LinePackTests: XCTestCase {
    func stickers(_ count: Int, animated: Bool = false) -> [LinePack.Sticker] {
        (0..<count).map { LinePack.Sticker(png: [0x89, UInt8(truncatingIfNeeded: $0)], animated: animated) }
    }

    func testTheArchiveHoldsNumberedStickersThenTheMainAndTabImages() throws {
        let pack = LinePack(stickers: stickers(16), mainPNG: [1, 2, 3], tabPNG: [4, 5])
        let bytes = try pack.archive()
        let listed = try PythonZip.list(bytes)
        XCTAssertEqual(listed.map(\.name), (1...16).map { String(format: "%02d.png", $0) } + ["main.png", "tab.png"])
        XCTAssertEqual(listed.map(\.size), Array(repeating: 2, count: 16) + [3, 2])
        XCTAssertTrue(LinePack.isStickerkitArchive(bytes))
        XCTAssertFalse(WastickersPack.isStickerkitArchive(bytes), "each platform's archive has its own marker")
        XCTAssertFalse(LinePack.isStickerkitArchive(StoredZip(entries: [.init(name: "01.png", bytes: [1])]).bytes()))
    }

    func testLineSellsSetsOfEightToFortyStillsOrEightToTwentyFourAnimations() {
        for count in 1...48 {
            let stills = LinePack(stickers: stickers(count), mainPNG: [1], tabPNG: [1])
            let animations = LinePack(stickers: stickers(count, animated: true), mainPNG: [1], tabPNG: [1])
            XCTAssertEqual((try? stills.archive()) != nil, [8, 16, 24, 32, 40].contains(count), "\(count) stills")
            XCTAssertEqual((try? animations.archive()) != nil, [8, 16, 24].contains(count), "\(count) animations")
        }
        XCTAssertThrowsError(try LinePack(stickers: stickers(9), mainPNG: [1], tabPNG: [1]).archive()) {
            XCTAssertEqual($0 as? LinePackError, .setSize(9, animated: false))
            XCTAssertEqual("\($0)", "9 still stickers: a LINE set holds 8, 16, 24, 32 or 40 stills; add 7 or leave out 1")
        }
        XCTAssertThrowsError(try LinePack(stickers: stickers(32, animated: true), mainPNG: [1], tabPNG: [1]).archive()) {
            XCTAssertEqual("\($0)", "32 animated stickers: a LINE set holds 8, 16 or 24 animations; split them into sets")
        }
        XCTAssertEqual(LinePackError.setSize(3, animated: nil).description,
                       "3 stickers: a LINE set holds 8, 16, 24, 32 or 40 stills, or 8, 16 or 24 animations; add 5")
        XCTAssertThrowsError(try LinePack(stickers: stickers(7) + stickers(1, animated: true), mainPNG: [1], tabPNG: [1]).archive()) {
            XCTAssertEqual($0 as? LinePackError, .mixedKinds(stills: 7, animations: 1))
            XCTAssertEqual("\($0)", "7 stills and 1 animation: a LINE set is all stills or all animations; make two sets")
        }
    }

    func testAnArchivePastTwentyMegabytesIsRefused() {
        // 8 stickers of 2.5 MB: past 20,000,000 bytes with the headers (LINE's per-file caps
        // keep real sets far below it; the archive is checked whatever the stickers are).
        let big = (0..<8).map { _ in LinePack.Sticker(png: [UInt8](repeating: 7, count: 2_500_000), animated: false) }
        XCTAssertThrowsError(try LinePack(stickers: big, mainPNG: [1], tabPNG: [1]).archive()) {
            guard case .archiveTooLarge(let bytes) = $0 as? LinePackError else { return XCTFail("\($0)") }
            XCTAssertGreaterThan(bytes, LinePack.maxArchiveBytes)
        }
        let fits = (0..<8).map { _ in LinePack.Sticker(png: [UInt8](repeating: 7, count: 2_400_000), animated: false) }
        XCTAssertNoThrow(try LinePack(stickers: fits, mainPNG: [1], tabPNG: [1]).archive())
    }
}
