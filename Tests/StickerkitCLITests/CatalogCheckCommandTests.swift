import Foundation
import XCTest

/// `check` on a catalog `pack` wrote, with every defect the Asset Catalog Format Reference rules
/// out planted in it: each is named with its path inside the catalog, and the exit status is 1.
final class CatalogCheckCommandTests: XCTestCase {
    func testCheckNamesEveryPlantedDefect() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let fm = FileManager.default
        let samples = CLI.repositoryRoot.appendingPathComponent("samples")
        let art = tmp.appendingPathComponent("art")
        for name in ["oc_teddybear.png", "noto_1f600_grinning_face_512.png", "oc_stop_sign_shadow.png", "ring_200_6f.webp"] {
            try fm.createDirectory(at: art, withIntermediateDirectories: true)
            try fm.copyItem(at: samples.appendingPathComponent(name), to: art.appendingPathComponent(name))
        }
        for i in 1...3 {
            try fm.createDirectory(at: art.appendingPathComponent("wave"), withIntermediateDirectories: true)
            try fm.copyItem(at: samples.appendingPathComponent("oc_saxophone_palette.png"), to: art.appendingPathComponent("wave/w\(i).png"))
        }
        let catalog = tmp.appendingPathComponent("Defects.xcstickers")
        let packed = try CLI.run(["pack", art.path, "-o", catalog.path, "--sequences", "--cache", tmp.appendingPathComponent("cache").path,
                                  "--icon", samples.appendingPathComponent("oc_teddybear.png").path, "--quiet"])
        XCTAssertEqual(packed.status, 0, packed.stderr)
        let clean = try CLI.run(["check", catalog.path, "--json"])
        XCTAssertEqual(clean.status, 0, clean.stdout)
        let cleanReport = try JSONSerialization.jsonObject(with: Data(clean.stdout.utf8)) as! [String: Any]
        let stickers = ((cleanReport["catalogs"] as! [[String: Any]])[0]["stickers"] as! [[String: Any]])
        XCTAssertEqual(stickers.count, 5, "the sequence is one sticker, not three")

        let pack = catalog.appendingPathComponent("Sticker Pack.stickerpack")
        let icons = catalog.appendingPathComponent("iMessage App Icon.stickersiconset")
        // 1. a listed sticker missing
        try fm.removeItem(at: pack.appendingPathComponent("oc_stop_sign_shadow.sticker"))
        // 2. an unlisted sticker
        try fm.copyItem(at: pack.appendingPathComponent("oc_teddybear.sticker"), to: pack.appendingPathComponent("stray.sticker"))
        // 3. invalid JSON
        try Data("{\"properties\": ".utf8).write(to: pack.appendingPathComponent("ring_200_6f.sticker/Contents.json"))
        // 4. a sticker naming a missing file
        try fm.removeItem(at: pack.appendingPathComponent("noto_1f600_grinning_face_512.sticker/noto_1f600_grinning_face_512.png"))
        // 5. the grid size contradicting the pixel size
        var packJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: pack.appendingPathComponent("Contents.json"))) as! [String: Any]
        packJSON["properties"] = ["grid-size": "large"]
        try JSONSerialization.data(withJSONObject: packJSON).write(to: pack.appendingPathComponent("Contents.json"))
        // 6. an icon entry missing, 7. an icon of the wrong size
        var setJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: icons.appendingPathComponent("Contents.json"))) as! [String: Any]
        setJSON["images"] = (setJSON["images"] as! [[String: Any]]).filter { $0["filename"] as? String != "universal-27x20@3x.png" }
        try JSONSerialization.data(withJSONObject: setJSON).write(to: icons.appendingPathComponent("Contents.json"))
        try fm.removeItem(at: icons.appendingPathComponent("universal-27x20@3x.png"))
        try fm.removeItem(at: icons.appendingPathComponent("iphone-29x29@3x.png"))
        try fm.copyItem(at: icons.appendingPathComponent("iphone-29x29@2x.png"), to: icons.appendingPathComponent("iphone-29x29@3x.png"))

        let r = try CLI.run(["check", catalog.path])
        XCTAssertEqual(r.status, 1, r.stdout)
        let c = catalog.path
        for expected in [
            "missing-file: \(c)/Sticker Pack.stickerpack/oc_stop_sign_shadow.sticker: listed in the pack's Contents.json but missing",
            "unlisted: \(c)/Sticker Pack.stickerpack/stray.sticker: not listed in the pack's Contents.json",
            "invalid-json: \(c)/Sticker Pack.stickerpack/ring_200_6f.sticker/Contents.json: not valid JSON",
            "missing-file: \(c)/Sticker Pack.stickerpack/noto_1f600_grinning_face_512.sticker/noto_1f600_grinning_face_512.png: named by the sticker's Contents.json but missing",
            "grid-size: \(c)/Sticker Pack.stickerpack/oc_teddybear.sticker/oc_teddybear.png: 408×408 px in a large pack",
            "icon-missing: \(c)/iMessage App Icon.stickersiconset: no image for Messages 27×20 pt @3x (81×60 px)",
            "icon-size: \(c)/iMessage App Icon.stickersiconset/iphone-29x29@3x.png: 58×58 px; iPhone 29×29 pt @3x (87×87 px) needs exactly 87×87",
        ] {
            XCTAssertTrue(r.stdout.contains(expected), "check does not say \(expected):\n\(r.stdout)")
        }
        // The sequence is still one sticker of the table, not three.
        XCTAssertEqual(r.stdout.split(separator: "\n").filter { $0.hasSuffix("  \(c)/Sticker Pack.stickerpack/wave.stickersequence") }.count, 1,
                       r.stdout)
        // A sticker whose image is missing is an ERROR row of its own.
        XCTAssertTrue(r.stdout.split(separator: "\n").contains {
            $0.hasPrefix("ERROR") && $0.hasSuffix("  \(c)/Sticker Pack.stickerpack/noto_1f600_grinning_face_512.sticker")
        }, r.stdout)
    }

    /// `check --platform whatsapp My.xcstickers` checked nothing and said "0 files: 0 errors, 0
    /// warnings", exit 0. A catalog named is an input that could not be checked under another
    /// app's rules (exit 1); one found in a folder is a warning.
    func testACatalogUnderAnotherAppsRulesIsNamed() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let art = tmp.appendingPathComponent("art")
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.repositoryRoot.appendingPathComponent("samples/ring_200_6f.webp"),
                                         to: art.appendingPathComponent("ring.webp"))
        let catalog = art.appendingPathComponent("S.xcstickers")
        XCTAssertEqual(try CLI.run(["pack", art.appendingPathComponent("ring.webp").path, "-o", catalog.path, "-q"]).status, 0)
        let named = try CLI.run(["check", "--platform", "whatsapp", catalog.path])
        XCTAssertEqual(named.status, 1)
        XCTAssertEqual(named.stderr, catalog.path + ": error: a Messages sticker catalog, not checked against WhatsApp's rules "
                       + "(check it without --platform)\n")
        let folder = try CLI.run(["check", "--platform", "whatsapp", art.path])
        XCTAssertEqual(folder.stderr, catalog.path + ": warning: skipped: a Messages sticker catalog, not checked against WhatsApp's "
                       + "rules (check it without --platform)\n")
        XCTAssertTrue(folder.stdout.contains("  " + art.appendingPathComponent("ring.webp").path + "\n"), folder.stdout)
    }
}
