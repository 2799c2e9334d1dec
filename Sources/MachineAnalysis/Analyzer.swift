import MachineModel

/// Turns a machine's rules into edges and findings. Pure: the same machine gives the same result.
public struct Analyzer: Sendable {
    /// Bounds of the effect-aware exploration.
    public var bounds: EffectBounds
    /// Which inputs are internal, per machine name, when configuration says so.
    public var inputOverrides: [String: InputOverride]

    /// Configuration of a machine's internal inputs: `internal` replaces the inputs its effects send,
    /// `external` are inputs that can also arrive from outside (the user, another feature).
    public struct InputOverride: Hashable, Sendable {
        public var `internal`: [String]?
        public var external: [String]

        public init(internal: [String]? = nil, external: [String] = []) {
            self.internal = `internal`
            self.external = external
        }
    }

    public init(bounds: EffectBounds = EffectBounds(), inputOverrides: [String: InputOverride] = [:]) {
        self.bounds = bounds
        self.inputOverrides = inputOverrides
    }

    /// Expands rules into edges (honouring the machine's rule order) and runs every check.
    /// Findings that extractors attached already (e.g. `duplicate_key`) are kept.
    public func analyze(_ input: Machine) -> Machine { analyzeReporting(input).machine }

    /// `analyze`, with what the effect exploration has to say about its own limits (a bound or the
    /// budget reached): diagnostics, never findings.
    /// With `product`, the struct state this machine is a field of: races its own exploration can show
    /// only on an assumption about another field are looked for there.
    public func analyzeReporting(_ input: Machine, product: ProductView? = nil) -> (machine: Machine, diagnostics: [Diagnostic]) {
        var machine = input
        machine.internalInputs = Self.internalInputs(of: machine)
        if let override = inputOverrides[machine.name] {
            let chosen = override.internal ?? machine.internalInputs
            machine.internalInputs = machine.inputs.filter { chosen.contains($0) && !override.external.contains($0) }
        }
        let resolution = resolve(machine)
        machine.edges = resolution.edges
        let graph = Graph(machine: machine, anyTargetFrom: resolution.unknownTargetStates)
        var findings = machine.findings
        findings += unreachable(machine, graph)
        findings += deadEnds(machine, graph)
        findings += resolution.overlaps.map { finding(for: $0, in: machine, graph) }
        findings += shadowed(machine, resolution)
        findings += dataDependent(machine, graph)
        findings += unusedInputs(machine)
        let effects = EffectChecks(bounds: bounds).run(machine, product: product, firing: resolution.firing)
        findings += effects.findings
        machine.findings = findings.uniqued().sorted { ($0.location, $0.check, $0.subject) < ($1.location, $1.check, $1.subject) }
        return (machine, effects.diagnostics)
    }

    /// What the effect exploration says about its own limits, once for the machines of one struct that
    /// say the same thing about the same place: `A.x, A.y: more than 2 instances of the effect …`
    /// instead of a note per field machine. Other diagnostics pass unchanged, in order.
    public static func mergingRepeats(_ diagnostics: [Diagnostic], machines: [String]) -> [Diagnostic] {
        let names = Set(machines)
        struct Key: Hashable { var severity: Severity; var location: SourceLocation?; var rest: String }
        let keys: [(key: Key, machine: String)?] = diagnostics.map { d in
            guard let colon = d.message.range(of: ": "), names.contains(String(d.message[..<colon.lowerBound])) else { return nil }
            return (Key(severity: d.severity, location: d.location, rest: String(d.message[colon.upperBound...])),
                    String(d.message[..<colon.lowerBound]))
        }
        var who: [Key: [String]] = [:]
        for case let (key, machine)? in keys { who[key, default: []].append(machine) }
        var emitted = Set<Key>()
        var result: [Diagnostic] = []
        for (d, named) in zip(diagnostics, keys) {
            guard let key = named?.key else { result.append(d); continue }
            guard emitted.insert(key).inserted else { continue }
            result.append(Diagnostic(severity: d.severity, message: who[key]!.uniqued().joined(separator: ", ") + ": " + key.rest,
                                     location: d.location))
        }
        return result
    }

