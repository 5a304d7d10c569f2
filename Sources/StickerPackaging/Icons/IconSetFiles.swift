import Foundation
import StickerKit
import ImageResize
import PNGEncoding

/// A rendered iMessage app icon set: one opaque PNG per `IconSlot` and its Contents.json.
public struct IconSetFiles: Sendable {
    public var slots: [IconSlot]
    /// Encoded PNG per slot, same order as `slots`.
    public var pngs: [[UInt8]]
    /// What the user should look at: a source that is not square, too small, or that left icons
    /// of one flat colour.
    public var warnings: [IconWarning]

    /// Renders every slot of `IconSlot.messagesAppIcon` from one image, each at its exact pixel
    /// size and composited over `background`, because Apple requires app icons to be opaque.
    /// `cover` fills each icon and crops the source's overflow evenly; `contain` shows the whole
    /// source, centred, padded with the background.
    public static func render(_ image: Image, background: RGBA = RGBA(255, 255, 255), fit: FitMode = .cover,
                              effort: Effort = .default) throws -> IconSetFiles {
        try render(width: image.width, height: image.height, background: background, fit: fit, effort: effort) { w, h in
            Resizer.resize(image, width: w, height: h, fit: fit, over: background)
        }
    }

    /// `render(_:background:fit:effort:)` of the first frame of the image file `data`, the same
    /// files: a still that decodes by rows is resized to every slot's size as its rows are
    /// decoded (`Artwork.resizedByRows`), never held whole (a 6000² PNG logo would take 144 MB
    /// as one image); any other is decoded whole within `limits.maxMemory`, a JPEG reduced as far
    /// as the largest icon allows (`Artwork.firstFrame(_:forPictures:fit:limits:)`). An
    /// animation's first frame is warned of (`IconWarning.firstFrame`): app icons are stills.
    /// Throws `ImageError` when `data` does not decode or its decode would pass the memory budget.
    public static func render(file data: [UInt8], background: RGBA = RGBA(255, 255, 255), fit: FitMode = .cover,
                              effort: Effort = .default, limits: Limits = .default) throws -> IconSetFiles {
        var set = try renderFirstFrame(file: data, background: background, fit: fit, effort: effort, limits: limits)
        let frames = Artwork.frameCount(of: data)
        if frames > 1 { set.warnings.insert(.firstFrame(frames: frames, pictures: "every icon"), at: 0) }
        return set
    }

    /// `render(file:background:fit:effort:limits:)` without the animation's warning.
    private static func renderFirstFrame(file data: [UInt8], background: RGBA, fit: FitMode, effort: Effort,
                                         limits: Limits) throws -> IconSetFiles {
        let sizes = Array(Set(IconSlot.messagesAppIcon.map { IconSize(width: $0.pixelWidth, height: $0.pixelHeight) }))
        let targets = sizes.map { ArtworkResize.rectangle(width: $0.width, height: $0.height, fit: fit, background: background) }
        guard let rows = try Artwork.resizedByRows(data, targets: targets, limits: limits) else {
            let largest = (width: sizes.map(\.width).max() ?? 0, height: sizes.map(\.height).max() ?? 0)
            let first = try Artwork.firstFrame(data, forPictures: largest, fit: fit, limits: limits)
            return try render(width: first.width, height: first.height, background: background, fit: fit, effort: effort) { w, h in
                Resizer.resize(first.image, width: w, height: h, fit: fit, over: background)
            }
        }
        var icons: [IconSize: Image] = [:]
        for (k, size) in sizes.enumerated() { icons[size] = rows.images[k] }
        return try render(width: rows.width, height: rows.height, background: background, fit: fit, effort: effort) { w, h in
            icons[IconSize(width: w, height: h)]!
        }
    }

    /// One slot's pixel size.
    private struct IconSize: Hashable {
        var width: Int
        var height: Int
    }

    /// The set from a `width × height` source whose icon of each slot's size `icon` gives.
    private static func render(width: Int, height: Int, background: RGBA, fit: FitMode, effort: Effort,
                               icon resized: (Int, Int) -> Image) throws -> IconSetFiles {
        guard width > 0, height > 0 else {
            throw ImageError(nil, IconError.emptySource(width: width, height: height))
        }
        let slots = IconSlot.messagesAppIcon
        var pngs: [[UInt8]] = []
        var cache: [String: ([UInt8], Bool)] = [:] // iPhone and iPad share 58×58
        var flat: [String] = []
        var flatColor = background
        for slot in slots {
            let key = "\(slot.pixelWidth)x\(slot.pixelHeight)"
            if cache[key] == nil {
                let icon = resized(slot.pixelWidth, slot.pixelHeight)
                let png = PNGEncoder.encode(icon, effort: effort)
                if png.isEmpty { throw ImageError(.png, IconError.noBytes(icon: key)) }
                let isFlat = Self.isFlat(icon)
                if isFlat { flatColor = icon[0, 0] }
                cache[key] = (png, isFlat)
            }
            let (png, isFlat) = cache[key]!
            pngs.append(png)
            if isFlat { flat.append(slot.fileName) }
        }
        var warnings: [IconWarning] = []
        if width != height { warnings.append(.nonSquare(width: width, height: height, fit: fit)) }
        let scales = slots.map { s -> (Double, IconSlot) in
            let sx = Double(s.pixelWidth) / Double(width), sy = Double(s.pixelHeight) / Double(height)
            return (fit == .cover ? max(sx, sy) : min(sx, sy), s)
        }
        if let worst = scales.max(by: { $0.0 < $1.0 }), worst.0 > 1 {
            warnings.append(.enlarged(width: width, height: height, factor: worst.0,
                                      slot: "\(worst.1.pixelWidth)x\(worst.1.pixelHeight)"))
        }
        if !flat.isEmpty { warnings.append(.flat(icons: flat, color: flatColor, of: slots.count)) }
        return IconSetFiles(slots: slots, pngs: pngs, warnings: warnings)
    }

