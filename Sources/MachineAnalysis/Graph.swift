import MachineModel

/// Adjacency of a machine's edges, with shortest input sequences from the initial state.
public struct Graph: Sendable {
    /// Edges leaving each state, in rule order.
    public let outgoing: [String: [Edge]]
    /// Number of inputs on the shortest path from the initial state (absent: unreachable).
    public let distance: [String: Int]
    /// The edge by which the shortest path enters each state.
    let parent: [String: Edge]
    /// States that have a rule whose target is computed at run time.
    public let unknownTargetFrom: Set<String>
    /// A reachable state leads to a run-time-computed target: every state may be reachable.
    public let anyTargetReachable: Bool

    public init(machine: Machine, anyTargetFrom: Set<String> = []) {
        var outgoing: [String: [Edge]] = [:]
        for edge in machine.edges { outgoing[edge.from, default: []].append(edge) }
        self.outgoing = outgoing
        self.unknownTargetFrom = anyTargetFrom
        var distance: [String: Int] = [:]
        var parent: [String: Edge] = [:]
        if let initial = machine.initial {
            distance[initial] = 0
            var queue = [initial]
            var head = 0
            while head < queue.count {
                let state = queue[head]
                head += 1
                for edge in outgoing[state] ?? [] where distance[edge.to] == nil {
                    distance[edge.to] = distance[state]! + 1
                    parent[edge.to] = edge
                    queue.append(edge.to)
                }
            }
        }
        self.distance = distance
        self.parent = parent
        self.anyTargetReachable = anyTargetFrom.contains { distance[$0] != nil }
    }

    /// The shortest sequence of steps from the initial state to `state`, or nil when unreachable.
    public func trace(to state: String) -> [TraceStep]? {
        edges(to: state)?.map { TraceStep(input: $0.input, trigger: $0.trigger, state: $0.to) }
    }

    /// The edges of the shortest path from the initial state to `state`, or nil when unreachable.
    public func edges(to state: String) -> [Edge]? {
        guard distance[state] != nil else { return nil }
        var path: [Edge] = []
        var current = state
        while let edge = parent[current] {
            path.append(edge)
            current = edge.from
        }
        return path.reversed()
    }

    /// The trace to `pair.from` followed by the pair's input (the step stays in `from` unless one
    /// of the pair's edges leaves it).
    public func trace(through pair: Pair) -> [TraceStep]? {
        guard let head = trace(to: pair.from) else { return nil }
        let edge = (outgoing[pair.from] ?? []).first { $0.input == pair.input && $0.to != pair.from }
            ?? (outgoing[pair.from] ?? []).first { $0.input == pair.input }
        return head + [TraceStep(input: pair.input, trigger: edge?.trigger, state: edge?.to ?? pair.from)]
    }
}
