extension AnimationBudget {
    /// A candidate: colour count and frame-rate step (every `step`-th frame kept).
    struct Setting: Hashable {
        var colors: Int
        var step: Int
    }
}
