import MachineModel

/// Input sequences from the initial state that together take every transition of a machine: for each
/// edge not yet taken (in edge order), the shortest path to its source followed by the edge. Each
/// sequence starts afresh from the initial state, so each one is a test of its own.
public struct TransitionCover: Hashable, Sendable {
    /// One sequence: its steps, and the indices (into `Machine.edges`) of the edges it takes.
    public struct Sequence: Hashable, Sendable {
        public var steps: [TraceStep]
        public var edges: [Int]
    }

    public var sequences: [Sequence]
    /// Edges (indices into `Machine.edges`) whose source no input sequence reaches.
    public var unreachable: [Int]
    /// Edges the cover is about: every edge that changes something (no-op self-loops are left out).
    public var covered: Int

    /// A step is marked `by: .effect` when its input is internal and an effect started by an earlier
    /// step of the same sequence sends it; otherwise the test sends it itself.
    public init(machine: Machine) {
        let relevant = machine.edges.indices.filter { !machine.edges[$0].noop }
        let graph = Graph(machine: machine)
        var index: [Edge: Int] = [:]
        for i in machine.edges.indices where index[machine.edges[i]] == nil { index[machine.edges[i]] = i }
        func steps(_ path: [Edge]) -> [TraceStep] {
            Self.markEffectSteps(path.map { TraceStep(input: $0.input, trigger: $0.trigger, state: $0.to) }, in: machine)
        }
        var taken = Set<Int>()
        var sequences: [Sequence] = []
        var unreachable: [Int] = []
        for i in relevant where !taken.contains(i) {
            let edge = machine.edges[i]
            guard let head = graph.edges(to: edge.from) else {
                unreachable.append(i)
                continue
            }
            let path = head + [edge]
            let ids = path.compactMap { index[$0] }
            taken.formUnion(ids)
            sequences.append(Sequence(steps: steps(path), edges: ids))
        }
        self.sequences = sequences
        self.unreachable = unreachable
        self.covered = relevant.count - unreachable.count
    }

    /// Marks `by: .effect` the steps of a trace whose input is internal and was sent by an effect that
    /// an earlier step started (a `once` effect delivers once, a `stream` again and again). Steps
    /// already marked stay marked.
    public static func markEffectSteps(_ trace: [TraceStep], in machine: Machine) -> [TraceStep] {
        let internalInputs = Set(machine.internalInputs)
        let rules = Dictionary(machine.rules.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var inFlight: [String: Int] = [:]
        var from = machine.initial
        return trace.map { step in
            var step = step
            if internalInputs.contains(step.input), let n = inFlight[step.input], n > 0 {
                step.by = .effect
                inFlight[step.input] = n - 1
            }
            let edge = machine.edges.first { $0.from == from && $0.input == step.input && $0.to == step.state && $0.trigger == step.trigger }
                ?? machine.edges.first { $0.from == from && $0.input == step.input && $0.to == step.state }
            if let edge {
                for effect in (rules[edge.rule]?.outcomes(for: edge) ?? []).compactMap(\.effect) {
                    for sent in effect.emits { inFlight[sent, default: 0] += effect.kind == .stream ? Int.max / 2 : 1 }
                }
            }
            from = step.state
            return step
        }
    }
}
