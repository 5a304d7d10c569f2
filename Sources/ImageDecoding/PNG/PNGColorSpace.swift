import Foundation
import ImageCore

/// What a PNG says about its colour, reduced to the one conversion to apply: none (sRGB chunk,
/// or nothing said), an embedded ICC profile, or a gAMA exponent.
enum PNGColorSpace {
    case asIs
    case icc([UInt8])
    /// A 256-entry table from the file's gamma to sRGB, and the gamma for the note.
    case gamma([UInt8], Double)

    /// Picks the conversion in the PNG 3rd edition's order of precedence: iCCP, then sRGB
    /// (nothing to do), then gAMA (skipped when within 1 % of 1/2.2, which is sRGB for practical
    /// purposes). A damaged iCCP adds a warning and falls through to the next.
    static func choose(hasSRGB: Bool, iccp: ArraySlice<UInt8>?, gamma: Int?, warnings: inout [String]) -> PNGColorSpace {
        if let iccp {
            if let profile = profile(fromICCP: iccp) { return .icc(profile) }
            warnings.append("ignored a damaged iCCP chunk")
        }
        if hasSRGB { return .asIs }
        if let gamma {
            // libpng ignores a gAMA outside 16…625,000,000 (gamma 0.00016…6250): such values turn
            // every pixel black or white, never what the artwork meant.
            guard saneGamma.contains(gamma) else {
                warnings.append("ignored gAMA of \(gamma) (gamma \(String(format: "%g", Double(gamma) / 100_000))): outside the 16…625000000 range libpng accepts; colours used as stored")
                return .asIs
            }
            let g = Double(gamma) / 100_000
            if abs(g * 2.2 - 1) <= 0.01 { return .asIs }
            return .gamma(table(fileGamma: g), g)
        }
        return .asIs
    }

    /// gAMA values (gamma × 100000) libpng accepts; it ignores the rest.
    static let saneGamma = 16...625_000_000

    /// Converts one decoded image in place; returns the note for the user, if any.
    func apply(to image: inout Image, format: ImageFormat) -> String? {
        switch self {
        case .asIs:
            return nil
        case .icc(let profile):
            // A profile lcms2 cannot read does not make the pixels unreadable: they are used as
            // sRGB, and the user is told (`ColorProfile.convertOrIgnore`, the rule for every format).
            return ColorProfile.convertOrIgnore(&image, iccProfile: profile, format: format).note
        case .gamma(let table, let g):
            let count = image.width * image.height
            table.withUnsafeBufferPointer { t in
                image.pixels.withUnsafeMutableBufferPointer { p in
                    PNGPixelExpander.mapColor(p.baseAddress!, count: count, table: t.baseAddress!)
                }
            }
            return "converted from gamma \(String(format: "%.5g", g)) (gAMA) to sRGB"
        }
    }

    /// Sample → linear light with the file's exponent (V = L^g), then the sRGB transfer curve.
    static func table(fileGamma g: Double) -> [UInt8] {
        (0..<256).map { v in
            let linear = pow(Double(v) / 255, 1 / g)
            let s = linear <= 0.003_130_8 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
            return UInt8(max(0, min(255, (s * 255).rounded())))
        }
    }

    /// The profile in an iCCP chunk: a 1–79 byte name, NUL, method 0, zlib data.
    static func profile(fromICCP d: ArraySlice<UInt8>) -> [UInt8]? {
        guard let nul = d.firstIndex(of: 0), nul > d.startIndex, nul - d.startIndex <= 79,
              nul + 1 < d.endIndex, d[nul + 1] == 0 else { return nil }
        let compressed = Array(d[(nul + 2)...])
        guard let profile = compressed.withUnsafeBytes({ PNGInflater.inflateGrowing($0, cap: 16 << 20) }),
              profile.count >= 128 else { return nil }
        return profile
    }
}
