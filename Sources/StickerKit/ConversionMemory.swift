import ImageCore
import ImageDecoding
import ImageResize

/// What one conversion will hold at its peak, estimated from the file's structure before
/// anything is decoded, against `Limits.maxMemory`. The parts that do not depend on the frame
/// count are fixed by the file: the process itself, the file's bytes, what the decoder holds
/// (`ImageOutline.decodingMemory`: a still's whole image — a JPEG's at the size `DecodeReduction`
/// lets it be decoded at — an animation's composited box), and the stickers being made. An
/// animation's fitted frames and the budget search's copies are not fixed: they take what is
/// left (`MemoryPlan`), giving up and decoding again when it runs out, so they need only a
/// working minimum. A still whose whole image would pass the budget is
/// decoded row by row instead when its structure allows (`ImageOutline.rowDecodingMemory`):
/// then the decoder's rows and each size's `RowFitter` window count, not the image. A file whose
/// estimate passes the budget is refused with `LimitsError.overMemory` before decoding.
struct ConversionMemory {
    /// Resident memory of the process before any file (the runtime, the libraries, the CLI):
    /// `stickerkit resize` of a 1×1 PNG peaks at 25.8 MB at 300 px (/usr/bin/time -v).
    static let process = 26_000_000
    /// Bytes per sticker pixel while one size is fitted, searched and encoded (the fitted image,
    /// the resampler's rows, quantized and filtered copies, the encodes): a 1×1 PNG at 618 px
    /// peaks 4.7 MB above the same at 300 px, about 16 bytes per added pixel.
    static let perStickerPixel = 16
    /// What an animation's WebM encoder holds whatever its frames (libvpx's VP9 encoders, one
    /// for colour and one for alpha, with their lookahead and reference frames at 512²): a
    /// 6-frame ring converts for Telegram in 91 MB and for Signal in 40 MB.
    static let webmEncoder = 51_000_000
    /// What an animation's WebP encoder holds whatever its frames (libwebpmux's `WebPAnimEncoder`
    /// at 512²: its three canvases, each frame's candidate sub-frames and their encodes, the
    /// encoded frames it keeps until assembly, and the lossless encoder's workspace).
    static let webpAnimationEncoder = 10_000_000
    /// What a still's conversion holds beyond its image and its stickers' pixels, whatever the
    /// image: its encoders' workspace — libdeflate's near-optimal compressors (a large PNG stream
    /// is compressed in two pieces at once, about 4.5 MB each) or libwebp's lossless encoder
    /// (about 10 MB at 512²) — and what glibc keeps of freed memory at its default thresholds
    /// (about 6 MB). Without it, stills of 4000²–7100² RGBA noise (48–202 MB PNGs, 31–126 MB
    /// JPEGs) decoded by rows peaked 3–11 MB past a budget 1 MB above their estimate, and the
    /// 7100² PNG at 258 MB under the default 256 (massif: of a 68.6 MB heap, 48 MB the file and
    /// 9.7 MB the two compressors). An animation's search shares (`MemoryPlan`) leave room for
    /// both: every corpus animation peaks within a budget at its estimate (`scripts/check-budgets`).
    static let stillWorkspace = 18_000_000
    /// The least the fitted frames and the search's copies of an animation must have: below it,
    /// frames would be decoded again for every probe. A palette search asks for more
    /// (`MemoryPlan.leastAvailable`: 54 MB for Messages).
    static let animationMinimum = 32_000_000
    /// The least an animation for a platform whose encoder searches no palette (WebP, WebM) must
    /// have for its fitted frames: its probes replay the frames past it.
    static let codecAnimationMinimum = 16_000_000

    /// What an animation of `frames` frames (unknown: nil) asks beyond its fixed part. A palette
    /// search of a short timeline, which predicts nothing, asks only for its plan's least.
    static func animationLeast(_ options: ConversionOptions, frames: Int? = nil) -> Int {
        guard MemoryPlan.searchesPalettes(options) else { return codecAnimationMinimum }
        let least = MemoryPlan.leastAvailable(options, frames: frames)
        return MemoryPlan.predicts(frames: frames) ? max(animationMinimum, least) : least
    }

