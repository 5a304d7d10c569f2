import FuzzSupport
import StickerKit
import StickerPackaging

/// libFuzzer entry point: `stickerkit check` on arbitrary bytes — Messages' rules
/// (`StickerChecker`: the outline, and the pixels' transparency scan), every platform's
/// (`PlatformChecker`: the image outlines and the WebM (EBML) reader; as stickers and as pack
/// pictures), a WhatsApp pack's
/// (`WastickersChecker`: the ZIP reader, inflate and CRC, each entry checked) and a LINE set's
/// (`LineSetChecker`: the same reader, LINE's pack pictures and set rules). A check never
/// fails: it reports. Every finding must say something, the report must count the file's bytes,
/// and a pack's entries must be named inside it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzHarness.bytes(data, size)
    var reports = [StickerChecker.check(bytes, path: "sticker.png")]
    for target in StickerTarget.all {
        reports.append(PlatformChecker.check(bytes, path: "sticker", target: target))
        // Under each name of its pack pictures (a still's, a video's: Telegram's thumbnail.webm).
        for icon in target.packIcons {
            for name in target.fileNames(of: icon) { reports.append(PlatformChecker.check(bytes, path: name, target: target)) }
        }
    }
    for report in reports {
        if report.bytes != bytes.count { fatalError("report counts \(report.bytes) bytes of \(bytes.count)") }
        if report.findings.contains(where: { $0.message.isEmpty }) { fatalError("a finding without a message") }
    }
    let pack = WastickersChecker.check(bytes, path: "p.wastickers")
    if pack.allFindings.contains(where: { $0.message.isEmpty }) { fatalError("a pack finding without a message") }
    // By bytes: a name opening with a combining mark joins the "/" into one Character.
    if let outside = (pack.stickers + (pack.tray.map { [$0] } ?? [])).first(where: { !$0.path.utf8.starts(with: "p.wastickers/".utf8) }) {
        fatalError("an entry named outside its pack: \(outside.path)")
    }
    if pack.stickers.count > WastickersChecker.maxEntries { fatalError("\(pack.stickers.count) stickers read") }
    let set = LineSetChecker.check(bytes, path: "s.zip")
    if set.allFindings.contains(where: { $0.message.isEmpty }) { fatalError("a LINE set finding without a message") }
    if let outside = (set.stickers + set.pictures).first(where: { !$0.path.utf8.starts(with: "s.zip/".utf8) }) {
        fatalError("an entry named outside its set: \(outside.path)")
    }
    if set.stickers.count + set.pictures.count > LineSetChecker.maxEntries { fatalError("\(set.stickers.count) stickers read") }
    return 0
}

/// The process entry point SwiftPM links as `main`; runs libFuzzer's driver on `fuzz`.
@_cdecl("FuzzCheck_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv, fuzz)
}
