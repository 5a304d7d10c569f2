import ImageCore

/// A sticker that converts and fits but shows practically nothing: no pixel of any frame is more
/// than `maxAlpha` opaque (a 1×10000 line scaled into a square keeps alpha 5 or less, say). It is
/// still written — transparency may be the point — with a warning, on the terminal and in the
/// report, so that it is not discovered in Messages.
enum NearlyEmptySticker {
    /// The most opaque pixel a nearly empty sticker has: 8 of 255 (3 %).
    static let maxAlpha: UInt8 = 8

    /// The warning for a sticker whose resized frames (before quantization, which moves alpha by
    /// a step at most) are `frames`, or nil when some pixel is more opaque than `maxAlpha`.
    static func warning(_ frames: Animation) -> String? {
        var most: UInt8 = 0
        for frame in frames.frames {
            let m = frame.image.pixels.withUnsafeBufferPointer { maxAlphaUpTo(maxAlpha, $0) }
            if m > maxAlpha { return nil }
            most = max(most, m)
        }
        let percent = Int((Double(maxAlpha) / 2.55).rounded())
        return "the sticker is nearly empty: no pixel is more than \(percent) % opaque (the most opaque has alpha \(most) of 255)"
    }

    /// The largest alpha in RGBA `pixels`, stopping at the first one above `limit`.
    private static func maxAlphaUpTo(_ limit: UInt8, _ pixels: UnsafeBufferPointer<UInt8>) -> UInt8 {
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
