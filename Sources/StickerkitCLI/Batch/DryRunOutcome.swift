/// What `resize --dry-run` found: one line per output that would change (and, with `-v`, per
/// one up to date), and the counts for its summary.
struct DryRunOutcome: Sendable, Equatable {
    var lines: [String] = []
    /// Stickers that would be written (new, again, or over a file `--overwrite` replaces).
    var written = 0
    var upToDate = 0
    /// Outputs left alone: a file the user made, or one of ours edited since.
    var kept = 0
    /// Outputs that can never be written there (a folder in the way, an input).
    var failed = 0
    /// Stickers of ours that would be removed (superseded, or `--prune`).
    var removed = 0

    /// `dry run: 3 stickers would be written, 2 up to date, 1 left as it is, 1 removed; nothing was changed`.
    var summary: String {
        func stickers(_ n: Int) -> String { "\(n) sticker\(n == 1 ? "" : "s")" }
        var parts = ["\(stickers(written)) would be written", "\(upToDate) up to date"]
        if kept > 0 { parts.append("\(kept) left as \(kept == 1 ? "it is" : "they are")") }
        if failed > 0 { parts.append("\(failed) could not be written") }
        if removed > 0 { parts.append("\(removed) would be removed") }
        return "dry run: " + parts.joined(separator: ", ") + "; nothing was changed"
    }
}