    /// The inputs some effect of the machine sends back (not counting TCA's immediate `.send`), in
    /// declaration order, unless already set.
    static func internalInputs(of machine: Machine) -> [String] {
        guard machine.internalInputs.isEmpty else { return machine.internalInputs }
        // what an effect in flight sends; TCA's `.send(action)` handles the action at once, as if from outside
        let sent = Set(machine.rules.flatMap { $0.outcomes.flatMap { EffectModel.tracked($0.effect, in: machine.dialect) }.flatMap(\.emits) })
        return machine.inputs.filter(sent.contains)
    }

    // MARK: Rule order

    struct Overlap {
        var pair: Pair
        var rules: [Rule]
        var winner: Rule?
    }

    struct Resolution {
        var edges: [Edge] = []
        var overlaps: [Overlap] = []
        var winners: Set<Int> = []
        var unknownTargetStates: Set<String> = []
        /// The (rule, outcome) pairs that fire for each pair.
        var firing: [Pair: [(rule: Rule, outcome: Outcome)]] = [:]
    }

    func resolve(_ machine: Machine) -> Resolution {
        var result = Resolution()
        // Which outcomes fire for each pair.
        var order: [Pair] = []
        var matching: [Pair: [(rule: Rule, outcome: Outcome)]] = [:]
        for rule in machine.rules {
            for outcome in rule.outcomes {
                for pair in outcome.pairs {
                    if matching[pair] == nil { order.append(pair) }
                    matching[pair, default: []].append((rule, outcome))
                }
            }
        }
        var edges: [(edge: Edge, outcome: Outcome)] = []
        for pair in order {
            let candidates = matching[pair]!
            var firing = candidates
            if machine.order == .firstMatch, let first = candidates.first {
                firing = candidates.filter { $0.rule.id == first.rule.id }
            }
            // (overlaps only where rules are read in order: resolved machines have none by construction)
            if machine.order != .resolved, case let ruleIDs = candidates.map(\.rule.id).uniqued(), ruleIDs.count > 1 {
                let rules = ruleIDs.compactMap { id in machine.rules.first { $0.id == id } }
                let targets = Set(rules.map { Set($0.outcomes.map(\.target)) })
                if targets.count > 1 {
                    result.overlaps.append(Overlap(pair: pair, rules: rules,
                                                   winner: machine.order == .firstMatch ? rules.first : nil))
                }
            }
            result.firing[pair] = firing
            for (rule, outcome) in firing {
                result.winners.insert(rule.id)
                // (writes to other fields are left out here: a self-loop that only counts ticks would clutter
                // every diagram; the effect explorer reads `Outcome.writes` itself)
                let starts = outcome.effect != nil || !outcome.cancels.isEmpty
                let trigger = outcome.trigger(for: pair.input)
                switch outcome.target {
                case .state(let to):
                    edges.append((Edge(from: pair.from, input: pair.input, to: to, rule: rule.id, noop: to == pair.from && !starts,
                                       trigger: trigger), outcome))
                case .stay:
                    edges.append((Edge(from: pair.from, input: pair.input, to: pair.from, rule: rule.id, noop: !starts, trigger: trigger), outcome))
                case .failure:
                    break
                case .unknown:
                    result.unknownTargetStates.insert(pair.from)
                }
            }
        }
        // One edge per (from, trigger, to, rule); it is a no-op only if every branch behind it is.
        struct EdgeKey: Hashable { var from: String, trigger: String, to: String, rule: Int }
        var index: [EdgeKey: Int] = [:]
        var behind: [[Outcome]] = []
        for (edge, outcome) in edges {
            let key = EdgeKey(from: edge.from, trigger: edge.trigger, to: edge.to, rule: edge.rule)
            if let i = index[key] {
                result.edges[i].noop = result.edges[i].noop && edge.noop
                behind[i].append(outcome)
            } else {
                index[key] = result.edges.count
                result.edges.append(edge)
                behind.append([outcome])
            }
        }
        // what the branches behind each edge require, start and cancel (the JSON document's edges say it)
        let rules = Dictionary(machine.rules.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for i in result.edges.indices {
            guard let rule = rules[result.edges[i].rule] else { continue }
            let list = rule.branchList(of: behind[i])
            let joined = Rule.joined(list)
            result.edges[i].guardText = joined.guardText
            result.edges[i].effect = joined.effect
            result.edges[i].cancels = joined.cancels.isEmpty ? nil : joined.cancels
            if Set(list.map { [$0.effect?.label ?? "", ($0.cancels ?? []).joined(separator: ",")] }).count > 1 { result.edges[i].branches = list }
        }
        return result
    }

    // MARK: Checks

    /// On a partial machine reachability is only as good as what was read: a note, not a warning.
    func reachabilitySeverity(_ check: Check, _ machine: Machine) -> Severity {
        machine.partial ? .note : check.defaultSeverity
    }

    func partialNote(_ machine: Machine) -> String {
        guard machine.partial else { return "" }
        var why: [String] = []
        if !machine.unreadWrites.isEmpty {
            why.append("its state is also written at \(machine.unreadWrites.count) place(s) the tool does not follow")
        }
        if !machine.pathsLeftOut.isEmpty {
            why.append("paths were left out at \(machine.pathsLeftOut.count) statement(s), too many to follow")
        }
        return " (the machine is partial: \(why.isEmpty ? "not all of it was read" : why.joined(separator: "; ")))"
    }

    func unreachable(_ machine: Machine, _ graph: Graph) -> [Finding] {
        guard machine.initial != nil, !graph.anyTargetReachable else { return [] }
        // states a rule leads to from a state the machine holds only while a method runs (`activating`
        // between `state = .activating` and the write after it): a call re-entering that method would
        // reach them, which the model does not follow
        var reentered: [String: String] = [:]
        for rule in machine.rules {
            for outcome in rule.outcomes {
                guard case .state(let to) = outcome.target,
                      let from = outcome.pairs.first(where: { machine.transient.contains($0.from) })?.from else { continue }
                reentered[to] = reentered[to] ?? from
            }
        }
        return machine.states.filter { graph.distance[$0] == nil && !machine.transient.contains($0) }.map { state in
            let from = reentered[state]
            return Finding(check: Check.unreachableState.rawValue, severity: from == nil ? reachabilitySeverity(.unreachableState, machine) : .note,
                           message: from.map { "state '\(state)' is only reached from '\($0)', which the machine holds only while a method runs: a call re-entering the machine then would reach it, which the tool does not follow" }
                               ?? "state '\(state)' is declared but no sequence of inputs from '\(machine.initial!)' reaches it" + partialNote(machine),
                           location: machine.stateLocations[state] ?? machine.location, subject: state)
        }
    }

    func deadEnds(_ machine: Machine, _ graph: Graph) -> [Finding] {
        // (a machine of one state has nowhere else to go: no dead end is news there)
        guard machine.states.count > 1 else { return [] }
        // with no initial state, a state some transition enters counts as reachable (no witness then)
        let entered = machine.initial == nil ? Set(machine.edges.filter { $0.from != $0.to }.map(\.to)) : []
        return machine.states.compactMap { state in
            let witness = graph.trace(to: state)
            guard witness != nil || entered.contains(state), !machine.terminal.contains(state), !machine.transient.contains(state),
                  !graph.unknownTargetFrom.contains(state),
                  !machine.edges.contains(where: { $0.from == state && $0.to != state }) else { return nil }
            return Finding(check: Check.deadEndState.rawValue, severity: reachabilitySeverity(.deadEndState, machine),
                           message: "state '\(state)' is reachable but no input leads out of it; mark it terminal if that is intended"
                               + partialNote(machine),
                           location: machine.stateLocations[state] ?? machine.location, subject: state, trace: witness)
        }
    }

    func finding(for overlap: Overlap, in machine: Machine, _ graph: Graph) -> Finding {
        let lines = overlap.rules.map { "line \($0.location.line)" }.joined(separator: ", ")
        let why: String
        if let winner = overlap.winner {
            why = "the rule at line \(winner.location.line) wins because the first matching rule is taken"
        } else {
            why = "all of them apply, so the next state depends on which one the runtime tries first"
        }
        let subject = "\(overlap.pair.from)/\(overlap.pair.input)"
        return Finding(check: Check.overlappingRules.rawValue, severity: Check.overlappingRules.defaultSeverity,
                       message: "input '\(overlap.pair.input)' in state '\(overlap.pair.from)' matches rules with different targets (\(lines)); \(why)",
                       location: (overlap.rules.dropFirst().first ?? overlap.rules[0]).location, subject: subject,
                       trace: graph.trace(through: overlap.pair))
    }

    func shadowed(_ machine: Machine, _ resolution: Resolution) -> [Finding] {
        // a case walked on several paths (or from several methods) is read once per path: it never fires
        // only when it fires on none of them
        let firing = Set(machine.rules.filter { !$0.shadowed && !$0.outcomes.isEmpty }.map(\.location))
        var said = Set<SourceLocation>()
        return machine.rules.filter { rule in
            rule.shadowed && !firing.contains(rule.location)
                || (machine.order == .firstMatch && !rule.pairs.isEmpty && !resolution.winners.contains(rule.id))
        }.filter { said.insert($0.location).inserted }.map { rule in
            Finding(check: Check.shadowedRule.rawValue, severity: Check.shadowedRule.defaultSeverity,
                    message: "the rule at line \(rule.location.line) never fires: earlier rules take every state and input it matches",
                    location: rule.location, subject: "line:\(rule.location.line)")
        }
    }

    func dataDependent(_ machine: Machine, _ graph: Graph) -> [Finding] {
        var findings: [Finding] = []
        // branches on different nested patterns (`.response(.success)`, `.response(.failure)`) are different triggers
        struct Key: Hashable { var pair: Pair; var trigger: String }
        for rule in machine.rules {
            var targets: [Key: [String]] = [:]
            var order: [Key] = []
            for outcome in rule.outcomes {
                let name: String? = switch outcome.target {
                case .state(let s): s
                case .unknown(let e): "(\(e))"
                default: nil
                }
                guard let name else { continue }
                for pair in outcome.pairs {
                    let key = Key(pair: pair, trigger: outcome.trigger(for: pair.input))
                    if targets[key] == nil { order.append(key) }
                    if !targets[key, default: []].contains(name) { targets[key, default: []].append(name) }
                }
            }
            for key in order {
                let pair = key.pair
                let names = targets[key]!
                let computed = names.contains { $0.hasPrefix("(") }
                guard names.count > 1 || computed else { continue }
                let what = computed ? "a state computed at run time" : names.map { "'\($0)'" }.joined(separator: " or ")
                findings.append(Finding(
                    check: Check.dataDependentTarget.rawValue, severity: Check.dataDependentTarget.defaultSeverity,
                    message: "input '\(pair.input)' in state '\(pair.from)' leads to \(what), chosen by payload or environment",
                    location: rule.location, subject: "\(pair.from)/\(pair.input)",
                    trace: graph.trace(through: pair)))
            }
        }
        return findings
    }

    func unusedInputs(_ machine: Machine) -> [Finding] {
        var used = Set<String>()
        for rule in machine.rules {
            for outcome in rule.outcomes {
                let doesSomething: Bool = switch outcome.target {
                case .stay, .failure: outcome.effect != nil || !outcome.cancels.isEmpty
                default: true
                }
                guard !rule.catchAll || doesSomething else { continue }
                used.formUnion(outcome.pairs.map(\.input))
            }
        }
        return machine.inputs.filter { !used.contains($0) }.map { input in
            Finding(check: Check.unusedInput.rawValue, severity: Check.unusedInput.defaultSeverity,
                    message: "input '\(input)' is declared but no rule handles it in any state",
                    location: machine.inputLocations[input] ?? machine.location, subject: input)
        }
    }
}
