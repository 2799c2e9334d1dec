import MachineModel

/// What to say about one edge, taken from the branches of its rule that produce it: the trigger
/// (input, or the narrower case pattern), the guard, the effect and what it cancels. Every renderer
/// labels edges from this, so diagrams, tables and reports agree.
public struct EdgeDescription: Sendable {
    public var trigger: String
    public var guardText: String?
    public var effect: Effect?
    public var cancels: [String]
    public var implicit: Bool

    public init(edge: Edge, rule: Rule?) {
        let outcomes = rule?.outcomes(for: edge) ?? []
        trigger = edge.input == "*" ? rule?.trigger ?? "(no input)" : edge.trigger
        let guards = outcomes.compactMap(\.guardText).uniqued()
        guardText = rule?.guardText ?? (guards.isEmpty ? nil : guards.joined(separator: " || "))
        var effect: Effect?
        for e in outcomes.compactMap(\.effect) { effect = effect.map { $0.merged(with: e) } ?? e }
        self.effect = effect
        cancels = outcomes.flatMap(\.cancels).uniqued()
        implicit = rule?.implicit ?? false
    }
}
