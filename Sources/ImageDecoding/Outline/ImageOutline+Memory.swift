import ImageCore

extension ImageOutline {
    /// The most bytes decoding the file in `bytes` holds at once, from its structure alone (the
    /// walk of `read`): the pixel buffers the decoder allocates and the data they are made from,
    /// not the file's own bytes. nil when `read` would be nil. What each format holds:
    /// - PNG: the joined IDAT data, the inflated scanlines, the RGBA image.
    /// - APNG: the regions the decoder composites on (the `fcTL` rectangles gathered by
    ///   `CanvasLayout`), the largest frame's scanlines and RGBA pixels, and those pixels again
    ///   when a frame disposes to PREVIOUS.
    /// - GIF: the regions the decoder composites on (the frames' rectangles gathered by
    ///   `CanvasLayout`), and as much again when a frame is disposed to the previous screen; WebP
    ///   animations the same regions (the union of the frames' rectangles twice when an ICC
    ///   profile converts each frame) and the largest frame twice (libwebp's output and its own
    ///   buffers).
    /// - WebP stills: the RGBA image and as much again (libwebp's lossless decoder keeps ARGB).
    /// - JPEG: the RGBA image, a turned copy when its EXIF orientation turns it, the CMYK samples for
    ///   4-component files, and a progressive file's coefficients (2 bytes each, every block of
    ///   every component, as libjpeg keeps them between scans). The image and its turned copy
    ///   are at the size the decode reduces it to with `minimumLongSide`
    ///   (`DecodeOptions.minimumLongSide`: libjpeg's DCT scaling, never for CMYK); the
    ///   coefficients are the file's, whatever the scale.
    public static func decodingMemory(_ bytes: UnsafeRawBufferPointer, minimumLongSide: Int? = nil) -> Int? {
        guard let format = ImageFormat.identify(bytes) else { return nil }
        var walk = OutlineWalk(bytes, inspecting: false)
        walk.walksAllFrames = true
        try? walk.walk(format)
        return walk.decodingMemory(minimumLongSide: minimumLongSide)
    }

    /// The most bytes decoding the file in `bytes` row by row (`ImageDecoder.decodeRows`) holds
    /// at once, from its structure alone: nil when the file cannot be decoded by rows (see
    /// `decodeRows`) or `read` would be nil. The rows' consumer (a `RowFitter`) is not counted.
    /// - PNG stills: two scanlines, one RGBA row, zlib's window and state; for an interlaced one,
    ///   a band of whole RGBA rows too, and each pass's stream (`PNGRowDecoder.interlacedMemory`).
    /// - JPEG: the rows libjpeg works on and ours (a few dozen rows of the image's width, as
    ///   reduced with `minimumLongSide`), and a progressive file's coefficients, which libjpeg
    ///   keeps whole between scans.
    public static func rowDecodingMemory(_ bytes: UnsafeRawBufferPointer, minimumLongSide: Int? = nil) -> Int? {
        guard let format = ImageFormat.identify(bytes) else { return nil }
        var walk = OutlineWalk(bytes, inspecting: false)
        try? walk.walk(format)
        return walk.rowDecodingMemory(minimumLongSide: minimumLongSide)
    }
}

extension OutlineWalk {
    /// See `ImageOutline.decodingMemory`; nil until the canvas size is known.
    func decodingMemory(minimumLongSide: Int?) -> Int? {
        guard let width, let height else { return nil }
        let canvas = PixelRect(x: 0, y: 0, width: width, height: height)
        let rgba = Self.product(width, height, 4)
        switch format {
        case .png, .apng:
            let depth = pngBitDepth ?? 16, channels = pngColorType?.channels ?? 4
            func scanlines(_ w: Int, _ h: Int) -> Int { Self.product(h, (Self.product(w, channels, depth) + 7) / 8 + 1, 1) }
            guard format == .apng else { return Self.sum([min(b.count, Int.max / 4), scanlines(width, height), rgba]) }
            let frames = frameRects.isEmpty ? [canvas] : frameRects
            let pixels = frames.map { Self.product($0.width, $0.height, 4) }.max() ?? 0
            let rows = frames.map { scanlines($0.width, $0.height) }.max() ?? 0
            let held = Self.product(CanvasLayout.area(frameRects, in: canvas), 4, 1)
            return Self.sum([held, rows, pixels] + (apngRestoresPrevious ? [pixels] : []))
        case .gif:
            let held = CanvasLayout.area(frameRects, in: canvas)
            return Self.sum([Self.product(held, gifRestoresPrevious ? 8 : 4, 1), 65_536])
        case .webp:
            guard frames > 0 else { return Self.sum([rgba, rgba]) }
            // With an ICC profile the frames share one box (converted as one image per frame).
            let box = Self.box(frameRects, in: canvas)
            let held = webpICC ? Self.product(box.width, box.height, 8) : Self.product(CanvasLayout.area(frameRects, in: canvas), 4, 1)
            // A frame that does not fit the canvas is refused before it is decoded (libwebp's
            // demuxer): what is decoded lies within it.
            let largest = frameRects.map { $0.clipped(to: canvas) }.map { Self.product($0.width, $0.height, 8) }.max() ?? 0
            return Self.sum([held, largest])
        case .jpeg:
            let reduced = jpegDecodedSize(minimumLongSide: minimumLongSide)
            let image = Self.product(reduced.width, reduced.height, 4)
            var parts = [image, jpegCoefficients(width: width, height: height)]
            if jpegTurned { parts.append(image) }
            if jpegSampling.count == 4 { parts.append(rgba) }
            return Self.sum(parts)
        }
    }

