import ImageCore

/// What fitting produced: every frame as a `size × size` image, and notes for the user.
public struct FitResult: Sendable {
    /// Every frame `size × size`, delays and loop count as in the source.
    public var animation: Animation
    /// True when the source was enlarged (smaller than the sticker).
    public var upscaled: Bool
    /// One line per note for the user (enlargement, adjusted options).
    public var warnings: [String]

    /// A result from its parts.
    public init(animation: Animation, upscaled: Bool, warnings: [String]) {
        self.animation = animation
        self.upscaled = upscaled
        self.warnings = warnings
    }
}
