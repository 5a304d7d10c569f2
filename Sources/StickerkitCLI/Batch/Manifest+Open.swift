extension Manifest {
    /// Opens the folder at `path` that a run writes into (creating it when `create`), takes its
    /// lock (exclusive unless for a `shard`; waiting, with a note, while another run holds it),
    /// removes the temporary files killed runs left there when `sweepingTemporaries`, and reads
    /// its manifest. Each problem found in the manifest is a warning on `terminal`, returned as a
    /// notice for the report. `readOnly` (a dry run): the folder is not created, the lock is
    /// shared, and nothing in it is removed or moved.
    static func open(_ path: BytePath, create: Bool, shard: Shard?, sweepingTemporaries: Bool, readOnly: Bool = false,
                     terminal: Terminal) throws(FileError) -> (manifest: Manifest, notices: [Notice]) {
        let folder = try OutputFolder(path, create: create && !readOnly)
        let exclusive = shard == nil && !readOnly
        if !folder.lock(exclusive: exclusive, wait: false) {
            terminal.warning("\(path.display): note: waiting for another stickerkit run that writes here")
            _ = folder.lock(exclusive: exclusive, wait: true)
        }
        if sweepingTemporaries && !readOnly {
            let removed = folder.removeStaleTemporaries(noOtherWriter: exclusive)
            if !removed.isEmpty {
                terminal.note("\(path.display): note: removed \(removed.count) temporary file\(removed.count == 1 ? "" : "s") left by an interrupted run")
            }
        }
        let manifest = Manifest(folder: folder, shard: shard, movesAside: !readOnly)
        let notices = manifest.findings.map { Notice(folder.path($0.file), $0.problem.description) }
        for notice in notices { terminal.warning(notice.line) }
        return (manifest, notices)
    }
}