    /// See `ImageOutline.rowDecodingMemory`.
    func rowDecodingMemory(minimumLongSide: Int?) -> Int? {
        guard let width, let height else { return nil }
        if format == .png {
            guard frames <= 1 else { return nil }
            let depth = pngBitDepth ?? 16, channels = pngColorType?.channels ?? 4
            let rowBytes = (Self.product(width, channels, depth) + 7) / 8
            // An interlaced image's band of whole rows, and each pass's stream and scanlines.
            let band = pngInterlaced ? PNGRowDecoder.interlacedMemory(width: width, height: height, bitsPerPixel: channels * depth) : 0
            return Self.sum([Self.product(rowBytes + 1, 2, 1), Self.product(width, 4, 1), band, 65_536])
        }
        guard format == .jpeg, !jpegTurned else { return nil }
        // libjpeg's MCU rows and upsampling buffers, and our chunk of rows before and after the
        // colour conversion: 64 rows of RGBA is above all of them together.
        let rows = Self.product(jpegDecodedSize(minimumLongSide: minimumLongSide).width, 4, 64)
        return Self.sum([rows, jpegCoefficients(width: width, height: height)])
    }

    /// The size a JPEG is decoded at, as stored (before any EXIF turn): reduced by libjpeg's DCT
    /// scaling as `JPEGDecoder` chooses it for `minimumLongSide`, except 4-component (CMYK) files.
    private func jpegDecodedSize(minimumLongSide: Int?) -> (width: Int, height: Int) {
        guard let width, let height else { return (0, 0) }
        let scale = jpegSampling.count == 4 ? 1 : JPEGScale.denominator(width: width, height: height, minimumLongSide: minimumLongSide)
        return (JPEGScale.reduced(width, by: scale), JPEGScale.reduced(height, by: scale))
    }

    /// A progressive JPEG's coefficients (2 bytes each, every block of every component, as
    /// libjpeg keeps them between scans); 0 for a sequential file.
    private func jpegCoefficients(width: Int, height: Int) -> Int {
        guard jpegProgressive, let hMax = jpegSampling.map(\.h).max(), let vMax = jpegSampling.map(\.v).max() else { return 0 }
        var parts: [Int] = []
        for c in jpegSampling {
            // Blocks of 8×8 over the component's samples, 64 coefficients of 2 bytes each.
            let blocksAcross = ((width * c.h + hMax - 1) / hMax + 7) / 8
            let blocksDown = ((height * c.v + vMax - 1) / vMax + 7) / 8
            parts.append(Self.product(blocksAcross, blocksDown, 128))
        }
        return Self.sum(parts)
    }

    /// The union of `rects` clipped to `canvas`, or the whole canvas when there are none.
    private static func box(_ rects: [PixelRect], in canvas: PixelRect) -> PixelRect {
        let box = rects.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1.clipped(to: canvas)) }
        return box.isEmpty ? canvas : box
    }

    /// a × b × c, or `Int.max / 4` on overflow (an estimate no budget holds).
    private static func product(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let (ab, o1) = a.multipliedReportingOverflow(by: b)
        let (abc, o2) = ab.multipliedReportingOverflow(by: c)
        return o1 || o2 || abc > Int.max / 4 ? Int.max / 4 : abc
    }

    private static func sum(_ parts: [Int]) -> Int {
        parts.reduce(0) { min(Int.max / 4, $0 + $1) }
    }
}
