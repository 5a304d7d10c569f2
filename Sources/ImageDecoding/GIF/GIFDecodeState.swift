import CGIF
import ImageCore

/// One pass over a GIF's records: extensions set up the next frame, image descriptors draw it.
struct GIFDecodeState {
    let gif: UnsafeMutablePointer<GifFileType>
    let source: UnsafeMutablePointer<GIFSource>
    let options: DecodeOptions
    let byteCount: Int

    /// Frames delivered so far.
    private var frameCount = 0
    private var warnings: [String] = []
    private var loopCount = 1
    /// Image descriptors seen so far (the 1-based number of the frame being read).
    private var frameNumber = 0
    /// Graphics Control Extension for the next image.
    private var control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
    /// Rows of the current frame already drawn, for lenient salvage of a first frame.
    private var partialRows = 0
    /// True right after a frame's image data: data ending there may just lack the trailer.
    private var atFrameEnd = false

    init(gif: UnsafeMutablePointer<GifFileType>, source: UnsafeMutablePointer<GIFSource>, options: DecodeOptions, byteCount: Int) {
        self.gif = gif
        self.source = source
        self.options = options
        self.byteCount = byteCount
    }

    /// Reads every record, handing `body` each frame as soon as it is drawn (delays as stored).
    mutating func run(_ body: (CanvasFrame) throws -> Void) throws -> FrameStreamInfo {
        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        try options.limits.check(width: width, height: height, format: .gif, what: ImageDecoder.canvasSource(.gif))
        // Only the frames' rectangles are ever drawn: the structure says where.
        var canvas = GIFCanvas(width: width, height: height, regions: GIFDecodeState.contentRegions(source.pointee, width: width, height: height))
        var line = [UInt8](repeating: 0, count: 65_536)
        records: while true {
            var type = UNDEFINED_RECORD_TYPE
            if DGifGetRecordType(gif, &type) == GIF_ERROR {
                // Ending right after a frame's data is a missing trailer (common, harmless, and
                // indistinguishable from a cut at that exact byte); ending after an extension
                // that announces a frame is truncation.
                if source.pointee.ranOut && atFrameEnd && source.pointee.offset == byteCount {
                    warnings.append("data ends after frame \(frameNumber) (\(byteCount) bytes) without a trailer")
                    break records
                }
                try fail(canvas: &canvas, place: frameCount == 0 ? .beforeFirstFrame : .afterFrame(frameNumber), body)
                break records
            }
            atFrameEnd = false
            switch type {
            case IMAGE_DESC_RECORD_TYPE:
                frameNumber += 1
                partialRows = 0
                do {
                    try readFrame(into: &canvas, line: &line, body)
                } catch let stop as GIFStop {
                    try fail(canvas: &canvas, place: .inFrame(frameNumber), reason: stop.reason, body)
                    break records
                }
                atFrameEnd = true
                if options.firstFrameOnly { break records }
            case EXTENSION_RECORD_TYPE:
                if !readExtension() {
                    try fail(canvas: &canvas, place: frameCount == 0 ? .inExtensionBeforeFirstFrame : .inExtensionAfterFrame(frameNumber), body)
                    break records
                }
            case TERMINATE_RECORD_TYPE:
                break records
            default:
                try fail(canvas: &canvas, place: .afterFrame(frameNumber), body)
                break records
            }
        }
        guard frameCount > 0 else { throw ImageError(.gif, GIFError.noImage(fileSize: byteCount)) }
        return FrameStreamInfo(format: .gif, width: width, height: height, frameCount: frameCount,
                               loopCount: loopCount, warnings: warnings)
    }

