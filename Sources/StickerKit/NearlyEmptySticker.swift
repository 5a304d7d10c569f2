import ImageCore

/// A sticker that converts and fits but shows practically nothing: no pixel of any frame is more
/// than `maxAlpha` opaque (a 1×10000 line scaled into a square keeps alpha 5 or less, say). It is
/// still written — transparency may be the point — with a warning, on the terminal and in the
/// report, so that it is not discovered in Messages.
///
/// The fitted frames (before quantization, which moves alpha by a step at most) are added one by
/// one as they are made, so that none need be kept for it.
/// `check` applies the same rule to a still's pixels as they are scanned.
public struct NearlyEmptySticker: Sendable {
    /// The most opaque pixel a nearly empty sticker has: 8 of 255 (3 %).
    public static let maxAlpha: UInt8 = 8

    /// The largest alpha seen so far, or some alpha above `maxAlpha` once one is seen.
    public private(set) var mostOpaque: UInt8 = 0

    /// Nothing seen yet.
    public init() {}

    /// Adds RGBA pixels (a fitted frame, or rows of one).
    public mutating func add(_ pixels: UnsafeRawBufferPointer) {
        guard mostOpaque <= NearlyEmptySticker.maxAlpha else { return }
        mostOpaque = max(mostOpaque, NearlyEmptySticker.maxAlphaUpTo(NearlyEmptySticker.maxAlpha, pixels))
    }

    /// The warning when no frame added has a pixel more opaque than `maxAlpha`, else nil.
    public var warning: String? {
        guard mostOpaque <= NearlyEmptySticker.maxAlpha else { return nil }
        let percent = Int((Double(NearlyEmptySticker.maxAlpha) / 2.55).rounded())
        return "the sticker is nearly empty: no pixel is more than \(percent) % opaque (the most opaque has alpha \(mostOpaque) of 255)"
    }

    /// The largest alpha in RGBA `pixels`, stopping at the first one above `limit`.
    private static func maxAlphaUpTo(_ limit: UInt8, _ pixels: UnsafeRawBufferPointer) -> UInt8 {
        var most: UInt8 = 0
        var i = 3
        while i < pixels.count {
            let a = pixels[i]
            if a > most {
                most = a
                if a > limit { return a }
            }
            i &+= 4
        }
        return most
    }
}
