import ArgumentParser

/// Checks of the paths a batch will write, made before anything is converted: a problem with
/// `-o` or `--report` is one usage error (exit 2) instead of one failure per input after the
/// work is done. Nothing is created here.
enum PathChecks {
    /// Problems with the output folder: a file in its place, or a folder that cannot be written
    /// (or created), or a folder that is also an input folder.
    static func checkOutputFolder(_ output: BytePath, inputs: [BytePath]) throws {
        let flag = "-o \(output.display)"
        if let s = try status(output) {
            guard s.kind == .directory else { throw ValidationError("\(flag): is \(s.kind.noun), not a folder") }
            if let code = FileSystem.writeAccessError(output) {
                throw ValidationError("\(flag): cannot write there: \(FileError.Problem.system(code))")
            }
            for input in inputs where (try? FileStatus.of(input))?.id == s.id {
                throw ValidationError("\(flag): is also an input folder, so its stickers would be read back as artwork; "
                    + "write them elsewhere (e.g. -o \(output.appending("stickers").display))")
            }
        } else if try status(output, followingLinks: false)?.kind == .symbolicLink {
            throw ValidationError("\(flag): \(FileError.Problem.brokenLink)")
        } else {
            try checkCreatable(output, flag: flag)
        }
    }

    /// Problems with the report path: a link, a folder, a file that is not an earlier report, an
    /// input, a path inside the output folder that a sticker or the manifest takes, or a folder
    /// that cannot be written.
    static func checkReport(_ report: BytePath, inputs: [InputFile], outputFolder: BytePath) throws {
        let flag = "--report \(report.display)"
        if let own = try status(report, followingLinks: false) {
            switch own.kind {
            case .regular: break
            case .symbolicLink: throw ValidationError("\(flag): is a symbolic link; name the file itself (stickerkit does not write through links)")
            case .directory: throw ValidationError("\(flag): is a folder; name a file, e.g. \(report.appending("report.json").display)")
            default: throw ValidationError("\(flag): is \(own.kind.noun), not a file")
            }
            if inputs.contains(where: { $0.id == own.id }) {
                throw ValidationError("\(flag): is an input; writing the report there would destroy it")
            }
            let isReport = (try? FileSystem.readFile(report)).map(BatchReport.isReport) ?? false
            if !isReport {
                throw ValidationError("\(flag): exists and is not a stickerkit report; choose another name, or remove it first")
            }
            if let code = FileSystem.writeAccessError(report.parent.isEmpty ? BytePath(".") : report.parent) {
                throw ValidationError("\(flag): cannot write there: \(FileError.Problem.system(code))")
            }
        } else {
            try checkCreatable(report, flag: flag)
        }
        let inOutput = BatchRunner.absolute(report).relative(to: BatchRunner.absolute(outputFolder))
        if let inside = inOutput, Manifest.isManifestName(inside) {
            throw ValidationError("\(flag): is where stickerkit keeps its manifest; choose another name")
        }
    }

    /// Whether the report path is one of the stickers of `plan` (found once the outputs are
    /// named).
    static func checkReport(_ report: BytePath, against plan: OutputPlan, inputs: [InputFile], outputFolder: BytePath) throws {
        guard let inside = BatchRunner.absolute(report).relative(to: BatchRunner.absolute(outputFolder)) else { return }
        for input in inputs {
            for size in plan.sizes where plan.relativePath(for: input, size: size) == inside {
                throw ValidationError("--report \(report.display): is where the sticker of \(input.location.display) goes; choose another name")
            }
        }
    }

    /// A missing path can be created: its nearest existing ancestor is a folder that can be
    /// written.
    private static func checkCreatable(_ path: BytePath, flag: String) throws {
        var ancestor = path.parent
        while true {
            let dir = ancestor.isEmpty ? BytePath(".") : ancestor
            if let s = try status(dir) {
                guard s.kind == .directory else {
                    throw ValidationError("\(flag): cannot be created: \(dir.display) is \(s.kind.noun), not a folder")
                }
                if let code = FileSystem.writeAccessError(dir) {
                    throw ValidationError("\(flag): cannot be created in \(dir.display): \(FileError.Problem.system(code))")
                }
                return
            }
            if ancestor.isEmpty || ancestor.bytes == [BytePath.slash] { return }
            ancestor = ancestor.parent
        }
    }

    private static func status(_ path: BytePath, followingLinks: Bool = true) throws -> FileStatus? {
        do { return try FileStatus.of(path, followingLinks: followingLinks) } catch {
            throw ValidationError("\(path.display): \(error.problem)")
        }
    }
}
