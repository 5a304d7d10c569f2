import Dispatch
import ImageCore
import ImageDecoding
import ImageResize
import ImageQuantize
import PNGEncoding

/// The pipeline: decode → fit and resize → quantize → encode → budget search. Touches no files.
///
/// Memory: no frame of the source is ever held whole. The decoder composites each frame on the
/// part of the canvas its frames draw (`CanvasFrame`) and says what changed; each requested
/// size's `FrameFitter` resamples only what that reaches, and the fitted frames go into a
/// store of what changed (`FittedFrames`), which the budget search walks as often as it needs.
/// A store that would pass its share of `Limits.maxMemory` gives up and the frames are decoded
/// and fitted again on each walk, so memory does not grow with the frame count. With `trim`, a
/// first pass finds the visible bounds over all frames.
public enum StickerConverter {
    /// Throws `ImageError` (`LimitsError.fileOverMemory`) when a file of `byteCount` bytes cannot
    /// be converted within `limits.maxMemory` whatever it holds: its bytes are held whole through
    /// the conversion, beside the process (`ConversionMemory`). A caller that
    /// knows a file's size can refuse it before reading it (a 419 MB file was read whole, 446 MB,
    /// before its estimate refused it). `head`, the file's first bytes, names its format; it is
    /// read only for a file refused.
    public static func checkFileSize(_ byteCount: Int, head: @autoclosure () -> [UInt8], limits: Limits) throws {
        let least = ConversionMemory.total([ConversionMemory.process, byteCount])
        guard least > limits.maxMemory else { return }
        throw ImageError(ImageDecoder.sniff(head()), LimitsError.fileOverMemory(bytes: byteCount, least: least, maxMemory: limits.maxMemory))
    }

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
    /// A file whose estimated peak memory (`ConversionMemory`) passes `options.limits.maxMemory`
    /// is refused before decoding (`LimitsError.overMemory`).
    public static func convert(_ data: [UInt8], options: ConversionOptions) throws -> ConversionResult {
        let memory = ConversionMemory(data, options: options)
        try memory.check(options.limits)
        if !options.target.isMessages {
            let plan = MemoryPlan(options: options, available: memory.available, animated: memory.animated, frames: memory.frames)
            if memory.byRows {
                if let result = try PlatformConverter.convertByRows(data, options: options, plan: plan) { return result }
                try options.limits.check(memory: memory.wholeEstimate, format: memory.format)
            }
            return try PlatformConverter.convert(data, options: options, plan: plan)
        }
        if memory.byRows {
            if let result = try convertByRows(data, options: options) { return result }
            // Declined by the decoder (a gray profile on colour data): the whole image it would need
            // is over the budget.
            try options.limits.check(memory: memory.wholeEstimate, format: memory.format)
        }
        return try convert(data, options: options, plan: MemoryPlan(options: options, available: memory.available,
                                                                     animated: memory.animated, frames: memory.frames))
    }

    /// A still decoded row by row into each size's `RowFitter` (two decodes with `trim`: the
    /// first finds the visible bounds), the image never held whole; then each size's search as
    /// for any still. Nil when the file cannot be decoded by rows after all (nothing was done).
    static func convertByRows(_ data: [UInt8], options: ConversionOptions) throws -> ConversionResult? {
        let clock = StageClock()
        let decodeOptions = DecodeReduction.decodeOptions(options)
        var bounds: VisibleBounds?
        if options.trim {
            guard let union = try clock.measure(\.decode, { try visibleBoundsByRows(data, options: decodeOptions) }) else { return nil }
            bounds = union
        }
        var fitters: [RowFitter] = []
        var empties: [NearlyEmptySticker] = []
        let decoded = try clock.measure(\.decode) {
            try ImageDecoder.decodeRows(data, options: decodeOptions, start: { w, h in
                fitters = options.sizes.map { RowFitter(canvasWidth: w, canvasHeight: h, options: fitOptions($0, options), visibleBounds: bounds) }
            }, row: { row, y in
                for fitter in fitters { fitter.add(row: row, y: y) }
            })
        }
        guard let info = decoded else { return nil }
        var outputs: [(size: StickerSize, result: Result<StickerOutput, StickerError>)] = []
        for (k, size) in options.sizes.enumerated() {
            let image = clock.measure(\.resize) { fitters[k].finish() }
            image.pixels.withUnsafeBytes { empties.append(NearlyEmptySticker()); empties[k].add($0) }
            let builder = StickerBuilder(size: size, side: image.width, fitWarnings: fitters[k].warnings, loopCount: 0,
                                         measuresQuality: options.measuresQuality)
            outputs.append((size, withEmptyWarning(BudgetSearch.encodeStill(image, options: options, builder: builder, clock: clock),
                                                   empties[k])))
        }
        return ConversionResult(format: info.format, width: info.sourceWidth, height: info.sourceHeight, frames: 1,
                                warnings: info.warnings, outputs: outputs, timings: clock.timings)
    }

