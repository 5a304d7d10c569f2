import XCTest
@testable import ImageQuantize

