/// How filter types are chosen for the rows of an image.
enum FilterStrategy: Hashable, CustomStringConvertible {
    /// The same filter type (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) on every row.
    case fixed(UInt8)
    /// Per row, the type whose output has the smallest sum of absolute values when the bytes are
    /// read as signed: the classic heuristic from the PNG specification.
    case minimumSum
    /// Per row, the type that makes the deflate stream of the last few already chosen rows plus
    /// this one smallest (libdeflate level 1): slow, for `.max`.
    case bruteForce

    static let none = FilterStrategy.fixed(0)
    /// Every whole-image strategy, in the order `.max` effort tries them.
    static let all: [FilterStrategy] = [.fixed(0), .minimumSum, .fixed(1), .fixed(2), .fixed(3), .fixed(4), .bruteForce]
    /// Rows of context the brute-force choice compresses with the candidate row.
    static let bruteForceWindowRows = 4

    var description: String {
        switch self {
        case .fixed(let t): ["none", "sub", "up", "average", "paeth"][Int(min(t, 4))]
        case .minimumSum: "min-sum"
        case .bruteForce: "brute-force"
        }
    }
}
