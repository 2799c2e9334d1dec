import MachineModel

/// What to say about one edge, taken from the branches of its rule that produce it (never from the
/// rule as a whole: a `guard … else { return .none }` branch of a rule that runs an effect elsewhere
/// runs none): the trigger (input, or the narrower case pattern), the guard, the effect and what it
/// cancels. DOT, Mermaid (through DOT's edges) and Markdown label edges from this alone, so
/// diagrams, tables and the JSON `noop` flag agree; `RendererAgreementTests` checks it.
public struct EdgeDescription: Sendable {
    public var trigger: String
    public var guardText: String?
    public var effect: Effect?
    public var cancels: [String]
    public var implicit: Bool

    public init(edge: Edge, rule: Rule?) {
        trigger = edge.input == "*" ? rule?.trigger ?? "(no input)" : edge.trigger
        (guardText, effect, cancels) = rule?.branches(behind: edge) ?? (nil, nil, [])
        implicit = rule?.implicit ?? false
    }

    /// One description per branch when the branches behind the edge differ in what they start or cancel
    /// (`Edge.branches`: `return ok ? .redial : .none`), else the edge's one.
    public static func perBranch(edge: Edge, rule: Rule?) -> [EdgeDescription] {
        let whole = EdgeDescription(edge: edge, rule: rule)
        guard let branches = edge.branches, branches.count > 1 else { return [whole] }
        return branches.map { b in
            var d = whole
            (d.guardText, d.effect, d.cancels) = (b.guardText, b.effect, b.cancels ?? [])
            return d
        }
    }

    /// Whether the edge starts or cancels anything.
    public var acts: Bool { effect != nil || !cancels.isEmpty }

    /// `label, on queue (policy), id x` — or `effect` when the effect has none of these — with the
    /// label shortened to `labelLimit` characters; nil without an effect.
    public func effectText(labelLimit: Int? = nil) -> String? {
        guard let effect else { return nil }
        var bits: [String] = []
        if let l = effect.label { bits.append(labelLimit.map { Self.abbreviate(l, $0) } ?? l) }
        if let q = effect.queue { bits.append("on \(q)" + (effect.policy.map { " (\($0))" } ?? "")) }
        // (parts run under ids of their own: `.merge(a.cancellable(id: A.match), b.cancellable(id: A.eta))`
        // says both; an id only some parts run under is said so)
        let parts = effect.components
        let ids = parts.compactMap(\.id).uniqued()
        if parts.count > 1, ids.count > 1 {
            bits.append("ids \(ids.joined(separator: ", "))")
        } else if parts.count > 1, let id = ids.first, parts.contains(where: { $0.id == nil }) {
            bits.append("id \(id) (one part)")
        } else if let id = effect.id {
            bits.append("id \(id)")
        }
        return bits.isEmpty ? "effect" : bits.joined(separator: ", ")
    }

    /// The inputs the effect sends back.
    public var sends: [String] { effect?.emits ?? [] }

    static func abbreviate(_ s: String, _ n: Int) -> String {
        s.count <= n ? s : String(s.prefix(n - 1)) + "…"
    }
}
