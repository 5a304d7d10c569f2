import XCTest
@testable import StickerKit

