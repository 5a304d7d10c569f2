/// The byte budget a sticker file is held to.
public enum ByteBudget {
    /// Messages refuses a sticker file over 500,000 bytes: the default budget of a conversion
    /// (`ConversionOptions.maxBytes`) and of a check (`CheckRules.maxBytes`).
    public static let messages = 500_000
}
