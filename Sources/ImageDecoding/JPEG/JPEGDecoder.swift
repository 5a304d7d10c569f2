import CJPEGShim
import ImageCore

/// Decodes JPEG files with libjpeg-turbo (through the setjmp shim in CJPEGShim): baseline,
/// progressive, grayscale, CMYK and YCCK. Applies the embedded ICC profile and the EXIF
/// orientation, so the result is upright sRGB as a viewer would show it.
///
/// Two ways out, one implementation: `decode` fills the whole image; `decodeRows` hands over
/// each row as libjpeg gives it (through the same colour conversion), never holding the image,
/// for files shown as stored (no EXIF turn: turning needs the whole image).
enum JPEGDecoder {
    /// Decodes `bytes` into a one-frame animation. Order: header → limits → allocate → pixels.
    static func decode(_ bytes: [UInt8], options: DecodeOptions) throws -> DecodedImage {
        try decodeWhole(bytes, options: options).image
    }

    /// `decode`, with the source's own size (upright): the image is smaller when decoded reduced.
    private static func decodeWhole(_ bytes: [UInt8], options: DecodeOptions) throws -> (image: DecodedImage, sourceWidth: Int, sourceHeight: Int) {
        var pixels: [UInt8] = []
        var width = 0, height = 0
        let result = try decode(bytes, options: options, rowsOnly: false, start: { w, h in
            (width, height) = (w, h)
            pixels = [UInt8](repeating: 0, count: w * h * 4)
        }, row: { row, y in
            pixels.withUnsafeMutableBytes { ($0.baseAddress! + y * width * 4).copyMemory(from: row, byteCount: width * 4) }
        })
        guard case .decoded(var warnings, let orientation, let profile, let source) = result else { fatalError("a whole decode always decodes") }
        var image = Image(width: width, height: height, pixels: pixels)
        if let icc = profile, let note = ColorProfile.convertOrIgnore(&image, iccProfile: icc, format: .jpeg).note {
            warnings.append(note)
        }
        if orientation != .up {
            image = orientation.apply(to: image)
            warnings.append("applied EXIF orientation \(orientation.rawValue) (\(orientation.summary))")
        }
        let upright = orientation.swapsAxes ? (source.height, source.width) : (source.width, source.height)
        return (DecodedImage(format: .jpeg, animation: Animation(still: image), warnings: warnings), upright.0, upright.1)
    }

    /// The one frame of `decode`, handed to `body` (a JPEG is a still: nothing to stream).
    static func decodeFrames(_ bytes: [UInt8], options: DecodeOptions, _ body: (CanvasFrame) throws -> Void) throws -> FrameStreamInfo {
        let (decoded, sourceWidth, sourceHeight) = try decodeWhole(bytes, options: options)
        let image = decoded.animation.frames[0].image
        try body(CanvasFrame(canvasWidth: image.width, canvasHeight: image.height,
                             box: PixelRect(x: 0, y: 0, width: image.width, height: image.height),
                             pixels: image, damage: nil, delay: decoded.animation.frames[0].delay))
        return FrameStreamInfo(format: .jpeg, width: image.width, height: image.height, frameCount: 1,
                               loopCount: decoded.animation.loopCount, warnings: decoded.warnings,
                               sourceWidth: sourceWidth, sourceHeight: sourceHeight)
    }

    /// The rows of `decode`, top to bottom, each `width × 4` RGBA bytes valid during the call,
    /// after `start(width, height)`; nil (before `start`) when the file is turned by its EXIF
    /// orientation. Errors and warnings are those of `decode`; rows delivered before an error
    /// stay delivered.
    static func decodeRows(_ bytes: [UInt8], options: DecodeOptions, start: (_ width: Int, _ height: Int) throws -> Void,
                           row: (_ pixels: UnsafeRawPointer, _ y: Int) throws -> Void) throws -> FrameStreamInfo? {
        var width = 0, height = 0
        let result = try decode(bytes, options: options, rowsOnly: true, start: { w, h in
            (width, height) = (w, h)
            try start(w, h)
        }, row: row)
        guard case .decoded(let warnings, _, _, let source) = result else { return nil }
        return FrameStreamInfo(format: .jpeg, width: width, height: height, frameCount: 1, loopCount: 0, warnings: warnings,
                               sourceWidth: source.width, sourceHeight: source.height)
    }

