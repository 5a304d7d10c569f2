import XCTest
import StickerKit
@testable import StickerPackaging

final class PackFrameFolderTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("frames-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    func make(_ rel: String) throws {
        let url = root.appendingPathComponent(rel)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data([1]).write(to: url)
    }

    func testNumberedFramesInNumberOrder() throws {
        for n in ["wave_10.png", "wave_2.png", "wave_1.png", "notes.txt"] { try make("art/wave.frames/\(n)") }
        let f = try XCTUnwrap(FrameFolder(root.appendingPathComponent("art/wave.frames").path))
        XCTAssertEqual(f.frames.map { ($0 as NSString).lastPathComponent }, ["wave_1.png", "wave_2.png", "wave_10.png"])
        XCTAssertEqual(f.stickerName, "wave")
    }

    func testFoldersThatAreNotFrameFolders() throws {
        for n in ["cat.png", "dog1.png"] { try make("mixed/\(n)") }            // one has no number
        for n in ["a1.png", "b2.png"] { try make("prefixes/\(n)") }          // two prefixes
        try make("single/1.png")                                             // one image
        for n in ["1.png", "2.png", "sub/3.png"] { try make("nested/\(n)") } // has a subfolder
        for dir in ["mixed", "prefixes", "single", "nested"] {
            XCTAssertNil(FrameFolder(root.appendingPathComponent(dir).path), dir)
        }
    }

    func testFindSearchesBelowInputsAndStopsAtFrameFolders() throws {
        for n in ["1.png", "2.png"] { try make("in/jump/\(n)") }
        for n in ["f01.gif", "f02.gif"] { try make("in/deep/spin/\(n)") }
        try make("in/cat.png")
        let found = FrameFolder.find(in: [root.appendingPathComponent("in").path, root.appendingPathComponent("in/cat.png").path])
        XCTAssertEqual(found.map { ($0.path as NSString).lastPathComponent }, ["spin", "jump"])
        XCTAssertEqual(found[0].frames.count, 2)
    }
}
