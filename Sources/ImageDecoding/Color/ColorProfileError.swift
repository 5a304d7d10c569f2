import ImageCore

/// Why an embedded ICC profile could not be used, with the offending values.
public enum ColorProfileError: ImageErrorReason {
    /// lcms2 cannot open the profile's `bytes`.
    case invalidProfile(bytes: Int)
    /// lcms2 opened the profile but cannot build a transform from it to sRGB.
    case notConvertible(name: String, bytes: Int)

    public var kind: ImageError.Kind { .decoding }

    public var message: String {
        switch self {
        case .invalidProfile(let bytes):
            "embedded ICC profile is invalid (\(bytes) bytes)"
        case let .notConvertible(name, bytes):
            "embedded ICC profile '\(name)' cannot be converted to sRGB (\(bytes) bytes)"
        }
    }
}
