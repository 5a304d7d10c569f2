import ImageCore

/// Entry point of the decoding stage: sniff → limits → header → frames.
///
/// Every decode here hands out frames composited on the full canvas with their delays as
/// displayed: `Delay.displayed` (10 ms or less shows as 100 ms) for an animation's frames, zero
/// for a still's one frame. Delays as stored in the file are in `ImageOutline.storedDelays`.
public enum ImageDecoder {
    /// The format named by the file's magic bytes, or nil. PNG and APNG both answer `.png`; the
    /// PNG decoder tells them apart. Beyond `ImageFormat.identify`, a PNG signature damaged in
    /// transfer (high bit stripped, CR/LF rewritten) still says "PNG" at bytes 1–3 and goes to
    /// the PNG decoder, which names the damage; so does a file that ends inside a signature.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        if let format = ImageFormat.identify(bytes) { return format }
        if bytes.count >= 4, bytes[1..<4].elementsEqual(PNGChunkReader.signature[1..<4]) { return .png }
        // Cut inside its signature (at least two bytes of it): that format's decoder says the
        // file is truncated, rather than "unknown format".
        if bytes.count >= 2 {
            return bytes.withUnsafeBytes { raw in
                ImageFormat.allCases.first { format in format.signatures.contains { $0.isCut(raw) } }
            }
        }
        return nil
    }

    /// Decodes any supported file. Throws `ImageError` naming the format and the problem.
    ///
    /// This is `decodeFrames` keeping every frame.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions = .init()) throws -> DecodedImage {
        try FrameStreamInfo.collect { try decodeFrames(bytes, options: options, $0) }
    }

    /// Decodes `bytes` as `format` whatever their signature says (`.apng` is read as `.png`,
    /// which tells the two apart): for callers that must exercise one decoder, such as a fuzzer.
    public static func decode(_ bytes: [UInt8], as format: ImageFormat, options: DecodeOptions = .init()) throws -> DecodedImage {
        try FrameStreamInfo.collect { try decodeFrames(bytes, as: format, options: options, $0) }
    }

    /// Decodes any supported file frame by frame: `body` gets every frame composited on the full
    /// canvas, in order, with the delays `decode` gives, and may drop each one before the next is
    /// decoded. Between frames the decoder holds its compositing canvas (plus the region saved for
    /// a restore-to-previous disposal) and, until the second frame arrives, the first one, whose
    /// delay depends on whether the file is animated. Limits are checked exactly as by `decode`
    /// (before allocating, with the same errors); an error thrown by `body` stops decoding and is
    /// rethrown. Frames delivered before a decoding error stay delivered: a caller that must not
    /// act on a partial file waits for the return.
    public static func decodeFrames(_ bytes: [UInt8], options: DecodeOptions = .init(),
                                     _ body: (Frame) throws -> Void) throws -> FrameStreamInfo {
        if bytes.isEmpty { throw ImageError(nil, SniffError.emptyFile) }
        guard let format = sniff(bytes) else {
            throw ImageError(nil, SniffError.unrecognised(bytes))
        }
        return try decodeFrames(bytes, as: format, options: options, body)
    }

    /// `decodeFrames` with the format given: the canvas decode's frames on the whole canvas,
    /// the first held until the second tells whether the file is animated.
    static func decodeFrames(_ bytes: [UInt8], as format: ImageFormat, options: DecodeOptions,
                             _ body: (Frame) throws -> Void) throws -> FrameStreamInfo {
        var first: Frame?
        var seen = 0
        let (info, _) = try decodeCanvas(bytes, as: format, options: options) { canvas in
            seen += 1
            let frame = Frame(image: canvas.wholeCanvas, delay: canvas.delay)
            if seen == 1 { first = frame; return }
            if let held = first {
                first = nil
                try body(Frame(image: held.image, delay: held.delay.displayed))
            }
            try body(frame)
        }
        if let still = first {
            first = nil
            try body(still)
        }
        return info
    }

    /// Decodes any supported file frame by frame as the decoders composite it: each frame's box
    /// (the part of the canvas any frame draws; the rest stays transparent) with what changed
    /// since the frame before (`CanvasFrame`). Nothing is held for the caller: no canvas-sized
    /// copy, not even of the first frame. Delays are as displayed from the second frame on; the
    /// first frame comes with its delay as stored, and `firstFrameDelay` says how it is shown
    /// once the frame count is known. Errors and limits are those of `decodeFrames`.
    package static func decodeCanvas(_ bytes: [UInt8], options: DecodeOptions = .init(),
                                     _ body: (CanvasFrame) throws -> Void) throws -> (info: FrameStreamInfo, firstFrameDelay: Delay) {
        if bytes.isEmpty { throw ImageError(nil, SniffError.emptyFile) }
        guard let format = sniff(bytes) else {
            throw ImageError(nil, SniffError.unrecognised(bytes))
        }
        return try decodeCanvas(bytes, as: format, options: options, body)
    }

    /// Decodes a still row by row: `start(width, height)`, then every row of the image (RGBA,
    /// `width × 4` bytes, valid during the call) top to bottom, the rows a whole `decode` gives,
    /// without ever holding the image (an interlaced PNG a band of rows at a time, each pass
    /// read from a copy of the stream where the pass starts). Returns nil, having delivered
    /// nothing, when the file cannot be decoded by rows: only PNG stills and JPEGs shown as stored
    /// are (`ImageOutline.rowDecodingMemory` says so from the structure), and not with a gray ICC
    /// profile on colour data (only the whole image tells whether it is gray). Errors, limits
    /// and warnings are those of `decode` (see `PNGRowDecoder` for the fine print); rows
    /// delivered before an error stay delivered.
    package static func decodeRows(_ bytes: [UInt8], options: DecodeOptions = .init(),
                                   start: (_ width: Int, _ height: Int) throws -> Void,
                                   row: (_ pixels: UnsafeRawPointer, _ y: Int) throws -> Void) throws -> FrameStreamInfo? {
        switch sniff(bytes) {
        case .jpeg: return try JPEGDecoder.decodeRows(bytes, options: options, start: start, row: row)
        case .png, .apng: return try PNGRowDecoder.decodeRows(bytes, options: options, start: start, row: row)
        default: return nil
        }
    }

    /// Every pixel of a still once, coloured as `decode` gives it, in runs of `count` RGBA pixels
    /// in no set order: a plain PNG's or a JPEG's rows top to bottom, an interlaced PNG's rows
    /// pass by pass as they are inflated (one inflate, no bands: what a scan of every pixel, such
    /// as `check`'s for transparency, needs). Nil, having delivered nothing, where `decodeRows`
    /// is nil; errors and warnings are `decodeRows`'s, and pixels delivered before an error stay
    /// delivered.
    package static func scanPixels(_ bytes: [UInt8], options: DecodeOptions = .init(),
                                   pixels: (_ pixels: UnsafeRawPointer, _ count: Int) throws -> Void) throws -> FrameStreamInfo? {
        var width = 0
        switch sniff(bytes) {
        case .jpeg:
            return try JPEGDecoder.decodeRows(bytes, options: options, start: { w, _ in width = w }, row: { row, _ in try pixels(row, width) })
        case .png, .apng:
            return try withoutActuallyEscaping(pixels) { pixels in
                try PNGRowDecoder.decodeRows(bytes, options: options, start: { w, _ in width = w },
                                             row: { row, _ in try pixels(row, width) }, passRows: pixels)
            }
        default:
            return nil
        }
    }

    /// `decodeCanvas` with the format given: the per-format decoders hand over delays as stored,
    /// and this is the one place that turns them into delays as displayed.
    static func decodeCanvas(_ bytes: [UInt8], as format: ImageFormat, options: DecodeOptions,
                             _ body: (CanvasFrame) throws -> Void) throws -> (info: FrameStreamInfo, firstFrameDelay: Delay) {
        var seen = 0
        var firstStored = Delay.zero
        func deliver(_ frame: CanvasFrame) throws {
            seen += 1
            if seen == 1 {
                firstStored = frame.delay
                try body(frame)
                return
            }
            var shown = frame
            shown.delay = frame.delay.displayed
            try body(shown)
        }
        let info: FrameStreamInfo
        switch format {
        case .png, .apng: info = try PNGDecoder.decodeFrames(bytes, options: options, deliver)
        case .jpeg: info = try JPEGDecoder.decodeFrames(bytes, options: options, deliver)
        case .gif: info = try GIFDecoder.decodeFrames(bytes, options: options, deliver)
        case .webp: info = try WebPDecoder.decodeFrames(bytes, options: options, deliver)
        }
        // Stills keep their stored delay; an animation's first frame shows as the others do.
        return (info, seen > 1 ? firstStored.displayed : firstStored)
    }
}
