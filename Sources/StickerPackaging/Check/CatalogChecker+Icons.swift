import Foundation
import ImageDecoding

extension CatalogChecker {
    /// A `.stickersiconset`: every slot of Apple's table filled once with a PNG of exactly its
    /// pixel size and no transparency; entries that are no slot and files nothing lists reported.
    static func checkIconSet(_ rel: String, walk: inout CatalogWalk) {
        let contents = rel + "/Contents.json"
        guard let object = walk.object(contents, missing: .error, what: "Xcode cannot read the icon set") else { return }
        guard let images = object["images"] as? [[String: Any]] else {
            walk.add(.error, .badKey, contents, object["images"] == nil ? "no \"images\" array" : "\"images\" is not an array of entries")
            return
        }
        var filled: [Int: String] = [:]   // slot index → file
        var named = Set<String>()
        for (i, image) in images.enumerated() {
            let idiom = image["idiom"] as? String, size = image["size"] as? String, scale = image["scale"] as? String
            guard let idiom, let size, let scale else {
                walk.add(.error, .badKey, contents, "images[\(i)] lacks \"idiom\", \"size\" or \"scale\"")
                continue
            }
            let file = image["filename"] as? String
            if let file { named.insert(file) }
            guard let slot = IconSlot.messagesAppIcon.firstIndex(where: { $0.idiom.rawValue == idiom && $0.sizeString == size && "\($0.scale)x" == scale }) else {
                walk.add(.warning, .iconUnknown, contents, "images[\(i)] (\(idiom) \(size) @\(scale)) is no iMessage app icon slot: Xcode ignores it")
                continue
            }
            guard let file else { continue } // an empty slot: reported below as missing
            if let earlier = filled[slot] {
                walk.add(.warning, .duplicate, contents, "\(describe(IconSlot.messagesAppIcon[slot])) is filled twice (\(earlier), \(file))")
                continue
            }
            filled[slot] = file
            checkIcon(rel + "/" + file, slot: IconSlot.messagesAppIcon[slot], walk: &walk)
        }
        for (i, slot) in IconSlot.messagesAppIcon.enumerated() where filled[i] == nil {
            walk.add(.error, .iconMissing, rel, "no image for \(describe(slot))")
        }
        for file in walk.entries(rel) where file != "Contents.json" && !named.contains(file) {
            walk.add(.warning, .unlisted, rel + "/" + file, "not named by the icon set's Contents.json: Xcode reports it as an unassigned child")
        }
    }

    /// "iPhone 60×45 pt @3x (180×135 px)".
    static func describe(_ slot: IconSlot) -> String {
        let idiom = [IconSlot.Idiom.iphone: "iPhone", .ipad: "iPad", .universal: "Messages", .iosMarketing: "App Store"][slot.idiom]!
        return "\(idiom) \(slot.pointWidth)×\(slot.pointHeight) pt @\(slot.scale)x (\(slot.pixelWidth)×\(slot.pixelHeight) px)"
    }

    /// One icon: present, a PNG, exactly its slot's pixels, opaque.
    static func checkIcon(_ rel: String, slot: IconSlot, walk: inout CatalogWalk) {
        let read = BoundedRead.image(walk.url(rel))
        if let why = read.unreadableImageMessage {
            walk.add(.error, .unreadable, rel, why)
            return
        }
        guard let bytes = read.bytes else {
            walk.add(.error, .missingFile, rel, "named by the icon set's Contents.json but missing")
            return
        }
        guard let outline = try? ImageOutline.inspect(bytes), outline.format == .png else {
            walk.add(.error, .format, rel, "not a PNG: app icons are PNG files")
            return
        }
        if outline.width != slot.pixelWidth || outline.height != slot.pixelHeight {
            walk.add(.error, .iconSize, rel, "\(outline.width)×\(outline.height) px; \(describe(slot)) needs exactly \(slot.pixelWidth)×\(slot.pixelHeight)")
        }
        if outline.mayHaveAlpha {
            let opaque = (try? ImageDecoder.decode(bytes, options: DecodeOptions(firstFrameOnly: true)))?.animation.frames[0].image.isOpaque
            if opaque == false {
                walk.add(.error, .iconOpaque, rel, "has transparent pixels: app icons must be opaque (the App Store refuses them)")
            }
        }
    }
}
