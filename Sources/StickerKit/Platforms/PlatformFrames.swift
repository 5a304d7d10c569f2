import ImageCore
import ImageDecoding
import ImageResize
import StickerEncoding

/// The fitted frames of one platform sticker, decoded as a stream (`ImageDecoder.decodeCanvas`)
/// and fitted one at a time (`BoxFit`) into a `FittedFrames` store, so that memory does not
/// grow with the frame count: the store keeps what changed, deflates past half its budget, and
/// past its budget gives up and decodes and fits the source again on every walk. Each stored
/// frame's damage is exact (`RowDamage.between` the fitted frame and the one before), as
/// `FittedFrames` of frames in memory has it.
///
/// The retimed sticker is a list of `PickedFrame`s over the source's frames; `walk` gives the
/// picked frames in order (one store walk per ascending run of picks). A fit may keep only some
/// frames (`fit(keeping:)`, the ones a retiming by delays keeps): picks name source frames, and
/// only stored ones may be picked.
final class PlatformFrames {
    /// The frames as fitted (those of `stored`).
    let store: FittedFrames
    /// The source frames the store holds, ascending (every frame unless the fit kept only some).
    let stored: [Int]
    /// Every source frame's delay, as shown from the second frame on (the first as
    /// `SourceFacts.firstFrameDelay` says).
    let delays: [Delay]
    let facts: StickerConverter.SourceFacts
    /// The fitter's notes (enlargement, adjusted options).
    let warnings: [String]
    /// Set when the frames changed more than `Limits.maxChangedPixels` (`ChangeCount`): fitting
    /// stopped there, and the sticker is refused.
    let refusal: StickerError?
    var width: Int { store.width }
    var height: Int { store.height }

    private init(store: FittedFrames, stored: [Int], delays: [Delay], facts: StickerConverter.SourceFacts, warnings: [String],
                 refusal: StickerError? = nil) {
        self.store = store
        self.stored = stored
        self.delays = delays
        self.facts = facts
        self.warnings = warnings
        self.refusal = refusal
    }

    /// Decodes `data` and fits its frames into `box` (else the `side` square), held within
    /// `budget` bytes. With `firstOf` (the facts of a decode already made), only the first
    /// frame is fitted: a still made of an animation whose frames are all the same (with `trim`
    /// the crop still covers every frame). With `keeping`, only those frames (and every frame's
    /// delay) are kept: the others are decoded, since each draws on the canvas the next sees, but
    /// not fitted, and a kept frame is fitted with the damage of the frames skipped before it.
    static func fit(_ data: [UInt8], options: ConversionOptions, side: Int, box: CanvasBox?, budget: Int,
                    firstOf known: StickerConverter.SourceFacts? = nil, keeping kept: Set<Int>? = nil) throws -> PlatformFrames {
        let decodeOptions = DecodeReduction.decodeOptions(options)
        /// One decode; only the first frame when `first`.
        func decode(first: Bool, _ body: (CanvasFrame) throws -> Void) throws -> StickerConverter.SourceFacts? {
            do {
                let (info, firstDelay) = try ImageDecoder.decodeCanvas(data, options: decodeOptions) { frame in
                    try body(frame)
                    if first { throw FirstDone() }
                }
                return StickerConverter.SourceFacts(format: info.format, width: info.sourceWidth, height: info.sourceHeight,
                                                    frameCount: info.frameCount, loopCount: info.loopCount, warnings: info.warnings,
                                                    firstFrameDelay: firstDelay)
            } catch is FirstDone {
                return nil
            }
        }
        var bounds: VisibleBounds?
        if options.trim {
            var union = VisibleBounds()
            _ = try decode(first: false) { union.add($0) }
            bounds = union
        }
        let visible = bounds
        // What the frames change: past `Limits.maxChangedPixels` with the store given up, the
        // rest is decoded, not fitted (`ChangeCount.refuses`).
        var change: ChangeCount?
        var store: FittedFrames?
        var stored: [Int] = []
        var delays: [Delay] = []
        /// Every kept frame in order, fitted, with its position among the kept frames and its
        /// exact damage since the kept frame before; `skipped` sees each frame not kept.
        func fitted(_ body: (CanvasFrame, Int, Image, RowDamage?) throws -> Void,
                    skipped: (CanvasFrame) -> Void = { _ in }) throws -> (StickerConverter.SourceFacts?, [String]) {
            var fitter: BoxFit?
            var previous: Image?
            var i = 0, k = 0
            // What the canvas changed since the frame fitted last (the frames skipped, then this one).
            var changes = DamageRun()
            let facts = try decode(first: known != nil) { frame in
                defer { i += 1 }
                if let change, let store, change.refuses(store) { return }
                changes.add(frame.damage)
                if let kept, !kept.contains(i) {
                    skipped(frame)
                    return
                }
                if fitter == nil {
                    fitter = BoxFit(canvasWidth: frame.canvasWidth, canvasHeight: frame.canvasHeight, side: side, box: box,
                                    options: options, visibleBounds: visible)
                }
                // The fitter redoes what changed since the frame it fitted last.
                var fitting = frame
                fitting.damage = changes.take()
                let image = fitter!.fit(fitting)
                try body(frame, k, image, previous.map { RowDamage.between(image, $0) })
                previous = image
                k += 1
            }
            return (facts, fitter?.warnings ?? [])
        }
        let (decoded, warnings) = try fitted({ frame, _, image, damage in
            if store == nil {
                store = FittedFrames(width: image.width, height: image.height, budget: budget)
                change = ChangeCount(options.limits, width: image.width, height: image.height)
            }
            change!.add(frame, damage)
            store!.append(image, damage: damage, delay: frame.delay)
            stored.append(delays.count)
            delays.append(frame.delay)
        }, skipped: { frame in
            // Its decode is the work of every replay; its fitting is never done.
            if let store { change!.add(frame, RowDamage(rows: store.height)) }
            delays.append(frame.delay)
        })
        if store == nil, kept != nil {
            // None of the frames to keep was decoded (a file that decodes to fewer frames than
            // its container says): every frame, for the caller to retime.
            return try fit(data, options: options, side: side, box: box, budget: budget, firstOf: known)
        }
        guard let store, let facts = known ?? decoded else { throw ImageError(nil, SniffError.emptyFile) }
        if let change, change.refuses(store) {
            return PlatformFrames(store: store, stored: stored, delays: delays, facts: facts, warnings: warnings,
                                  refusal: change.error(frames: facts.frameCount))
        }
        delays[0] = facts.firstFrameDelay
        store.replaying { _, body in
            _ = try fitted { _, i, image, damage in try image.pixels.withUnsafeBytes { try body(i, $0, damage) } }
        }
        return PlatformFrames(store: store, stored: stored, delays: delays, facts: facts, warnings: warnings)
    }