    /// The visible bounds of a still from one decode by rows (`trim`'s first pass), or nil when
    /// the file cannot be decoded by rows (nothing was delivered).
    static func visibleBoundsByRows(_ data: [UInt8], options: DecodeOptions) throws -> VisibleBounds? {
        var union = VisibleBounds()
        var width = 0
        let info = try ImageDecoder.decodeRows(data, options: options, start: { w, _ in width = w },
                                               row: { union.add(row: $0, y: $1, width: width) })
        return info == nil ? nil : union
    }

    /// `convert` with the memory shares given (tests force the stores' tiers with them).
    static func convert(_ data: [UInt8], options: ConversionOptions, plan: MemoryPlan) throws -> ConversionResult {
        let decodeOptions = DecodeReduction.decodeOptions(options)
        return try convert(options: options, plan: plan) { body in
            let (info, firstDelay) = try ImageDecoder.decodeCanvas(data, options: decodeOptions, body)
            return SourceFacts(format: info.format, width: info.sourceWidth, height: info.sourceHeight, frameCount: info.frameCount,
                               loopCount: info.loopCount, warnings: info.warnings, firstFrameDelay: firstDelay)
        }
    }

    /// Converts frames already in memory (say, still frames put together into an animation) to
    /// every size in `options.sizes`: one frame gives a PNG, more an APNG. The result's `format`
    /// is `.png` or `.apng` accordingly, as if the frames had been read from such a file.
    public static func convert(_ animation: Animation, options: ConversionOptions) -> ConversionResult {
        let facts = SourceFacts(format: animation.isAnimated ? .apng : .png, width: animation.width, height: animation.height,
                                frameCount: animation.frames.count, loopCount: animation.loopCount, warnings: [],
                                firstFrameDelay: animation.frames[0].delay)
        // In-memory frames cannot fail to walk (and all have the canvas's size).
        return try! convert(options: options, plan: MemoryPlan(options: options, animated: animation.isAnimated,
                                                               frames: animation.frames.count),
                            source: framesWalk(facts, image: { animation.frames[$0].image }, delay: { animation.frames[$0].delay }))
    }

    /// Converts `count` frames read one at a time (a folder of numbered frames) to every size in
    /// `options.sizes`, each shown for `delay`: one frame gives a PNG, more an APNG, the stickers
    /// `convert(_ animation:options:)` makes of the same frames. `frame(i)` is called for `i` in
    /// order on each walk over the frames (a few per conversion), and only the frame read and the
    /// one before it are held (and the first), so memory does not grow with the count: the
    /// fitted frames are kept within the budget left beside those three (`MemoryPlan`). A frame
    /// of another size than the first throws `FrameSizeError`; errors `frame` throws are
    /// rethrown.
    public static func convert(frameCount count: Int, delay: Delay, options: ConversionOptions,
                               frame: @escaping (Int) throws -> Image) throws -> ConversionResult {
        precondition(count > 0, "StickerConverter: no frames")
        let first = try frame(0)
        let held = ConversionMemory.process + 3 * first.width * first.height * 4 + ConversionMemory.stickers(options)
            + ConversionMemory.encoder(options, animated: count > 1)
        let facts = SourceFacts(format: count > 1 ? .apng : .png, width: first.width, height: first.height, frameCount: count,
                                loopCount: 0, warnings: [], firstFrameDelay: delay)
        return try convert(options: options, plan: MemoryPlan(options: options, available: max(0, options.limits.maxMemory - held),
                                                              animated: count > 1, frames: count),
                           source: framesWalk(facts, image: { $0 == 0 ? first : try frame($0) }, delay: { _ in delay }))
    }

