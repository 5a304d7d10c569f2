import StickerKit

extension BatchReport {
    /// One output of one input file: `{"path", "size", "status", "reason"?, "details"?}`.
    struct Output: Encodable, Sendable {
        var path: String
        var size: StickerSize
        var status: OutputStatus
        /// What was chosen, for a written sticker.
        var details: OutputReport?
        /// What `size` says instead of the size's name: a platform run's one size
        /// (`StickerTarget.sizeName`).
        var sizeLabel: String? = nil

        init(path: String, size: StickerSize, status: OutputStatus, details: OutputReport? = nil) {
            self.path = path
            self.size = size
            self.status = status
            self.details = details
        }

        private enum CodingKeys: String, CodingKey { case path, size, status, reason, details }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(path, forKey: .path)
            try c.encode(sizeLabel ?? size.rawValue, forKey: .size)
            try c.encode(status.status, forKey: .status)
            try c.encodeIfPresent(status.reason, forKey: .reason)
            try c.encodeIfPresent(details, forKey: .details)
        }
    }
}