    /// The bytes the file fixes, whatever its frame count.
    let fixed: Int
    /// `fixed` plus the animation minimum for animations: what is checked against the budget.
    let estimate: Int
    /// What the fitted frames and the search may share: the budget less `fixed`.
    let available: Int
    let format: ImageFormat?
    /// The file holds an animation (more than one frame, or an APNG).
    let animated: Bool
    /// The frames its structure announces (`ImageOutline.frameCount`), when it could be read.
    let frames: Int?
    /// The canvas the structure says, when it could be read.
    let canvas: (width: Int, height: Int)?
    /// The still is decoded row by row (`ImageDecoder.decodeRows` into `RowFitter`s): its whole
    /// image would pass the budget, and its rows do not.
    let byRows: Bool
    /// The estimate of decoding the whole image (`estimate` unless `byRows`).
    let wholeEstimate: Int

    init(_ data: [UInt8], options: ConversionOptions) {
        // A JPEG is decoded reduced when the stickers need far fewer pixels (`DecodeReduction`).
        let reduction = DecodeReduction.minimumLongSide(options)
        let (outline, decoding, rowDecoding) = data.withUnsafeBytes {
            (ImageOutline.read($0), ImageOutline.decodingMemory($0, minimumLongSide: reduction) ?? 0,
             ImageOutline.rowDecodingMemory($0, minimumLongSide: reduction))
        }
        let stickers = ConversionMemory.stickers(options)
        let animated = (outline?.frameCount ?? 1) > 1 || outline?.format == .apng
        let whole = ConversionMemory.total([ConversionMemory.process, data.count, decoding, stickers,
                                            ConversionMemory.encoder(options, animated: animated)])
        var byRows = false
        var fixed = whole
        // The fitters a still decoded by rows feeds: one per size for Messages, the platform's
        // square (for a box, one whose window is at least as tall) otherwise; none for a box
        // that resizes the whole canvas.
        let fits: [FitOptions] = options.target.isMessages
            ? options.sizes.map { StickerConverter.fitOptions($0, options) }
            : [BoxRowFit.windowBound(side: PlatformConverter.side(options.target), box: options.target.box(animated: false),
                                     options: options)].compactMap { $0 }
        if whole > options.limits.maxMemory, !animated, !fits.isEmpty, let rowDecoding, let outline {
            // Each fitter holds a window of whole source rows.
            let windows = fits.reduce(0) { sum, fit in
                let rows = RowFitter.windowRows(width: outline.width, height: outline.height, options: fit)
                return ConversionMemory.total([sum, rows * outline.width * 4])
            }
            let streamed = ConversionMemory.total([ConversionMemory.process, data.count, rowDecoding, windows, stickers,
                                                        ConversionMemory.encoder(options, animated: false)])
            if streamed < whole {
                byRows = true
                fixed = streamed
            }
        }
        self.byRows = byRows
        self.animated = animated
        wholeEstimate = whole
        self.fixed = fixed
        frames = outline?.frameCount
        estimate = fixed + (animated ? ConversionMemory.animationLeast(options, frames: frames) : 0)
        available = max(0, options.limits.maxMemory - fixed)
        format = outline?.format
        canvas = outline.map { ($0.width, $0.height) }
    }

    /// What the encoders hold whatever the frames: libvpx's for a WebM animation (`webmEncoder`),
    /// a still's workspace (`stillWorkspace`), else nothing beyond the plan's shares.
    static func encoder(_ options: ConversionOptions, animated: Bool) -> Int {
        guard animated else { return stillWorkspace }
        switch options.target.animationCodec {
        case .webm: return webmEncoder
        case .webp: return webpAnimationEncoder
        case .png: return 0
        }
    }

    /// The stickers being made: `perStickerPixel` for every pixel of every size.
    static func stickers(_ options: ConversionOptions) -> Int {
        options.sizes.reduce(0) { $0 + $1.pixels * $1.pixels } * perStickerPixel
    }

    /// The sum of `parts`, saturating well below overflow.
    static func total(_ parts: [Int]) -> Int {
        parts.reduce(0) { min(Int.max / 2, $0 + $1) }
    }

    /// Throws `ImageError` (`LimitsError.overMemory`) when the estimate passes `limits.maxMemory`.
    /// A canvas past the other limits is left to the decoder, whose error names the limit it
    /// passes (a 100000×100000 IHDR is over 100 MP before it is over any memory budget).
    func check(_ limits: Limits) throws {
        if let canvas, (try? limits.check(width: canvas.width, height: canvas.height, format: format)) == nil { return }
        try limits.check(memory: estimate, format: format)
    }
}
