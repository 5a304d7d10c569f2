import ImageDecoding

/// How small a conversion lets a JPEG be decoded (`DecodeOptions.minimumLongSide`): libjpeg's DCT
/// scaling to 1/2, 1/4 or 1/8 while the reduced image's long side stays at least `margin` times the
/// largest sticker side, so the area average that follows still averages `margin`² or more pixels
/// into each sticker pixel. Measured against the full decode with the judge (ImageDecoding's NOTES).
enum DecodeReduction {
    /// What a conversion decodes with: its limits and leniency, and the floor below.
    static func decodeOptions(_ options: ConversionOptions) -> DecodeOptions {
        DecodeOptions(limits: options.limits, lenient: options.lenient, minimumLongSide: minimumLongSide(options))
    }

    /// The smallest margin at which no photo sticker of the corpus loses more than 0.002 of the
    /// judge's SSIM against the full decode (3 loses up to 0.0039, 2 up to 0.0063).
    static let margin = 4

    /// The long side to keep, or nil (full size) when the fit is not the plain `contain` in
    /// encoded values that was measured: `cover` scales the short side to the sticker, and
    /// `linear` averages in linear light where libjpeg's reduced IDCT averages encoded values.
    /// The side is the largest sticker's: of `options.sizes` for Messages, else the platform's
    /// square side, or the longest side of its canvas boxes (LINE). The memory estimate
    /// (`ConversionMemory`) counts the image at the size this gives.
    static func minimumLongSide(_ options: ConversionOptions) -> Int? {
        guard options.fit == .contain, !options.linear, let largest = largestSide(options.target, sizes: options.sizes) else { return nil }
        return margin * largest
    }

    /// The long side to keep of a `width × height` image made into pictures no larger than
    /// `largest` with `fit` (app icons, pack pictures), or nil (full size): `margin` source pixels
    /// for every picture pixel each way, the image taken either way round (EXIF may turn it).
    static func minimumLongSide(width: Int, height: Int, forPictures largest: (width: Int, height: Int), fit: FitMode) -> Int? {
        guard width > 0, height > 0, largest.width > 0, largest.height > 0 else { return nil }
        func scale(_ w: Int, _ h: Int) -> Double {
            let sx = Double(largest.width) / Double(w), sy = Double(largest.height) / Double(h)
            return fit == .cover ? max(sx, sy) : min(sx, sy)
        }
        let keep = Double(margin) * max(scale(width, height), scale(height, width))
        return keep < 1 ? Int((Double(max(width, height)) * keep).rounded(.up)) : nil
    }

    /// The longest side a sticker of `target` can have (`sizes` for Messages).
    private static func largestSide(_ target: StickerTarget, sizes: [StickerSize]) -> Int? {
        if target.isMessages { return sizes.map(\.pixels).max() }
        let boxes = [target.box(animated: false), target.box(animated: true)].compactMap { $0 }.map { max($0.width, $0.height) }
        return boxes.max() ?? target.side
    }
}
