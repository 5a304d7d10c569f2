import ImageCore
import StickerKit

/// Checks of the paths a batch will write, made before anything is converted: a problem with
/// `-o` or `--report` is one usage error (exit 2, `PATH: error: FLAG: WHAT`) instead of one
/// failure per input after the work is done. Nothing is created here.
enum PathChecks {
    /// Problems with the output folder: a file in its place, or a folder that cannot be written
    /// (or created), or a folder that is also an input folder.
    static func checkOutputFolder(_ output: BytePath, inputs: [BytePath]) throws {
        let flag = "-o"
        if let s = try status(output) {
            guard s.kind == .directory else { throw CommandFailure.usage(output.display, "\(flag): is \(s.kind.noun), not a folder") }
            if let code = FileSystem.writeAccessError(output) {
                throw CommandFailure.usage(output.display, "\(flag): cannot write there: \(FileError.Problem.system(code))")
            }
            for input in inputs where (try? FileStatus.of(input))?.id == s.id {
                throw CommandFailure.usage(output.display, "\(flag): is also an input folder, so its stickers would be read back as artwork; "
                    + "write them elsewhere (e.g. -o \(output.appending("stickers").display))")
            }
        } else if try status(output, followingLinks: false)?.kind == .symbolicLink {
            throw CommandFailure.usage(output.display, "\(flag): \(FileError.Problem.brokenLink)")
        } else {
            try checkCreatable(output, flag: flag)
        }
    }

    /// An icon image inside the icon set `iconSet` it would make: the set is replaced whole, and
    /// an input is never written or removed, whatever the flags.
    static func checkImage(_ image: String, outside iconSet: String, flag: String) throws {
        let path = CommandLineBytes.path(for: image)
        let folder = path.parent.isEmpty ? BytePath(".") : path.parent
        guard let set = (try? FileStatus.of(CommandLineBytes.path(for: iconSet))) ?? nil, set.kind == .directory,
              let holder = (try? FileStatus.of(folder)) ?? nil, holder.id == set.id else { return }
        throw CommandFailure.usage(path.display, "\(flag): is inside the icon set it would replace; copy the image elsewhere first")
    }

    /// Problems with the report path: a link, a folder, a file that is not an earlier report, an
    /// input, a path inside the output folder that a sticker or the manifest takes, or a folder
    /// that cannot be written.
    static func checkReport(_ report: BytePath, inputs: [InputFile], outputFolder: BytePath) throws {
        let flag = "--report"
        if let own = try status(report, followingLinks: false) {
            switch own.kind {
            case .regular: break
            case .symbolicLink: throw CommandFailure.usage(report.display, "\(flag): is a symbolic link; name the file itself (stickerkit does not write through links), or --report - for standard output")
            case .directory: throw CommandFailure.usage(report.display, "\(flag): is a folder; name a file, e.g. \(report.appending("report.json").display)")
            default: throw CommandFailure.usage(report.display, "\(flag): is \(own.kind.noun), not a file")
            }
            if inputs.contains(where: { $0.id == own.id }) {
                throw CommandFailure.usage(report.display, "\(flag): is an input; writing the report there would destroy it")
            }
            let isReport = BatchReport.isReport(at: report, size: own.bytes)
            if !isReport {
                throw CommandFailure.usage(report.display, "\(flag): exists and is not a stickerkit report; choose another name, or remove it first")
            }
            if let code = FileSystem.writeAccessError(report.parent.isEmpty ? BytePath(".") : report.parent) {
                throw CommandFailure.usage(report.display, "\(flag): cannot write there: \(FileError.Problem.system(code))")
            }
        } else {
            try checkCreatable(report, flag: flag)
        }
        let inOutput = BatchRunner.absolute(report).relative(to: BatchRunner.absolute(outputFolder))
        if let inside = inOutput, Manifest.isManifestName(inside) {
            throw CommandFailure.usage(report.display, "\(flag): is where stickerkit keeps its manifest; choose another name")
        }
    }

    /// Whether the report path is one of the stickers of `plan` (found once the outputs are
    /// named).
    static func checkReport(_ report: BytePath, against plan: OutputPlan, inputs: [InputFile], outputFolder: BytePath) throws {
        guard let inside = BatchRunner.absolute(report).relative(to: BatchRunner.absolute(outputFolder)) else { return }
        for input in inputs {
            for size in plan.sizes where plan.relativePath(for: input, size: size) == inside {
                throw CommandFailure.usage(report.display, "--report: is where the sticker of \(input.shown.display) goes; choose another name")
            }
        }
    }

    /// The bytes of one file the command line names besides the inputs (a labels file, an icon
    /// image), or why it cannot be read — in the words input discovery uses — as a failure about
    /// `path` of `kind`. With `limits`, an image whose size alone passes `limits.maxMemory` is
    /// refused before it is read (`StickerConverter.checkFileSize`).
    static func readFile(_ path: BytePath, failing kind: CommandFailure.Kind, limits: Limits? = nil) throws(CommandFailure) -> [UInt8] {
        let subject = path.display
        let status: FileStatus?
        do { status = try FileStatus.of(path) } catch {
            throw CommandFailure(kind: kind, subject: subject, message: error.problem.description)
        }
        guard let status else {
            let link = (try? FileStatus.of(path, followingLinks: false))?.kind == .symbolicLink
            throw CommandFailure(kind: kind, subject: subject,
                                 message: link ? FileError.Problem.brokenLink.description : InputDiscovery.noSuchInput)
        }
        switch status.kind {
        case .regular: break
        case .directory: throw CommandFailure(kind: kind, subject: subject, message: "is a folder, not a file")
        default: throw CommandFailure(kind: kind, subject: subject, message: FileError.Problem.notARegularFile(status.kind).description)
        }
        if let limits {
            do { try StickerConverter.checkFileSize(status.bytes, head: FileSystem.readHead(path, count: 64) ?? [], limits: limits) } catch {
                throw CommandFailure(kind: kind, subject: subject, message: "\(error)")
            }
        }
        do { return try FileSystem.readFile(path) } catch {
            throw CommandFailure(kind: kind, subject: subject, message: "cannot be read: \(error.problem)")
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
                    throw CommandFailure.usage(path.display, "\(flag): cannot be created: \(dir.display) is \(s.kind.noun), not a folder")
                }
                if let code = FileSystem.writeAccessError(dir) {
                    throw CommandFailure.usage(path.display, "\(flag): cannot be created in \(dir.display): \(FileError.Problem.system(code))")
                }
                return
            }
            if ancestor.isEmpty || ancestor.bytes == [BytePath.slash] { return }
            ancestor = ancestor.parent
        }
    }

    private static func status(_ path: BytePath, followingLinks: Bool = true) throws -> FileStatus? {
        do { return try FileStatus.of(path, followingLinks: followingLinks) } catch {
            throw CommandFailure.usage(path.display, "\(error.problem)")
        }
    }
}
