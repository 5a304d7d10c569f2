import StickerKit
/// What `check` found about one file: its facts and its findings.
public struct StickerCheckReport: Sendable, Codable, Equatable {
    public var path: String
    public var bytes: Int
    public var facts: StickerFacts
    /// Whether some pixel is not fully opaque: from the headers when they prove it, otherwise
    /// from the decoded pixels (the first frame, or every frame when the first is opaque); nil
    /// when unknown.
    public var transparent: Bool?
    public var findings: [StickerFinding]

    public init(path: String, bytes: Int, facts: StickerFacts, transparent: Bool?, findings: [StickerFinding]) {
        self.path = path
        self.bytes = bytes
        self.facts = facts
        self.transparent = transparent
        self.findings = findings
    }

    /// The worst finding's severity, or nil when there is nothing to say.
    public var verdict: StickerFinding.Severity? { findings.map(\.severity).max() }
    /// True when the sticker breaks no rule.
    public var passes: Bool { verdict != .error }
}

/// What `check` found about a folder of stickers as a whole.
public struct PackCheckReport: Sendable, Codable, Equatable {
    public var folder: String
    /// Side lengths of the square stickers in the folder, ascending.
    public var sizes: [Int]
    public var findings: [StickerFinding]

    public init(folder: String, sizes: [Int], findings: [StickerFinding]) {
        self.folder = folder
        self.sizes = sizes
        self.findings = findings
    }
}

/// Everything one `check` run found; the `--json` output.
public struct CheckReport: Sendable, Codable, Equatable {
    public var stickers: [StickerCheckReport]
    public var packs: [PackCheckReport]
    public var errors: Int
    public var warnings: Int

    public init(stickers: [StickerCheckReport], packs: [PackCheckReport]) {
        self.stickers = stickers
        self.packs = packs
        let all = stickers.flatMap(\.findings) + packs.flatMap(\.findings)
        errors = all.filter { $0.severity == .error }.count
        warnings = all.filter { $0.severity == .warning }.count
    }
}
