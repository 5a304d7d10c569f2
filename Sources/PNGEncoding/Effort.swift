/// How hard the encoder works on filters and deflate.
///
/// - `fast`: libdeflate level 6. Palette images unfiltered; truecolour images unfiltered or
///   with the per-row minimum-sum heuristic, whichever compresses smaller.
/// - `default`: level 10, filters chosen as for `fast` by a level-6 trial.
/// - `max`: level 12; for truecolour every filter strategy (five fixed types, the heuristic, and
///   a per-row brute-force choice) is tried at level 6 and the best three are finished at level
///   12; palette images try three strategies. The `.default`
///   result is computed too and kept when smaller, so `.max` is never larger than `.default`.
///
/// Every level is lossless; they differ only in size and time (figures in NOTES.md).
public enum Effort: String, Sendable, CaseIterable, Codable {
    case fast, `default`, max
}
