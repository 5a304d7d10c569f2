import ImageCore
import ImageDecoding

/// What one conversion will hold at its peak, estimated from the file's structure before
/// anything is decoded, against `Limits.maxMemory`. The parts that do not depend on the frame
/// count are fixed by the file: the process itself, the file's bytes, what the decoder holds
/// (`ImageOutline.decodingMemory`: a still's whole image, an animation's composited box), and
/// the stickers being made. An animation's fitted frames and the budget search's copies are not
/// fixed: they take what is left (`MemoryPlan`), giving up and decoding again when it runs out,
/// so they need only a working minimum. A file whose estimate passes the budget is refused with
/// `LimitsError.overMemory` before decoding.
struct ConversionMemory {
    /// Resident memory of the process before any file (the runtime, the libraries, the CLI):
    /// `stickerkit resize` of a 1×1 PNG peaks at 25.8 MB at 300 px (/usr/bin/time -v).
    static let process = 26_000_000
    /// Bytes per sticker pixel while one size is fitted, searched and encoded (the fitted image,
    /// the resampler's rows, quantized and filtered copies, the encodes): a 1×1 PNG at 618 px
    /// peaks 4.7 MB above the same at 300 px, about 16 bytes per added pixel.
    static let perStickerPixel = 16
    /// The least the fitted frames and the search's copies of an animation must have: below it,
    /// frames would be decoded again for every probe.
    static let animationMinimum = 32_000_000

    /// The bytes the file fixes, whatever its frame count.
    let fixed: Int
    /// `fixed` plus the animation minimum for animations: what is checked against the budget.
    let estimate: Int
    /// What the fitted frames and the search may share: the budget less `fixed`.
    let available: Int
    let format: ImageFormat?
    /// The canvas the structure says, when it could be read.
    let canvas: (width: Int, height: Int)?

    init(_ data: [UInt8], options: ConversionOptions) {
        let (outline, decoding) = data.withUnsafeBytes { (ImageOutline.read($0), ImageOutline.decodingMemory($0) ?? 0) }
        let stickers = options.sizes.reduce(0) { $0 + $1.pixels * $1.pixels } * ConversionMemory.perStickerPixel
        let parts = [ConversionMemory.process, data.count, decoding, stickers]
        fixed = parts.reduce(0) { min(Int.max / 2, $0 + $1) }
        let animated = (outline?.frameCount ?? 1) > 1 || outline?.format == .apng
        estimate = fixed + (animated ? ConversionMemory.animationMinimum : 0)
        available = max(0, options.limits.maxMemory - fixed)
        format = outline?.format
        canvas = outline.map { ($0.width, $0.height) }
    }

    /// Throws `ImageError` (`LimitsError.overMemory`) when the estimate passes `limits.maxMemory`.
    /// A canvas past the other limits is left to the decoder, whose error names the limit it
    /// passes (a 100000×100000 IHDR is over 100 MP before it is over any memory budget).
    func check(_ limits: Limits) throws {
        if let canvas, (try? limits.check(width: canvas.width, height: canvas.height, format: format)) == nil { return }
        try limits.check(memory: estimate, format: format)
    }
}
