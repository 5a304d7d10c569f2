import FuzzSupport
import StickerKit
import StickerPackaging

/// libFuzzer entry point: `stickerkit check` on arbitrary bytes — Messages' rules
/// (`StickerChecker`: the outline, and the pixels' transparency scan) and every platform's
/// (`PlatformChecker`: the image outlines and the WebM (EBML) reader). A check never fails: it
/// reports. Every finding must say something, and the report must count the file's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzHarness.bytes(data, size)
    var reports = [StickerChecker.check(bytes, path: "sticker.png")]
    for target in StickerTarget.all {
        reports.append(PlatformChecker.check(bytes, path: "sticker", target: target))
    }
    for report in reports {
        if report.bytes != bytes.count { fatalError("report counts \(report.bytes) bytes of \(bytes.count)") }
        if report.findings.contains(where: { $0.message.isEmpty }) { fatalError("a finding without a message") }
    }
    return 0
}

/// The process entry point SwiftPM links as `main`; runs libFuzzer's driver on `fuzz`.
@_cdecl("FuzzCheck_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv, fuzz)
}
