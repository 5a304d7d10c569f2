import ArgumentParser
import StickerKit

/// `--size small|regular|large|all`.
enum SizeChoice: String, ExpressibleByArgument, CaseIterable {
    case small, regular, large, all

    var sizes: [StickerSize] {
        switch self {
        case .small: [.small]
        case .regular: [.regular]
        case .large: [.large]
        case .all: StickerSize.allCases
        }
    }
}
