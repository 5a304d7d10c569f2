/// Bounds a decoder checks before it allocates, with overflow-checked arithmetic. Defaults are
/// generous for real artwork (100 MP per frame) and strict against decompression bombs.
public struct Limits: Sendable, Equatable {
    public var maxWidth: Int
    public var maxHeight: Int
    /// Pixels in one frame (canvas).
    public var maxPixels: Int
    public var maxFrames: Int
    /// Decoded bytes over all frames (frames × canvas pixels × 4).
    public var maxTotalBytes: Int
    /// Memory one conversion may use, in bytes (256 MB by default): what a conversion holds is
    /// planned within it, and an input that cannot be converted within it is refused from its
    /// structure, before decoding.
    public var maxMemory: Int
    /// Scans in one JPEG (100 by default). A progressive file's scans each pass over the whole
    /// image: libjpeg's progression has 10 for a colour image, while a file of thousands of tiny
    /// scans would take minutes. Counted from the file's markers before decoding.
    public var maxScans: Int
    /// Pixels an animation's frames may change for one sticker size (60 M by default): each
    /// frame's sticker pixels that differ from the frame before (all of the first frame's),
    /// plus half its changed source pixels. The budget search's work follows them (up to about
    /// 105 ns of CPU per changed sticker pixel over a search), so this bounds the time one size
    /// takes to under 10 s. Counted as the frames are fitted; a size past it is refused there.
    public var maxChangedPixels: Int

    public init(maxWidth: Int = 65_535, maxHeight: Int = 65_535, maxPixels: Int = 100_000_000,
                maxFrames: Int = 5_000, maxTotalBytes: Int = 1 << 30, maxMemory: Int = Limits.defaultMemory,
                maxScans: Int = 100, maxChangedPixels: Int = Limits.defaultChangedPixels) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.maxPixels = maxPixels
        self.maxFrames = maxFrames
        self.maxTotalBytes = maxTotalBytes
        self.maxMemory = maxMemory
        self.maxScans = maxScans
        self.maxChangedPixels = maxChangedPixels
    }

    /// The default `maxMemory`: 256 MB (256,000,000 bytes).
    public static let defaultMemory = 256_000_000
    /// The default `maxChangedPixels`: 60 M.
    public static let defaultChangedPixels = 60_000_000

    public static let `default` = Limits()
    /// No bounds at all: only as an explicit choice.
    public static let unlimited = Limits(maxWidth: .max, maxHeight: .max, maxPixels: .max, maxFrames: .max, maxTotalBytes: .max,
                                         maxMemory: .max, maxScans: .max, maxChangedPixels: .max)

    /// Checks one canvas. `what` names the source of the numbers, e.g. "IHDR says". Throws
    /// `ImageError` with a `LimitsError` reason.
    public func check(width: Int, height: Int, format: ImageFormat?, what: String = "image is") throws {
        guard width > 0, height > 0 else {
            throw ImageError(format, LimitsError.zeroSize(source: what, width: width, height: height))
        }
        if width > maxWidth || height > maxHeight {
            throw ImageError(format, LimitsError.overDimensions(source: what, width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight))
        }
        let (px, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || px > maxPixels {
            throw ImageError(format, LimitsError.overPixels(source: what, width: width, height: height, maxPixels: maxPixels))
        }
        let (bytes, o2) = px.multipliedReportingOverflow(by: 4)
        if o2 || bytes > maxTotalBytes {
            throw ImageError(format, LimitsError.overDecodedSize(source: what, width: width, height: height, maxTotalBytes: maxTotalBytes))
        }
    }

    /// Checks that `frames` frames of a `width × height` canvas stay within the frame and byte limits.
    public func check(frames: Int, width: Int, height: Int, format: ImageFormat?) throws {
        if frames > maxFrames {
            throw ImageError(format, LimitsError.overFrames(frames: frames, maxFrames: maxFrames))
        }
        let (px, o1) = width.multipliedReportingOverflow(by: height)
        let (perFrame, o2) = px.multipliedReportingOverflow(by: 4)
        let (total, o3) = perFrame.multipliedReportingOverflow(by: max(frames, 1))
        if o1 || o2 || o3 || total > maxTotalBytes {
            throw ImageError(format, LimitsError.framesOverDecodedSize(frames: frames, width: width, height: height, maxTotalBytes: maxTotalBytes))
        }
    }

    /// Checks frame number `number` (1-based) of a file whose frames are counted as they are read
    /// (GIF image descriptors, APNG fcTL chunks): past `maxFrames` the file has "more than N
    /// frames", its total still unknown.
    public func check(frameNumber number: Int, format: ImageFormat?) throws {
        if number > maxFrames {
            throw ImageError(format, LimitsError.moreFramesThan(maxFrames: maxFrames))
        }
    }

    /// Checks a JPEG's scan count against `maxScans`.
    public func check(scans: Int, format: ImageFormat?) throws {
        if scans > maxScans {
            throw ImageError(format, LimitsError.overScans(scans: scans, maxScans: maxScans))
        }
    }

    /// Checks a conversion's estimated peak memory against `maxMemory`.
    public func check(memory estimate: Int, format: ImageFormat?) throws {
        if estimate > maxMemory {
            throw ImageError(format, LimitsError.overMemory(estimate: estimate, maxMemory: maxMemory))
        }
    }

    static func describePixels(_ n: Int) -> String {
        n % 1_000_000 == 0 ? "\(n / 1_000_000) MP" : "\(n)-pixel"
    }

    /// Bytes in whole megabytes (1 MB = 1,000,000 bytes, as `--max-memory` takes them), rounded up.
    package static func describeMegabytes(_ n: Int) -> String {
        "\((n + 999_999) / 1_000_000) MB"
    }

    /// A file's size in the unit that suits it (1 KB = 1,000 bytes), rounded up, to go before
    /// "file": "206-byte", "65 KB", "100 MB".
    static func describeFileSize(_ n: Int) -> String {
        if n < 1_000 { return "\(n)-byte" }
        if n < 1_000_000 { return "\((n + 999) / 1_000) KB" }
        return describeMegabytes(n)
    }

    static func describeBytes(_ n: Int) -> String {
        if n >= 1 << 30 && n % (1 << 30) == 0 { return "\(n >> 30) GiB" }
        if n >= 1 << 20 && n % (1 << 20) == 0 { return "\(n >> 20) MiB" }
        return "\(n)-byte"
    }
}
