import Foundation
import StickerKit

extension CatalogChecker {
    /// A `.sticker` folder: its Contents.json, the image it names, nothing else beside it.
    static func checkSticker(_ rel: String, grid: StickerSize?, walk: inout CatalogWalk, rules: CheckRules) -> StickerCheckReport {
        let contents = rel + "/Contents.json"
        let files = walk.entries(rel).filter { $0 != "Contents.json" }
        var file: String?
        var label: String?
        if let object = walk.object(contents, missing: .error, what: "Xcode cannot read the sticker") {
            let properties = object["properties"] as? [String: Any]
            label = properties?["accessibility-label"] as? String
            if let name = properties?["filename"] as? String, !name.isEmpty {
                file = name
                if !walk.exists(rel + "/" + name) {
                    walk.add(.error, .missingFile, rel + "/" + name, "named by the sticker's Contents.json but missing")
                    file = nil
                }
            } else {
                walk.add(.error, .badKey, contents, "no \"properties\".\"filename\" naming the sticker's image")
            }
            if let label = properties?["accessibility-label"], !(label is String) {
                walk.add(.error, .badKey, contents, "\"accessibility-label\" is not a string")
            }
        } else if files.count == 1 {
            file = files[0] // still worth checking the image itself
        }
        for other in files where other != file && (file != nil || files.count > 1) {
            walk.add(.warning, .unlisted, rel + "/" + other, "not named by the sticker's Contents.json: Xcode reports it as an unassigned child")
        }
        guard let file else {
            return StickerCheckReport(path: walk.shown(rel), bytes: 0, facts: StickerFacts(format: nil), transparent: nil, findings: [])
        }
        let path = walk.shown(rel + "/" + file)
        let read = BoundedRead.image(walk.url(rel + "/" + file))
        if case .tooLarge(let size) = read { return .tooLarge(path: path, bytes: size) }
        if case .notAFile(let kind) = read { return .unreadable(path: path, bytes: 0, BoundedRead.notAFileMessage(kind)) }
        var report = StickerChecker.check(read.bytes ?? [], path: path, rules: rules)
        if let g = gridFinding(report.facts, grid, path: path) { report.findings.append(g) }
        report.accessibilityLabel = label
        return report
    }

    /// A `.stickersequence` folder, reported as one sticker: its timing keys, every listed frame
    /// present and alike, the frames' bytes together within the budget.
    static func checkSequence(_ rel: String, grid: StickerSize?, walk: inout CatalogWalk, rules: CheckRules) -> StickerCheckReport {
        let contents = rel + "/Contents.json"
        var frames: [String] = []
        var fps: Double?
        var seconds: Double?
        var repetitions: Int?
        var label: String?
        if let object = walk.object(contents, missing: .error, what: "Xcode cannot read the sequence") {
            let properties = object["properties"] as? [String: Any] ?? [:]
            label = properties["accessibility-label"] as? String
            let duration = CatalogWalk.number(properties["duration"])
            if duration == nil || duration! <= 0 {
                walk.add(.error, .badKey, contents, "no positive \"properties\".\"duration\"")
            }
            switch properties["duration-type"] as? String {
            case "fps": fps = duration
            case "fixed": seconds = duration
            case let other?: walk.add(.error, .badKey, contents, "duration-type \"\(other)\" is not fixed or fps")
            case nil: walk.add(.error, .badKey, contents, "no \"properties\".\"duration-type\" (fixed or fps)")
            }
            if let r = CatalogWalk.number(properties["repetitions"]) {
                if r < 0 || r != r.rounded() { walk.add(.error, .badKey, contents, "\"repetitions\" is not a whole number ≥ 0") }
                else { repetitions = Int(r) }
            } else {
                walk.add(.warning, .badKey, contents, "no \"properties\".\"repetitions\" (0 plays forever)")
            }
            if let label = properties["accessibility-label"], !(label is String) {
                walk.add(.error, .badKey, contents, "\"accessibility-label\" is not a string")
            }
            frames = walk.fileList(object, "frames", contents) ?? []
            if frames.isEmpty && object["frames"] is [Any] { walk.add(.error, .badKey, contents, "\"frames\" is empty") }
        }
        let listed = Set(frames)
        for other in walk.entries(rel) where other != "Contents.json" && !listed.contains(other) {
            walk.add(.warning, .unlisted, rel + "/" + other, "not a frame of the sequence's Contents.json: Xcode reports it as an unassigned child")
        }

        // The frames, each checked as a still; findings merged by message.
        var total = 0
        var merged: [(finding: StickerFinding, count: Int)] = []
        var first: StickerFacts?
        var transparent: Bool?
        var present = 0
        var framePaths: [String] = []
        for name in frames {
            let frameRel = rel + "/" + name
            let read = BoundedRead.image(walk.url(frameRel))
            if let why = read.unreadableImageMessage {
                walk.add(.error, .unreadable, frameRel, why)
                continue
            }
            guard let data = read.bytes else {
                walk.add(.error, .missingFile, frameRel, "a frame of the sequence's Contents.json, missing")
                continue
            }
            present += 1
            framePaths.append(walk.shown(frameRel))
            total += data.count
            var perFrame = rules
            perFrame.maxBytes = Int.max // the budget is the sequence's, below
            let r = StickerChecker.check([UInt8](data), path: walk.shown(frameRel), rules: perFrame)
            if let f = first {
                if r.facts.width != f.width || r.facts.height != f.height {
                    walk.add(.error, .size, frameRel, "\(r.facts.width ?? 0)×\(r.facts.height ?? 0), the first frame is \(f.width ?? 0)×\(f.height ?? 0)")
                }
            } else {
                first = r.facts
            }
            if r.transparent == true { transparent = true } else if transparent == nil { transparent = r.transparent }
            for finding in r.findings where finding.code != .opaque {
                var f = finding
                f.path = f.path ?? walk.shown(frameRel)
                if let i = merged.firstIndex(where: { $0.finding.code == f.code && $0.finding.message == f.message }) {
                    merged[i].count += 1
                } else {
                    merged.append((f, 1))
                }
            }
        }
        var findings = merged.map { m -> StickerFinding in
            var f = m.finding
            if m.count > 1 { f.message += " (\(m.count) frames)" }
            return f
        }
        var facts = first ?? StickerFacts(format: nil)
        facts.frames = present
        if present > 1 {
            let loop = seconds ?? fps.map { Double(present) / $0 }
            if let loop, loop > 0 { facts.setTiming(Array(repeating: loop / Double(present), count: present)) }
            facts.loopCount = repetitions.map { $0 == 0 ? 0 : $0 + 1 }
            findings += StickerChecker.animationFindings(facts, rules)
        }
        findings += StickerChecker.budgetFindings(total, rules)
        if transparent == false {
            findings.append(.init(.warning, .opaque, "opaque sticker (every frame is opaque): it shows as a rectangle on the conversation"))
        }
        if let g = gridFinding(facts, grid, path: walk.shown(rel)) { findings.append(g) }
        return StickerCheckReport(path: walk.shown(rel), bytes: total, facts: facts, transparent: transparent, findings: findings,
                                  accessibilityLabel: label, sequenceFrames: framePaths)
    }
}
