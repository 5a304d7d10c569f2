import XCTest
@testable import ImageCore

/// `CorePool`: what is lent outside a batch, inside one, and that everything is given back.
final class CorePoolTests: XCTestCase {
    func testOutsideABatchEveryCoreButTheCallersIsSpare() {
        let pool = CorePool(cores: 3)
        pool.withSpareCores(upTo: 5) { n in
            XCTAssertEqual(n, 2)
            pool.withSpareCores(upTo: 1) { XCTAssertEqual($0, 0, "both spare cores are lent") }
        }
        pool.withSpareCores(upTo: 1) { XCTAssertEqual($0, 1, "given back") }
        CorePool(cores: 1).withSpareCores(upTo: 1) { XCTAssertEqual($0, 0) }
    }

    func testABatchLendsOnlyTheCoresNoWorkerHolds() {
        let pool = CorePool(cores: 2)
        let ran = expectation(description: "each batch's worker ran")
        ran.expectedFulfillmentCount = 3
        pool.run(cores: 1, workers: 1) { _ in
            pool.withSpareCores(upTo: 1) { XCTAssertEqual($0, 0, "--jobs 1: no second core") }
            ran.fulfill()
        }
        pool.run(cores: 3, workers: 1) { _ in
            pool.withSpareCores(upTo: 4) { XCTAssertEqual($0, 2) }
            ran.fulfill()
        }
        pool.run(cores: 2, workers: 1) { _ in
            pool.withSpareCores(upTo: 1) { n in
                XCTAssertEqual(n, 1)
                pool.withSpareCores(upTo: 1) { XCTAssertEqual($0, 0, "lent already") }
            }
            ran.fulfill()
        }
        wait(for: [ran], timeout: 10)
        pool.withSpareCores(upTo: 2) { XCTAssertEqual($0, 1, "the pool is as before the batches") }
    }

    func testEveryWorkerRuns() {
        let ran = expectation(description: "every worker ran")
        ran.expectedFulfillmentCount = 4
        CorePool(cores: 2).run(cores: 4, workers: 4) { _ in ran.fulfill() }
        wait(for: [ran], timeout: 10)
    }
}
