import MachineModel

/// How far effect-aware exploration goes: at most `maxInstances` instances of each effect in flight at
/// once, and at most `budget` configurations. Hitting either is reported, never silently cut.
public struct EffectBounds: Hashable, Sendable {
    public static let defaultMaxInstances = 2
    public static let defaultBudget = 200_000

    public var maxInstances: Int
    public var budget: Int

    public init(maxInstances: Int = EffectBounds.defaultMaxInstances, budget: Int = EffectBounds.defaultBudget) {
        self.maxInstances = max(1, min(maxInstances, 100))
        self.budget = max(1, budget)
    }
}

/// A machine compiled for effect-aware exploration: states and inputs by index, the effects worth
/// tracking (those that send an input of the machine), and for every (state, input) the moves the
/// rules allow. The explorer and the Promela export both read this one model, so they explore the
/// same configurations.
///
/// A configuration is the state and, for every tracked effect, four counts: instances running
/// (started since the last change of state: *fresh*, or before it: *stale*) and instances waiting in
/// a `runOldest(n, suspendNew)` queue (fresh, stale).
public struct EffectModel: Sendable {
    public enum QueuePolicy: Hashable, Sendable {
        /// Every effect runs (Harvest `.merge`, no queue).
        case merge
        /// A new effect cancels the oldest ones so that at most `n` run (Harvest `.latest`, Actomaton `runNewest(n)`).
        case newest(Int)
        /// A new effect is dropped while `n` run (Actomaton `runOldest(n, .discardNew)`).
        case discardNew(Int)
        /// A new effect waits until fewer than `n` run (Actomaton `runOldest(n, .suspendNew)`).
        case suspendNew(Int)

        init(_ policy: String?) {
            guard let policy else { self = .merge; return }
            let n = Int(policy.filter(\.isNumber)) ?? 1
            if policy == "latest" || policy == "switchToLatest" { self = .newest(1) }
            else if policy.hasPrefix("runNewest") { self = .newest(max(1, n)) }
            else if policy.hasPrefix("runOldest") { self = policy.contains("discardNew") ? .discardNew(max(1, n)) : .suspendNew(max(1, n)) }
            else { self = .merge }
        }
    }

    /// An effect written in one rule that sends at least one input of the machine.
    public struct Definition: Sendable {
        public var effect: Effect
        public var rule: Int
        public var location: SourceLocation
        /// Indices of the inputs it sends.
        public var emits: [Int]
        /// Index into `queues`, when it runs on a queue with a policy other than merge.
        public var queue: Int?
        /// For a stream, the triggers of the moves whose delivery is its last (`Effect.outputs`: a
        /// `catch:` output): delivering through one ends the instance, as a `once` effect's does.
        public var endingTriggers: Set<String> = []

        /// `CancelID.timer`, else `line:N`: how findings name it. An id computed at run time is named
        /// by what it is built from: `PulseID(item: state.itemID)` is `PulseID`, `item.id` stays.
        public var subject: String {
            guard let id = effect.id else { return "line:\(location.line)" }
            return id.hasSuffix(" (runtime value)") ? EffectChecks.head(id) : id
        }
        public var label: String { effect.label ?? "effect" }
    }

    public struct Queue: Sendable {
        public var name: String
        public var policy: QueuePolicy
        public var members: [Int]
    }

    /// One way the machine can take an input in a state.
    public struct Move: Sendable {
        public var from: Int
        public var input: Int
        /// nil: the target is computed at run time (not explored).
        public var to: Int?
        public var trigger: String
        /// The tracked effects it starts.
        public var starts: [Int]
        /// Tracked effects it cancels: explicit cancels by id or queue, `strategy: .latest`, `.ifLet` teardown.
        public var cancels: [Int]
        /// Stays in the state and writes nothing, starts and cancels nothing.
        public var noop: Bool
        public var rule: Int
        /// Taken on an assumption the tool cannot check: a condition on something other than the
        /// machine's state, or an action of a child presented in another field.
        public var assumed: Bool = false