    private enum Outcome {
        /// Decoded; the image is still to be converted with `wholeImageProfile` (an RGB or gray
        /// profile, in a whole decode) and turned by `orientation`; `source` is the file's size as
        /// stored (the rows are smaller when decoded reduced).
        case decoded(warnings: [String], orientation: EXIFOrientation, wholeImageProfile: [UInt8]?, source: (width: Int, height: Int))
        /// `rowsOnly`, and the image must be turned or its profile needs the whole image to
        /// decide: nothing was delivered.
        case needsWholeImage
    }

    /// Rows this many at a time from libjpeg (and through the colour conversion).
    private static let chunkRows = 16

    private static func decode(_ bytes: [UInt8], options: DecodeOptions, rowsOnly: Bool,
                               start: (_ width: Int, _ height: Int) throws -> Void,
                               row: (_ pixels: UnsafeRawPointer, _ y: Int) throws -> Void) throws -> Outcome {
        guard let decoder = sk_jpeg_new() else {
            throw ImageError(.jpeg, JPEGError.decoderAllocationFailed)
        }
        defer { sk_jpeg_free(decoder) }
        return try bytes.withUnsafeBufferPointer { data in
            var header = sk_jpeg_header()
            let headerStatus = sk_jpeg_read_header(decoder, data.baseAddress, data.count, &header)
            if headerStatus != 0 {
                if sk_jpeg_data_ended(decoder) != 0 {
                    throw ImageError(.jpeg, JPEGError.endsInHeader(fileSize: data.count))
                }
                throw error(decoder)
            }
            let markers = JPEGMarkers(decoder: decoder)
            let source = (width: Int(header.width), height: Int(header.height))
            let orientation = markers.orientation.flatMap(EXIFOrientation.init(rawValue:)) ?? .up
            try options.limits.check(width: source.width, height: source.height, format: .jpeg, what: ImageDecoder.canvasSource(.jpeg))
            if orientation.swapsAxes {
                try options.limits.check(width: source.height, height: source.width, format: .jpeg, what: "rotated by EXIF, image is")
            }
            try options.limits.check(scans: JPEGScans.count(data), format: .jpeg)
            if rowsOnly && orientation != .up { return .needsWholeImage }
            var warnings: [String] = []

            // Gray, YCbCr and RGB files come out of libjpeg as RGBA directly; CMYK needs a pass of ours.
            let isCMYK = header.color_space == 4 || header.color_space == 5   // JCS_CMYK, JCS_YCCK
            let color: ColorConversion?
            var colorNote: String?
            if isCMYK {
                color = try ColorProfile.cmykConversion(inverted: header.saw_adobe_marker != 0, iccProfile: markers.icc,
                                                        problem: markers.iccProblem.map { ImageError(.jpeg, $0) },
                                                        format: .jpeg, lenient: options.lenient)
            } else if let problem = markers.iccProblem {
                // RGB and gray pixels are readable without their profile: a broken one is ignored
                // with a note, strict mode included (`ColorProfile.convertOrIgnore`).
                color = nil
                colorNote = ColorProfile.ignoredNote(problem)
            } else if let icc = markers.icc, rowsOnly {
                // A gray profile converts gray pixels only: libjpeg gives a 1-component file as
                // r == g == b; for colour components only the whole image can tell.
                var undecided = false
                color = ColorProfile.rgbConversion(iccProfile: icc, format: .jpeg, isGray: {
                    undecided = header.components != 1
                    return header.components == 1
                })
                if undecided { return .needsWholeImage }
            } else {
                // The whole decode converts with the profile once the image is whole (`decode`).
                color = nil
            }
            // Reduced by DCT scaling when the caller needs far fewer pixels; CMYK never (its ink
            // conversion is far from linear, so averaging before it is not averaging after it).
            let scale = isCMYK ? 1 : JPEGScale.denominator(width: source.width, height: source.height,
                                                           minimumLongSide: options.minimumLongSide)
            let width = JPEGScale.reduced(source.width, by: scale), height = JPEGScale.reduced(source.height, by: scale)
            try start(width, height)

            let rowBytes = width * 4
            let chunk = min(chunkRows, max(height, 1))
            let raw = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * chunk)
            let rgba = isCMYK ? UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * chunk) : raw
            defer { raw.deallocate(); if isCMYK { rgba.deallocate() } }
            // lcms2 leaves the alpha byte alone: opaque once and for all.
            if isCMYK { rgba.initialize(repeating: 255, count: rowBytes * chunk) }
            var outWidth: Int32 = 0, outHeight: Int32 = 0
            var status = sk_jpeg_start(decoder, Int32(isCMYK ? SK_JPEG_OUT_CMYK : SK_JPEG_OUT_RGBA), options.lenient ? 0 : 1,
                                       Int32(scale), &outWidth, &outHeight)
            precondition(status != 0 || (Int(outWidth), Int(outHeight)) == (width, height), "libjpeg's reduced size is ceil(size / scale)")
            var y = 0
            // Rows libjpeg did not give (lenient mode after an error) are 255 before conversion,
            // as a whole decode leaves them.
            func deliver(_ n: Int) throws {
                if isCMYK {
                    color!.convertCMYK(raw, rgba, pixelCount: n * width)
                } else if let color {
                    color.apply(rgba, pixelCount: n * width)
                }
                for k in 0..<n { try row(rgba + k * rowBytes, y + k) }
                y += n
            }
            while status == 0 && y < height {
                var got: Int32 = 0
                status = sk_jpeg_read_rows(decoder, raw, rowBytes, Int32(min(chunk, height - y)), &got)
                if got == 0 { break }
                try deliver(Int(got))
            }
            if status == 0 { status = sk_jpeg_finish(decoder) }
            let rows = Int(sk_jpeg_rows_decoded(decoder))
            switch Int(status) {
            case 0:
                if sk_jpeg_data_ended(decoder) != 0 {
                    warnings.append("data ends after \(data.count) bytes; the missing part of the image is filled with gray")
                } else if sk_jpeg_warning_count(decoder) > 0 {
                    warnings.append("libjpeg: \(String(cString: sk_jpeg_first_warning(decoder))) (\(sk_jpeg_warning_count(decoder)) warnings)")
                }
            case Int(SK_JPEG_DATA_ENDS):
                throw ImageError(.jpeg, JPEGError.dataEnds(fileSize: data.count))
            default:
                // A hard error part-way: lenient mode keeps the rows that decoded.
                guard options.lenient, rows > 0 else { throw error(decoder) }
                warnings.append("\(libjpegError(decoder).message); kept the first \(rows) of \(height) rows")
            }
            while y < height {
                let n = min(chunk, height - y)
                raw.initialize(repeating: 255, count: n * rowBytes)
                try deliver(n)
            }
            if let note = colorNote ?? color?.outcome.note { warnings.append(note) }
            return .decoded(warnings: warnings, orientation: orientation,
                            wholeImageProfile: !isCMYK && !rowsOnly && markers.iccProblem == nil ? markers.icc : nil, source: source)
        }
    }

    /// libjpeg's message as an error (`JPEGError.kind` tells unsupported features from bad data).
    private static func error(_ decoder: OpaquePointer) -> ImageError {
        ImageError(.jpeg, libjpegError(decoder))
    }

    private static func libjpegError(_ decoder: OpaquePointer) -> JPEGError {
        .libjpeg(String(cString: sk_jpeg_message(decoder)))
    }
}
