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
    /// the budget) or one APNG sticker. Frames are read one at a time (the APNG's on each walk of
    /// the conversion), so memory does not grow with their count.
    static func convertFrames(_ paths: [String], options: ConversionOptions, fps: Double, sequence: Bool) throws -> CatalogSticker.Content {
        let name = { (i: Int) in (paths[i] as NSString).lastPathComponent }
        var first: (width: Int, height: Int)?
        func read(_ i: Int) throws -> Image {
            // A frame is a file like any input: one too large to hold is refused from its size
            // (a 1.5 GB frame was read whole, 3.1 GB resident).
            let location = BytePath(paths[i])
            if let size = (try? FileStatus.of(location))??.bytes {
                do {
                    try StickerConverter.checkFileSize(size, head: FileSystem.readHead(location, count: 64) ?? [], limits: options.limits)
                } catch {
                    throw CommandFailure.failed(nil, "\(name(i)): \(error)")
                }
            }
            guard let data = FileManager.default.contents(atPath: paths[i]) else {
                throw CommandFailure.failed(nil, "\(paths[i]): cannot read the file")
            }
            let img: Image
            do { img = try Artwork.firstFrame([UInt8](data), limits: options.limits) } catch {
                throw CommandFailure.failed(nil, "\(name(i)): \(error)")
            }
            if let f = first, f.width != img.width || f.height != img.height {
                throw CommandFailure.failed(nil, "frame \(name(i)) is \(img.width)×\(img.height), the first frame is \(f.width)×\(f.height)")
            }
            first = first ?? (img.width, img.height)
            return img
        }
        if sequence {
            var opts = options
            opts.maxBytes = options.maxBytes / paths.count
            var frames: [[UInt8]] = []
            for i in paths.indices {
                let r = StickerConverter.convert(Animation(still: try read(i)), options: opts)
                switch r.outputs[0].result {
                case .success(let o): frames.append(o.bytes)
                case .failure(let e): throw CommandFailure.failed(nil, "frame \(i + 1): \(e)")
                }
            }
            return .sequence(frames: frames, fps: fps, repetitions: 0)
        }
        // Whole frame rates are exact (1/12 s); others to the millisecond.
        let delay = fps == fps.rounded() ? Delay(numerator: 1, denominator: Int(fps))
                                         : Delay(milliseconds: max(1, Int((1000 / fps).rounded())))
        let r = try StickerConverter.convert(frameCount: paths.count, delay: delay, options: options, frame: read)
        switch r.outputs[0].result {
        case .success(let o): return .file(bytes: o.bytes, fileExtension: "png")
        case .failure(let e): throw CommandFailure.failed(nil, e.description)
        }
    }
}
