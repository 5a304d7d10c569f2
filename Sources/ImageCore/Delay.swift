/// A frame delay in seconds as an exact, reduced fraction, so that APNG's num/den and GIF's
/// centiseconds round-trip without drift.
public struct Delay: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Numerator, ≥ 0.
    public let numerator: Int
    /// Denominator, > 0; `gcd(numerator, denominator) == 1` (zero is `0/1`).
    public let denominator: Int

    /// A delay of `numerator / denominator` seconds, reduced. A zero denominator means 1/100 s as
    /// in APNG's fcTL.
    public init(numerator: Int, denominator: Int) {
        let den = denominator == 0 ? 100 : denominator
        precondition(numerator >= 0 && den > 0, "Delay: \(numerator)/\(denominator)")
        if numerator == 0 { self.numerator = 0; self.denominator = 1; return }
        let g = Delay.gcd(numerator, den)
        self.numerator = numerator / g
        self.denominator = den / g
    }

    public init(milliseconds: Int) { self.init(numerator: milliseconds, denominator: 1000) }
    public init(centiseconds: Int) { self.init(numerator: centiseconds, denominator: 100) }

    public static let zero = Delay(numerator: 0, denominator: 1)

    public var seconds: Double { Double(numerator) / Double(denominator) }
    public var milliseconds: Double { seconds * 1000 }

    /// The longest delay browsers (and Messages) refuse to honour: a delay of 10 ms or less is
    /// shown as `shownInsteadOfTooShort`. The one home of that rule: every stage that shows,
    /// sums or judges delays goes through `displayed`.
    public static let longestTooShort = Delay(milliseconds: 10)
    /// What a too-short delay is shown as: 100 ms.
    public static let shownInsteadOfTooShort = Delay(milliseconds: 100)

    /// The delay as browsers show it: `shownInsteadOfTooShort` (100 ms) for a delay of
    /// `longestTooShort` (10 ms) or less, otherwise the delay itself.
    public var displayed: Delay {
        self <= Delay.longestTooShort ? Delay.shownInsteadOfTooShort : self
    }

    /// The delay as an APNG fcTL pair (both fit in UInt16), exact when possible, otherwise the
    /// closest fraction with a denominator ≤ 65535.
    public var apngFraction: (numerator: UInt16, denominator: UInt16) {
        if numerator <= 65535 && denominator <= 65535 {
            return (UInt16(numerator), UInt16(denominator))
        }
        // Closest representation in milliseconds, or whole seconds for long delays.
        let ms = (numerator * 1000 + denominator / 2) / denominator
        if ms <= 65535 { return (UInt16(ms), 1000) }
        let s = min(65535, (numerator + denominator / 2) / denominator)
        return (UInt16(s), 1)
    }

    /// The exact sum when it fits in `Int`; otherwise (a few frames whose denominators share no
    /// factor, e.g. APNG delays over 65521 and 65519, overflow the common denominator) the sum
    /// rounded to the microsecond, which later sums keep small.
    public static func + (a: Delay, b: Delay) -> Delay {
        let g = gcd(a.denominator, b.denominator)
        let (den, o1) = (a.denominator / g).multipliedReportingOverflow(by: b.denominator)
        if !o1 {
            let (x, o2) = a.numerator.multipliedReportingOverflow(by: den / a.denominator)
            let (y, o3) = b.numerator.multipliedReportingOverflow(by: den / b.denominator)
            let (sum, o4) = x.addingReportingOverflow(y)
            if !o2 && !o3 && !o4 { return Delay(numerator: sum, denominator: den) }
        }
        return Delay(numerator: Int(((a.seconds + b.seconds) * 1_000_000).rounded()), denominator: 1_000_000)
    }

    public static func < (a: Delay, b: Delay) -> Bool {
        // Full-width products: numerators of long sums times a large denominator overflow Int.
        let l = a.numerator.multipliedFullWidth(by: b.denominator)
        let r = b.numerator.multipliedFullWidth(by: a.denominator)
        return (l.high, l.low) < (r.high, r.low)
    }

    public var description: String { "\(numerator)/\(denominator) s" }

    static func gcd(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (abs(a), abs(b))
        while y != 0 { (x, y) = (y, x % y) }
        return max(x, 1)
    }
}
