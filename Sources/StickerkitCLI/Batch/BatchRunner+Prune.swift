import StickerPackaging

extension BatchRunner {
    /// `resize --prune`: removes the stickers of ours in the output folder that this run did not
    /// make: those of inputs not given this time (a record whose input the plan does not name),
    /// and those of inputs that made every sticker asked of them (`settled`) at a path this run
    /// does not write (another size, layout or app: `a.png` of a `--size small` run once the
    /// folder is `--size all`'s `small/a.png`, …). Each is still exactly as written; one edited
    /// since is the user's and stays. Stickers of an input named but missing,
    /// or below a folder or archive that could not be read (`unreadable`), or of an archive's
    /// entry where the archive is given (one that is no archive now fails as an image) stay:
    /// their inputs failed, they are not gone. Pack pictures (`icons --platform`) are not
    /// stickers and stay. A folder below the output folder left empty goes too.
    /// Returns how many were removed, and one notice per sticker removed or that could not be.
    func prune(plan: OutputPlan, unreadable: [BytePath], settled: Set<BytePath>) -> (removed: Int, notices: [Notice]) {
        guard case .success(let manifest) = opened else { return (0, []) }
        var notices: [Notice] = []
        var removed = 0
        for r in orphans(plan: plan, unreadable: unreadable, settled: settled) {
            let path = settings.output.appending(r.output)
            do throws(FileError) {
                guard try manifest.removeOwn(r.output) else { continue }
                // A size or sub folder left empty goes with its last sticker.
                manifest.folder.removeEmptyFolders(from: r.output.parent)
                removed += 1
                notices.append(Notice(path, "removed (--prune): made from \(r.input.display), \(Self.pruneReason(r, settled: settled))"))
            } catch {
                notices.append(Notice(path, "not removed (--prune): \(error.problem)"))
            }
        }
        for n in notices { terminal.warning(n.line) }
        return (removed, notices)
    }

    /// The `orphans` that `prune` would remove now: each still exactly the file recorded (an
    /// edited one stays, so it is not counted as one `--prune` removes).
    func removableOrphans(plan: OutputPlan, unreadable: [BytePath], settled: Set<BytePath>) -> [ManifestRecord] {
        guard case .success(let manifest) = opened else { return [] }
        return orphans(plan: plan, unreadable: unreadable, settled: settled).filter { (try? manifest.isRemovable($0.output)) == true }
    }

    /// Why `prune` removes the sticker of `r`: its input was not given, or it is not one of the
    /// stickers its input (`settled`) made this time.
    static func pruneReason(_ r: ManifestRecord, settled: Set<BytePath>) -> String {
        settled.contains(r.input) ? "not one of its stickers this time (another size, layout or app)" : "an input not given this time"
    }

    /// The records of the stickers `prune` would remove (before checking their bytes), by output.
    /// `settled`: the inputs (as the manifest names them, `absolute`) that made every sticker
    /// asked of them this run; their records at paths the plan does not name are stale.
    func orphans(plan: OutputPlan, unreadable: [BytePath], settled: Set<BytePath>) -> [ManifestRecord] {
        guard case .success(let manifest) = opened else { return [] }
        let kept = Set(plan.inputs.map { Self.absolute($0) } + unreadable.map { Self.absolute($0) })
        func given(_ input: BytePath) -> Bool {
            var path = input
            while true {
                if kept.contains(path) { return true }
                let parent = path.parent
                if parent == path || parent.bytes.isEmpty { return false }
                path = parent
            }
        }
        return manifest.records.values.filter { r in
            r.name != nil && (!given(r.input) || (settled.contains(r.input) && !plan.isPlanned(r.output)))
        }.sorted { $0.output < $1.output }
    }
}
