import ImageCore

/// How strict and how large decoding may be.
public struct DecodeOptions: Sendable {
    public var limits: Limits
    /// Salvage what decodes from damaged files (bad CRCs, truncated data) instead of failing.
    public var lenient: Bool
    /// Decode only the first frame of an animation (cheaper; used by `check` and previews).
    public var firstFrameOnly: Bool

    public init(limits: Limits = .default, lenient: Bool = false, firstFrameOnly: Bool = false) {
        self.limits = limits
        self.lenient = lenient
        self.firstFrameOnly = firstFrameOnly
    }
}

/// A decoded file: its frames on the full canvas, the format it really was, and notes worth
/// telling the user (e.g. a colour profile that was applied).
public struct DecodedImage: Sendable {
    public var format: ImageFormat
    public var animation: Animation
    public var warnings: [String]

    public init(format: ImageFormat, animation: Animation, warnings: [String] = []) {
        self.format = format
        self.animation = animation
        self.warnings = warnings
    }
}

/// Entry point of the decoding stage: sniff → limits → header → frames.
public enum ImageDecoder {
    /// The format named by the file's magic bytes, or nil. PNG and APNG both answer `.png` here;
    /// the PNG decoder tells them apart.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        // "PNG" at bytes 1–3 is enough: a signature damaged in transfer (high bit stripped, CR/LF
        // rewritten) still goes to the PNG decoder, which names the damage.
        if bytes.count >= 4, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47 { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    /// Decodes any supported file. Throws `ImageError` naming the format and the problem.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions = .init()) throws -> DecodedImage {
        if bytes.isEmpty { throw ImageError.unsupported(nil, "empty file (0 bytes)") }
        guard let format = sniff(bytes) else {
            // "\x89PNG" with the rest altered is a PNG damaged in transfer (CR/LF conversion, a
            // stripped high bit): the PNG reader names the damage, better than "unknown format".
            if bytes.count >= 8, bytes[0] & 0x7F == 0x09, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47 {
                try PNGChunkReader.checkSignature(bytes)
            }
            throw ImageError.unsupported(nil, "not an image: unknown format (first bytes \(hexPrefix(bytes)))")
        }
        var decoded: DecodedImage
        switch format {
        case .png, .apng: decoded = try PNGDecoder.decode(bytes, options: options)
        case .jpeg: decoded = try JPEGDecoder.decode(bytes, options: options)
        case .gif: decoded = try GIFDecoder.decode(bytes, options: options)
        case .webp: decoded = try WebPDecoder.decode(bytes, options: options)
        }
        // Browsers show a delay of 10 ms or less as 100 ms; so do we, so that timing is what the
        // artist saw. Stills keep their zero delay.
        if decoded.animation.isAnimated {
            for i in decoded.animation.frames.indices {
                decoded.animation.frames[i].delay = decoded.animation.frames[i].delay.displayed
            }
        }
        return decoded
    }

    static func hexPrefix(_ bytes: [UInt8]) -> String {
        bytes.prefix(8).map { b in
            let s = String(b, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined(separator: " ")
    }
}
