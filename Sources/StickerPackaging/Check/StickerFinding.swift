import StickerKit
/// One thing `check` found about a sticker or a pack.
public struct StickerFinding: Sendable, Codable, Equatable {
    /// How bad a finding is. Ordered: info < warning < error.
    public enum Severity: String, Sendable, Codable, Comparable, CaseIterable {
        /// Facts worth showing (frame count, duration).
        case info
        /// Accepted by Messages but not recommended (GIF, JPEG, odd sizes, opaque).
        case warning
        /// Breaks the contract: Messages refuses the file or shows it wrongly.
        case error

        var rank: Int { self == .info ? 0 : self == .warning ? 1 : 2 }
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    /// What the finding is about, stable for scripts.
    public enum Code: String, Sendable, Codable, CaseIterable {
        case unreadable, format, square, size, budget, opaque, animation, frameRate = "frame-rate", mixedSizes = "mixed-sizes"
    }

    public var severity: Severity
    public var code: Code
    /// One line for people, naming the offending values.
    public var message: String

    public init(_ severity: Severity, _ code: Code, _ message: String) {
        self.severity = severity
        self.code = code
        self.message = message
    }
}