    /// The walk over `facts.frameCount` frames given by index, each of the canvas's size (else
    /// `FrameSizeError`), with their damage from the frame before: only that one is held.
    private static func framesWalk(_ facts: SourceFacts, image: @escaping (Int) throws -> Image,
                             delay: @escaping (Int) -> Delay) -> SourceWalk {
        let (width, height) = (facts.width, facts.height)
        let box = PixelRect(x: 0, y: 0, width: width, height: height)
        return { body in
            var previous: Image?
            for i in 0..<facts.frameCount {
                let image = try image(i)
                guard image.width == width && image.height == height else {
                    throw FrameSizeError(frame: i, width: image.width, height: image.height, expectedWidth: width, expectedHeight: height)
                }
                try body(CanvasFrame(canvasWidth: width, canvasHeight: height, box: box, pixels: image,
                                     damage: previous.map { RowDamage.between(image, $0) }, delay: delay(i)))
                previous = image
            }
            return facts
        }
    }

    /// What the decode said about the source, whatever it came from.
    struct SourceFacts {
        var format: ImageFormat
        var width: Int
        var height: Int
        var frameCount: Int
        var loopCount: Int
        var warnings: [String]
        /// Frame 1's delay as shown (a walk delivers it before it can tell).
        var firstFrameDelay: Delay
    }

    /// A walk over the source's frames as a canvas decode gives them (frame 1 with its delay as
    /// stored, the others as shown), returning the facts.
    typealias SourceWalk = (_ body: (CanvasFrame) throws -> Void) throws -> SourceFacts

