import Foundation
import StickerKit
import StickerPackaging

/// Inputs of `pack`: how a sticker's source is named in the catalog's record, and frame folders'
/// conversion.
enum PackInputs {
    /// The name the catalog's record keeps for an input: its path relative to the folder holding
    /// the catalog (`art/cat.png`, `../art/cat.png`), so that it is the same from any working
    /// folder and on any machine that has the project at another place.
    static func source(of path: String, catalog: String) -> String {
        let from = URL(fileURLWithPath: catalog).standardizedFileURL.deletingLastPathComponent().pathComponents
        let to = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        var common = 0
        while common < from.count && common < to.count && from[common] == to[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// Converts a frame folder: a `.stickersequence` of still PNGs (each within an equal share of
    /// the budget) or one APNG sticker.
    static func convertFrames(_ paths: [String], options: ConversionOptions, fps: Double, sequence: Bool) throws -> CatalogSticker.Content {
        var images: [Image] = []
        for p in paths {
            guard let data = FileManager.default.contents(atPath: p) else { throw CommandFailure("\(p): cannot read the file") }
            let img: Image
            do { img = try Artwork.firstFrame([UInt8](data), limits: options.limits) } catch {
                throw CommandFailure("\((p as NSString).lastPathComponent): \(error)")
            }
            if let first = images.first, first.width != img.width || first.height != img.height {
                throw CommandFailure("frame \((p as NSString).lastPathComponent) is \(img.width)×\(img.height), the first frame is \(first.width)×\(first.height)")
            }
            images.append(img)
        }
        if sequence {
            var opts = options
            opts.maxBytes = options.maxBytes / images.count
            var frames: [[UInt8]] = []
            for (i, img) in images.enumerated() {
                let r = StickerConverter.convert(Animation(still: img), options: opts)
                switch r.outputs[0].result {
                case .success(let o): frames.append(o.bytes)
                case .failure(let e): throw CommandFailure("frame \(i + 1): \(e)")
                }
            }
            return .sequence(frames: frames, fps: fps, repetitions: 0)
        }
        // Whole frame rates are exact (1/12 s); others to the millisecond.
        let delay = fps == fps.rounded() ? Delay(numerator: 1, denominator: Int(fps))
                                         : Delay(milliseconds: max(1, Int((1000 / fps).rounded())))
        let animation = Animation(width: images[0].width, height: images[0].height,
                                  frames: images.map { Frame(image: $0, delay: delay) })
        let r = StickerConverter.convert(animation, options: options)
        switch r.outputs[0].result {
        case .success(let o): return .file(bytes: o.bytes, fileExtension: "png")
        case .failure(let e): throw CommandFailure(e.description)
        }
    }
}