    /// Turns a failure into an error (strict, or nothing to keep) or a warning (lenient): the
    /// `reason` found before giflib read the data, or else what giflib's state says.
    private mutating func fail(canvas: inout GIFCanvas, place: GIFPlace, reason known: GIFError? = nil,
                               _ body: (CanvasFrame) throws -> Void) throws {
        let reason: GIFError = known ?? (source.pointee.ranOut
            ? .dataEnds(place, fileSize: byteCount)
            : .giflib(code: Int(gif.pointee.Error), place, offset: source.pointee.offset))
        let message = reason.message
        guard options.lenient else { throw ImageError(.gif, reason) }
        if frameCount == 0 {
            guard partialRows > 0 else { throw ImageError(.gif, reason) }
            try deliver(&canvas, body)
            warnings.append("\(message); kept the \(partialRows) rows of frame 1 that decoded")
        } else {
            warnings.append("\(message); kept \(frameCount) complete frames")
        }
    }

    /// Reads one extension: GCE for the next frame, NETSCAPE2.0 / ANIMEXTS1.0 loop count.
    /// Returns false when giflib failed.
    private mutating func readExtension() -> Bool {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(gif, &code, &block) == GIF_OK else { return false }
        var isLoopApplication = false
        if let first = block {
            let length = Int(first[0])
            if code == GRAPHICS_EXT_FUNC_CODE, length >= 4 {
                var gcb = GraphicsControlBlock()
                if DGifExtensionToGCB(length, first + 1, &gcb) == GIF_OK { control = gcb }
            } else if code == APPLICATION_EXT_FUNC_CODE, length == 11 {
                let name = Array(UnsafeBufferPointer(start: first + 1, count: 11))
                isLoopApplication = name == Array("NETSCAPE2.0".utf8) || name == Array("ANIMEXTS1.0".utf8)
            }
        }
        while block != nil {
            guard DGifGetExtensionNext(gif, &block) == GIF_OK else { return false }
            if isLoopApplication, let sub = block, sub[0] >= 3, sub[1] == 1 {
                let stored = Int(sub[2]) | Int(sub[3]) << 8
                loopCount = stored
                isLoopApplication = false
            }
        }
        return true
    }