    /// A still decoded row by row (`ImageDecoder.decodeRows`) into a `BoxRowFit`, the image never
    /// held whole (two decodes with `trim`: the first finds the visible bounds): the pixels of
    /// `fit`. Nil, having fitted nothing, when the file cannot be decoded by rows after all or
    /// the fit needs the whole canvas (a `cover` box).
    static func fitByRows(_ data: [UInt8], options: ConversionOptions, side: Int, box: CanvasBox?,
                          budget: Int) throws -> PlatformFrames? {
        if BoxFit.resizesWholeCanvas(box: box, options: options) { return nil }
        let decodeOptions = DecodeReduction.decodeOptions(options)
        var bounds: VisibleBounds?
        if options.trim {
            guard let union = try StickerConverter.visibleBoundsByRows(data, options: decodeOptions) else { return nil }
            bounds = union
        }
        let visible = bounds
        /// One decode into a fresh fitter: the fitted still and what the decode said.
        func fitted() throws -> (image: Image, info: FrameStreamInfo, warnings: [String])? {
            var fitter: BoxRowFit?
            let info = try ImageDecoder.decodeRows(data, options: decodeOptions, start: { w, h in
                fitter = BoxRowFit(canvasWidth: w, canvasHeight: h, side: side, box: box, options: options, visibleBounds: visible)
            }, row: { row, y in fitter?.add(row: row, y: y) })
            guard let info, let fitter else { return nil }
            return (fitter.finish(), info, fitter.warnings)
        }
        guard let first = try fitted() else { return nil }
        let store = FittedFrames(width: first.image.width, height: first.image.height, budget: budget)
        store.append(first.image, damage: nil, delay: .zero)
        store.replaying { _, body in
            // The same bytes decoded by rows once: they decode so again.
            guard let again = try fitted() else { preconditionFailure("PlatformFrames: a still that decoded by rows once did not") }
            try again.image.pixels.withUnsafeBytes { try body(0, $0, nil) }
        }
        let info = first.info
        let facts = StickerConverter.SourceFacts(format: info.format, width: info.sourceWidth, height: info.sourceHeight,
                                                 frameCount: 1, loopCount: info.loopCount, warnings: info.warnings,
                                                 firstFrameDelay: .zero)
        return PlatformFrames(store: store, stored: [0], delays: [.zero], facts: facts, warnings: first.warnings)
    }

