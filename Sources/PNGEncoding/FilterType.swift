/// The five filter types of PNG filter method 0: the byte before each filtered row.
enum FilterType: UInt8, CaseIterable, Sendable, CustomStringConvertible {
    case none = 0
    case sub = 1
    case up = 2
    case average = 3
    case paeth = 4

    var description: String {
        switch self {
        case .none: "none"
        case .sub: "sub"
        case .up: "up"
        case .average: "average"
        case .paeth: "paeth"
        }
    }
}
