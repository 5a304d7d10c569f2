import ImageCore

/// Everything the chunk walk learns about a PNG or APNG file, before any pixel is decoded:
/// the header, palette, colour chunks, and where each image's compressed data lies. Enforces
/// chunk order, APNG sequence numbers and frame counts (strict mode), and the frame limits.
struct PNGFileLayout {
    /// One APNG frame: its fcTL and its data (fdAT ranges without their sequence numbers, or
    /// the IDAT when the fcTL came before it).
    struct Frame {
        var control: APNGFrameControl
        var data: [Range<Int>] = []
        var usesIDAT: Bool
    }

    var header: PNGHeader
    var palette: [UInt8]?
    var transparency: [UInt8]?
    var gamma: Int?
    var hasSRGB = false
    var iccp: Range<Int>?
    /// acTL: frame count and plays (0 = forever).
    var animation: (frames: Int, plays: Int)?
    var idat: [Range<Int>] = []
    var frames: [Frame] = []
    var warnings: [String] = []
    /// The walk stopped before IEND: lenient truncation, a lenient stop at a bad fcTL, or
    /// damage after the first frame when only that frame is wanted.
    var stoppedEarly = false

    var format: ImageFormat { animation == nil ? .png : .apng }

    static func parse(_ bytes: [UInt8], options: DecodeOptions) throws -> PNGFileLayout {
        try PNGChunkReader.checkSignature(bytes)
        let lenient = options.lenient
        var reader = PNGChunkReader(bytes: bytes, lenient: lenient)
        guard let first = try reader.next(format: .png), !first.isTruncated else {
            throw ImageError(.png, PNGError.endsBeforeHeader(fileSize: bytes.count))
        }
        guard first.type == PNGChunk.IHDR else {
            throw ImageError(.png, PNGError.firstChunkNotHeader(chunk: first.name))
        }
        let header = try PNGHeader(bytes[first.dataRange])
        try options.limits.check(width: header.width, height: header.height, format: .png, what: ImageDecoder.canvasSource(.png))

        var layout = PNGFileLayout(header: header)
        // 0: no IDAT yet, 1: inside the IDAT run, 2: after it.
        var idatState = 0
        var sequence: UInt32 = 0
        var sawIEND = false
        // Any acTL seen (valid or not), and whether the animation was found invalid and dropped.
        var sawAnimationControl = false
        var animationDropped = false
        // fcTL chunks met before acTL (and before IDAT): the default image's control may come
        // first, which is valid; they count once an acTL says the file is animated.
        var earlyControls: [PNGChunk] = []

        /// Strict mode throws; lenient mode notes the problem and goes on.
        func fail(_ reason: PNGError) throws {
            if !lenient { throw ImageError(layout.format, reason) }
            layout.warnings.append(reason.message)
        }
        /// The animation chunks are wrong in a way the APNG specification answers with the default
        /// image: the file is shown as a still, with a note naming the problem.
        func dropAnimation(_ reason: PNGError) {
            layout.warnings.append(reason.stillNote)
            layout.animation = nil
            layout.frames = []
            animationDropped = true
        }
        /// An animation problem the specification answers with the default image. Strict mode
        /// does so and returns true; lenient mode notes it and returns false, and the caller
        /// salvages what it can (as Chromium does: the frames before the problem).
        func invalidAnimation(_ reason: PNGError) -> Bool {
            if !lenient { dropAnimation(reason); return true }
            layout.warnings.append(reason.message)
            return false
        }
        func read32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        /// Checks a sequence number; false when strict mode dropped the animation over it.
        func sequenceOK(_ found: UInt32, _ name: String) -> Bool {
            defer { sequence = found &+ 1 }
            if found == sequence { return true }
            return !invalidAnimation(.sequenceNumber(chunk: name, found: found, expected: sequence))
        }
        /// One fcTL of the animation. Returns false when the walk must stop (lenient mode keeping
        /// the frames before a bad one).
        func frameControl(_ chunk: PNGChunk) throws -> Bool {
            guard let animation = layout.animation else { return true }
            let data = bytes[chunk.dataRange]
            if data.count >= 4 && !sequenceOK(read32(chunk.dataStart), "fcTL") { return true }
            if let last = layout.frames.last, !last.usesIDAT && last.data.isEmpty {
                if invalidAnimation(.frameWithoutData(frame: layout.frames.count - 1)) { return true }
                layout.frames.removeLast()
            }
            let number = layout.frames.count
            if number >= animation.frames {
                if invalidAnimation(.moreFrameControlsThanFrames(declared: animation.frames)) { return true }
                layout.stoppedEarly = true
                return false
            }
            // Counted as they come, so a file with more frames than the limit is refused at the
            // first frame too many, before any pixel is decoded.
            try options.limits.check(frameNumber: number + 1, format: .apng)
            if idatState == 0 && number > 0 {
                // Only the default image's fcTL may come before IDAT.
                _ = invalidAnimation(.frameControlBeforeImageData(frame: number))
                return true
            }
            let control: APNGFrameControl
            do {
                control = try APNGFrameControl(data, index: number, canvasWidth: header.width, canvasHeight: header.height)
                if idatState == 0 && (control.x != 0 || control.y != 0 || control.width != header.width || control.height != header.height) {
                    throw ImageError(.apng, PNGError.defaultImageNotCanvas(width: control.width, height: control.height, x: control.x, y: control.y,
                                                                           canvasWidth: header.width, canvasHeight: header.height))
                }
            } catch let error as ImageError {
                guard let reason = error.reason as? PNGError else { throw error }
                if invalidAnimation(reason) { return true }
                // Lenient: keep the frames before the bad one; with none, show the IDAT image.
                if layout.frames.isEmpty {
                    layout.animation = nil
                    animationDropped = true
                    return true
                }
                layout.stoppedEarly = true
                return false
            }
            layout.frames.append(Frame(control: control, usesIDAT: idatState == 0))
            return true
        }

        walk: while true {
            let next: PNGChunk?
            do {
                next = try reader.next(format: layout.format)
            } catch where options.firstFrameOnly && layout.animation != nil && idatState == 2
                        && (layout.frames.first?.usesIDAT == true || layout.frames.count >= 2) {
                // The first frame's data is all there: first-frame decoding stops before later
                // damage, as it stops before later frames.
                layout.stoppedEarly = true
                break walk
            }
            guard let chunk = next else { break walk }
            if chunk.type != PNGChunk.IDAT && idatState == 1 { idatState = 2 }
            let data = bytes[chunk.dataRange]
            switch chunk.type {
            case PNGChunk.IEND:
                sawIEND = true
                // Only lenient mode gets here with a cut IEND: the image is whole, but say so.
                if reader.endedInsideChunk { layout.warnings.append("file is truncated: data ends after \(bytes.count) bytes, inside IEND") }
                break walk
            case PNGChunk.IHDR:
                throw ImageError(layout.format, PNGError.secondHeader)
            case PNGChunk.PLTE:
                if idatState > 0 { try fail(.paletteAfterImageData); continue }
                if layout.palette != nil { try fail(.secondPalette); continue }
                if header.colorType.isGrayscale {
                    try fail(.paletteInGrayscale(colorType: header.colorType))
                    continue
                }
                if header.colorType != .indexed { continue }  // a suggested palette for RGB: not needed
                var entries = data.count / 3
                let allowed = 1 << header.bitDepth
                if data.count % 3 != 0 || entries == 0 || entries > allowed {
                    try fail(.paletteSize(bytes: data.count, maxEntries: allowed, bitDepth: header.bitDepth))
                    entries = min(entries, allowed)
                    if entries == 0 { continue }
                }
                layout.palette = Array(data.prefix(entries * 3))
            case PNGChunk.tRNS:
                if idatState > 0 || layout.transparency != nil { continue }
                switch header.colorType {
                case .indexed:
                    guard let palette = layout.palette else { try fail(.transparencyBeforePalette); continue }
                    if data.count > palette.count / 3 {
                        try fail(.transparencyOverPalette(entries: data.count, paletteEntries: palette.count / 3))
                    }
                    layout.transparency = Array(data.prefix(palette.count / 3))
                case .grayscale where data.count == 2, .truecolor where data.count == 6:
                    layout.transparency = Array(data)
                case .grayscale, .truecolor:
                    try fail(.transparencySize(bytes: data.count, colorType: header.colorType))
                default:
                    break  // images with an alpha channel ignore tRNS
                }
            case PNGChunk.gAMA:
                if idatState == 0 && layout.palette == nil && data.count == 4 { layout.gamma = Int(read32(chunk.dataStart)) }
            case PNGChunk.sRGB:
                if idatState == 0 && layout.palette == nil { layout.hasSRGB = true }
            case PNGChunk.iCCP:
                if idatState == 0 && layout.palette == nil && layout.iccp == nil { layout.iccp = chunk.dataRange }
            case PNGChunk.acTL:
                if chunk.isTruncated { break walk }
                if sawAnimationControl {
                    // A second acTL: lenient mode keeps the first, as Chromium does.
                    if !animationDropped { _ = invalidAnimation(.secondAnimationControl) }
                    continue
                }
                sawAnimationControl = true
                if idatState > 0 {
                    // After the image data an acTL does not make an APNG (APNG spec): a still.
                    dropAnimation(.animationControlAfterImageData)
                    continue
                }
                guard data.count == 8 else { dropAnimation(.animationControlLength(bytes: data.count)); continue }
                let count = Int(read32(chunk.dataStart))
                let plays = Int(read32(chunk.dataStart + 4))
                if count == 0 { dropAnimation(.zeroFrames); continue }
                layout.animation = (count, plays)
                let early = earlyControls
                earlyControls = []
                for control in early {
                    if try !frameControl(control) { break walk }
                }
            case PNGChunk.fcTL:
                if chunk.isTruncated { break walk }
                if layout.animation == nil {
                    // Before acTL and IDAT: possibly the default image's control (valid).
                    if !sawAnimationControl && idatState == 0 { earlyControls.append(chunk) }
                    continue
                }
                if try !frameControl(chunk) { break walk }
            case PNGChunk.IDAT:
                if idatState == 2 { try fail(.imageDataNotConsecutive) }
                idatState = 1
                layout.idat.append(chunk.dataRange)
            case PNGChunk.fdAT:
                guard layout.animation != nil else { continue }
                if chunk.length < 4 {
                    if chunk.isTruncated { break walk }
                    _ = invalidAnimation(.frameDataTooShort(bytes: chunk.length))
                    continue
                }
                if !sequenceOK(read32(chunk.dataStart), "fdAT") { continue }
                if idatState == 0 {
                    _ = invalidAnimation(.frameDataBeforeImageData)
                    continue
                }
                guard let last = layout.frames.last, !last.usesIDAT else {
                    _ = invalidAnimation(.frameDataWithoutControl)
                    continue
                }
                layout.frames[layout.frames.count - 1].data.append((chunk.dataStart + 4)..<chunk.dataRange.upperBound)
            default:
                if chunk.isCritical {
                    throw ImageError(layout.format, PNGError.unknownCriticalChunk(chunk.name))
                }
            }
            if chunk.isTruncated { break walk }
        }

        layout.warnings.append(contentsOf: reader.ignoredCRCMismatches.map(\.message))
        if !sawIEND && !layout.stoppedEarly {
            if layout.idat.isEmpty {
                throw ImageError(layout.format, PNGError.endsBeforeImageData(fileSize: bytes.count))
            }
            if !lenient { throw ImageError(layout.format, PNGError.endsWithoutIEND(fileSize: bytes.count)) }
            layout.stoppedEarly = true
            layout.warnings.append("file is truncated: data ends after \(bytes.count) bytes")
        }
        if layout.idat.isEmpty { throw ImageError(layout.format, PNGError.noImageData) }
        if header.colorType == .indexed && layout.palette == nil {
            throw ImageError(layout.format, PNGError.noPalette)
        }
        if layout.animation != nil, let last = layout.frames.last, !last.usesIDAT && last.data.isEmpty {
            if !invalidAnimation(.frameWithoutData(frame: layout.frames.count - 1)) { layout.frames.removeLast() }
        }
        if let animation = layout.animation, !layout.stoppedEarly && layout.frames.count != animation.frames {
            _ = invalidAnimation(.frameCountMismatch(declared: animation.frames, found: layout.frames.count))
        }
        if layout.animation != nil && layout.frames.isEmpty {
            // Lenient: nothing animated survived; show the default image.
            layout.animation = nil
        }
        if layout.animation != nil {
            try options.limits.check(frames: options.firstFrameOnly ? 1 : layout.frames.count,
                                     width: header.width, height: header.height, format: .apng)
        }
        return layout
    }
}
