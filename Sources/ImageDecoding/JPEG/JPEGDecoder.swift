import CJPEGShim
import ImageCore

/// Decodes JPEG files with libjpeg-turbo (through the setjmp shim in CJPEGShim): baseline,
/// progressive, grayscale, CMYK and YCCK. Applies the embedded ICC profile and the EXIF
/// orientation, so the result is upright sRGB as a viewer would show it.
enum JPEGDecoder {
    /// Decodes `bytes` into a one-frame animation. Order: header → limits → allocate → pixels.
    static func decode(_ bytes: [UInt8], options: DecodeOptions) throws -> DecodedImage {
        guard let decoder = sk_jpeg_new() else {
            throw ImageError(.jpeg, JPEGError.decoderAllocationFailed)
        }
        defer { sk_jpeg_free(decoder) }
        return try bytes.withUnsafeBufferPointer { data in
            try decode(data, decoder: decoder, options: options)
        }
    }

    /// The one frame of `decode`, handed to `body` (a JPEG is a still: nothing to stream).
    static func decodeFrames(_ bytes: [UInt8], options: DecodeOptions, _ body: (CanvasFrame) throws -> Void) throws -> FrameStreamInfo {
        let decoded = try decode(bytes, options: options)
        let image = decoded.animation.frames[0].image
        try body(CanvasFrame(canvasWidth: image.width, canvasHeight: image.height,
                             box: PixelRect(x: 0, y: 0, width: image.width, height: image.height),
                             pixels: image, damage: nil, delay: decoded.animation.frames[0].delay))
        return FrameStreamInfo(format: .jpeg, width: image.width, height: image.height, frameCount: 1,
                               loopCount: decoded.animation.loopCount, warnings: decoded.warnings)
    }

    private static func decode(_ data: UnsafeBufferPointer<UInt8>, decoder: OpaquePointer,
                               options: DecodeOptions) throws -> DecodedImage {
        var header = sk_jpeg_header()
        let headerStatus = sk_jpeg_read_header(decoder, data.baseAddress, data.count, &header)
        if headerStatus != 0 {
            if sk_jpeg_data_ended(decoder) != 0 {
                throw ImageError(.jpeg, JPEGError.endsInHeader(fileSize: data.count))
            }
            throw error(decoder)
        }
        let markers = JPEGMarkers(decoder: decoder)
        let width = Int(header.width), height = Int(header.height)
        let orientation = markers.orientation.flatMap(EXIFOrientation.init(rawValue:)) ?? .up
        try options.limits.check(width: width, height: height, format: .jpeg, what: "header says")
        if orientation.swapsAxes {
            try options.limits.check(width: height, height: width, format: .jpeg, what: "rotated by EXIF, image is")
        }
        try options.limits.check(scans: JPEGScans.count(data), format: .jpeg)
        var warnings: [String] = []

        let isCMYK = header.color_space == 4 || header.color_space == 5   // JCS_CMYK, JCS_YCCK
        // Gray, YCbCr and RGB files come out of libjpeg as RGBA directly; CMYK needs a pass of ours.
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let status = pixels.withUnsafeMutableBufferPointer { out in
            sk_jpeg_decode(decoder, out.baseAddress, width * 4,
                           Int32(isCMYK ? SK_JPEG_OUT_CMYK : SK_JPEG_OUT_RGBA), options.lenient ? 0 : 1)
        }
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

        var image: Image
        if isCMYK {
            let converted = try pixels.withUnsafeBufferPointer { cmyk in
                try ColorProfile.cmykToSRGB(cmyk.baseAddress!, pixelCount: width * height,
                                            inverted: header.saw_adobe_marker != 0, iccProfile: markers.icc,
                                            problem: markers.iccProblem.map { ImageError(.jpeg, $0) },
                                            format: .jpeg, lenient: options.lenient)
            }
            image = Image(width: width, height: height, pixels: converted.pixels)
            warnings.append(converted.note)
        } else {
            image = Image(width: width, height: height, pixels: pixels)
            // RGB and gray pixels are readable without their profile: a broken one is ignored
            // with a note, strict mode included (`ColorProfile.convertOrIgnore`).
            if let problem = markers.iccProblem {
                warnings.append(ColorProfile.ignoredNote(problem))
            } else if let icc = markers.icc, let note = ColorProfile.convertOrIgnore(&image, iccProfile: icc, format: .jpeg).note {
                warnings.append(note)
            }
        }
        if orientation != .up {
            image = orientation.apply(to: image)
            warnings.append("applied EXIF orientation \(orientation.rawValue) (\(orientation.summary))")
        }
        return DecodedImage(format: .jpeg, animation: Animation(still: image), warnings: warnings)
    }

    /// libjpeg's message as an error (`JPEGError.kind` tells unsupported features from bad data).
    private static func error(_ decoder: OpaquePointer) -> ImageError {
        ImageError(.jpeg, libjpegError(decoder))
    }

    private static func libjpegError(_ decoder: OpaquePointer) -> JPEGError {
        .libjpeg(String(cString: sk_jpeg_message(decoder)))
    }
}
