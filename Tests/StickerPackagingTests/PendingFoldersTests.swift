import Foundation
import XCTest
@testable import StickerPackaging

/// What an interrupt handler gets from `PendingFolders.stopAndRemove()`: the folder a catalog or
/// icon set write is building is removed at once, the place keeps its old version, and no write
/// starts after it.
final class PendingFoldersTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("pending-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        PendingFolders.resume()
        try? FileManager.default.removeItem(at: dir)
    }

    /// What a build does: makes its folder and fills it.
    private func write(_ text: String, in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent("a.txt"))
    }

    private func text(_ folder: URL) throws -> String {
        try String(contentsOf: folder.appendingPathComponent("a.txt"), encoding: .utf8)
    }

    func testAStopWhileBuildingRemovesTheNewVersionAndKeepsTheOld() throws {
        let dest = dir.appendingPathComponent("Set")
        try CatalogFiles.replace(dest) { try write("old", in: $0) }
        var building: URL?
        XCTAssertThrowsError(try CatalogFiles.replace(dest) { new in
            try write("new", in: new)
            building = new
            PendingFolders.stopAndRemove()
            XCTAssertFalse(FileManager.default.fileExists(atPath: new.path), "the folder under way is still there")
        }) {
            XCTAssertEqual($0 as? PackError, .cannotWrite(path: dest.path, reason: "interrupted"))
        }
        XCTAssertNotNil(building)
        XCTAssertEqual(try text(dest), "old")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["Set"], "something left beside it")
        // No write starts once stopped.
        XCTAssertThrowsError(try CatalogFiles.replace(dest) { _ in XCTFail("a build started after the stop") })
        XCTAssertEqual(try text(dest), "old")

        // Resumed (tests only), the swap works as before and leaves nothing beside.
        PendingFolders.resume()
        try CatalogFiles.replace(dest) { try write("new", in: $0) }
        XCTAssertEqual(try text(dest), "new")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["Set"])
    }

    func testABuildThatFailsLeavesThePlaceAsItWas() throws {
        let dest = dir.appendingPathComponent("Set")
        try CatalogFiles.replace(dest) { try write("old", in: $0) }
        XCTAssertThrowsError(try CatalogFiles.replace(dest) { new in
            try write("new", in: new)
            throw PackError.cannotWrite(path: new.path, reason: "full")
        })
        XCTAssertEqual(try text(dest), "old")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["Set"])
    }
}
