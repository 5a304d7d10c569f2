import ImageCore

/// One walk over a file's structure for `ImageOutline`: bounds-checked reads, and what has been
/// learned so far, so that a plan can keep what the walk found before damage stopped it. The
/// per-format walks are in the `OutlineWalk+…` files.
struct OutlineWalk {
    let b: UnsafeBufferPointer<UInt8>
    /// Check everything and walk the whole file (`ImageOutline.inspect`), or walk only as far as
    /// a plan needs, skipping checksums (`ImageOutline.read`).
    let inspecting: Bool

    // What the walk has found so far.
    var format: ImageFormat = .png
    var width: Int?
    var height: Int?
    /// Frames counted or announced so far.
    var frames = 0
    var delays: [Delay] = []
    /// Each frame's rectangle on the canvas as stored (not clipped), for the formats that say
    /// (GIF image descriptors, APNG `fcTL`, WebP `ANMF`).
    var frameRects: [PixelRect] = []
    var loopCount = 0
    var mayHaveAlpha = true
    var pngColorType: PNGColorType?
    var pngBitDepth: Int?
    /// JPEG's start-of-frame: progressive (SOF2, SOF6, SOF10, SOF14), and each component's
    /// sampling factors (horizontal, vertical).
    var jpegProgressive = false
    var jpegSampling: [(h: Int, v: Int)] = []
    /// The EXIF orientation tag from an APP1 segment before it (1…8 when valid), as the
    /// decoder reads it.
    var jpegOrientation: Int?
    /// The EXIF orientation turns the stored image (2…8; other values are ignored).
    var jpegTurned: Bool { jpegOrientation.map { (2...8).contains($0) } ?? false }
    /// A PNG's IHDR says Adam7 interlacing.
    var pngInterlaced = false
    /// Some GIF frame is disposed to the previous screen (disposal 3), which the decoder saves.
    var gifRestoresPrevious = false
    /// A WebP has an ICCP chunk (each composited frame is converted in a copy).
    var webpICC = false
    /// An APNG frame after the first disposes to PREVIOUS (the decoder saves the pixels under it).
    var apngRestoresPrevious = false
    /// Walk an APNG's chunks past the first IDAT to gather every `fcTL` rectangle and delay (the
    /// memory estimate, `ImageOutline.read(everyFrame:)`; a plan stops at the first IDAT).
    var walksAllFrames = false

    init(_ bytes: UnsafeRawBufferPointer, inspecting: Bool) {
        b = bytes.assumingMemoryBound(to: UInt8.self)
        self.inspecting = inspecting
    }

    /// Walks the file, whose signature says it is `format`. When inspecting, it throws unless the
    /// canvas size is known by the end (`sofar` is then set).
    mutating func walk(_ format: ImageFormat) throws {
        switch format {
        case .png, .apng: try png()
        case .gif: try gif()
        case .jpeg: try jpeg()
        case .webp: try webp()
        }
    }

    /// The outline as far as the walk got, once the canvas size is known.
    var sofar: ImageOutline? {
        guard let width, let height else { return nil }
        return ImageOutline(format: format, width: width, height: height, frameCount: max(1, frames),
                            storedDelays: delays, loopCount: loopCount, mayHaveAlpha: mayHaveAlpha,
                            pngColorType: pngColorType, pngBitDepth: pngBitDepth)
    }

    // MARK: Bounds-checked reads; every out-of-range read gives nil.

    func u8(_ i: Int) -> Int? { i >= 0 && i < b.count ? Int(b[i]) : nil }
    func be16(_ i: Int) -> Int? { guard let h = u8(i), let l = u8(i + 1) else { return nil }; return h << 8 | l }
    func le16(_ i: Int) -> Int? { guard let l = u8(i), let h = u8(i + 1) else { return nil }; return h << 8 | l }
    func be32(_ i: Int) -> Int? { guard let h = be16(i), let l = be16(i + 2) else { return nil }; return h << 16 | l }
    func le24(_ i: Int) -> Int? { guard let l = le16(i), let h = u8(i + 2) else { return nil }; return h << 16 | l }
    func le32(_ i: Int) -> Int? { guard let l = le16(i), let h = le16(i + 2) else { return nil }; return h << 16 | l }
}
