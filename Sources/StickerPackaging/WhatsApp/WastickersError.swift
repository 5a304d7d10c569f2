/// Why a set of stickers cannot make a WhatsApp pack (`WastickersPack`).
public enum WastickersError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Fewer than `WastickersPack.stickerRange` allows.
    case tooFewStickers(Int)
    /// More than `WastickersPack.stickerRange` allows.
    case tooManyStickers(Int)
    /// Stills and animations in one pack: WhatsApp takes all of one kind.
    case mixedKinds(stills: Int, animations: Int)

    public var description: String {
        let r = WastickersPack.stickerRange
        switch self {
        case .tooFewStickers(let n):
            return "\(n) sticker\(n == 1 ? "" : "s"): a WhatsApp pack holds \(r.lowerBound) to \(r.upperBound)"
        case .tooManyStickers(let n):
            return "\(n) stickers: a WhatsApp pack holds \(r.lowerBound) to \(r.upperBound); split them into packs"
        case .mixedKinds(let stills, let animations):
            return "\(stills) still\(stills == 1 ? "" : "s") and \(animations) animation\(animations == 1 ? "" : "s"): "
                + "a WhatsApp pack is all stills or all animations; make two packs"
        }
    }
}
