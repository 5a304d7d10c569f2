import Foundation
import ImageCore

/// How far a decoded image is from its source, as a lossy encoder's tests state their bounds:
/// alpha compared straight, colour premultiplied by alpha (what is seen over any background, so
/// the colour of invisible pixels does not count).
public struct ImageDifference: Sendable {
    /// Mean and largest absolute alpha difference.
    public var alphaMean: Double
    public var alphaMax: Int
    /// Largest difference of a premultiplied colour channel (0…255).
    public var premultipliedMax: Int
    /// PSNR of premultiplied colour, dB (99 when identical).
    public var premultipliedPSNR: Double

    public init(_ a: Image, _ b: Image) {
        precondition(a.width == b.width && a.height == b.height)
        var alphaSum = 0.0, alphaMax = 0, colorMax = 0, squares = 0.0
        a.pixels.withUnsafeBufferPointer { p in
            b.pixels.withUnsafeBufferPointer { q in
                for i in stride(from: 0, to: p.count, by: 4) {
                    let aa = Int(p[i + 3]), ba = Int(q[i + 3])
                    alphaSum += Double(abs(aa - ba))
                    alphaMax = max(alphaMax, abs(aa - ba))
                    for c in 0..<3 {
                        let d = Int(p[i + c]) * aa - Int(q[i + c]) * ba
                        colorMax = max(colorMax, abs(d) / 255)
                        let scaled = Double(d) / 255
                        squares += scaled * scaled
                    }
                }
            }
        }
        let n = Double(a.pixels.count / 4)
        let mse = squares / (n * 3)
        self.alphaMean = alphaSum / n
        self.alphaMax = alphaMax
        self.premultipliedMax = colorMax
        self.premultipliedPSNR = mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }
}
