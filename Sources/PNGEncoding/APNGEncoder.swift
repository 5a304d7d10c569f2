import ImageCore

/// The work of one animation encode: frame keys, the decoder's canvas model, the per-frame
/// choice of region, dispose and blend ops, then the chunks.
///
/// Pixels are compared as 32-bit keys that are equal exactly when the colours are: for palette
/// frames the written index (the palette has no duplicates after `PaletteLayout`), or
/// `clearKey` for the transparent black a disposed region holds; for truecolour frames the
/// RGBA bytes themselves, where transparent black is 0.
///
/// Frames are read from a `FrameSequence`, in order, once per encode: what the encode holds is
/// the canvas model and one frame's samples, whatever the frame count.
struct APNGEncoder {
    enum Source {
        /// The written layout and the frames' own palette (which their indices refer to).
        case indexed(PaletteLayout, palette: [RGBA])
        case truecolor(TruecolorLayout)
    }

    let width: Int
    let height: Int
    let source: Source
    let frames: any FrameSequence
    let delays: [Delay]
    let loopCount: Int
    /// Write acTL/fcTL even for one frame (an animation whose frames all merged), so that its
    /// duration and loop count survive.
    var alwaysAnimated = false
    /// Rank and compress a region that comes back byte for byte only once (`StreamMemo`); the
    /// file is the same without.
    var remembersRegions = true

    /// Key of a transparent black canvas pixel (disposed, or before the first frame).
    let clearKey: UInt32
    /// Marks "leave the canvas as is" in an OVER frame before keys become samples.
    static let keepKey: UInt32 = 257
    /// Palette frames: old index → key (empty for truecolour).
    let keyTable: [UInt32]

    /// Palette frames in memory, all sharing one palette.
    init(indexed frames: [IndexedImage], delays: [Delay], loopCount: Int) throws {
        let first = try APNGEncoder.check(frames.map { ($0.width, $0.height) }, delays: delays, loopCount: loopCount)
        if let n = frames.firstIndex(where: { $0.palette != frames[0].palette }) {
            throw ImageError(.apng, APNGEncodingError.paletteDiffers(frame: n, entries: frames[n].palette.count, firstEntries: frames[0].palette.count))
        }
        var used = [Bool](repeating: false, count: 256)
        PaletteLayout.markUsed(frames.map(\.indices), rowBytes: first.0, in: &used)
        try self.init(indexed: ArrayFrames(width: first.0, height: first.1, bytesPerPixel: 1, frames: frames.map(\.indices)),
                      palette: frames[0].palette, used: used, delays: delays, loopCount: loopCount)
    }

    /// Palette frames from a sequence (1 byte per pixel): `used[i]` must say whether old index
    /// `i` occurs in any of them (the caller saw them all once already, e.g. while remapping).
    init(indexed frames: any FrameSequence, palette: [RGBA], used: [Bool], delays: [Delay], loopCount: Int) throws {
        precondition(frames.bytesPerPixel == 1, "APNGEncoder: palette frames have one byte per pixel")
        _ = try APNGEncoder.check(frames.count == 0 ? [] : [(frames.width, frames.height)], delays: delays, loopCount: loopCount,
                                  count: frames.count)
        let layout = PaletteLayout(palette: palette, used: used, reserveTransparent: true)
        self.init(width: frames.width, height: frames.height, source: .indexed(layout, palette: palette), frames: frames, delays: delays,
                  loopCount: loopCount, clearKey: 256)
    }

    /// Truecolour frames in memory.
    init(truecolor frames: [Image], delays: [Delay], loopCount: Int) throws {
        let first = try APNGEncoder.check(frames.map { ($0.width, $0.height) }, delays: delays, loopCount: loopCount)
        try self.init(truecolor: ArrayFrames(width: first.0, height: first.1, bytesPerPixel: 4, frames: frames.map(\.pixels)),
                      layout: TruecolorLayout(fitting: frames), delays: delays, loopCount: loopCount)
    }

    /// Truecolour frames from a sequence (RGBA); `layout` must hold every one of them.
    init(truecolor frames: any FrameSequence, layout: TruecolorLayout, delays: [Delay], loopCount: Int) throws {
        precondition(frames.bytesPerPixel == 4, "APNGEncoder: truecolour frames have four bytes per pixel")
        _ = try APNGEncoder.check(frames.count == 0 ? [] : [(frames.width, frames.height)], delays: delays, loopCount: loopCount,
                                  count: frames.count)
        self.init(width: frames.width, height: frames.height, source: .truecolor(layout), frames: frames, delays: delays,
                  loopCount: loopCount, clearKey: 0)
    }

    private init(width: Int, height: Int, source: Source, frames: any FrameSequence, delays: [Delay], loopCount: Int,
                 clearKey: UInt32) {
        self.width = width
        self.height = height
        self.source = source
        self.frames = frames
        self.delays = delays
        self.loopCount = loopCount
        self.clearKey = clearKey
        if case .indexed(let layout, _) = source {
            var table = [UInt32](repeating: 0, count: 256)
            for old in 0..<256 {
                let written = layout.remap[old]
                let c = Int(written) < layout.palette.count ? layout.palette[Int(written)] : RGBA(0, 0, 0, 0)
                table[old] = c == RGBA(0, 0, 0, 0) ? clearKey : UInt32(written)
            }
            keyTable = table
        } else {
            keyTable = []
        }
    }

    /// Checks frame sizes (`sizes`: every frame's, or the sequence's one size with `count`
    /// frames), delays and the loop count; returns the first frame's size.
    private static func check(_ sizes: [(Int, Int)], delays: [Delay], loopCount: Int, count: Int? = nil) throws -> (Int, Int) {
        guard let first = sizes.first, count ?? 1 > 0 else { throw ImageError(.apng, APNGEncodingError.noFrames) }
        let frameCount = count ?? sizes.count
        guard delays.count == frameCount else {
            throw ImageError(.apng, APNGEncodingError.delayCount(frames: frameCount, delays: delays.count))
        }
        guard first.0 > 0, first.1 > 0, first.0 <= Int(Int32.max), first.1 <= Int(Int32.max) else {
            throw ImageError(.apng, APNGEncodingError.unwritableSize(width: first.0, height: first.1))
        }
        if let n = sizes.firstIndex(where: { $0 != first }) {
            throw ImageError(.apng, APNGEncodingError.frameSize(frame: n, width: sizes[n].0, height: sizes[n].1, firstWidth: first.0, firstHeight: first.1))
        }
        guard loopCount >= 0, loopCount <= Int(UInt32.max) else {
            throw ImageError(.apng, APNGEncodingError.loopCount(loopCount))
        }
        guard frameCount <= Int(UInt32.max / 4) else {
            throw ImageError(.apng, APNGEncodingError.tooManyFrames(frameCount))
        }
        return first
    }
}
