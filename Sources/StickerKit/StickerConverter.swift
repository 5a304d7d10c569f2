import Dispatch
import ImageCore
import ImageDecoding
import ImageResize
import ImageQuantize
import PNGEncoding

/// The pipeline: decode → fit and resize → quantize → encode → budget search. Touches no files.
///
/// Memory: a source whose decoded frames would take more than `streamingThreshold` bytes is
/// never held whole. It is decoded once per requested size, each frame fitted as soon as it is
/// decoded and dropped, so what is held is the input bytes, the decoder's canvas, one source
/// frame and that size's fitted frames (frames × side² × 4 bytes, less when consecutive frames
/// repeat), which the budget search needs together. With `trim`, a first pass finds the visible
/// bounds over all frames. Smaller sources, and stills of any size, are decoded once and resized
/// for every size, as before; both paths give the same bytes.
public enum StickerConverter {
    /// Decoded bytes (canvas pixels × frames × 4) above which a source is streamed: 64 MiB.
    /// Below it, decoding once for every size costs less time than it saves memory (the 618²
    /// frames of a 64 MiB animation alone take ~95 MiB when its canvas is 512²).
    static let streamingThreshold = 64 << 20

    /// A relative measure of the work `convert` will do on the file in `bytes`, from its outline
    /// alone (no decoding): frames × (canvas pixels + the stickers' pixels), for a batch to start
    /// the longest jobs first. 0 when the outline cannot be read (the file will fail quickly).
    /// Animations cost far more per frame in the budget search than in decoding, and the stickers'
    /// pixels stand for that; it need only order jobs, not predict times. `package`: only the
    /// CLI's batches are scheduled by it.
    package static func estimatedWork(_ bytes: UnsafeRawBufferPointer, options: ConversionOptions) -> Double {
        guard let o = ImageOutline.read(bytes) else { return 0 }
        let stickerPixels = options.sizes.reduce(0) { $0 + $1.pixels * $1.pixels }
        return Double(o.frameCount) * (Double(o.width) * Double(o.height) + 4 * Double(stickerPixels))
    }

    /// Converts one file's bytes to every size in `options.sizes`. Throws `ImageError` when the
    /// input cannot be decoded; per-size failures (nothing fits the budget) are in the result.
    public static func convert(_ data: [UInt8], options: ConversionOptions) throws -> ConversionResult {
        if !options.target.isMessages { return try PlatformConverter.convert(data, options: options) }
        return try convert(data, options: options, streamingThreshold: streamingThreshold)
    }

    /// `convert` with the threshold chosen by the caller (tests force either path with it).
    static func convert(_ data: [UInt8], options: ConversionOptions, streamingThreshold: Int) throws -> ConversionResult {
        let clock = StageClock()
        let decodeOptions = DecodeOptions(limits: options.limits, lenient: options.lenient)
        let sizes = options.sizes
        // The first pass holds frames until they pass the threshold; it then goes on as the
        // trim pass (finding the visible bounds) or as the first size's pass (fitting frames).
        var held: [Frame] = []
        var heldBytes = 0
        var bounds: VisibleBounds?
        var firstFitter: FrameFitter?
        var firstFitted: [Frame] = []
        func take(_ frame: Frame) {
            if firstFitter != nil {
                firstFitted.append(Frame(image: clock.measure(\.resize) { firstFitter!.fit(frame.image) }, delay: frame.delay))
                return
            }
            if bounds != nil {
                clock.measure(\.resize) { bounds!.add(frame.image) }
                return
            }
            held.append(frame)
            heldBytes += frame.image.pixels.count
            // A still is never streamed: its peak is its own decode, which every pass would repeat.
            guard held.count > 1, heldBytes > streamingThreshold, let first = sizes.first else { return }
            clock.measure(\.resize) {
                if options.trim {
                    var union = VisibleBounds()
                    for f in held { union.add(f.image) }
                    bounds = union
                } else {
                    var fitter = FrameFitter(canvasWidth: frame.image.width, canvasHeight: frame.image.height,
                                             options: fitOptions(first, options))
                    firstFitted = held.map { Frame(image: fitter.fit($0.image), delay: $0.delay) }
                    firstFitter = fitter
                }
            }
            held = []
        }
        let info = try decodePass(data, decodeOptions, clock: clock, take)

        guard bounds != nil || firstFitter != nil else {
            var decoded = DecodedImage(format: info.format,
                                       animation: Animation(width: info.width, height: info.height, frames: held,
                                                            loopCount: info.loopCount),
                                       warnings: info.warnings)
            held = []
            var result = convert(releasing: &decoded, options: options)
            result.timings.decode = clock.timings.decode
            result.timings.resize += clock.timings.resize
            return result
        }

        let animated = info.frameCount > 1 || info.format == .apng
        var outputs: [(size: StickerSize, result: Result<StickerOutput, StickerError>)] = []
        for (k, size) in sizes.enumerated() {
            var fitter: FrameFitter
            var frames: [Frame]
            if k == 0, let first = firstFitter {
                (fitter, frames) = (first, firstFitted)
                (firstFitter, firstFitted) = (nil, [])
            } else {
                fitter = FrameFitter(canvasWidth: info.width, canvasHeight: info.height, options: fitOptions(size, options),
                                     visibleBounds: bounds)
                frames = []
                frames.reserveCapacity(info.frameCount)
                _ = try decodePass(data, decodeOptions, clock: clock) { frame in
                    frames.append(Frame(image: clock.measure(\.resize) { fitter.fit(frame.image) }, delay: frame.delay))
                }
            }
            let fitted = Animation(width: fitter.size, height: fitter.size, frames: frames, loopCount: info.loopCount)
            frames = []
            outputs.append((size, encode(fitted, size: size, fitWarnings: fitter.warnings, animated: animated,
                                         options: options, clock: clock)))
        }
        return ConversionResult(format: info.format, width: info.width, height: info.height, frames: info.frameCount,
                                warnings: info.warnings, outputs: outputs, timings: clock.timings)
    }