        public var changesState: Bool { to != nil && to != from }
        /// Changes the state as the checks see it: the projected state (`EffectModel.group`) when the
        /// model is a product seen from one field, else the state. Effects in flight go stale on it.
        public var leaves: Bool = false
        /// The input's values the move takes (`api(.checked)`), nil for any: an effect sending other
        /// values of the input (`send(.api(.rented))`) never takes it.
        public var pattern: InputPattern? = nil
    }

    public var machine: String
    public var states: [String]
    public var inputs: [String]
    public var isInternal: [Bool]
    public var initial: Int?
    public var definitions: [Definition]
    public var queues: [Queue]
    /// moves[state][input]
    public var moves: [[[Move]]]
    public var bounds: EffectBounds
    /// Per state, the effects it waits for (see `waitsFor`): entering it keeps them fresh.
    public var adopted: [Set<Int>] = []
    /// Effects started in every state without leaving it (see `startedInAnyState`): never stale.
    public var unbound: Set<Int> = []
    /// Per state, the state the checks see: itself, or, for a product seen from one of its fields, that
    /// field's value (an index into `groupNames`).
    public var group: [Int]
    /// The names of the groups: the states, or the field's values.
    public var groupNames: [String]
    /// Per state, the other fields' values (as a number) for a product seen from one field; else 0.
    public var context: [Int]

    /// Slots per definition in a configuration: running fresh, running stale, waiting fresh, waiting stale.
    public static let slots = 4

