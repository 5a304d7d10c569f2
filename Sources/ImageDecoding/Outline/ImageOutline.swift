import ImageCore

/// What a file's structure says before any pixel is decoded: the format, the canvas size, the
/// frames and their delays as stored, the loop count, whether pixels may be transparent, and for
/// a PNG its colour type and bit depth. Read from headers and the chunk or block layout only (no
/// inflating), in time proportional to the number of chunks or blocks. The one home of format
/// structure outside the decoders themselves.
///
/// Two ways to read it:
/// - `read` is a plan: it never throws, skips checksums, and stops as soon as it knows enough
///   (a PNG at its first IDAT), so a batch can start its longest jobs first. An outline may count
///   a frame that fails to decode or miss frames behind damage; the decoder alone decides what a
///   file holds.
/// - `inspect` walks the whole structure, checks PNG CRCs and the framing of every chunk, block
///   or marker (a JPEG's to its end-of-image marker, a WebP's to its RIFF size), and throws the
///   first problem it finds (`OutlineError`): what `check` reports, and what a dry run refuses
///   (`ImageDecoder.preflight`).
public struct ImageOutline: Sendable, Equatable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    /// Frames the container announces (APNG `acTL`; `inspect` also checks it against the `fcTL`
    /// chunks) or holds (GIF image descriptors, WebP `ANMF` chunks); 1 for still formats.
    public var frameCount: Int
    /// Frame delays as stored in the file (APNG `fcTL`, GIF graphic control extensions, WebP
    /// `ANMF` durations), not as displayed: `Delay.displayed` gives those. One per frame of an
    /// animation, though a plan may hold fewer (a PNG's walk stops at its first IDAT).
    public var storedDelays: [Delay]
    /// Times to play as the decoder reports them (0 = forever): APNG's `num_plays`, GIF's
    /// NETSCAPE2.0 loop count or 1 without one, WebP's `ANIM` loop count; 0 for PNG and JPEG.
    public var loopCount: Int
    /// False when the header proves every pixel opaque (a PNG without alpha channel or tRNS
    /// transparency, a GIF without a transparent index, a JPEG, a simple lossy WebP); true when
    /// pixels may be transparent.
    public var mayHaveAlpha: Bool
    /// IHDR's colour type and bit depth, for PNG and APNG.
    public var pngColorType: PNGColorType?
    public var pngBitDepth: Int?

    init(format: ImageFormat, width: Int, height: Int, frameCount: Int = 1, storedDelays: [Delay] = [],
                loopCount: Int = 0, mayHaveAlpha: Bool = true, pngColorType: PNGColorType? = nil, pngBitDepth: Int? = nil) {
        self.format = format
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.storedDelays = storedDelays
        self.loopCount = loopCount
        self.mayHaveAlpha = mayHaveAlpha
        self.pngColorType = pngColorType
        self.pngBitDepth = pngBitDepth
    }

    /// The plan of `bytes`, or nil when no known signature opens them or the walk stopped before
    /// the canvas size.
    public static func read(_ bytes: [UInt8]) -> ImageOutline? {
        bytes.withUnsafeBytes { read($0) }
    }

    /// The plan of the file in `bytes` (a memory-mapped file is read only where its structure
    /// lies, plus one byte per GIF sub-block).
    /// With `everyFrame`, an APNG's walk goes on past its first image data through every frame
    /// control, so that `storedDelays` holds every frame's delay (a GIF's or WebP's plan holds
    /// them all anyway).
    public static func read(_ bytes: UnsafeRawBufferPointer, everyFrame: Bool = false) -> ImageOutline? {
        guard let format = ImageFormat.identify(bytes) else { return nil }
        var walk = OutlineWalk(bytes, inspecting: false)
        walk.walksAllFrames = everyFrame
        // Damage ends the walk; the plan keeps what came before it.
        try? walk.walk(format)
        return walk.sofar
    }

    /// The whole structure of `bytes`, checked: nil when no known signature opens them (a PNG
    /// signature must be intact here). Throws `ImageError` for an empty file (`SniffError`) and
    /// for the first structural problem (`OutlineError`).
    public static func inspect(_ bytes: [UInt8]) throws -> ImageOutline? {
        if bytes.isEmpty { throw ImageError(nil, SniffError.emptyFile) }
        return try bytes.withUnsafeBytes { raw in
            guard let format = ImageFormat.identify(raw) else { return nil }
            var walk = OutlineWalk(raw, inspecting: true)
            try walk.walk(format)
            return walk.sofar
        }
    }
}
