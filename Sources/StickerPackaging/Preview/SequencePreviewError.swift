import ImageCore

/// Why a sequence could not be made into one animation for the preview.
public enum SequencePreviewError: ImageErrorReason {
    /// Frames of different sizes: the first frame's, and the first that differs.
    case framesDiffer(firstWidth: Int, firstHeight: Int, width: Int, height: Int)

    public var kind: ImageError.Kind { .parameter }

    public var message: String {
        switch self {
        case let .framesDiffer(fw, fh, w, h):
            "sequence frames differ in size: \(fw)×\(fh) and \(w)×\(h)"
        }
    }
}
