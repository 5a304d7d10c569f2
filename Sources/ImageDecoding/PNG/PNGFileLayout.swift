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
    /// The walk stopped before IEND: lenient truncation, or `firstFrameOnly`.
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
        try options.limits.check(width: header.width, height: header.height, format: .png, what: "IHDR says")

        var layout = PNGFileLayout(header: header)
        // 0: no IDAT yet, 1: inside the IDAT run, 2: after it.
        var idatState = 0
        var sequence: UInt32 = 0
        var sawIEND = false

        /// Strict mode throws; lenient mode notes the problem and goes on.
        func fail(_ reason: PNGError) throws {
            if !lenient { throw ImageError(layout.format, reason) }
            layout.warnings.append(reason.message)
        }
        func read32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        func checkSequence(_ found: UInt32, _ name: String) throws {
            if found != sequence { try fail(.sequenceNumber(chunk: name, found: found, expected: sequence)) }
            sequence = found &+ 1
        }

        walk: while let chunk = try reader.next(format: layout.format) {
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
                // An acTL after the image data does not make an APNG (APNG spec).
                guard idatState == 0, layout.animation == nil, data.count == 8 else { continue }
                let count = Int(read32(chunk.dataStart))
                let plays = Int(read32(chunk.dataStart + 4))
                if count == 0 {
                    if !lenient { throw ImageError(.apng, PNGError.zeroFrames) }
                    layout.warnings.append("ignored acTL that says 0 frames")
                    continue
                }
                try options.limits.check(frames: count, width: header.width, height: header.height, format: .apng)
                layout.animation = (count, plays)
            case PNGChunk.fcTL:
                guard let animation = layout.animation else { continue }
                if chunk.isTruncated { break walk }
                if data.count >= 4 { try checkSequence(read32(chunk.dataStart), "fcTL") }
                let index = layout.frames.count
                if index >= animation.frames {
                    try fail(.moreFrameControlsThanFrames(declared: animation.frames))
                    break walk
                }
                if let last = layout.frames.last, !last.usesIDAT && last.data.isEmpty {
                    try fail(.frameWithoutData(frame: index - 1))
                    layout.frames.removeLast()
                }
                if options.firstFrameOnly && !layout.frames.isEmpty {
                    layout.stoppedEarly = true
                    break walk
                }
                let control: APNGFrameControl
                do {
                    control = try APNGFrameControl(data, index: index, canvasWidth: header.width, canvasHeight: header.height)
                    if idatState == 0 && (control.x != 0 || control.y != 0 || control.width != header.width || control.height != header.height) {
                        throw ImageError(.apng, PNGError.defaultImageNotCanvas(width: control.width, height: control.height, x: control.x, y: control.y,
                                                                               canvasWidth: header.width, canvasHeight: header.height))
                    }
                } catch let error as ImageError {
                    if !lenient { throw error }
                    // Lenient: keep the frames before the bad one; with none, show the IDAT image.
                    layout.warnings.append(error.message)
                    if layout.frames.isEmpty {
                        layout.animation = nil
                        continue
                    }
                    layout.stoppedEarly = true
                    break walk
                }
                layout.frames.append(Frame(control: control, usesIDAT: idatState == 0))
            case PNGChunk.IDAT:
                if idatState == 2 { try fail(.imageDataNotConsecutive) }
                idatState = 1
                layout.idat.append(chunk.dataRange)
            case PNGChunk.fdAT:
                guard layout.animation != nil else { continue }
                if chunk.length < 4 {
                    if chunk.isTruncated { break walk }
                    throw ImageError(.apng, PNGError.frameDataTooShort(bytes: chunk.length))
                }
                try checkSequence(read32(chunk.dataStart), "fdAT")
                if idatState == 0 { try fail(.frameDataBeforeImageData); continue }
                guard let last = layout.frames.last, !last.usesIDAT else {
                    try fail(.frameDataWithoutControl)
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
        if let animation = layout.animation {
            if let last = layout.frames.last, !last.usesIDAT && last.data.isEmpty {
                try fail(.frameWithoutData(frame: layout.frames.count - 1))
                layout.frames.removeLast()
            }
            if !layout.stoppedEarly && layout.frames.count != animation.frames {
                try fail(.frameCountMismatch(declared: animation.frames, found: layout.frames.count))
            }
            if layout.frames.isEmpty {
                // Lenient: nothing animated survived; show the default image.
                layout.animation = nil
            }
        }
        return layout
    }
}