    /// Reads the image descriptor and pixels of one frame, draws it, keeps the canvas as a frame
    /// and applies its disposal. Throws `GIFStop` when giflib fails (the caller names the place).
    private mutating func readFrame(into canvas: inout GIFCanvas, line: inout [UInt8], _ body: (CanvasFrame) throws -> Void) throws {
        // What giflib cannot say: a zero-size frame (it would misread the image data that follows
        // as the next record) and an LZW minimum code size it cannot decode.
        let ahead = GIFDescriptor(source.pointee)
        if let size = ahead?.lzwCodeSize, !GIFDescriptor.readableCodeSizes.contains(size) {
            throw GIFStop(reason: .invalidLZWCodeSize(frame: frameNumber, size: size))
        }
        if let ahead, ahead.width == 0 || ahead.height == 0 {
            let reason = GIFError.frameZeroSize(frame: frameNumber, width: ahead.width, height: ahead.height)
            guard options.lenient else { throw ImageError(.gif, reason) }
            warnings.append(reason.skippedNote)
        }
        guard DGifGetImageDesc(gif) == GIF_OK else { throw GIFStop() }
        let desc = gif.pointee.Image
        let left = Int(desc.Left), top = Int(desc.Top), w = Int(desc.Width), h = Int(desc.Height)
        if w > 0 && h > 0 {
            try options.limits.check(width: w, height: h, format: .gif, what: "frame \(frameNumber) descriptor says")
        }
        try options.limits.check(frameNumber: frameCount + 1, format: .gif)
        try options.limits.check(frames: frameCount + 1, width: canvas.width, height: canvas.height, format: .gif)
        if left + w > canvas.width || top + h > canvas.height {
            // Browsers show such files with the frame clipped to the screen (Chromium 156:
            // `Tests/Fixtures/broken/gif_frame_outside_screen.gif` decodes, 32×32): so do we, in
            // strict decoding too, with a note. The pixels are whole; only the placement is odd.
            warnings.append(GIFError.outsideScreen(frame: frameNumber, left: left, top: top, width: w, height: h,
                                                   screenWidth: canvas.width, screenHeight: canvas.height) + "; clipped")
        }
        var table = [UInt32](repeating: UInt32(0xFF00_0000).littleEndian, count: 256)
        let map = desc.ColorMap ?? gif.pointee.SColorMap
        var colorCount = 0
        if let map, let colors = map.pointee.Colors {
            colorCount = min(256, Int(map.pointee.ColorCount))
            for i in 0..<colorCount {
                let c = colors[i]
                table[i] = (UInt32(c.Red) | UInt32(c.Green) << 8 | UInt32(c.Blue) << 16 | 0xFF00_0000).littleEndian
            }
        } else {
            warnings.append("frame \(frameNumber) has no colour table; drawn black")
        }
        let transparent = Int(control.TransparentColor)
        let disposal = Int(control.DisposalMode)
        let rect = PixelRect(x: left, y: top, width: w, height: h).clipped(to: PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height))
        canvas.hold(rect)
        if disposal == 3 { canvas.savePrevious(rect) }
        var maxIndex: UInt8 = 0
        if w == 0 || h == 0 {
            // Nothing to draw (browsers show the screen unchanged for the frame's delay): skip the
            // image data giflib would otherwise read as the next record.
            var codeSize: Int32 = 0
            var block: UnsafeMutablePointer<GifByteType>?
            guard DGifGetCode(gif, &codeSize, &block) == GIF_OK else { throw GIFStop() }
            while block != nil {
                guard DGifGetCodeNext(gif, &block) == GIF_OK else { throw GIFStop() }
            }
        } else {
            let rowOrder = GIFDecodeState.rowOrder(height: h, interlaced: desc.Interlace)
            try line.withUnsafeMutableBufferPointer { lineBuffer in
                try table.withUnsafeBufferPointer { tableBuffer in
                    for row in rowOrder {
                        guard DGifGetLine(gif, lineBuffer.baseAddress, Int32(w)) == GIF_OK else { throw GIFStop() }
                        let seen = canvas.drawRow(lineBuffer.baseAddress!, count: w, left: left, y: top + row,
                                                  table: tableBuffer.baseAddress!, transparent: transparent)
                        if seen > maxIndex { maxIndex = seen }
                        partialRows += 1
                    }
                }
            }
        }
        if Int(maxIndex) >= colorCount && colorCount > 0 {
            warnings.append("frame \(frameNumber) uses colour index \(maxIndex) beyond its \(colorCount)-entry colour table; drawn black")
        }
        try deliver(&canvas, body)
        canvas.dispose(disposal, left: left, top: top, width: w, height: h)
        control = GraphicsControlBlock(DisposalMode: 0, UserInputFlag: false, DelayTime: 0, TransparentColor: -1)
    }

    /// Hands the screen as shown now to `body`, with the delay of the current control block.
    private mutating func deliver(_ canvas: inout GIFCanvas, _ body: (CanvasFrame) throws -> Void) throws {
        let damage = canvas.takeDamage()
        try body(CanvasFrame(canvasWidth: canvas.width, canvasHeight: canvas.height, regions: canvas.shown,
                             damage: frameCount == 0 ? nil : damage, delay: Delay(centiseconds: Int(control.DelayTime))))
        frameCount += 1
    }

    /// The regions holding the frames' rectangles on the screen (`CanvasLayout`), from a walk
    /// over the file's structure (no pixel decoded), or the whole screen when the walk finds none.
    static func contentRegions(_ source: GIFSource, width: Int, height: Int) -> [PixelRect] {
        var walk = OutlineWalk(UnsafeRawBufferPointer(start: source.base, count: source.count), inspecting: false)
        try? walk.walk(.gif)
        return CanvasLayout.regions(walk.frameRects, in: PixelRect(x: 0, y: 0, width: width, height: height))
    }

    /// The frame rows in the order they are stored: top to bottom, or GIF's four interlace
    /// passes (every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1).
    static func rowOrder(height: Int, interlaced: Bool) -> [Int] {
        guard interlaced else { return Array(0..<height) }
        var order: [Int] = []
        order.reserveCapacity(height)
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            order += stride(from: start, to: height, by: step)
        }
        return order
    }
}
