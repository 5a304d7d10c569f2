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
    /// For a sticker of a catalog: its Contents.json's `accessibility-label` (nil when it has none
    /// and VoiceOver reads the sticker's name).
    public var accessibilityLabel: String?
    /// For a `.stickersequence`: its frame files in play order.
    public var sequenceFrames: [String]?

    public init(path: String, bytes: Int, facts: StickerFacts, transparent: Bool?, findings: [StickerFinding],
                accessibilityLabel: String? = nil, sequenceFrames: [String]? = nil) {
        self.path = path
        self.bytes = bytes
        self.facts = facts
        self.transparent = transparent
        self.findings = findings
        self.accessibilityLabel = accessibilityLabel
        self.sequenceFrames = sequenceFrames
    }

    /// The report of a file (or an archive's entry) of `bytes` bytes that could not be read:
    /// nothing known of it, and one `unreadable` error saying `why`.
    public static func unreadable(path: String, bytes: Int, _ why: String) -> StickerCheckReport {
        StickerCheckReport(path: path, bytes: bytes, facts: StickerFacts(format: nil), transparent: nil,
                           findings: [StickerFinding(.error, .unreadable, why)])
    }

    /// The report of a file of `bytes` bytes not read because one file of that size may not be
    /// held within the default memory budget; `format` is what its first bytes say, if known.
    public static func tooLarge(path: String, bytes: Int, format: String? = nil) -> StickerCheckReport {
        StickerCheckReport(path: path, bytes: bytes, facts: StickerFacts(format: format), transparent: nil,
                           findings: [StickerFinding(.error, .unreadable, tooLargeMessage(bytes))])
    }

    /// Why a file of `bytes` bytes was not read: one file of that size may not be held within
    /// the default memory budget.
    static func tooLargeMessage(_ bytes: Int) -> String {
        "not read: \(Limits.describeMegabytes(bytes)), more than one file may hold in memory (\(Limits.describeMegabytes(Limits.defaultMemory)))"
    }

    /// The worst finding's severity, or nil when there is nothing to say.
    public var verdict: StickerFinding.Severity? { findings.map(\.severity).max() }
    /// True when the sticker breaks no rule.
    public var passes: Bool { verdict != .error }
    /// Why the file could not be read as an image — its bytes are no image format, its
    /// structure is broken, or it was too large to read — in `check`'s words; nil when it was
    /// read, whatever rules it breaks.
    public var unreadableReason: String? {
        if let f = findings.first(where: { $0.severity == .error && $0.code == .unreadable }) { return f.message }
        guard facts.format == nil else { return nil }
        return findings.first { $0.severity == .error && $0.code == .format }?.message
    }
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
    /// Sticker catalogs checked as catalogs (written to JSON only when there are some).
    public var catalogs: [CatalogCheckReport]
    /// WhatsApp pack archives checked as packs (written to JSON only when there are some).
    public var wastickers: [WastickersCheckReport]
    /// LINE upload archives checked as sets (written to JSON only when there are some).
    public var lineSets: [LineSetCheckReport]
    public var errors: Int
    public var warnings: Int

    public init(stickers: [StickerCheckReport], packs: [PackCheckReport], catalogs: [CatalogCheckReport] = [],
                wastickers: [WastickersCheckReport] = [], lineSets: [LineSetCheckReport] = []) {
        self.stickers = stickers
        self.packs = packs
        self.catalogs = catalogs
        self.wastickers = wastickers
        self.lineSets = lineSets
        var all: [StickerFinding] = stickers.flatMap(\.findings) + packs.flatMap(\.findings)
        all += catalogs.flatMap { $0.findings + $0.stickers.flatMap(\.findings) }
        all += wastickers.flatMap(\.allFindings) + lineSets.flatMap(\.allFindings)
        errors = all.filter { $0.severity == .error }.count
        warnings = all.filter { $0.severity == .warning }.count
    }

    private enum CodingKeys: String, CodingKey { case stickers, packs, catalogs, wastickers, lineSets, errors, warnings }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        stickers = try c.decode([StickerCheckReport].self, forKey: .stickers)
        packs = try c.decode([PackCheckReport].self, forKey: .packs)
        catalogs = try c.decodeIfPresent([CatalogCheckReport].self, forKey: .catalogs) ?? []
        wastickers = try c.decodeIfPresent([WastickersCheckReport].self, forKey: .wastickers) ?? []
        lineSets = try c.decodeIfPresent([LineSetCheckReport].self, forKey: .lineSets) ?? []
        errors = try c.decode(Int.self, forKey: .errors)
        warnings = try c.decode(Int.self, forKey: .warnings)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(stickers, forKey: .stickers)
        try c.encode(packs, forKey: .packs)
        if !catalogs.isEmpty { try c.encode(catalogs, forKey: .catalogs) }
        if !wastickers.isEmpty { try c.encode(wastickers, forKey: .wastickers) }
        if !lineSets.isEmpty { try c.encode(lineSets, forKey: .lineSets) }
        try c.encode(errors, forKey: .errors)
        try c.encode(warnings, forKey: .warnings)
    }
}
