import ImageCore
import ImageResize
import StickerKit

/// Something about a rendered icon set the user should look at; each case carries the values its
/// message names.
public enum IconWarning: Sendable, Equatable, CustomStringConvertible {
    /// The source is not square: cover crops it in every icon, contain pads it.
    case nonSquare(width: Int, height: Int, fit: FitMode)
    /// The source is smaller than some icons: they are enlarged, up to `factor` times (for the
    /// icon `slot`, e.g. "1024x1024").
    case enlarged(width: Int, height: Int, factor: Double, slot: String)
    /// These icons came out one flat colour: the artwork does not show in them.
    case flat(icons: [String], color: RGBA, of: Int)
    /// The source is an animation of `frames` frames, and `pictures` (e.g. "every icon", "the
    /// tray icon") are stills: they show its first frame alone.
    case firstFrame(frames: Int, pictures: String)

    public var description: String {
        switch self {
        case let .nonSquare(w, h, fit):
            fit == .cover
                ? "source is \(w)×\(h), not square: every icon shows only its middle (cover fit crops the rest); --fit contain shows it whole on the background"
                : "source is \(w)×\(h), not square: every icon shows it whole, padded with the background"
        case let .enlarged(w, h, factor, slot):
            "source is \(w)×\(h): icons are enlarged up to \(String(format: "%.1f", factor))× (the \(slot.replacingOccurrences(of: "x", with: "×")) icon) "
                + "and look soft; a source of at least 1024×1024 px is sharp in every icon"
        case let .flat(icons, color, total):
            (icons.count == total ? "every icon is" : "\(icons.count) of \(total) icons (\(icons.prefix(3).joined(separator: ", "))\(icons.count > 3 ? ", …" : "")) are")
                + " one flat colour \(Self.hex(color)): the artwork does not show — light artwork on a light --background, or cropped away?"
        case let .firstFrame(frames, pictures):
            "source is an animation of \(frames) frames: its first frame alone shows in \(pictures); "
                + "give a still image to choose what shows"
        }
    }

    /// `.firstFrame` for a platform's pack pictures made from the image file `data`: when it is
    /// an animation and none of `pictures` animates (`PackIcon.animates`), which are then all
    /// stills of its first frame (LINE's pictures of a set of stills: pass `PackIcon.still`s);
    /// nil otherwise.
    public static func firstFrame(of data: [UInt8], pictures: [PackIcon]) -> IconWarning? {
        let frames = Artwork.frameCount(of: data)
        guard frames > 1, !pictures.isEmpty, !pictures.contains(where: \.animates) else { return nil }
        return .firstFrame(frames: frames, pictures: "the " + pictures.map(\.role).joined(separator: " and the "))
    }

    static func hex(_ c: RGBA) -> String {
        "#" + [c.r, c.g, c.b].map { let s = String($0, radix: 16, uppercase: true); return s.count == 1 ? "0" + s : s }.joined()
    }
}
