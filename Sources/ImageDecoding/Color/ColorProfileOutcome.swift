/// What applying an embedded colour profile did to the pixels, with the note for the user.
enum ColorProfileOutcome: Equatable {
    /// The profile behaves like sRGB: nothing to do, nothing to say.
    case unchanged
    /// The pixels were converted to sRGB.
    case converted(note: String)
    /// The profile could not be used (broken, or for another colour space): the pixels are as
    /// stored, used as sRGB.
    case ignored(note: String)

    var note: String? {
        switch self {
        case .unchanged: nil
        case .converted(let note), .ignored(let note): note
        }
    }
}
