import MachineModel

/// Explores the reachable combinations of a struct state's machine fields breadth-first from their
/// initial values, and checks invariants on each. The result is a `Machine` whose states are the
/// reachable combinations (`phase=loading, isLoading=true`), so it can be drawn and traced like any other.
public struct ProductExplorer: Sendable {
    /// Most combinations explored; hitting it is said in `budgetMessage`, never a silent cut.
    public var budget: Int

    public static let defaultBudget = 10_000

    public init(budget: Int = ProductExplorer.defaultBudget) {
        self.budget = budget
    }

    public struct Result: Sendable {
        /// The reachable product: states are combinations, edges the transitions between them.
        public var machine: Machine
        /// `invariant_violation` findings, one per invariant that fails, with the shortest trace.
        public var findings: [Finding]
        /// Set when the budget stopped the exploration: what was and was not explored.
        public var budgetMessage: String?
        /// Why nothing could be explored (a field without an initial value), if so.
        public var unexplored: String?
        /// Each state's field values (`machine.states` order).
        public var values: [[String: String]] = []
    }

    public func explore(_ product: ProductMachine, invariants: [Invariant]) -> Result {
        var machine = Machine(name: product.name, dialect: product.dialect, location: product.location, states: [],
                              inputs: product.inputs, initial: nil, rules: [], order: .resolved)
        let missing = product.fields.filter { $0.initial == nil }.map(\.name)
        guard missing.isEmpty else {
            return Result(machine: machine, findings: [], budgetMessage: nil,
                          unexplored: "no initial value known for \(missing.joined(separator: ", ")) (give the field a default value or pass it where the store is created)")
        }
        let start = Dictionary(product.fields.map { ($0.name, $0.initial!) }, uniquingKeysWith: { first, _ in first })
        let startName = product.stateName(start)
        var names = [startName]
        var values = [startName: start]
        var outcomes: [[Outcome]] = Array(repeating: [], count: product.rules.count)
        var rulesByInput: [String: [Int]] = [:]
        for (i, rule) in product.rules.enumerated() {
            for input in rule.inputs { rulesByInput[input, default: []].append(i) }
        }
        var head = 0
        var budgetHit = false
        while head < names.count {
            let name = names[head]
            let state = values[name]!
            head += 1
            for input in product.inputs {
                for i in rulesByInput[input] ?? [] where product.rules[i].applies(to: state, input: input) {
                    let rule = product.rules[i]
                    var next = state
                    for (field, value) in rule.writes { next[field] = value }
                    let nextName = product.stateName(next)
                    if values[nextName] == nil {
                        guard names.count < budget else {
                            budgetHit = true
                            continue
                        }
                        values[nextName] = next
                        names.append(nextName)
                    }
                    let starts = rule.effect != nil || !rule.cancels.isEmpty
                    outcomes[i].append(Outcome(pairs: [Pair(from: name, input: input)],
                                               target: nextName == name && !starts ? .stay : .state(nextName),
                                               effect: rule.effect, cancels: rule.cancels, guardText: rule.guardText, pattern: rule.pattern))
                }
            }
        }
        machine.states = names
        machine.initial = startName
        machine.rules = product.rules.enumerated().compactMap { i, rule in
            outcomes[i].isEmpty ? nil : Rule(id: i + 1, location: rule.location, outcomes: outcomes[i])
        }
        let analyzer = Analyzer()
        machine.internalInputs = Analyzer.internalInputs(of: machine)
        machine.edges = analyzer.resolve(machine).edges
        let graph = Graph(machine: machine)
        var findings: [Finding] = []
        for invariant in invariants {
            guard let bad = names.first(where: { !invariant.holds(in: values[$0]!) }), let edges = graph.edges(to: bad) else { continue }
            let trace = TransitionCover.markEffectSteps(edges.map { TraceStep(input: $0.input, trigger: $0.trigger, state: $0.to) }, in: machine)
            let rule = edges.last.flatMap { e in product.rules.indices.contains(e.rule - 1) ? product.rules[e.rule - 1] : nil }
            findings.append(Finding(
                check: .invariantViolation,
                message: "the combination \(bad) is reachable but contradicts the invariant '\(invariant.text)'",
                location: rule?.location ?? product.location, subject: invariant.text, trace: trace))
        }
        machine.findings = findings
        let message = budgetHit
            ? "\(product.name): stopped after \(budget) combinations of \(product.fields.map(\.name).joined(separator: " × ")) (product_budget); invariants were checked on those only"
            : nil
        return Result(machine: machine, findings: findings, budgetMessage: message, unexplored: nil, values: names.map { values[$0]! })
    }

    /// Invariants parsed and checked against the product's fields: an unknown field, a value the field
    /// does not have, or a bare non-Bool field is an error message.
    public static func check(_ invariant: Invariant, against product: ProductMachine) -> String? {
        for (field, value) in invariant.comparisons {
            guard let f = product.fields.first(where: { $0.name == field }) else {
                return "the invariant '\(invariant.text)' names '\(field)', which is not a machine field of \(product.name) (its fields: \(product.fields.map(\.name).joined(separator: ", ")))"
            }
            let allowed = f.states == ["nil", "some"] ? ["nil"] : f.states
            guard allowed.contains(value) else {
                return "the invariant '\(invariant.text)' compares '\(field)' with '\(value)', which is not one of its values (\(allowed.joined(separator: ", ")))"
            }
        }
        return nil
    }
}