    /// No pixel differs from the first by more than 4 levels in any channel: one flat colour to
    /// the eye, the artwork gone (white on white, or cropped away).
    static func isFlat(_ image: Image) -> Bool {
        let first = Array(image.pixels.prefix(4))
        guard first.count == 4 else { return true }
        var i = 0
        for b in image.pixels {
            if abs(Int(b) - Int(first[i & 3])) > 4 { return false }
            i += 1
        }
        return true
    }

    public init(slots: [IconSlot], pngs: [[UInt8]], warnings: [IconWarning] = []) {
        self.slots = slots
        self.pngs = pngs
        self.warnings = warnings
    }

    /// The set's Contents.json (`images` with filename, idiom, platform, scale, size; `info`).
    public var contentsJSON: [UInt8] {
        let images = slots.map {
            CatalogContents.IconSet.Image(filename: $0.fileName, idiom: $0.idiom.rawValue, platform: $0.platform?.rawValue,
                                          scale: "\($0.scale)x", size: $0.sizeString)
        }
        return StickerCatalog.json(CatalogContents.IconSet(images: images))
    }

    /// The names of the files the set is written as: one PNG per slot, then Contents.json.
    var fileNames: [String] { slots.map(\.fileName) + ["Contents.json"] }

    /// The files the set is written as, named as `fileNames`.
    var files: [(name: String, bytes: [UInt8])] { Array(zip(fileNames, pngs + [contentsJSON])) }

    /// Whether `directory` holds exactly the files `write(into:)` writes, byte for byte (a rerun
    /// with the same icon changes nothing).
    public func isWritten(in directory: String) -> Bool {
        let dir = URL(fileURLWithPath: directory)
        let expected = files
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path),
              Set(names) == Set(expected.map(\.name)) else { return false }
        return expected.allSatisfy { file in
            BoundedRead.of(dir.appendingPathComponent(file.name), limit: file.bytes.count).bytes == file.bytes
        }
    }

    /// Writes the PNGs and Contents.json into `directory` (created if needed).
    public func write(into directory: String) throws {
        let dir = URL(fileURLWithPath: directory)
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch {
            throw PackError.cannotWrite(path: dir.path, reason: CatalogFiles.reason(error))
        }
        for file in files {
            try CatalogFiles.write(file.bytes, to: dir.appendingPathComponent(file.name))
        }
    }

    /// Writes the set as the folder `directory`, replacing the set there at once: built in a
    /// hidden sibling folder, then renamed into place. A set holding files this one does not
    /// write (hand-made icons) is replaced only with `overwrite`. When the folder the set goes in
    /// is a catalog (`NAME.xcstickers`) that does not exist yet, the whole catalog is built so and
    /// renamed into place, with its root `Contents.json` as `pack` writes it: Xcode opens it as a
    /// catalog, and `pack` adds the stickers to it later.
    ///
    /// - Throws: `PackError.iconSetNotStickerkits`, `.notACatalog` when `directory` is a file,
    ///   `.cannotWrite`.
    public func replace(_ directory: String, overwrite: Bool = false) throws {
        try Self.checkTarget(directory, overwrite: overwrite)
        let dest = URL(fileURLWithPath: directory).standardizedFileURL
        CatalogFiles.removeLeftovers(of: dest)
        let parent = dest.deletingLastPathComponent()
        let newCatalog = parent.pathExtension == "xcstickers" && !FileManager.default.fileExists(atPath: parent.path)
        let folder = newCatalog ? parent.deletingLastPathComponent() : parent
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw PackError.cannotWrite(path: folder.path, reason: CatalogFiles.reason(error))
        }
        guard newCatalog else { return try CatalogFiles.replace(dest) { tmp in try write(into: tmp.path) } }
        CatalogFiles.removeLeftovers(of: parent)
        try CatalogFiles.replace(parent) { tmp in
            try write(into: tmp.appendingPathComponent(dest.lastPathComponent).path)
            try CatalogFiles.writeJSON(CatalogContents.Root(), to: tmp.appendingPathComponent("Contents.json"))
        }
    }

    /// Whether a set may be written as the folder `directory` (the checks of `replace`, made
    /// before any icon is rendered): nothing there, or a set holding only the files a set writes;
    /// with `overwrite`, whatever is there.
    ///
    /// - Throws: `PackError.iconSetNotStickerkits`, `.notACatalog` when `directory` is a file.
    public static func checkTarget(_ directory: String, overwrite: Bool) throws {
        let dest = URL(fileURLWithPath: directory).standardizedFileURL
        var isDir: ObjCBool = false
        guard !overwrite, FileManager.default.fileExists(atPath: dest.path, isDirectory: &isDir) else { return }
        if !isDir.boolValue { throw PackError.notACatalog(path: directory, isFile: true) }
        let foreign = IconSetFiles(slots: IconSlot.messagesAppIcon, pngs: []).foreignFiles(in: dest)
        if !foreign.isEmpty { throw PackError.iconSetNotStickerkits(path: directory, files: Array(foreign.prefix(3))) }
    }

    /// Files in the icon set folder `url` that this set does not write (hidden files and
    /// Contents.json aside), sorted; empty when there is no such folder.
    func foreignFiles(in url: URL) -> [String] {
        let ours = Set(fileNames)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && !ours.contains($0) }.sorted()
    }
}
