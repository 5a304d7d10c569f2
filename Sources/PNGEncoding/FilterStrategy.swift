/// How filter types are chosen for the rows of an image.
enum FilterStrategy: Hashable, Sendable, CustomStringConvertible {
    /// The same filter type on every row.
    case fixed(FilterType)
    /// Per row, the type whose output has the smallest sum of absolute values when the bytes are
    /// read as signed: the classic heuristic from the PNG specification.
    case minimumSum
    /// Per row, the type that makes the deflate stream of the last few already chosen rows plus
    /// this one smallest (libdeflate level 1): slow, for `.max`.
    case bruteForce

    static let none = FilterStrategy.fixed(.none)
    /// Every whole-image strategy, in the order `.max` effort tries them.
    static let all: [FilterStrategy] = [.fixed(.none), .minimumSum, .fixed(.sub), .fixed(.up), .fixed(.average), .fixed(.paeth),
                                        .bruteForce]
    /// Rows of context the brute-force choice compresses with the candidate row.
    static let bruteForceWindowRows = 4

    var description: String {
        switch self {
        case .fixed(let t): t.description
        case .minimumSum: "min-sum"
        case .bruteForce: "brute-force"
        }
    }
}
