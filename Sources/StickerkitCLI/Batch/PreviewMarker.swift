/// The file `preview` leaves in every folder it writes, so that a later batch never takes the
/// preview's copies of stickers as artwork (`InputDiscovery`). Empty; hidden.
enum PreviewMarker {
    static let fileName = ".stickerkit-preview"
}
