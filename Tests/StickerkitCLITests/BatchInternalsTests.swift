import Foundation
import StickerKit
import XCTest
@testable import StickerkitCLI

/// The batch's pieces that threads share or that the report writes, tested in the process.
final class BatchInternalsTests: XCTestCase {
    func testEveryJobRunsOnceLongestFirstOnSeveralThreads() {
        let work: [Double] = [1, 5, 3, 5, 0, 2]
        XCTAssertEqual(ConcurrentJobs.longestFirst(work), [1, 3, 2, 5, 0, 4], "most work first, input order among equals")
        for workers in [1, 2, 7] {
            let ran = Locked([Int]())
            ConcurrentJobs.run(count: work.count, workers: workers, estimatedWork: { work[$0] }) { i in
                ran.withLock { $0.append(i) }
            }
            let order = ran.withLock { $0 }
            XCTAssertEqual(order.sorted(), Array(0..<work.count), "\(workers) workers: each job once")
            if workers == 1 { XCTAssertEqual(order, Array(0..<work.count), "one thread: input order") }
        }
    }

    func testStatusIsWrittenAsTodaysStatusAndReason() throws {
        func json(_ status: OutputStatus) throws -> [String: String] {
            let output = BatchReport.Output(path: "out/a.png", size: .large, status: status)
            return try JSONDecoder().decode([String: String].self, from: JSONEncoder().encode(output))
        }
        XCTAssertEqual(try json(.written), ["path": "out/a.png", "size": "large", "status": "written"])
        XCTAssertEqual(try json(.upToDate)["status"], "skipped")
        XCTAssertEqual(try json(.upToDate)["reason"], "up to date")
        XCTAssertEqual(try json(.skipped(reason: "exists")), ["path": "out/a.png", "size": "large", "status": "skipped", "reason": "exists"])
        XCTAssertEqual(try json(.failed(reason: "broken")), ["path": "out/a.png", "size": "large", "status": "failed", "reason": "broken"])
    }

    /// `-v`'s line for an animation's palette search: each real encode in order, "~" before an
    /// extrapolated size, "(over)" past the budget, then the predictions.
    func testSearchIsDescribedEncodeByEncode() throws {
        let json = #"""
        {"size": 300, "bytes": 483800, "mode": "palette", "colors": 153, "effort": "default", "frames": 25,
         "framesInput": 25, "quality": 88, "warnings": [], "predictions": 1,
         "searched": [{"colors": 256, "frames": 25, "bytes": 1599600, "fits": false, "estimated": true},
                      {"colors": 153, "frames": 25, "bytes": 483800, "fits": true}]}
        """#
        var report = try JSONDecoder().decode(OutputReport.self, from: Data(json.utf8))
        XCTAssertEqual(BatchRunner.describeSearch(report),
                       "searched 256 colours × 25 frames ~1.6 MB (over), 153 × 25 483.8 KB; 1 prediction")
        report.predictions = nil
        XCTAssertEqual(BatchRunner.describeSearch(report), "searched 256 colours × 25 frames ~1.6 MB (over), 153 × 25 483.8 KB")
        report.searched = [SearchStep(frames: 40, bytes: 612_300, fits: false), SearchStep(level: 81, frames: 20, bytes: 95_200, fits: true)]
        XCTAssertEqual(BatchRunner.describeSearch(report), "searched lossless × 40 frames 612.3 KB (over), level 81 × 20 95.2 KB",
                       "a codec's search: levels and lossless")
        report.searched = nil
        XCTAssertNil(BatchRunner.describeSearch(report), "a still's search is not described")
    }

    func testCountsAreReadOffTheEntries() {
        func output(_ status: OutputStatus) -> BatchReport.Output { .init(path: "x", size: .small, status: status) }
        var written = output(.written)
        let report = StickerConverter.convert(Animation(still: Image(width: 2, height: 2)), options: ConversionOptions(sizes: [.small]))
        written.details = try? report.outputs[0].result.get().report
        XCTAssertNotNil(written.details)
        let files = [
            BatchReport.File(input: "a", warnings: [], outputs: [written, output(.upToDate)]),
            BatchReport.File(input: "b", warnings: [], outputs: [output(.skipped(reason: "exists")), output(.failed(reason: "x")),
                                                                 output(.failed(reason: "y"))]),
        ]
        let counts = BatchCounts(files)
        XCTAssertEqual([counts.converted, counts.skipped, counts.failed], [1, 2, 2])
        XCTAssertEqual(counts.bytesWritten, written.details?.bytes)
    }
}
