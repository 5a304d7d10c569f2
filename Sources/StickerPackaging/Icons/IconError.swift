import ImageCore

/// Why an icon set could not be rendered, with the offending values.
public enum IconError: ImageErrorReason {
    /// The source image has no pixels (a caller's mistake).
    case emptySource(width: Int, height: Int)
    /// The PNG encoder returned nothing for the icon of this pixel size ("58x58").
    case noBytes(icon: String)

    public var kind: ImageError.Kind {
        switch self {
        case .emptySource: .parameter
        case .noBytes: .encoding
        }
    }

    public var message: String {
        switch self {
        case let .emptySource(w, h): "icon source is \(w)×\(h): empty"
        case .noBytes(let icon): "encoder returned no bytes for the \(icon) icon"
        }
    }
}
