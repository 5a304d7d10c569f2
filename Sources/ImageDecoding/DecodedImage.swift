import ImageCore

/// A decoded file: its frames on the full canvas with their delays as displayed
/// (`Delay.displayed`; a still's one frame has delay zero), the format it really was, and notes
/// worth telling the user (e.g. a colour profile that was applied).
public struct DecodedImage: Sendable {
    public var format: ImageFormat
    public var animation: Animation
    public var warnings: [String]

    public init(format: ImageFormat, animation: Animation, warnings: [String] = []) {
        self.format = format
        self.animation = animation
        self.warnings = warnings
    }
}
