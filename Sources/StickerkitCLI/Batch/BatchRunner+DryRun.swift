import StickerKit
import StickerPackaging

extension BatchRunner {
    /// What `run` (and, with `prune`, `prune`) would do in the output folder, without converting
    /// or changing anything, as if every conversion that passes `StickerConverter.preflight`
    /// succeeded: each input that would fail before decoding, each output's verdict
    /// (`Ownership`), the stickers its new ones would supersede, and with `prune` the stickers
    /// `prune` would remove. The runner must have been made with `Settings.dryRun` (the folder
    /// opened read only); a folder that does not exist yet is empty.
    func dryRun(_ inputs: [InputFile], plan: OutputPlan, prune: Bool, unreadable: [BytePath]) -> DryRunOutcome {
        var outcome = DryRunOutcome()
        let manifest = try? opened.get()
        let ownership = manifest.map {
            Ownership(manifest: $0, force: settings.force, overwrite: settings.overwrite,
                      inputs: Set(inputs.compactMap(\.id) + plan.inputs.compactMap(\.id)))
        }
        let earlier = manifest.map { Dictionary(grouping: $0.records.values, by: \.input) } ?? [:]
        var settled = Set<BytePath>()
        func shown(_ relative: BytePath) -> String { settings.output.appending(relative).display }
        for input in inputs {
            if let message = plan.renameMessage(input) { terminal.warning("\(input.shown.display): warning: \(message)") }
            let absoluteInput = Self.absolute(input)
            let reader = InputReader(input, limits: settings.options.limits)
            // The sizes it would make a sticker at (written, or up to date), and the lines of
            // those it would write.
            var sizes = Set<StickerSize>()
            var writes: [(size: StickerSize, line: String)] = []
            for size in settings.options.sizes {
                let relative = plan.relativePath(for: input, size: size)
                let key = settingsKey(size)
                let verdict = ownership?.verdict(for: relative, input: absoluteInput, settings: key, inputFingerprint: reader.fingerprint,
                                                 inEntry: input.entry != nil, inputDigest: reader.sha256) ?? .create
                switch verdict {
                case .create:
                    writes.append((size, "\(shown(relative)): would be written (new)"))
                case .redo(let r):
                    writes.append((size, "\(shown(relative)): would be written again (\(Self.redoReason(r, input: absoluteInput, settings: key, force: settings.force)))"))
                case .adoptIfIdentical:
                    writes.append((size, "\(shown(relative)): would be written if the file there is the new sticker's bytes, else left "
                                   + "(the manifest may be incomplete)"))
                case .replaceTheirs:
                    writes.append((size, "\(shown(relative)): would be replaced (--overwrite): not written by stickerkit, or changed since"))
                case .upToDate:
                    sizes.insert(size)
                    outcome.upToDate += 1
                    if settings.verbose { outcome.lines.append("\(shown(relative)): up to date") }
                case .keep(let reason):
                    outcome.kept += 1
                    outcome.lines.append("\(shown(relative)): would not be written: it \(reason)")
                case .refuse(let reason):
                    outcome.failed += 1
                    outcome.lines.append("\(shown(relative)): cannot be written: \(reason)")
                }
            }
            if !writes.isEmpty {
                // What the conversion would refuse before decoding, the run's first step for it.
                var options = settings.options
                options.sizes = writes.map(\.size)
                if let problem = Self.refusal(reader, options: options) {
                    outcome.failed += writes.count
                    outcome.lines.append("\(input.shown.display): would fail: \(problem)")
                } else {
                    outcome.written += writes.count
                    outcome.lines += writes.map(\.line)
                    sizes.formUnion(writes.map(\.size))
                }
            }
            if sizes.count == settings.options.sizes.count { settled.insert(absoluteInput) }
            guard let manifest else { continue }
            for r in superseded(earlier[absoluteInput] ?? [], of: input, sizes: sizes, plan: plan)
            where (try? manifest.isRemovable(r.output)) == true {
                outcome.removed += 1
                outcome.lines.append("\(shown(r.output)): would be removed: superseded by \(shown(plan.relativePath(for: input, size: r.size!)))")
            }
        }
        if prune {
            for r in removableOrphans(plan: plan, unreadable: unreadable, settled: settled) {
                outcome.removed += 1
                outcome.lines.append("\(shown(r.output)): would be removed (--prune): made from \(r.input.display), \(Self.pruneReason(r, settled: settled))")
            }
        }
        return outcome
    }

    /// Why the conversion of the input `reader` reads would fail before decoding a pixel (its
    /// bytes unreadable, or refused by `StickerConverter.preflight`), or nil.
    static func refusal(_ reader: InputReader, options: ConversionOptions) -> String? {
        guard let bytes = reader.read() else { return reader.failure }
        do {
            try StickerConverter.preflight(bytes, options: options)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Why a sticker of ours would be made again: `--force`, another input's, other settings
    /// (or another version of stickerkit), or its input changed.
    static func redoReason(_ r: ManifestRecord, input: BytePath, settings: String, force: Bool) -> String {
        if force { return "--force" }
        if r.input != input { return "made from another input" }
        if r.settings != settings {
            let withoutVersion: (String) -> Substring = { $0.drop { $0 != " " } }
            return withoutVersion(r.settings) == withoutVersion(settings) ? "made by another version of stickerkit" : "made with other settings"
        }
        return r.version == ManifestRecord.currentVersion ? "its input changed" : "recorded by an earlier version of stickerkit"
    }
}
