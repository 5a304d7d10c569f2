import ImageCore
import ImageDecoding
import ImageResize

/// Artwork read outside a conversion: which format a file holds, and its first frame (for app
/// icons, contact sheets and folders of still frames).
public enum Artwork {
    /// The format of `bytes`, from their first bytes (never from a file name), or nil when they
    /// are no image StickerKit reads. Sixteen bytes are enough.
    public static func format(of bytes: [UInt8]) -> ImageFormat? {
        ImageDecoder.sniff(bytes)
    }

    /// Why `bytes` are not read, when their first bytes name a format people take for artwork
    /// that StickerKit does not read ("a HEIC/HEIF image: not a format stickerkit reads …");
    /// nil for any other bytes. Sixteen bytes are enough, but for SVG text.
    public static func otherFormat(of bytes: [UInt8]) -> String? {
        guard format(of: bytes) == nil else { return nil }
        let why = SniffError.unrecognised(bytes)
        guard case .otherFormat = why else { return nil }
        return why.message
    }

    /// The frames the file in `bytes` announces in its structure (`ImageOutline.frameCount`,
    /// read without decoding): more than 1 for an animation, 1 for a still or for bytes whose
    /// structure does not read.
    public static func frameCount(of bytes: [UInt8]) -> Int {
        max(ImageOutline.read(bytes)?.frameCount ?? 1, 1)
    }

    /// The first frame of the image file in `bytes` at full size, decoded as a conversion decodes
    /// it; later frames are not decoded. Throws `ImageError` when the bytes are no image, are
    /// damaged, or exceed `limits`.
    public static func firstFrame(_ bytes: [UInt8], limits: Limits = .default) throws -> Image {
        try ImageDecoder.decode(bytes, options: DecodeOptions(limits: limits, firstFrameOnly: true)).animation.frames[0].image
    }

    /// The first frame of `bytes` for pictures no larger than `largest` (width, height), resized
    /// with `fit` (app icons, pack pictures), within `limits.maxMemory`: a JPEG is decoded reduced
    /// by libjpeg's DCT scaling while it keeps at least `DecodeReduction.margin` source pixels for
    /// every picture pixel each way; a file whose decode would pass the budget is refused from
    /// its structure before decoding (`LimitsError.overMemory`). The estimate counts the process,
    /// the file, what the decoder holds (`ImageOutline.decodingMemory`), an animation's whole
    /// first canvas and the pictures. With the source's size as shown (turned by EXIF), which a
    /// reduced image is smaller than. Throws `ImageError` as `firstFrame` does.
    public static func firstFrame(_ bytes: [UInt8], forPictures largest: (width: Int, height: Int), fit: FitMode,
                                  limits: Limits = .default) throws -> (image: Image, width: Int, height: Int) {
        let outline = bytes.withUnsafeBytes { ImageOutline.read($0) }
        // Only a JPEG is decoded reduced (libjpeg's DCT scaling); others ignore it.
        let minimumLongSide = outline.flatMap { DecodeReduction.minimumLongSide(width: $0.width, height: $0.height, forPictures: largest, fit: fit) }
        if let o = outline, (try? limits.check(width: o.width, height: o.height, format: o.format)) != nil {
            let decoding = bytes.withUnsafeBytes { ImageOutline.decodingMemory($0, minimumLongSide: minimumLongSide) } ?? 0
            let animated = o.frameCount > 1 || o.format == .apng
            // An animation's first frame comes back as one image of the whole canvas.
            let canvas = animated ? o.width * o.height * 4 : 0   // within the pixel limit: no overflow
            let pictures = largest.width * largest.height * ConversionMemory.perStickerPixel
            let estimate = ConversionMemory.total([ConversionMemory.process, bytes.count, decoding, canvas, pictures])
            try limits.check(memory: estimate, format: o.format)
        }
        let image = try ImageDecoder.decode(bytes, options: DecodeOptions(limits: limits, firstFrameOnly: true, minimumLongSide: minimumLongSide))
            .animation.frames[0].image
        guard let o = outline else { return (image, image.width, image.height) }
        let turned = o.width != o.height && image.width != image.height && (image.width > image.height) != (o.width > o.height)
        return (image, turned ? o.height : o.width, turned ? o.width : o.height)
    }

    /// Throws `LimitsError.overMemory` when decoding the file in `bytes` frame by frame as
    /// `ImageDecoder.decodeCanvas` does (its frames' regions, never a whole canvas the frames do
    /// not cover) would pass `limits.maxMemory`, from its structure: the process, the file and
    /// what the decoder holds
    /// (`ImageOutline.decodingMemory`). A file whose outline cannot be read, or whose size
    /// passes the limits, passes here: its decode fails quickly, naming that.
    package static func checkDecodingMemory(_ bytes: [UInt8], limits: Limits) throws {
        guard let o = bytes.withUnsafeBytes({ ImageOutline.read($0) }) else { return }
        try checkDecodingMemory(bytes, outline: o, beside: 0, limits: limits)
    }

