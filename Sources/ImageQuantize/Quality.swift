import Foundation

/// The 0…100 quality scale reported with every result.
///
/// It is a function of the PSNR of the per-pixel error `mse` (the `ErrorSpace` error divided by
/// three, i.e. 0…255² like a per-channel MSE): `PSNR = 10·log10(255² / mse)`, mapped piecewise
/// linearly through these points, so that it reads roughly like pngquant's scale:
///
///     PSNR dB  ≤15  20  25  28  32  36  40  ≥45    exact
///     quality    0  10  35  50  75  90  95   99      100
///
/// 100 is kept for no error at all; about 90 (36 dB) is visually very good; below 40 (~26 dB)
/// banding and colour shifts are plain to see.
enum Quality {
    static let points: [(psnr: Double, quality: Double)] = [
        (15, 0), (20, 10), (25, 35), (28, 50), (32, 75), (36, 90), (40, 95), (45, 99),
    ]

    static func quality(meanSquaredError mse: Double) -> Int {
        if mse.isNaN { return 0 }
        if mse <= 0 { return 100 }
        let psnr = 10 * log10(255.0 * 255.0 / mse)
        if psnr <= points[0].psnr { return 0 }
        for i in 1..<points.count where psnr < points[i].psnr {
            let (p0, q0) = points[i - 1], (p1, q1) = points[i]
            return Int((q0 + (q1 - q0) * (psnr - p0) / (p1 - p0)).rounded(.down))
        }
        return 99
    }
}
