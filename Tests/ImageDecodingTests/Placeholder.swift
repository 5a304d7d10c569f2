import XCTest
@testable import ImageDecoding

