import Foundation

/// Durations and speed factors in warnings, with as many digits as it takes to tell them from
/// the limit they are compared with: a 3,003 ms animation is "3.003 s" over a "3 s" cap and
/// played "1.001×" as fast, never "3.00 s" over "3.0 s" at "1.00×".
enum DurationText {
    /// `milliseconds` in seconds, without trailing zeros: 3003 → "3.003", 58600 → "58.6", 3000 → "3".
    static func seconds(_ milliseconds: Int) -> String {
        var text = String(format: "%.3f", Double(milliseconds) / 1000)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// A speed factor over 1 with two decimals, or three when two would read 1.00.
    static func factor(_ x: Double) -> String {
        let two = String(format: "%.2f", x)
        return two == "1.00" ? String(format: "%.3f", x) : two
    }
}
