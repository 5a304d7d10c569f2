/// How far over the budget a probe encoded at `.fast` may come and still be worth more work at
/// the requested effort.
///
/// Both rest on one measured fact: the file written at `.default` or `.max` holds the same
/// pixels as its `.fast` probe typically 5–10 % smaller (5–12 % over the animated corpus; see
/// NOTES.md). They spend that margin differently, because a miss costs differently.
enum ProbeAllowance: Double {
    /// A still probe up to 10 % over — the whole usual saving — gets one encode at full effort.
    /// A miss costs one encode of one image, and the search keeps what it found that fits.
    case still = 1.10
    /// The animation search aims up to 4 % over, below the low end of the saving: its choice is
    /// then shrunk frame by frame until it fits (`PNGEncoder.shrinkAnimation`), and a choice that
    /// still misses falls back to the best probe that fitted as it was, usually a poorer setting,
    /// after compressing frames for nothing.
    case animation = 1.04

    /// The factor on the budget.
    var factor: Double { rawValue }

    /// The most bytes a probe may take under a budget of `maxBytes`.
    func limit(_ maxBytes: Int) -> Int { Int(Double(maxBytes) * factor) }
}
