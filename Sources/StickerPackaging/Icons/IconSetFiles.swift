import Foundation
import StickerKit
import ImageResize
import PNGEncoding

/// A rendered iMessage app icon set: one opaque PNG per `IconSlot` and its Contents.json.
public struct IconSetFiles: Sendable {
    public var slots: [IconSlot]
    /// Encoded PNG per slot, same order as `slots`.
    public var pngs: [[UInt8]]

    /// Renders every slot of `IconSlot.messagesAppIcon` from one image: each is cover-fitted
    /// (centred crop to the slot's aspect ratio) to its exact pixel size and composited over
    /// `background`, because Apple requires app icons to be opaque.
    public static func render(_ image: Image, background: RGBA = RGBA(255, 255, 255), effort: Effort = .default) throws -> IconSetFiles {
        guard image.width > 0, image.height > 0 else {
            throw ImageError(nil, IconError.emptySource(width: image.width, height: image.height))
        }
        let slots = IconSlot.messagesAppIcon
        var pngs: [[UInt8]] = []
        var cache: [String: [UInt8]] = [:] // iPhone and iPad share 58×58
        for slot in slots {
            let key = "\(slot.pixelWidth)x\(slot.pixelHeight)"
            if let done = cache[key] { pngs.append(done); continue }
            let flat = Resizer.resize(image, width: slot.pixelWidth, height: slot.pixelHeight, fit: .cover, over: background)
            let png = PNGEncoder.encode(flat, effort: effort)
            if png.isEmpty { throw ImageError(.png, IconError.noBytes(icon: key)) }
            cache[key] = png
            pngs.append(png)
        }
        return IconSetFiles(slots: slots, pngs: pngs)
    }

    public init(slots: [IconSlot], pngs: [[UInt8]]) {
        self.slots = slots
        self.pngs = pngs
    }

    /// The set's Contents.json (`images` with filename, idiom, platform, scale, size; `info`).
    public var contentsJSON: [UInt8] {
        let images = slots.map {
            CatalogContents.IconSet.Image(filename: $0.fileName, idiom: $0.idiom.rawValue, platform: $0.platform?.rawValue,
                                          scale: "\($0.scale)x", size: $0.sizeString)
        }
        var data = (try? CatalogFiles.encoder().encode(CatalogContents.IconSet(images: images))) ?? Data()
        data.append(0x0A)
        return [UInt8](data)
    }

    /// Writes the PNGs and Contents.json into `directory` (created if needed).
    public func write(into directory: String) throws {
        let dir = URL(fileURLWithPath: directory)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (slot, png) in zip(slots, pngs) {
            try CatalogFiles.write(png, to: dir.appendingPathComponent(slot.fileName))
        }
        try CatalogFiles.write(contentsJSON, to: dir.appendingPathComponent("Contents.json"))
    }
}
