import Foundation
import XCTest

/// `check` and `preview` search folders as `resize` and `pack` do: names that are not UTF-8,
/// links to folders and loops behave the same; unlike them, they read stickerkit's own outputs.
final class StickerDiscoveryTests: XCTestCase {
    var tmp: URL!
    var art: URL { tmp.appendingPathComponent("art") }
    /// "café.png" in Latin-1: not UTF-8.
    let latin1 = Array("caf".utf8) + [0xE9] + Array(".png".utf8)

    override func setUpWithError() throws { tmp = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    /// art/café.png (Latin-1), art/linkeddir → elsewhere/dir (teddy.png), art/loop → art, and
    /// art/out: resize's stickers with their manifest.
    func makeArt() throws {
        let png = try Data(contentsOf: BatchSafety.samples.appendingPathComponent("oc_saxophone_palette.png"))
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        try Fixture.createFile(rawPath: Array(art.path.utf8) + [0x2F] + latin1, contents: png)
        let dir = tmp.appendingPathComponent("elsewhere/dir")
        try Fixture.sample("oc_teddybear.png", to: dir.appendingPathComponent("teddy.png"))
        let fm = FileManager.default
        try fm.createSymbolicLink(at: art.appendingPathComponent("linkeddir"), withDestinationURL: dir)
        try fm.createSymbolicLink(at: art.appendingPathComponent("loop"), withDestinationURL: art)
        let r = try CLI.run(["resize", dir.path, "-o", art.appendingPathComponent("out").path, "--size", "small"])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// The paths `check --json` reports, each with the format it read.
    func checked(_ stdout: String) throws -> [String: String] {
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any], stdout)
        let stickers = try XCTUnwrap(json["stickers"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: stickers.map { s in
            (s["path"] as! String, ((s["facts"] as? [String: Any])?["format"] as? String) ?? "none")
        })
    }

    func testCheckReadsEveryNameFollowsLinksAndNamesLoops() throws {
        try makeArt()
        let r = try CLI.run(["check", "--json", art.path])
        let found = try checked(r.stdout)
        let prefix = art.path + "/"
        let names = found.keys.map { String($0.dropFirst(prefix.count)) }.sorted()
        XCTAssertEqual(names.count, 3, "\(found)")
        XCTAssertTrue(names[0].lowercased().hasPrefix("caf\\xe9"), "\(names)")
        XCTAssertEqual(Array(names.dropFirst()), ["linkeddir/teddy.png", "out/teddy.png"], "stickerkit's outputs are checked too")
        XCTAssertEqual(Set(found.values), ["PNG"], "every file was read: \(found)")
        XCTAssertTrue(r.stderr.contains("loop: warning:") && r.stderr.contains("(a loop)"), r.stderr)

        // Named: the bytes that were typed.
        let named = try Fixture.run(rawArguments: [Array("check".utf8), Array("--json".utf8), Array(art.path.utf8) + [0x2F] + latin1])
        XCTAssertEqual(Array(try checked(named.stdout).values), ["PNG"], named.stdout + named.stderr)
        XCTAssertFalse(named.stderr.contains("no such file"), named.stderr)
    }

    func testPreviewReadsEveryNameFollowsLinksAndNamesLoops() throws {
        try makeArt()
        let pv = tmp.appendingPathComponent("pv")
        let r = try CLI.run(["preview", art.path, "-o", pv.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("loop: warning:") && r.stderr.contains("(a loop)"), r.stderr)
        let copies = try FileManager.default.contentsOfDirectory(atPath: pv.appendingPathComponent("stickers").path).sorted()
        XCTAssertEqual(copies.count, 3, "\(copies)")
        XCTAssertEqual(copies.filter { $0.hasSuffix("teddy.png") }.count, 2, "the linked folder's and the output's: \(copies)")
        XCTAssertTrue(copies.contains { $0.hasPrefix("001-caf") }, "\(copies)")

        // Named: the bytes that were typed.
        let pv2 = tmp.appendingPathComponent("pv2")
        let named = try Fixture.run(rawArguments: [Array("preview".utf8), Array(art.path.utf8) + [0x2F] + latin1,
                                                   Array("-o".utf8), Array(pv2.path.utf8)])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: pv2.appendingPathComponent("stickers").path).count, 1)

        // A preview folder inside the searched one is never read back.
        let again = try CLI.run(["preview", tmp.path, "-o", tmp.appendingPathComponent("pv3").path])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent("pv3/stickers").path).count, 3,
                       "art's three; elsewhere/dir was searched through the link; the earlier previews are skipped")
        XCTAssertTrue(again.stderr.contains("already searched"), again.stderr)
    }

    /// A preview written into a folder of stickers (`preview art -o stickers`, beside what
    /// `resize` wrote there) made the whole folder a preview folder: `check stickers` said "no
    /// images found in this folder". Only the files the preview wrote are passed over now.
    func testAPreviewBesideStickersLeavesThemReadable() throws {
        let art = tmp.appendingPathComponent("art")
        try Fixture.sample("oc_teddybear.png", to: art.appendingPathComponent("teddy.png"))
        try Fixture.sample("oc_stop_sign_shadow.png", to: art.appendingPathComponent("stop.png"))
        let out = tmp.appendingPathComponent("stickers")
        XCTAssertEqual(try CLI.run(["resize", art.path, "-o", out.path, "-q"]).status, 0)
        XCTAssertEqual(try CLI.run(["preview", art.path, "-o", out.path, "--png"]).status, 0)
        let check = try CLI.run(["check", out.path])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        XCTAssertTrue(check.stdout.hasSuffix("\n2 files: 0 errors, 0 warnings\n"), check.stdout)
        XCTAssertFalse(check.stdout.contains("contact-sheet") || check.stdout.contains("/stickers/00"), check.stdout)
        // As artwork, the folder still holds nothing: resize's stickers and the preview's files.
        let again = try CLI.run(["resize", art.path, out.path, "-o", tmp.appendingPathComponent("second").path])
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(again.stderr, out.path + ": error: no images found in this folder; left out: 6 files stickerkit wrote "
                       + "(its records list them) — name a file to read it anyway\n")
        let preview = try CLI.run(["preview", out.path, "-o", tmp.appendingPathComponent("pv").path])
        XCTAssertEqual(preview.status, 0, preview.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent("pv/stickers").path).sorted(),
                       ["001-stop.png", "002-teddy.png"])
    }
}
