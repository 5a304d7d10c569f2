import Foundation
import StickerKit

/// Validates an Xcode sticker catalog against Apple's Asset Catalog Format Reference ("Sticker
/// Pack Type", "Sticker Type", "Sticker Sequence Type", "Messages Extension Icon Type") and
/// Messages' rules, reporting each finding with the path inside the catalog:
///
/// - the catalog: one `.stickerpack` (none, or several, is an error); an iMessage app icon set
///   (none is a warning: Xcode's build fails without one); a root Contents.json (a warning when
///   missing, an error when it does not parse);
/// - the pack: Contents.json with `grid-size` small, regular or large and the `stickers` list; every
///   listed folder present and listed once; every `.sticker` and `.stickersequence` folder listed;
///   nothing else in it;
/// - each sticker: Contents.json with the `filename` it names present and nothing unlisted beside
///   it, an `accessibility-label` string when there is one, and the image checked as `check`
///   checks a file (format, square, size, budget, transparency, timing), at the pack's grid size;
/// - each sequence: one sticker, whatever its frame count: `duration`, `duration-type` (fixed or
///   fps), `repetitions`, every listed frame present, all the same size, at the grid size, the
///   frames' bytes together within the budget;
/// - the icon set: every slot of Apple's table (`IconSlot.messagesAppIcon`) filled once, each
///   image a PNG of exactly its slot's pixels and opaque; nothing unlisted.
///
/// Every JSON file gets its `info` checked (author, version 1; a warning when off).
public enum CatalogChecker {
    /// Checks the catalog folder at `path` (`NAME.xcstickers`).
    public static func check(catalog path: String, rules: CheckRules = .init()) -> CatalogCheckReport {
        var walk = CatalogWalk(path)
        _ = walk.object("Contents.json", missing: .warning, what: "Xcode writes one at the catalog's root")
        let names = walk.entries("")
        let packs = names.filter { $0.hasSuffix(".stickerpack") && walk.isFolder($0) }
        let iconSets = names.filter { $0.hasSuffix(".stickersiconset") && walk.isFolder($0) }
        if packs.isEmpty { walk.add(.error, .pack, "", "no .stickerpack folder: the catalog holds no stickers") }
        if packs.count > 1 {
            walk.add(.error, .pack, "", "\(packs.count) sticker packs (\(packs.joined(separator: ", "))): a sticker pack extension shows one")
        }
        var stickers: [StickerCheckReport] = []
        var grid: String?
        for pack in packs {
            let r = checkPack(pack, walk: &walk, rules: rules)
            stickers += r.stickers
            grid = grid ?? r.grid
        }
        if iconSets.isEmpty {
            walk.add(.warning, .noIconSet, "", "no iMessage App Icon set: Xcode refuses to build the sticker pack (\"None of the "
                     + "input catalogs contained a matching stickers icon set\"); stickerkit icons LOGO.png -o \(CatalogWarning.quoted(path)) adds one")
        }
        for set in iconSets { checkIconSet(set, walk: &walk) }
        return CatalogCheckReport(path: walk.display, gridSize: grid, stickers: stickers, findings: walk.findings,
                                  hasIconSet: !iconSets.isEmpty)
    }

    /// Checks a `.stickerpack` folder on its own (no root, no icon set).
    public static func check(pack path: String, rules: CheckRules = .init()) -> CatalogCheckReport {
        var walk = CatalogWalk(path)
        let r = checkPack("", walk: &walk, rules: rules)
        return CatalogCheckReport(path: walk.display, gridSize: r.grid, stickers: r.stickers, findings: walk.findings, hasIconSet: nil)
    }

    /// The pack at `pack` (relative to the walk's root): its Contents.json, its list against its
    /// folders, then every sticker in list order (unlisted ones after).
    static func checkPack(_ pack: String, walk: inout CatalogWalk, rules: CheckRules) -> (stickers: [StickerCheckReport], grid: String?) {
        func rel(_ name: String) -> String { pack.isEmpty ? name : pack + "/" + name }
        let contents = rel("Contents.json")
        var grid: StickerSize?
        var listed: [String] = []
        if let object = walk.object(contents, missing: .error, what: "Xcode cannot read the pack") {
            let properties = object["properties"] as? [String: Any]
            if let value = properties?["grid-size"] as? String {
                grid = StickerSize(rawValue: value)
                if grid == nil {
                    walk.add(.error, .badKey, contents, "grid-size \"\(value)\" is not small, regular or large")
                }
            } else {
                walk.add(.error, .badKey, contents, "no \"properties\".\"grid-size\" (small, regular or large)")
            }
            listed = walk.fileList(object, "stickers", contents) ?? []
        }
        let entries = walk.entries(pack).filter { $0 != "Contents.json" }
        let folders = entries.filter { ($0.hasSuffix(".sticker") || $0.hasSuffix(".stickersequence")) && walk.isFolder(rel($0)) }
        var seen = Set<String>()
        var order: [String] = []
        for name in listed {
            if !seen.insert(name).inserted {
                walk.add(.error, .duplicate, contents, "lists \(name) twice")
                continue
            }
            if !(name.hasSuffix(".sticker") || name.hasSuffix(".stickersequence")) {
                walk.add(.error, .badKey, contents, "lists \(name), which is neither a .sticker nor a .stickersequence folder")
            } else if !walk.isFolder(rel(name)) {
                walk.add(.error, .missingFile, rel(name), "listed in the pack's Contents.json but missing")
            } else {
                order.append(name)
            }
        }
        for name in folders where !seen.contains(name) {
            walk.add(.error, .unlisted, rel(name), "not listed in the pack's Contents.json: Xcode's order for it is undefined")
            order.append(name)
        }
        for name in entries where !folders.contains(name) && !seen.contains(name) {
            walk.add(.warning, .notASticker, rel(name), "not a .sticker or .stickersequence folder: Xcode leaves it out of the pack")
        }
        var stickers: [StickerCheckReport] = []
        for name in order {
            // What is found inside a sticker's folder belongs to that sticker's report.
            let before = walk.findings.count
            var report = name.hasSuffix(".stickersequence")
                ? checkSequence(rel(name), grid: grid, walk: &walk, rules: rules)
                : checkSticker(rel(name), grid: grid, walk: &walk, rules: rules)
            report.findings.insert(contentsOf: walk.findings[before...], at: 0)
            walk.findings.removeSubrange(before...)
            stickers.append(report)
        }
        return (stickers, grid?.rawValue)
    }

    /// The error of a sticker whose square pixel size is not its pack's grid size.
    static func gridFinding(_ facts: StickerFacts, _ grid: StickerSize?, path: String) -> StickerFinding? {
        guard let grid, let w = facts.width, let h = facts.height, w == h, w != grid.pixels else { return nil }
        return StickerFinding(.error, .gridSize, "\(w)×\(h) px in a \(grid.rawValue) pack, whose stickers are \(grid.pixels)×\(grid.pixels): "
                              + "Messages scales it", path: path)
    }
}