    /// Converts frames already in memory (say, still frames put together into an animation) to
    /// every size in `options.sizes`: one frame gives a PNG, more an APNG. The result's `format`
    /// is `.png` or `.apng` accordingly, as if the frames had been read from such a file.
    public static func convert(_ animation: Animation, options: ConversionOptions) -> ConversionResult {
        var decoded = DecodedImage(format: animation.isAnimated ? .apng : .png, animation: animation)
        return convert(releasing: &decoded, options: options)
    }

    /// The pipeline over `decoded`, whose frames are released once the last size is resized, so
    /// that the decoded frames and the budget search's working set are not held at the same time
    /// (when the caller holds no other reference to them).
    static func convert(releasing decoded: inout DecodedImage, options: ConversionOptions) -> ConversionResult {
        let clock = StageClock()
        let (width, height, frameCount) = (decoded.animation.width, decoded.animation.height, decoded.animation.frames.count)
        let animated = decoded.animation.isAnimated || decoded.format == .apng
        var outputs: [(size: StickerSize, result: Result<StickerOutput, StickerError>)] = []
        for (k, size) in options.sizes.enumerated() {
            var fitted = clock.measure(\.resize) {
                Resizer.fit(decoded.animation, options: fitOptions(size, options))
            }
            if k == options.sizes.count - 1 {
                decoded.animation = Animation(still: Image(width: 1, height: 1))
            }
            let frames = fitted.animation
            fitted.animation = Animation(still: Image(width: 1, height: 1))
            outputs.append((size, encode(frames, size: size, fitWarnings: fitted.warnings, animated: animated,
                                         options: options, clock: clock)))
        }
        return ConversionResult(format: decoded.format, width: width, height: height,
                                frames: frameCount, warnings: decoded.warnings, outputs: outputs,
                                timings: clock.timings)
    }

    /// One decode of `data`, its time split between decoding and the fitting `body` measures
    /// under `resize`.
    private static func decodePass(_ data: [UInt8], _ options: DecodeOptions, clock: StageClock,
                                   _ body: (Frame) throws -> Void) throws -> FrameStreamInfo {
        let resizeBefore = clock.timings.resize
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            clock.timings.decode += max(0, elapsed - (clock.timings.resize - resizeBefore))
        }
        return try ImageDecoder.decodeFrames(data, options: options, body)
    }

    private static func fitOptions(_ size: StickerSize, _ options: ConversionOptions) -> FitOptions {
        FitOptions(size: size.pixels, fit: options.fit, trim: options.trim, inset: options.inset, linear: options.linear)
    }

    /// The budget search for one size, its report carrying the fit's notes first and a warning
    /// when the sticker shows practically nothing (`NearlyEmptySticker`).
    private static func encode(_ frames: Animation, size: StickerSize, fitWarnings: [String], animated: Bool,
                               options: ConversionOptions, clock: StageClock) -> Result<StickerOutput, StickerError> {
        var result = BudgetSearch.encode(frames, animated: animated, options: options, clock: clock)
        if case .success(var output) = result {
            output.size = size
            output.report.warnings = fitWarnings + output.report.warnings
            if let empty = NearlyEmptySticker.warning(frames) { output.report.warnings.append(empty) }
            result = .success(output)
        }
        return result
    }
}
