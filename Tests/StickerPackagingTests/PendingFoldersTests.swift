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

    /// The stop given no time to wait (here it is called by the writer itself, which cannot stop
    /// first): the folder under way is renamed and removed, and the write fails.
    func testAStopWhileBuildingRemovesTheNewVersionAndKeepsTheOld() throws {
        let dest = dir.appendingPathComponent("Set")
        try CatalogFiles.replace(dest) { try write("old", in: $0) }
        var building: URL?
        XCTAssertThrowsError(try CatalogFiles.replace(dest) { new in
            try write("new", in: new)
            building = new
            PendingFolders.stopAndRemove(waitingAtMost: 0)
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

    /// A stop from another thread (the signal handler's) while a write links a large tree into
    /// the new version: the writer stops at its next file and removes its folder, and the stop
    /// returns only then, so the process can exit at once with nothing left beside the place.
    /// The stop used to remove the folder while the writer kept adding to it, and gave up after
    /// five tries (a CI run left a catalog's half-built copy so).
    func testAStopWaitsForTheWriteUnderWayToRemoveItsFolder() throws {
        let tree = dir.appendingPathComponent("tree"), dest = dir.appendingPathComponent("Set")
        try FileManager.default.createDirectory(at: tree.appendingPathComponent("notes"), withIntermediateDirectories: true)
        for k in 0..<20_000 {
            XCTAssertTrue(FileManager.default.createFile(atPath: tree.appendingPathComponent("notes/\(k).txt").path, contents: nil))
        }
        try CatalogFiles.replace(dest) { try write("old", in: $0) }
        func beside() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasPrefix(".Set.") }
        }
        let ended = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Error?
        Thread {
            do { try CatalogFiles.replace(dest) { try CatalogFiles.linkTree(from: tree, to: $0) } } catch { outcome = error }
            ended.signal()
        }.start()
        let deadline = Date(timeIntervalSinceNow: 60)
        while beside().isEmpty, Date() < deadline { usleep(200) }
        XCTAssertFalse(beside().isEmpty, "the write never started")
        PendingFolders.stopAndRemove()
        XCTAssertEqual(beside(), [], "the folder under way was left beside the place")
        XCTAssertEqual(ended.wait(timeout: .now() + 5), .success, "the write went on after the stop")
        XCTAssertEqual(beside(), [], "the write left its folder after the stop")
        XCTAssertEqual((outcome as? PackError).map { if case .cannotWrite(_, let reason) = $0 { reason } else { "" } }, "interrupted")
        XCTAssertEqual(try text(dest), "old")
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