    /// `checkDecodingMemory(_:limits:)` of a file whose outline is `o`, with `beside` bytes more.
    private static func checkDecodingMemory(_ bytes: [UInt8], outline o: ImageOutline, beside: Int, limits: Limits) throws {
        guard (try? limits.check(width: o.width, height: o.height, format: o.format)) != nil,
              let decoding = bytes.withUnsafeBytes({ ImageOutline.decodingMemory($0) }) else { return }
        try limits.check(memory: ConversionMemory.total([ConversionMemory.process, bytes.count, decoding, beside]), format: o.format)
    }

    /// The first frame of `bytes` resized to each of `targets` (the pixels `Resizer.fit` or
    /// `Resizer.resize` make of `firstFrame(bytes)`), fed row by row into one resizer per target
    /// so that the image is never held whole: each keeps only the window of source rows its
    /// output rows read. A still is decoded by rows; an animation's first frame, or a GIF or
    /// WebP still, is composed row by row from the regions its frames draw (a large canvas with
    /// small frames is never held whole either). With the source's size. Nil when the file is a
    /// still that does not decode by rows (`ImageDecoder.decodeRows` decides: a JPEG turned by
    /// EXIF does not) or a target is empty: decode it whole. Throws `ImageError`
    /// as `firstFrame` does, and `LimitsError.overMemory` from the structure when the file, the
    /// decoder's rows, the resizers' windows and pictures and a still's workspace
    /// (`ConversionMemory.stillWorkspace`) would pass `limits.maxMemory`.
    public static func resizedByRows(_ bytes: [UInt8], targets: [ArtworkResize],
                                     limits: Limits = .default) throws -> (width: Int, height: Int, images: [Image])? {
        let outline = bytes.withUnsafeBytes { ImageOutline.read($0) }
        if let o = outline, o.frameCount > 1 || [.apng, .gif, .webp].contains(o.format) {
            return try canvasResizedByRows(bytes, outline: o, targets: targets, limits: limits)
        }
        // Refused from the structure when the file, the decoder's rows, every resizer and a still's
        // workspace would pass the budget (a 7000² RGBA noise PNG's 13 app icons peaked at 289 MB).
        if let o = outline, (try? limits.check(width: o.width, height: o.height, format: o.format)) != nil,
           let decoding = bytes.withUnsafeBytes({ ImageOutline.rowDecodingMemory($0, minimumLongSide: nil) }) {
            let resizing = ArtworkResize.memory(of: targets, canvasWidth: o.width, canvasHeight: o.height)
            let estimate = ConversionMemory.total([ConversionMemory.process, bytes.count, decoding, resizing, ConversionMemory.stillWorkspace])
            try limits.check(memory: estimate, format: o.format)
        }
        var resizers: [RowFitter] = []
        var empty = false
        let info = try ImageDecoder.decodeRows(bytes, options: DecodeOptions(limits: limits), start: { w, h in
            for target in targets {
                guard let r = target.rowResizer(canvasWidth: w, canvasHeight: h) else { empty = true; return }
                resizers.append(r)
            }
        }, row: { pixels, y in
            if !empty { for r in resizers { r.add(row: pixels, y: y) } }
        })
        guard let info, !empty else { return nil }
        return (info.width, info.height, resizers.map { $0.finish() })
    }

    /// `resizedByRows` of a file the decoder composites on a canvas (an animation's first frame,
    /// a GIF or WebP still), built row by row from the regions its first frame draws
    /// (`ImageDecoder.decodeCanvas`): a large canvas drawn by small frames is never held whole
    /// (a 10000² GIF screen with two 1×1 frames: 2 pixels, not 400 MB). Refused from the
    /// structure when the process, the file, the decoder and the resizers would pass the budget.
    private static func canvasResizedByRows(_ bytes: [UInt8], outline o: ImageOutline, targets: [ArtworkResize],
                                            limits: Limits) throws -> (width: Int, height: Int, images: [Image])? {
        try checkDecodingMemory(bytes, outline: o, beside: ArtworkResize.memory(of: targets, canvasWidth: o.width, canvasHeight: o.height),
                                limits: limits)
        var first: CanvasFrame?
        _ = try ImageDecoder.decodeCanvas(bytes, options: DecodeOptions(limits: limits, firstFrameOnly: true)) { frame in
            if first == nil { first = frame }
        }
        guard let frame = first else { return nil }
        var resizers: [RowFitter] = []
        for target in targets {
            guard let r = target.rowResizer(canvasWidth: frame.canvasWidth, canvasHeight: frame.canvasHeight) else { return nil }
            resizers.append(r)
        }
        // Each canvas row: transparent, with the regions that cross it copied in.
        var row = [UInt8](repeating: 0, count: frame.canvasWidth * 4)
        row.withUnsafeMutableBytes { out in
            for y in 0..<frame.canvasHeight {
                out.initializeMemory(as: UInt8.self, repeating: 0)
                for region in frame.regions where y >= region.rect.y && y < region.rect.y + region.rect.height {
                    let r = region.rect
                    region.pixels.pixels.withUnsafeBytes { src in
                        (out.baseAddress! + r.x * 4).copyMemory(from: src.baseAddress! + (y - r.y) * r.width * 4, byteCount: r.width * 4)
                    }
                }
                for resizer in resizers { resizer.add(row: UnsafeRawPointer(out.baseAddress!), y: y) }
            }
        }
        return (frame.canvasWidth, frame.canvasHeight, resizers.map { $0.finish() })
    }
}
