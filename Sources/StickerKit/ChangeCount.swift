import ImageCore

/// What one sticker's frames change, counted as they are fitted, against
/// `Limits.maxChangedPixels`: each frame's changed sticker pixels (all of the first frame's),
/// plus `sourceShare` of its changed source pixels (all the first frame's drawn regions). The
/// budget search's work follows this count: a changed sticker pixel is counted, remapped and
/// encoded on its walks, and once the fitted frames do not fit their store (`FittedFrames`
/// gave up) every walk decodes and resamples the changed source and sticker pixels again. A
/// size is refused (`StickerError.tooMuchChange`) as soon as its count is past the limit and
/// its frames are made again on every walk, or past `packedFactor` times the limit whatever
/// the store (`refuses`); a size past the limit whose frames stay packed in their store is
/// refused after the histogram unless it holds few colours (`AnimationBudget.Palettes.fewColours`):
/// frames that pack within the store's budget are runs of equal pixels, which the histogram,
/// remap and encoder each take in one step, and few colours are remapped from the colour
/// cache (5,000 frames of a small square moving over a 32² screen, 753 colours once its edges
/// are averaged, change 185 M pixels at 618 px and convert in about 4 s; a gradient moving
/// everywhere, 262,144 colours, took 90 ns a changed pixel with its frames packed). So the
/// time one size takes stays bounded whatever the frame count or canvas.
struct ChangeCount {
    let limit: Int
    let width: Int
    let height: Int
    private(set) var pixels = 0
    private(set) var frames = 0
    /// The frame (1-based) whose change passed the limit, once one has.
    private(set) var passedAt: Int?
    /// Past `packedFactor` times the limit, a size is refused even when its frames stay packed
    /// in their store and hold few colours.
    static let packedFactor = 4
    /// True once the count has passed `packedFactor` times the limit.
    private(set) var isFarOver = false

    /// A count for a `width × height` sticker against `limits.maxChangedPixels`.
    init(_ limits: Limits, width: Int, height: Int) {
        limit = limits.maxChangedPixels
        self.width = width
        self.height = height
    }

    /// A changed source pixel's share of a changed sticker pixel's cost. Measured with the
    /// release build on a 2-core host, over searches whose every walk decodes and fits again:
    /// up to about 105 ns of CPU per changed sticker pixel (a gradient that moves everywhere,
    /// at 618 px: four remaps and encodes of its kept frames), and per changed source pixel
    /// about 20 ns for a GIF and 55 ns for a lossy WebP, whose decoding costs most.
    static let sourceShare = (numerator: 1, denominator: 2)

    /// Counts the next frame: `frame` as decoded (its damage, nil for the first) and `damage`,
    /// its change at sticker size since the frame before (nil for the first: all its pixels).
    /// A still (one frame) is never over: its time is bounded by the canvas limits.
    mutating func add(_ frame: CanvasFrame, _ damage: RowDamage?) {
        guard !isFarOver else { return }
        frames += 1
        let source = frame.damage?.area ?? frame.regions.reduce(0) { $0 + $1.rect.width * $1.rect.height }
        pixels += (damage?.area ?? width * height) + source * Self.sourceShare.numerator / Self.sourceShare.denominator
        guard frames > 1 else { return }
        if pixels > limit && passedAt == nil { passedAt = frames }
        if pixels / Self.packedFactor > limit { isFarOver = true }
    }

    /// True once the count has passed the limit.
    var isOver: Bool { passedAt != nil }

    /// True when the sticker must be refused while its frames are fitted: the count has passed
    /// the limit and `frames` are made again on every walk, or `packedFactor` times the limit.
    func refuses(_ frames: FittedFrames) -> Bool { (isOver && frames.replays) || isFarOver }

    /// The refusal, for an animation of `frames` frames in all.
    func error(frames total: Int) -> StickerError {
        .tooMuchChange(limit: limit, width: width, height: height, frame: passedAt ?? frames, frames: total)
    }
}
