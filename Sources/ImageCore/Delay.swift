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

    /// The delay browsers actually show: 10 ms or less is shown as 100 ms.
    public var displayed: Delay {
        numerator * 100 <= denominator ? Delay(milliseconds: 100) : self
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

    public static func + (a: Delay, b: Delay) -> Delay {
        let g = gcd(a.denominator, b.denominator)
        let den = a.denominator / g * b.denominator
        return Delay(numerator: a.numerator * (den / a.denominator) + b.numerator * (den / b.denominator),
                     denominator: den)
    }

    public static func < (a: Delay, b: Delay) -> Bool {
        a.numerator * b.denominator < b.numerator * a.denominator
    }

    public var description: String { "\(numerator)/\(denominator) s" }

    static func gcd(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (abs(a), abs(b))
        while y != 0 { (x, y) = (y, x % y) }
        return max(x, 1)
    }
}
