import Foundation

/// The preview page: every sticker at its grid size (CSS px = sticker px ÷ 3, as Messages shows
/// a 3× sticker) over each `PreviewBackground`, with name, size, bytes, frames and the budget
/// verdict from `StickerChecker`. The page is one self-contained HTML file that references the
/// sticker files copied beside it; `<img>` plays APNG and GIF (a sequence is shown as the APNG
/// made from its frames). Each background is one CSS class, so the photo is embedded once. When
/// every image has loaded, a script writes "ok N/N" (else "broken K/N") into the page's footer and
/// its `data-images` attribute, which headless tests read; the title stays the page's title.
public struct PreviewPage: Sendable {
    /// One sticker on the page.
    public struct Entry: Sendable {
        /// Shown name (the source file name).
        public var name: String
        /// URL of the copied file, relative to the page.
        public var href: String
        /// What `check` found about the file.
        public var report: StickerCheckReport
        /// Whether it is a sticker of a catalog, whose accessibility label (`report`'s) is shown.
        public var inCatalog: Bool

        /// An entry showing the file at `href` as `name`.
        public init(name: String, href: String, report: StickerCheckReport, inCatalog: Bool = false) {
            self.name = name
            self.href = href
            self.report = report
            self.inCatalog = inCatalog
        }
    }

    /// The page's heading.
    public var title: String
    /// The stickers, in page order.
    public var entries: [Entry]
    /// The budget the verdicts were reached with, stated on the page.
    public var maxBytes: Int

    /// A page titled `title` showing `entries`.
    public init(title: String, entries: [Entry], maxBytes: Int) {
        self.title = title
        self.entries = entries
        self.maxBytes = maxBytes
    }

    /// CSS pixel size of a sticker: its pixel size ÷ 3, at least 1.
    static func cssSize(_ px: Int?) -> Int { max(1, (px ?? 300) / 3) }

    /// HTML text with `&<>"'` escaped.
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    /// The page as one HTML document.
    public var html: String {
        let e = PreviewPage.escape
        var h = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>\(e(title))</title>
        <style>
        body { font: 13px -apple-system, system-ui, sans-serif; margin: 16px; background: #f4f4f4; color: #222; }
        h1 { font-size: 18px; }
        .sticker { background: #fff; border-radius: 8px; padding: 10px 12px; margin: 0 0 14px; box-shadow: 0 1px 2px #0002; }
        .facts { margin: 0 0 8px; }
        .facts b { font-size: 14px; }
        .verdict { display: inline-block; padding: 1px 6px; border-radius: 4px; font-weight: 600; }
        .v-ok { background: #d7f5dd; color: #0a6b22; }
        .v-warning { background: #fff0c2; color: #7a5600; }
        .v-error { background: #ffd6d3; color: #a4160c; }
        .findings { margin: 4px 0 8px 18px; padding: 0; }
        .row { display: flex; flex-wrap: nowrap; gap: 8px; overflow-x: auto; }
        .cell { flex: none; padding: 8px; border-radius: 6px; display: flex; flex-direction: column; align-items: center; }
        .cell span { font-size: 10px; margin-top: 4px; padding: 0 4px; background: #fffc; border-radius: 3px; color: #000; }
        .cell img { display: block; }
        .label { margin: 0 0 6px; color: #444; }
        footer { margin-top: 16px; color: #666; font-size: 11px; }
        \(PreviewBackground.allCases.map { ".bg-\($0.rawValue) { background: \($0.css); }" }.joined(separator: "\n"))
        </style>
        </head>
        <body>
        <h1>\(e(title))</h1>
        <p>\(entries.count) sticker\(entries.count == 1 ? "" : "s"), budget \(StickerChecker.grouped(maxBytes)) bytes.
        Shown at grid size (pixels ÷ 3) over the backgrounds Messages puts stickers on.</p>

        """
        for entry in entries {
            let r = entry.report
            let w = PreviewPage.cssSize(r.facts.width), ht = PreviewPage.cssSize(r.facts.height)
            let verdict = r.verdict == .error ? "error" : r.verdict == .warning ? "warning" : "ok"
            let fits = r.bytes <= maxBytes ? "within budget" : "over budget"
            let format = r.facts.format.map(e) ?? "unknown format"
            var facts = "<b>\(e(entry.name))</b> · " + (r.sequenceFrames == nil ? format : "sequence of \(format) frames")
            if let fw = r.facts.width, let fh = r.facts.height { facts += " · \(fw)×\(fh) px" }
            facts += " · \(StickerChecker.grouped(r.bytes)) bytes (\(fits))"
            facts += " · \(r.facts.frames) frame\(r.facts.frames == 1 ? "" : "s")"
            if let d = r.facts.durationMs { facts += String(format: " · %.2f s", d / 1000) }
            facts += " · <span class=\"verdict v-\(verdict)\">\(verdict)</span>"
            h += "<section class=\"sticker\">\n<p class=\"facts\">\(facts)</p>\n"
            if entry.inCatalog {
                h += "<p class=\"label\">" + (r.accessibilityLabel.map { "Accessibility label: “\(e($0))”" }
                    ?? "No accessibility label: VoiceOver reads the sticker's name") + "</p>\n"
            }
            let notes = r.findings.filter { $0.severity != .info }
            if !notes.isEmpty {
                h += "<ul class=\"findings\">\n"
                for f in notes { h += "<li>\(e(f.severity.rawValue)): \(e(f.message))</li>\n" }
                h += "</ul>\n"
            }
            h += "<div class=\"row\">\n"
            for bg in PreviewBackground.allCases {
                h += "<div class=\"cell bg-\(bg.rawValue)\">"
                h += "<img src=\"\(e(entry.href))\" width=\"\(w)\" height=\"\(ht)\" alt=\"\(e(r.accessibilityLabel ?? entry.name))\">"
                h += "<span>\(bg.rawValue)</span></div>\n"
            }
            h += "</div>\n</section>\n"
        }
        h += """
        <footer id="images">loading images…</footer>
        <script>
        function report() {
          var imgs = Array.prototype.slice.call(document.images);
          var ok = imgs.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length;
          var status = (ok === imgs.length ? "ok " : "broken ") + ok + "/" + imgs.length;
          document.body.setAttribute("data-images", status);
          document.getElementById("images").textContent = ok === imgs.length
            ? "All " + ok + " images loaded." : (imgs.length - ok) + " of " + imgs.length + " images did not load.";
        }
        window.addEventListener("load", report);
        </script>
        </body>
        </html>

        """
        return h
    }
}
