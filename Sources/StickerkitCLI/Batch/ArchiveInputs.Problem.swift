import StickerKit

extension ArchiveInputs {
    /// Why an archive, or an entry of it, gives no input (one line, after the path).
    enum Problem: Error, Equatable, CustomStringConvertible {
        /// The archive holds no entry named as an image.
        case noImage
        /// The entry is no longer in the archive at this path (replaced since it was listed).
        case entryGone(String)
        /// More images than one archive may give (`maxImages`).
        case tooManyImages(Int)
        /// The archive is larger than `maxArchiveBytes`.
        case tooLarge(Int)
        /// Two entries share their bytes.
        case overlappingEntries
        /// The archive or the entry cannot be read: why.
        case unreadable(String)

        var description: String {
            switch self {
            case .noImage: "a ZIP archive with no image in it (stickerkit reads PNG, APNG, GIF, JPEG and WebP)"
            case .entryGone(let archive): "no longer in the archive \(archive)"
            case .tooManyImages(let n): "\(n) images in one archive, more than the \(ArchiveInputs.maxImages) stickerkit converts from one; unzip it first"
            case .tooLarge(let bytes): "\(Limits.describeMegabytes(bytes)): an archive stickerkit converts holds at most \(Limits.describeMegabytes(ArchiveInputs.maxArchiveBytes)); unzip it first"
            case .overlappingEntries: "a ZIP archive whose entries share their bytes (a ZIP bomb's trick); not read"
            case .unreadable(let why): why
            }
        }
    }
}
