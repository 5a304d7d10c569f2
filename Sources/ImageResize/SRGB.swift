/// The sRGB transfer function, exact (for the reference) and as tables (for the kernel).
enum SRGB {
    /// sRGB-encoded value in 0…1 to linear light in 0…1.
    static func decode(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// Linear light in 0…1 to an sRGB-encoded value in 0…1.
    static func encode(_ v: Double) -> Double {
        v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
    }

    /// Linear light, scaled to 0…255, of each 8-bit sRGB code.
    static let decodeTable: [Float] = (0..<256).map { Float(decode(Double($0) / 255) * 255) }

    /// Entries of `encodeTable`: a linear step of 1/16383 moves the encoded value by at most
    /// 0.2 of a code (steepest at black, slope 12.92), far below the rounding step.
    static let encodeSteps = 16384

    /// 8-bit sRGB code, rounded to nearest, of linear light `i / (encodeSteps - 1)`.
    static let encodeTable: [UInt8] = (0..<encodeSteps).map {
        UInt8((encode(Double($0) / Double(encodeSteps - 1)) * 255).rounded())
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
