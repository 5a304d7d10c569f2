import ImageCore

/// Why bytes are not an image Stickerkit reads at all (the format is unknown, so `ImageError`'s
/// is nil).
public enum SniffError: ImageErrorReason {
    case emptyFile
    /// No known signature; the first bytes (up to 8) for the message.
    case unknownFormat(firstBytes: [UInt8])
    /// The signature of a file people take for artwork, in a format Stickerkit does not read (a
    /// HEIC photo, an SVG, a video, a ZIP archive such as a `.wastickers` pack): its name, with
    /// its article ("a HEIC/HEIF image").
    case otherFormat(String)

    public var kind: ImageError.Kind { .unsupported }

    public var message: String {
        switch self {
        case .emptyFile: "empty file (0 bytes)"
        case .unknownFormat(let head): "not an image: unknown format (first bytes \(Hex.bytes(head)))"
        case .otherFormat(let name): "\(name): not a format stickerkit reads (it reads PNG, APNG, GIF, JPEG and WebP)"
        }
    }

    /// Why `bytes` (no format `ImageDecoder.sniff` knows) are not read: `otherFormat` when their
    /// signature names a format (`otherFormatName`), else `unknownFormat` with their first bytes.
    public static func unrecognised(_ bytes: [UInt8]) -> SniffError {
        if bytes.isEmpty { return .emptyFile }
        if let name = otherFormatName(bytes) { return .otherFormat(name) }
        return .unknownFormat(firstBytes: Array(bytes.prefix(8)))
    }

    /// The format a signature names, among those not read (see `otherFormat`), or nil.
    static func otherFormatName(_ b: [UInt8]) -> String? {
        func starts(_ s: [UInt8], at o: Int = 0) -> Bool { b.count >= o + s.count && Array(b[o..<o + s.count]) == s }
        func ascii(_ s: String, at o: Int = 0) -> Bool { starts(Array(s.utf8), at: o) }
        if ascii("ftyp", at: 4), b.count >= 12 {
            // ISO base media files: the major brand says which.
            let brand = String(decoding: b[8..<12], as: UTF8.self)
            if ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1"].contains(brand) { return "a HEIC/HEIF image" }
            if ["avif", "avis"].contains(brand) { return "an AVIF image" }
            if brand == "qt  " { return "a QuickTime video" }
            return "an MP4 file"
        }
        if ascii("PK\u{03}\u{04}") || ascii("PK\u{05}\u{06}") { return "a ZIP archive (a .wastickers pack is one; unzip it first)" }
        if ascii("%PDF") { return "a PDF document" }
        if ascii("8BPS") { return "a Photoshop document" }
        if ascii("II*\u{00}") || ascii("MM\u{00}*") { return "a TIFF image" }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return "a WebM/Matroska video" }
        if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return "a JPEG XL image" }
        if ascii("BM"), b.count >= 14, b[6] == 0, b[7] == 0, b[8] == 0, b[9] == 0 { return "a BMP image" }
        // SVG: text that opens an <svg element near its start (after an XML declaration or comments).
        let head = String(decoding: b.prefix(512), as: UTF8.self)
        if head.contains("<svg"), head.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).hasPrefix("<") { return "an SVG image" }
        return nil
    }
}
