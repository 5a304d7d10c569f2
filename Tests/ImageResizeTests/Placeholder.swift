import XCTest
@testable import ImageResize

