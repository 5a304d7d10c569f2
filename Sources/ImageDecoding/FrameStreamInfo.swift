import ImageCore

/// What a frame-by-frame decode (`ImageDecoder.decodeFrames`) learned, returned once every frame
/// has been delivered: the same facts a `DecodedImage` carries, without the frames.
public struct FrameStreamInfo: Sendable, Equatable {
    /// The format the file really was (`.apng` for an animated PNG).
    public var format: ImageFormat
    /// Canvas size; every delivered frame is `width × height`.
    public var width: Int
    public var height: Int
    /// The source's own size, which is `width × height` unless a JPEG was decoded reduced
    /// (`DecodeOptions.minimumLongSide`).
    public var sourceWidth: Int
    public var sourceHeight: Int
    /// Frames delivered (at least one).
    public var frameCount: Int
    /// Times to play; 0 means forever.
    public var loopCount: Int
    /// Notes for the user, in the order a whole decode gives them.
    public var warnings: [String]

    /// Facts from their parts.
    init(format: ImageFormat, width: Int, height: Int, frameCount: Int, loopCount: Int, warnings: [String],
         sourceWidth: Int? = nil, sourceHeight: Int? = nil) {
        self.format = format
        self.width = width
        self.height = height
        self.sourceWidth = sourceWidth ?? width
        self.sourceHeight = sourceHeight ?? height
        self.frameCount = frameCount
        self.loopCount = loopCount
        self.warnings = warnings
    }

    /// Runs a frame-by-frame decode and keeps every frame: the whole decode is this loop, so the
    /// two can never disagree.
    static func collect(_ decodeFrames: (_ body: (Frame) throws -> Void) throws -> FrameStreamInfo) throws -> DecodedImage {
        var frames: [Frame] = []
        let info = try decodeFrames { frames.append($0) }
        return DecodedImage(format: info.format,
                            animation: Animation(width: info.width, height: info.height, frames: frames, loopCount: info.loopCount),
                            warnings: info.warnings)
    }

    /// `collect` over a canvas decode: every frame as the whole canvas, delays as delivered.
    static func collectCanvas(_ decodeFrames: (_ body: (CanvasFrame) throws -> Void) throws -> FrameStreamInfo) throws -> DecodedImage {
        var frames: [Frame] = []
        let info = try decodeFrames { frames.append(Frame(image: $0.wholeCanvas, delay: $0.delay)) }
        return DecodedImage(format: info.format,
                            animation: Animation(width: info.width, height: info.height, frames: frames, loopCount: info.loopCount),
                            warnings: info.warnings)
    }
}
