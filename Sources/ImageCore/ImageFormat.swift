/// The container formats Stickerkit reads: identified by their magic bytes (`signatures`), never
/// by a file's name; `fileExtensions` are the names that promise them.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case png, apng, gif, jpeg, webp

    /// The name used in messages: "PNG", "APNG", "GIF", "JPEG", "WebP".
    public var displayName: String {
        switch self {
        case .png: "PNG"
        case .apng: "APNG"
        case .gif: "GIF"
        case .jpeg: "JPEG"
        case .webp: "WebP"
        }
    }

    /// The lower-case file name extensions that promise this format. PNG and APNG share theirs:
    /// an APNG is a PNG file, and either name is right for either.
    public var fileExtensions: [String] {
        switch self {
        case .png, .apng: ["png", "apng"]
        case .gif: ["gif"]
        case .jpeg: ["jpg", "jpeg", "jfif"]
        case .webp: ["webp"]
        }
    }

    /// Every extension of a format Stickerkit reads: what marks a file in a folder as artwork.
    public static let readableExtensions: Set<String> = Set(allCases.flatMap(\.fileExtensions))

    /// Extensions of image formats Stickerkit recognises by name but does not read (HEIC/HEIF,
    /// BMP, TIFF): in a folder, such files are reported (as failures by a tool that checks, in a
    /// warning by a batch), never passed over in silence.
    public static let unreadExtensions: Set<String> = ["heic", "heif", "bmp", "tif", "tiff"]

    /// The bytes a file of this format opens with; matching any one of them is enough. An APNG
    /// opens as every PNG does: only its chunks tell it apart.
    public var signatures: [Signature] {
        switch self {
        case .png, .apng: [Signature(at: 0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])]
        case .gif: [Signature(at: 0, Array("GIF87a".utf8)), Signature(at: 0, Array("GIF89a".utf8))]
        case .jpeg: [Signature(at: 0, [0xFF, 0xD8, 0xFF])]
        case .webp: [Signature(at: 0, Array("RIFF".utf8), at: 8, Array("WEBP".utf8))]
        }
    }

    /// The format whose signature opens `bytes` exactly, or nil. PNG and APNG both answer `.png`.
    public static func identify(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        allCases.first { format in format.signatures.contains { $0.matches(bytes) } }
    }

    /// The format whose signature opens `bytes` exactly, or nil. PNG and APNG both answer `.png`.
    public static func identify(_ bytes: [UInt8]) -> ImageFormat? {
        bytes.withUnsafeBytes { identify($0) }
    }
}
