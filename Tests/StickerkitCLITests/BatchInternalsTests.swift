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