    /// - Parameter projection: for a product machine seen from one field, that field's value in each
    ///   state (`m.states` order): an effect then goes stale when the field changes, and a finding is a
    ///   change of the field. Without it, the state itself.
    /// - Parameter context: with `projection`, each state's values of the other fields: an effect
    ///   started whatever the field's value is (in every state with the same context) and without
    ///   changing it is not started for a value of the field.
    /// - Parameter firing: what `Analyzer.firing(m)` gives, when the caller has it already.
    public init(machine m: Machine, bounds: EffectBounds = EffectBounds(), projection: [String]? = nil, context: [String]? = nil,
                firing known: [Pair: [(rule: Rule, outcome: Outcome)]]? = nil) {
        machine = m.name
        self.bounds = bounds
        states = m.states
        if let context, context.count == m.states.count {
            let index = Dictionary(context.uniqued().enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            self.context = context.map { index[$0]! }
        } else {
            self.context = Array(repeating: 0, count: m.states.count)
        }
        if let projection, projection.count == m.states.count {
            groupNames = projection.uniqued()
            let index = Dictionary(groupNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            group = projection.map { index[$0]! }
        } else {
            groupNames = m.states
            group = Array(m.states.indices)
        }
        var inputs = m.inputs
        for rule in m.rules { for pair in rule.pairs where !inputs.contains(pair.input) { inputs.append(pair.input) } }
        self.inputs = inputs
        let stateIndex = Dictionary(states.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let inputIndex = Dictionary(inputs.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let internalSet = Set(m.internalInputs)
        isInternal = inputs.map(internalSet.contains)
        initial = m.initial.flatMap { stateIndex[$0] }

        let firing = known ?? Analyzer().firing(m)
        // Tracked effects, one per (rule, effect value), in rule order.
        var definitions: [Definition] = []
        struct Key: Hashable { var rule: Int; var effect: Effect }
        var definitionIndex: [Key: Int] = [:]
        func key(_ rule: Int, _ e: Effect) -> Key { Key(rule: rule, effect: e) }
        for rule in m.rules {
            for outcome in rule.outcomes {
                for e in Self.tracked(outcome.effect, in: m.dialect) where definitionIndex[key(rule.id, e)] == nil {
                    let emits = e.emits.compactMap { inputIndex[$0] }.uniqued()
                    guard !emits.isEmpty else { continue }
                    definitionIndex[key(rule.id, e)] = definitions.count
                    definitions.append(Definition(effect: e, rule: rule.id, location: rule.location, emits: emits, queue: nil))
                }
            }
        }
        // Queues with a policy that cancels, drops or suspends.
        var queues: [Queue] = []
        for (i, d) in definitions.enumerated() {
            guard let name = d.effect.queue else { continue }
            let policy = QueuePolicy(d.effect.policy)
            guard policy != .merge else { continue }
            if let q = queues.firstIndex(where: { $0.name == name }) {
                queues[q].members.append(i)
                definitions[i].queue = q
            } else {
                definitions[i].queue = queues.count
                queues.append(Queue(name: name, policy: policy, members: [i]))
            }
        }
        self.queues = queues

        // `.ifLet` teardown: entering `nil` cancels the effects started by the presented child's actions.
        let teardownInputs = Set(m.rules.filter(\.implicit).flatMap(\.inputs))
        var moves = Array(repeating: Array(repeating: [Move](), count: inputs.count), count: states.count)
        var childEffects: [Int] = []
        for (pair, list) in firing {
            guard teardownInputs.contains(pair.input) else { continue }
            for (rule, outcome) in list {
                childEffects += Self.tracked(outcome.effect, in: m.dialect).compactMap { definitionIndex[key(rule.id, $0)] }
            }
        }
        childEffects = childEffects.uniqued().sorted()

        let groups = group
        for (pair, list) in firing.sorted(by: { ($0.key.from, $0.key.input) < ($1.key.from, $1.key.input) }) {
            guard let s = stateIndex[pair.from], let i = inputIndex[pair.input] else { continue }
            for (rule, outcome) in list {
                // (a branch that closes the feature, `dismiss()`, leaves no machine to check)
                if outcome.effect?.dismisses == true { continue }
                let to: Int?
                switch outcome.target {
                case .state(let t): guard let ti = stateIndex[t] else { continue }; to = ti
                case .stay: to = s
                case .failure: continue
                case .unknown: to = nil
                }
                let starts = Self.tracked(outcome.effect, in: m.dialect).compactMap { definitionIndex[key(rule.id, $0)] }.uniqued()
                var cancels: [Int] = []
                for c in outcome.cancels {
                    if c == "*" || c == "strategy: .latest" { cancels += definitions.indices; continue }
                    // a queue whose policy already replaces the effect in flight: the policy does it
                    if starts.contains(where: { d in definitions[d].queue.map { queues[$0].name == c } ?? false }) { continue }
                    for (k, d) in definitions.enumerated() where Self.sameID(d.effect.id, c) || d.effect.queue == c {
                        cancels.append(k)
                    }
                }
                if let to, states[to] == "nil", pair.from != "nil", !teardownInputs.isEmpty { cancels += childEffects }
                let trigger = outcome.trigger(for: pair.input)
                let pattern = outcome.pattern.flatMap { $0.name == pair.input ? $0 : nil } ?? .member(pair.input)
                for d in definitions.indices where definitions[d].effect.kind == .stream && definitions[d].emits.contains(i)
                    && definitions[d].effect.endsDelivering(pattern) {
                    definitions[d].endingTriggers.insert(trigger)
                }
                // (a row of a table or mapping function is a transition the library reports to its observers,
                // staying or not: Harvest's `.tick | .running => .running | .empty`; ignoring an input is having no row)
                let noop = to == s && outcome.effect == nil && outcome.cancels.isEmpty && !outcome.writes
                    && m.dialect != .operatorTable && m.dialect != .mappingFunction
                let presentedElsewhere = trigger.containsBytes("presented(") && !teardownInputs.contains(pair.input)
                moves[s][i].append(Move(from: s, input: i, to: to, trigger: trigger, starts: starts,
                                        cancels: cancels.uniqued().sorted(), noop: noop, rule: rule.id,
                                        assumed: Self.readsOtherState(outcome.guardText) || presentedElsewhere,
                                        leaves: to.map { groups[$0] != groups[s] } ?? false, pattern: pattern))
            }
        }
        self.definitions = definitions
        self.moves = moves
        dropIdleOnceEffects()
        adopted = states.indices.map(waitsFor)
        unbound = Set(definitions.indices.filter(startedInAnyState))
    }

    /// Whether the effect is started whatever the state is and without changing it (a request a
    /// field machine sees started by a branch that neither reads nor writes its field): it was not
    /// started for a state, so it never goes stale.
    func startedInAnyState(_ d: Int) -> Bool {
        let starting = moves.joined().joined().filter { $0.starts.contains(d) }
        guard !starting.isEmpty, starting.allSatisfy({ $0.to != nil && !$0.leaves }) else { return false }
        // in every state that differs only in the machine's own value (for a plain machine: every state)
        let from = Set(starting.map(\.from))
        return from.allSatisfy { s in states.indices.allSatisfy { t in context[t] != context[s] || from.contains(t) } }
    }

    /// Leaves out `once` effects whose every output, in every state, changes nothing (a field machine
    /// seeing a request that only another field handles): they can change no finding, and their
    /// instances would only multiply configurations and hit the instance bound for nothing. Streams
    /// stay: running for nothing is what `uncancelled_effect` reports.
    mutating func dropIdleOnceEffects() {
        let idle = definitions.indices.filter { d in
            definitions[d].effect.kind == .once
                && definitions[d].emits.allSatisfy { i in states.indices.allSatisfy { s in moves[s][i].allSatisfy(\.noop) } }
        }
        guard !idle.isEmpty else { return }
        let dropped = Set(idle)
        var newIndex: [Int: Int] = [:]
        for d in definitions.indices where !dropped.contains(d) { newIndex[d] = newIndex.count }
        definitions = definitions.indices.filter { !dropped.contains($0) }.map { definitions[$0] }
        var kept: [Queue] = []
        var queueIndex: [Int: Int] = [:]
        for (q, queue) in queues.enumerated() {
            let members = queue.members.compactMap { newIndex[$0] }
            guard !members.isEmpty else { continue }
            queueIndex[q] = kept.count
            kept.append(Queue(name: queue.name, policy: queue.policy, members: members))
        }
        queues = kept
        for d in definitions.indices { definitions[d].queue = definitions[d].queue.flatMap { queueIndex[$0] } }
        for s in moves.indices {
            for i in moves[s].indices {
                for k in moves[s][i].indices {
                    moves[s][i][k].starts = moves[s][i][k].starts.compactMap { newIndex[$0] }
                    moves[s][i][k].cancels = moves[s][i][k].cancels.compactMap { newIndex[$0] }
                }
            }
        }
    }

    /// The effects a state is entered to wait for: every way out of it that the tool can check (moves
    /// taken on no assumption) is an internal input, and the effect sends one of them. A machine that
    /// moves into such a state while the effect runs hands the effect over (`recording` → `finishing`,
    /// which waits for the recording's `finished`): its output there is expected, not stale.
    func waitsFor(_ s: Int) -> Set<Int> {
        let exits = inputs.indices.filter { i in moves[s][i].contains { ($0.to.map { group[$0] != group[s] } ?? true) && !$0.assumed } }
        guard !exits.isEmpty, exits.allSatisfy({ isInternal[$0] }) else { return [] }
        return Set(definitions.indices.filter { d in definitions[d].emits.contains(where: exits.contains) })
    }

    /// The single effects of an outcome worth exploring. TCA's `.send(action)` is handled at once, so
    /// it is no effect in flight (and its action counts as sent from outside); CombineProcessor's
    /// `.send` delivers later, on the processor's queue, like any other effect.
    public static func tracked(_ effect: Effect?, in dialect: Dialect) -> [Effect] {
        let immediateSend = dialect == .tca || dialect == .tcaLegacy
        return (effect?.components ?? []).filter { !(immediateSend && $0.isSend) }
    }

    /// Whether a branch condition reads the state (another field of it: conditions on the machine's own
    /// field select its from-states exactly and leave no text). A condition on a payload or the
    /// environment is not an assumption: it can really go either way.
    static func readsOtherState(_ guardText: String?) -> Bool {
        guard let text = guardText else { return false }
        // `state.` or `self.` at the start of a word (a scan: a regular expression per rule was a
        // tenth of the analysis)
        var previous: Character?
        var rest = Substring(text)
        while let first = rest.first {
            if first == "s", previous.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true,
               rest.hasPrefix("state.") || rest.hasPrefix("self.") {
                return true
            }
            previous = first
            rest = rest.dropFirst()
        }
        return false
    }

    /// Cancel ids match as written, or by suffix (`timer` cancels `CancelID.timer`).
    public static func sameID(_ a: String?, _ b: String) -> Bool {
        guard let a else { return false }
        return a == b || a.hasSuffix("." + b) || b.hasSuffix("." + a)
    }

    /// Whether effect `d` ends when it delivers through `move`: a `once` effect always, a stream when
    /// the move takes only what it sends last.
    public func ends(_ d: Int, by move: Move) -> Bool {
        definitions[d].effect.kind == .once || definitions[d].endingTriggers.contains(move.trigger)
    }

    /// Whether effect `d` may deliver through `move`: what it sends of the move's input, where the code
    /// says (`send(.api(.checked))`), may match the values the move takes.
    public func delivers(_ d: Int, by move: Move) -> Bool {
        move.pattern.map(definitions[d].effect.mayDeliver) ?? true
    }

    /// Effects that send `input`.
    public func senders(of input: Int) -> [Int] {
        definitions.indices.filter { definitions[$0].emits.contains(input) }
    }

    /// Inputs that take `state` to another state (or to a state computed at run time).
    public func exits(of state: Int) -> [Int] {
        inputs.indices.filter { i in moves[state][i].contains { $0.to != state } }
    }

    /// States whose every way out is an internal input, so that leaving them depends on effects in
    /// flight; for each, the effects that could still take it out: those that send a way out, and
    /// those whose outputs, handled in the state, start such an effect. A state where a user input
    /// starts one of them is left out: the user can always set it going again. So is a state the
    /// machine never enters expecting anything: no move into it starts one of those effects, and
    /// none is taken on the output of one of those that are streams (which keep running). Such a
    /// state is final in practice (`paid`, whose only ways out are late responses), not a spinner.
    public func waitingStates() -> [Int: [Int]] {
        var result: [Int: [Int]] = [:]
        for s in states.indices {
            let exits = exits(of: s)
            guard !exits.isEmpty, exits.allSatisfy({ isInternal[$0] }) else { continue }
            var rescuers = Set(exits.flatMap(senders))
            var changed = true
            while changed {
                changed = false
                for d in definitions.indices where !rescuers.contains(d) {
                    let starts = definitions[d].emits.flatMap { i in moves[s][i].flatMap(\.starts) }
                    if starts.contains(where: rescuers.contains) { rescuers.insert(d); changed = true }
                }
            }
            let userRestarts = inputs.indices.contains { i in
                !isInternal[i] && moves[s][i].contains { $0.starts.contains(where: rescuers.contains) }
            }
            guard !userRestarts else { continue }
            let streams = Set(rescuers.filter { definitions[$0].effect.kind == .stream }.flatMap { definitions[$0].emits })
            let expected = moves.joined().joined().contains { move in
                move.to == s && move.from != s
                    && (move.starts.contains(where: rescuers.contains) || streams.contains(move.input))
            }
            guard expected else { continue }
            result[s] = rescuers.sorted()
        }
        return result
    }

    /// For a stream effect, the states where everything it sends does nothing, and from which the
    /// machine cannot get back to a state where its outputs matter without starting it again or
    /// cancelling it. A stream idle only for a while (a timer whose ticks are ignored while an alert
    /// is up, and count again once it is dismissed) is paused, not running for nothing; one that a
    /// new start would run twice (a timer not cancelled on stop) is.
    public func idleStates(of d: Int) -> [Int] {
        guard definitions[d].effect.kind == .stream else { return [] }
        let idle = states.indices.filter { s in
            definitions[d].emits.allSatisfy { i in moves[s][i].allSatisfy(\.noop) }
        }
        let idleSet = Set(idle)
        // the same effect started by another rule (the same id) is a start again too
        let id = definitions[d].effect.id
        let again = Set(definitions.indices.filter { k in k == d || (id != nil && definitions[k].effect.id == id) })
        return idle.filter { s in
            var seen: Set<Int> = [s]
            var queue = [s]
            while let x = queue.popLast() {
                for i in inputs.indices {
                    for move in moves[x][i] where !move.starts.contains(where: again.contains) && !move.cancels.contains(d) {
                        guard let t = move.to, seen.insert(t).inserted else { continue }
                        if !idleSet.contains(t) { return false }
                        queue.append(t)
                    }
                }
            }
            return true
        }
    }
}

extension Analyzer {
    /// The (rule, outcome) pairs that fire for each (state, input), after rule order is applied.
    func firing(_ machine: Machine) -> [Pair: [(rule: Rule, outcome: Outcome)]] {
        resolve(machine).firing
    }
}
