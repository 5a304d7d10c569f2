import XCTest
@testable import PNGEncoding