    /// Every source frame once, in order, shown as long as it is.
    var all: [PickedFrame] {
        delays.enumerated().map { PickedFrame(index: $0.offset, delay: $0.element) }
    }

    /// Whether the store holds source frame `index`.
    func holds(_ index: Int) -> Bool { position(of: index) != nil }

    /// Where source frame `index` is in the store, nil when it was not kept.
    private func position(of index: Int) -> Int? {
        if stored.count == delays.count { return stored.indices.contains(index) ? index : nil }
        var lo = 0, hi = stored.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if stored[mid] < index { lo = mid + 1 } else { hi = mid }
        }
        return lo < stored.count && stored[lo] == index ? lo : nil
    }

    /// Gives each of `picks` in order: its position in `picks` and the frame's RGBA bytes (valid
    /// during the call). The store is walked once per ascending run of picks (a loop played
    /// several times in a row is several runs), each walk ending at its run's last frame.
    func walk(_ picks: [PickedFrame], _ body: (Int, UnsafeRawBufferPointer) throws -> Void) throws {
        let at = picks.map { pick in
            guard let p = position(of: pick.index) else { preconditionFailure("PlatformFrames: frame \(pick.index) was not kept") }
            return p
        }
        var start = 0
        while start < picks.count {
            var end = start + 1
            while end < picks.count, at[end] >= at[end - 1] { end += 1 }
            var k = start
            do {
                try store.forEach { i, pixels, _ in
                    while k < end, at[k] == i {
                        try body(k, pixels)
                        k += 1
                    }
                    if k == end { throw RunDone() }
                }
            } catch is RunDone {}
            precondition(k == end, "PlatformFrames: a pick past the last frame")
            start = end
        }
    }

    /// Ends one run of `walk`.
    private struct RunDone: Error {}
    /// Ends a decode after its first frame (a consumer's own `WalkDone` must pass through).
    private struct FirstDone: Error {}

    /// For each pick, whether its frame shows what the pick before shows (`Timeline.mergingRepeats`).
    func sameAsBefore(_ picks: [PickedFrame]) throws -> [Bool] {
        var same = [Bool](repeating: false, count: picks.count)
        var previous: [UInt8] = []
        try walk(picks) { k, pixels in
            if k > 0 {
                same[k] = picks[k].index == picks[k - 1].index
                    || previous.withUnsafeBytes { $0.elementsEqual(pixels) }
            }
            previous.removeAll(keepingCapacity: true)
            previous.append(contentsOf: pixels)
        }
        return same
    }

    /// Copies of the picks at `positions` (positions in `picks`), from one walk.
    func images(_ picks: [PickedFrame], at positions: [Int]) throws -> [Int: Image] {
        let wanted = Set(positions)
        var out: [Int: Image] = [:]
        try walk(picks) { k, pixels in
            if wanted.contains(k) { out[k] = Image(width: width, height: height, pixels: [UInt8](pixels)) }
        }
        return out
    }

    /// The picks as frames for an encoder, walked from the store on every call.
    func streamed(_ picks: [PickedFrame], loopCount: Int, animated: Bool) -> StreamedFrames {
        StreamedFrames(width: width, height: height, delays: picks.map(\.delay), loopCount: loopCount, animated: animated) { body in
            try self.walk(picks, body)
        }
    }

    /// The picks as a `FittedFrames` for Messages' searches (APNG platforms): the store itself
    /// when the picks are every frame in order, else a store of the picks (damage between
    /// consecutive picks) within `budget`, replayed from this one when it gives up.
    func fitted(_ picks: [PickedFrame], budget: Int) throws -> FittedFrames {
        if picks.map(\.index) == stored {
            store.delays = picks.map(\.delay)
            return store
        }
        let out = FittedFrames(width: width, height: height, budget: budget)
        func each(_ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws {
            var previous: Image?
            try walk(picks) { k, pixels in
                let image = Image(width: width, height: height, pixels: [UInt8](pixels))
                try body(k, pixels, previous.map { RowDamage.between(image, $0) })
                previous = image
            }
        }
        try each { k, pixels, damage in
            out.append(Image(width: width, height: height, pixels: [UInt8](pixels)), damage: damage, delay: picks[k].delay)
        }
        out.replaying { _, body in try each(body) }
        return out
    }
}