    /// The pipeline over a source that can be walked as often as needed.
    static func convert(options: ConversionOptions, plan memory: MemoryPlan, source: @escaping SourceWalk) throws -> ConversionResult {
        let clock = StageClock()
        let sizes = options.sizes
        // With `trim`, the union of visible pixels over every frame comes first: every frame
        // must be fitted with the same crop.
        var bounds: VisibleBounds?
        if options.trim {
            var union = VisibleBounds()
            _ = try walk(source, clock: clock) { frame in union.add(frame) }
            bounds = union
        }
        // One walk fits every size: each size's frames go into its own store, the stores
        // sharing the fitted frames' budget (`MemoryPlan.fittedPart`).
        var fitters: [FrameFitter] = []
        let stores = SizeStores(plan: memory, sizes: sizes)
        var empties: [NearlyEmptySticker] = []
        // What each size's frames change (`Limits.maxChangedPixels`): a size past it whose store
        // gave up (its frames decoded and fitted again on every walk) is no longer fitted, and
        // is refused.
        var changes: [ChangeCount] = []
        var refused = Set<Int>()
        /// Fits `frame` with `fitter` into size `k`'s `store`, counting what it changes.
        func fill(_ k: Int, _ fitter: inout FrameFitter, _ frame: CanvasFrame, into store: FittedFrames) {
            let (image, damage) = fitter.fit(frame)
            let change = store.count == 0 ? nil : damage
            changes[k].add(frame, change)
            image.pixels.withUnsafeBytes { empties[k].add($0) }
            store.append(image, damage: change, delay: frame.delay)
        }
        let facts = try walk(source, clock: clock) { frame in
            if fitters.isEmpty {
                for size in sizes {
                    let fitter = FrameFitter(canvasWidth: frame.canvasWidth, canvasHeight: frame.canvasHeight,
                                             options: fitOptions(size, options), visibleBounds: bounds)
                    fitters.append(fitter)
                    empties.append(NearlyEmptySticker())
                    changes.append(ChangeCount(options.limits, width: fitter.size, height: fitter.size))
                    stores.add(side: fitter.size, canvasPixels: frame.canvasWidth * frame.canvasHeight)
                }
            }
            for k in fitters.indices where stores.isFilling(k) {
                fill(k, &fitters[k], frame, into: stores.frames[k])
            }
            stores.settle()
            for k in fitters.indices where stores.isFilling(k) && changes[k].refuses(stores.frames[k]) {
                refused.insert(k)
                stores.release(k)
            }
        }
        let animated = facts.frameCount > 1 || facts.format == .apng
        if animated { try memory.check(found: facts.frameCount, options: options, format: facts.format) }
        var outputs: [(size: StickerSize, result: Result<StickerOutput, StickerError>)] = []
        for (k, size) in sizes.enumerated() {
            if !refused.contains(k) && !stores.isFilling(k) {
                // A size that left the shared walk fills its store in a walk of its own.
                let store = stores.refill(k)
                var fitter: FrameFitter?
                empties[k] = NearlyEmptySticker()
                changes[k] = ChangeCount(options.limits, width: store.width, height: store.height)
                do {
                    _ = try walk(source, clock: clock) { frame in
                        if fitter == nil {
                            fitter = FrameFitter(canvasWidth: frame.canvasWidth, canvasHeight: frame.canvasHeight,
                                                 options: Self.fitOptions(size, options), visibleBounds: bounds)
                        }
                        fill(k, &fitter!, frame, into: store)
                        stores.settle()
                        if changes[k].refuses(store) {
                            refused.insert(k)
                            throw WalkDone()
                        }
                    }
                } catch is WalkDone {}
                fitters[k] = fitter!
            }
            if refused.contains(k) {
                stores.release(k)
                outputs.append((size, .failure(changes[k].error(frames: facts.frameCount))))
                continue
            }
            let frames = stores.frames[k]
            frames.delays[0] = facts.firstFrameDelay
            let builder = StickerBuilder(size: size, side: frames.width, fitWarnings: fitters[k].warnings, loopCount: facts.loopCount,
                                         measuresQuality: options.measuresQuality)
            // When the store gave up, every walk decodes and fits the frames again: every frame
            // is decoded (each draws on the canvas the next ones see), but only the frames the
            // walk wants are fitted, each with the canvas's changes since the one fitted before
            // (a probe at one frame in three fits a third of them; the fitter's bytes do not
            // depend on how its damage was gathered). A still's store gives up too when the
            // budget has almost nothing left beside the estimate's fixed parts: its one frame
            // is then made again.
            let fitOptions = fitOptions(size, options)
            frames.replaying { wanted, body in
                var fitter: FrameFitter?
                var i = 0
                var changes = DamageRun()   // the canvas's changes since the frame fitted last
                _ = try walk(source, clock: clock) { frame in
                    defer { i += 1 }
                    if fitter == nil {
                        fitter = FrameFitter(canvasWidth: frame.canvasWidth, canvasHeight: frame.canvasHeight,
                                             options: fitOptions, visibleBounds: bounds)
                    }
                    changes.add(frame.damage)
                    if i > 0, let wanted, !wanted(i) { return }
                    var frame = frame
                    frame.damage = changes.take()
                    let (image, damage) = fitter!.fit(frame)
                    try image.pixels.withUnsafeBytes { try body(i, $0, i == 0 ? nil : damage) }
                }
            }
            if !animated {
                var first: Image?
                try frames.forEach { i, samples, _ in
                    if i == 0 { first = Image(width: frames.width, height: frames.height, pixels: [UInt8](samples)) }
                }
                outputs.append((size, withEmptyWarning(BudgetSearch.encodeStill(first!, options: options, builder: builder, clock: clock),
                                                       empties[k])))
                continue
            }
            outputs.append((size, withEmptyWarning(try AnimationBudget.encode(frames, loopCount: facts.loopCount, options: options,
                                                                              memory: memory.search(side: frames.width),
                                                                              builder: builder, change: changes[k], clock: clock),
                                                   empties[k])))
            stores.release(k)   // the frames go before the next size's search
        }
        return ConversionResult(format: facts.format, width: facts.width, height: facts.height, frames: facts.frameCount,
                                warnings: facts.warnings, outputs: outputs, timings: clock.timings)
    }

    /// One walk over the source, its time split between decoding and the fitting `body`
    /// measures under `resize`.
    private static func walk(_ source: @escaping SourceWalk, clock: StageClock, _ body: (CanvasFrame) throws -> Void) throws -> SourceFacts {
        let resizeBefore = clock.timings.resize
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            clock.timings.decode += max(0, elapsed - (clock.timings.resize - resizeBefore))
        }
        return try source { frame in
            try clock.measure(\.resize) { try body(frame) }
        }
    }

    /// The search's result with a warning when the sticker shows practically nothing.
    private static func withEmptyWarning(_ result: Result<StickerOutput, StickerError>,
                                         _ empty: NearlyEmptySticker) -> Result<StickerOutput, StickerError> {
        guard case .success(var output) = result, let warning = empty.warning else { return result }
        output.report.warnings.append(warning)
        output.report.nearlyEmpty = true
        return .success(output)
    }

    static func fitOptions(_ size: StickerSize, _ options: ConversionOptions) -> FitOptions {
        FitOptions(size: size.pixels, fit: options.fit, trim: options.trim, inset: options.inset, linear: options.linear)
    }
}
