/// Why a set of stickers cannot make a LINE upload archive (`LinePack`).
public enum LinePackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A count LINE does not sell: `LinePack.counts(animated:)`; `animated` nil when the kind is
    /// not known yet (a count no set of either kind holds).
    case setSize(Int, animated: Bool?)
    /// Stills and animations in one set: LINE sells sets of one kind.
    case mixedKinds(stills: Int, animations: Int)
    /// The archive passes `LinePack.maxArchiveBytes`.
    case archiveTooLarge(Int)

    public var description: String {
        switch self {
        case .setSize(let n, let animated):
            func sizes(_ animated: Bool) -> String {
                let counts = LinePack.counts(animated: animated).map(String.init)
                return counts.dropLast().joined(separator: ", ") + " or " + (counts.last ?? "") + (animated ? " animations" : " stills")
            }
            let kind = animated.map { $0 ? "animated " : "still " } ?? ""
            var line = "\(n) \(kind)sticker\(n == 1 ? "" : "s"): a LINE set holds "
                + (animated.map(sizes) ?? sizes(false) + ", or " + sizes(true))
            // The nearest set sizes of the kind (a still set's when the kind is not known yet).
            let counts = LinePack.counts(animated: animated ?? false)
            if let up = counts.first(where: { $0 > n }) {
                line += "; add \(up - n)" + (counts.last(where: { $0 < n }).map { " or leave out \(n - $0)" } ?? "")
            } else {
                line += "; split them into sets"
            }
            return line
        case .mixedKinds(let stills, let animations):
            return "\(stills) still\(stills == 1 ? "" : "s") and \(animations) animation\(animations == 1 ? "" : "s"): "
                + "a LINE set is all stills or all animations; make two sets"
        case .archiveTooLarge(let bytes):
            return "the archive would be \(bytes) bytes: LINE takes at most \(LinePack.maxArchiveBytes) in one upload; "
                + "lower --max-kb"
        }
    }
}
