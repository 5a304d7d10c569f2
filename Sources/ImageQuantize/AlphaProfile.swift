import ImageCore

/// How pixels use alpha: how many there are, how many are partly transparent (alpha 1…254) and how
/// many of those are nearly opaque. Soft edges and shadows spread over every alpha value; Lottie
/// exports paint whole areas almost opaque (alpha 252–254), which a coarse alpha (WebP's lossy
/// alpha planes, a palette entry snapped to opaque) turns opaque, and checks of 8-bit alpha count
/// them as soft alpha that must survive.
package struct AlphaProfile: Sendable, Equatable {
    package private(set) var total = 0
    package private(set) var partial = 0
    package private(set) var nearlyOpaque = 0

    /// Alpha values counted as nearly opaque.
    package static let nearlyOpaqueRange: ClosedRange<UInt8> = 240...254
    /// The share of partly transparent pixels from which they count as detail worth keeping.
    package static let detailShare = 0.001
    /// The share of the partly transparent pixels that must be nearly opaque for the pixels to
    /// count as painted almost opaque: a coarse alpha would then leave less than a tenth of the
    /// soft alpha. (1–42 % in the corpus's animations with soft edges or shadows; 53 % and 80 %
    /// in two Lottie exports whose other soft alpha survives a coarse alpha; 96 % and 98 % in
    /// the two where it did not.)
    package static let paintedShare = 0.9

    package init() {}

    /// The profile of pixels counted by alpha value (`histogram(of:)`).
    package init(histogram: [Int]) {
        for (a, n) in histogram.enumerated() where n > 0 { add(alpha: UInt8(a), count: n) }
    }

    /// How many pixels of `images` have each alpha value (256 counts).
    package static func histogram(of images: [Image]) -> [Int] {
        var histogram = [Int](repeating: 0, count: 256)
        for image in images { image.pixels.withUnsafeBytes { count(rgba: $0, into: &histogram) } }
        return histogram
    }

    /// Adds the alpha values of the RGBA pixels `rgba` to `histogram` (256 counts).
    package static func count(rgba p: UnsafeRawBufferPointer, into histogram: inout [Int]) {
        var i = 3
        while i < p.count {
            histogram[Int(p[i])] += 1
            i += 4
        }
    }

    /// Counts `count` pixels of alpha `alpha`.
    @inline(__always)
    package mutating func add(alpha: UInt8, count: Int) {
        total += count
        guard alpha &- 1 < 254 else { return }
        partial += count
        if Self.nearlyOpaqueRange.contains(alpha) { nearlyOpaque += count }
    }

    /// At least `detailShare` of the pixels are partly transparent.
    package var hasDetail: Bool { total > 0 && Double(partial) >= Self.detailShare * Double(total) }

    /// `hasDetail`, and at least `paintedShare` of the partly transparent pixels are nearly opaque.
    package var isPaintedNearlyOpaque: Bool { hasDetail && Double(nearlyOpaque) >= Self.paintedShare * Double(partial) }
}
