import Foundation

/// A position in a Swift source file; line and column are 1-based.
public struct SourceLocation: Codable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.file, a.line, a.column) < (b.file, b.line, b.column)
    }

    public var description: String { "\(file):\(line):\(column)" }
}

public enum Severity: String, Codable, Hashable, Sendable, Comparable, CaseIterable {
    case error, warning, note

    private var rank: Int { self == .error ? 2 : self == .warning ? 1 : 0 }
    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// Something the tool has to say about its input that is not a finding on a machine:
/// an unreadable file, a syntax error, a construct it could not extract.
public struct Diagnostic: Codable, Hashable, Sendable {
    public var severity: Severity
    public var message: String
    public var location: SourceLocation?

    public init(severity: Severity, message: String, location: SourceLocation?) {
        self.severity = severity
        self.message = message
        self.location = location
    }
}

/// The effect a rule starts: what it is called in the code, which inputs it sends back,
/// the queue it runs on and that queue's policy, and its id.
public struct Effect: Codable, Hashable, Sendable {
    /// How often an effect can deliver: `once` (a request), or `stream` (a timer, a `for await` loop, a
    /// long-lived publisher: it can send again and again until it is cancelled).
    public enum Kind: String, Codable, Hashable, Sendable {
        case once, stream
    }

    public var label: String?
    public var emits: [String]
    public var queue: String?
    public var policy: String?
    public var id: String?
    public var kind: Kind
    /// The effects this one was joined from (`.merge(a, b)`, `a + b`), each with its own emits, id and
    /// kind; empty for a single effect. Not part of the JSON (which shows the joined effect).
    public var parts: [Effect]
    /// The values it sends as written in it (run-time parts `_`), each saying whether sending it ends a
    /// stream: a value sent from TCA's `catch:` closure, or after its `for await` loop has ended. Empty
    /// when the code does not say. Not part of the JSON.
    public var outputs: [Output]
    /// It closes the feature (TCA's `dismiss()`, `@Dependency(\.dismiss)`): the presenting parent tears the
    /// machine down, with its effects. Not part of the JSON.
    public var dismisses = false

    /// A value an effect sends, and whether delivering it is the effect's last act.
    public struct Output: Hashable, Sendable {
        public var value: InputPattern
        public var last: Bool

        public init(value: InputPattern, last: Bool) {
            self.value = value
            self.last = last
        }
    }

    public init(label: String? = nil, emits: [String] = [], queue: String? = nil, policy: String? = nil, id: String? = nil,
                kind: Kind = .once, parts: [Effect] = [], outputs: [Output] = []) {
        self.label = label
        self.emits = emits
        self.queue = queue
        self.policy = policy
        self.id = id
        self.kind = kind
        self.parts = parts
        self.outputs = outputs
    }

    /// Whether delivering a value that a branch with `pattern` takes ends this stream: every value of
    /// the stream that the pattern can match is sent last (a `catch:` output). A `once` effect always
    /// ends when it delivers.
    public func endsDelivering(_ pattern: InputPattern) -> Bool {
        if kind == .once { return true }
        let candidates = outputs.filter { $0.value.name == pattern.name && pattern.matches($0.value) != false }
        return !candidates.isEmpty && candidates.allSatisfy(\.last)
    }

    /// Whether it may send a value a branch with `pattern` takes: one of the values written in it that
    /// the pattern can match, or any where none of them is of the pattern's input (not written so).
    public func mayDeliver(_ pattern: InputPattern) -> Bool {
        let candidates = outputs.filter { $0.value.name == pattern.name }
        return candidates.isEmpty || candidates.contains { pattern.matches($0.value) != false }
    }

    /// The single effects it consists of: its parts, or itself.
    public var components: [Effect] { parts.isEmpty ? [self] : parts }

    /// A `.send(action)` effect. In TCA the store handles the action right away, as if sent from
    /// outside, not later by an effect in flight; elsewhere (CombineProcessor's `.send` is a `Just`
    /// delivered on the processor's queue) it is an ordinary effect.
    public var isSend: Bool { label == "send" || label?.hasSuffix(".send") == true }

    /// Gives the effect (each of its parts that has none) a cancel id: `.merge(a, b).cancellable(id:)`.
    public mutating func assign(id newID: String) {
        id = newID
        for i in parts.indices where parts[i].id == nil { parts[i].id = newID }
    }

    /// Puts the effect (each of its parts that has none) on a queue with a policy.
    public mutating func assign(queue newQueue: String, policy newPolicy: String?) {
        queue = newQueue
        policy = newPolicy
        for i in parts.indices where parts[i].queue == nil {
            parts[i].queue = newQueue
            parts[i].policy = newPolicy
        }
    }

    enum CodingKeys: String, CodingKey { case label, emits, queue, policy, id, kind }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        label = try c.decodeIfPresent(String.self, forKey: .label)
        emits = try c.decodeIfPresent([String].self, forKey: .emits) ?? []
        queue = try c.decodeIfPresent(String.self, forKey: .queue)
        policy = try c.decodeIfPresent(String.self, forKey: .policy)
        id = try c.decodeIfPresent(String.self, forKey: .id)
        kind = try c.decodeIfPresent(Kind.self, forKey: .kind) ?? .once
        parts = []
        outputs = []
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(label, forKey: .label)
        try c.encode(emits, forKey: .emits)
        try c.encodeIfPresent(queue, forKey: .queue)
        try c.encodeIfPresent(policy, forKey: .policy)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encode(kind, forKey: .kind)
    }

    /// Effects joined in order (nil for none).
    public static func joining(_ effects: [Effect]) -> Effect? {
        effects.dropFirst().reduce(effects.first) { $0!.merged(with: $1) }
    }

    /// Two effects of one rule joined (`+`, `.merge`, branches of one case).
    public func merged(with other: Effect) -> Effect {
        var labels: [String] = []
        for l in [label, other.label].compactMap({ $0 }) where !labels.contains(l) { labels.append(l) }
        var merged = Effect(
            label: labels.isEmpty ? nil : labels.joined(separator: " + "),
            emits: emits.appendingUnique(other.emits),
            queue: queue ?? other.queue,
            policy: policy ?? other.policy,
            id: id ?? other.id,
            kind: kind == .stream || other.kind == .stream ? .stream : .once,
            parts: components + other.components,
            outputs: outputs.appendingUnique(other.outputs))
        merged.dismisses = dismisses || other.dismisses
        return merged
    }
}

/// A concrete (state, input) pair a rule applies to.
public struct Pair: Codable, Hashable, Sendable {
    public var from: String
    public var input: String

    public init(from: String, input: String) {
        self.from = from
        self.input = input
    }
}

/// Where one branch of a rule leads.
public enum Target: Hashable, Sendable {
    /// A named state.
    case state(String)
    /// The state is left as it is (and the transition succeeds).
    case stay
    /// The transition fails (`return nil` in a mapping function): no edge at all.
    case failure
    /// Computed at run time from the given expression; the tool cannot say which state.
    case unknown(String)
}

/// One branch of a rule: the pairs it applies to, where it leads, what it starts and cancels.
public struct Outcome: Hashable, Sendable {
    public var pairs: [Pair]
    public var target: Target
    public var effect: Effect?
    public var cancels: [String]
    /// Source text of the data condition that selects this branch, if any.
    public var guardText: String?
    /// The case pattern when it narrows the input further than its case name (`.view(.stopTapped)`);
    /// it applies to the pairs whose input is the pattern's root case.
    public var pattern: InputPattern?
    /// The branch writes the state (any field, or the machine's own field with a new payload): the
    /// effect explorer does not count it as doing nothing even when the machine's state stays.
    public var writes: Bool

    public init(pairs: [Pair], target: Target, effect: Effect? = nil, cancels: [String] = [], guardText: String? = nil,
                pattern: InputPattern? = nil, writes: Bool = false) {
        self.pairs = pairs
        self.target = target
        self.effect = effect
        self.cancels = cancels
        self.guardText = guardText
        self.pattern = pattern
        self.writes = writes
    }

    /// The trigger of this branch's edges for an input: its pattern's text when it narrows the input,
    /// else the input (`view(.saveTapped)`, `response(.failure)`, `reset`).
    public func trigger(for input: String) -> String {
        if let pattern, pattern.narrows, pattern.name == input { return pattern.trigger }
        return input
    }

    /// Whether this branch produces the edge `from --input--> to` (fired by `trigger`, when given).
    public func produces(from: String, input: String, to: String, trigger: String? = nil) -> Bool {
        guard pairs.contains(Pair(from: from, input: input)) else { return false }
        if let trigger, trigger != self.trigger(for: input) { return false }
        switch target {
        case .state(let s): return s == to
        case .stay: return from == to
        default: return false
        }
    }
}

/// One source-level rule: a table row, a switch case, a route, an `on(...)` block.
public struct Rule: Hashable, Sendable {
    public var id: Int
    public var location: SourceLocation
    public var outcomes: [Outcome]
    /// Source text of the rule's own condition (`where`, `condition:`), if any.
    public var guardText: String?
    /// A transition the framework makes without code for it (TCA `.dismiss`, ephemeral alerts).
    public var implicit: Bool
    /// A rule whose pairs earlier rules all take (set by extractors that resolve order themselves).
    public var shadowed: Bool
    /// `default:`, `_` or `any` on the input side: it names no input of its own.
    public var catchAll: Bool
    /// A name for the trigger when there is no input (GameplayKit call sites, event-less routes).
    public var trigger: String?

    public init(id: Int = 0, location: SourceLocation, outcomes: [Outcome], guardText: String? = nil,
                implicit: Bool = false, shadowed: Bool = false, catchAll: Bool = false, trigger: String? = nil) {
        self.id = id
        self.location = location
        self.outcomes = outcomes
        self.guardText = guardText
        self.implicit = implicit
        self.shadowed = shadowed
        self.catchAll = catchAll
        self.trigger = trigger
    }

    /// Every pair any branch applies to, in first-seen order.
    public var pairs: [Pair] { outcomes.flatMap(\.pairs).uniqued() }
    public var inputs: [String] { pairs.map(\.input).uniqued() }
    public var from: [String] { pairs.map(\.from).uniqued() }
    public var targets: [String] {
        outcomes.compactMap { if case .state(let s) = $0.target { s } else { nil } }.uniqued()
    }
    public var effect: Effect? { Effect.joining(outcomes.compactMap(\.effect)) }
    public var cancels: [String] { outcomes.flatMap(\.cancels).uniqued() }
    /// The branches behind one edge of this rule.
    public func outcomes(for edge: Edge) -> [Outcome] {
        outcomes.filter { $0.produces(from: edge.from, input: edge.input, to: edge.to, trigger: edge.trigger) }
    }

    /// The distinct branches behind one edge: what each requires, starts and cancels (`return ok ?
    /// .redial : .none` gives two, one with the effect).
    public func branchList(behind edge: Edge) -> [EdgeBranch] { branchList(of: outcomes(for: edge)) }

    /// The distinct branches of some of this rule's outcomes.
    public func branchList(of outcomes: [Outcome]) -> [EdgeBranch] {
        outcomes.map { o in
            EdgeBranch(guardText: guardText ?? o.guardText, effect: o.effect, cancels: o.cancels.isEmpty ? nil : o.cancels)
        }.uniqued()
    }

    /// What one edge requires, starts and cancels, from the branches behind it (never from the rule as a
    /// whole: a `guard … else { return .close }` branch of a rule that returns `.send` elsewhere sends
    /// nothing on the other edges). The guard is none when a branch has none, or when the branches are a
    /// condition's two sides (`ok`, `!(ok)`).
    public func branches(behind edge: Edge) -> (guardText: String?, effect: Effect?, cancels: [String]) {
        Self.joined(branchList(behind: edge))
    }

    /// Branches joined: the guard any of them needs, the effects merged, every cancellation.
    public static func joined(_ behind: [EdgeBranch]) -> (guardText: String?, effect: Effect?, cancels: [String]) {
        let guards = behind.map(\.guardText).uniqued()
        let bothSides = guards.count == 2 && guards.allSatisfy { $0 != nil } && (guards[0]! == "!(\(guards[1]!))" || guards[1]! == "!(\(guards[0]!))")
        let joined = guards.isEmpty || guards.contains(nil) || bothSides ? nil : guards.map { $0! }.joined(separator: " || ")
        return (joined, Effect.joining(behind.compactMap(\.effect)), behind.flatMap { $0.cancels ?? [] }.uniqued())
    }

    /// Guard shown on the rule: its own condition, or the branch conditions when they differ.
    public var displayGuard: String? {
        if let guardText { return guardText }
        let branchGuards = outcomes.compactMap(\.guardText).uniqued()
        return branchGuards.count == 1 && outcomes.count == 1 ? branchGuards[0] : nil
    }
}

extension Rule: Codable {
    enum CodingKeys: String, CodingKey {
        case id, location, inputs, from, targets, `guard`, effect, cancels, implicit, shadowed, trigger, dataDependent, patterns
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(location, forKey: .location)
        try c.encode(inputs, forKey: .inputs)
        try c.encode(from, forKey: .from)
        try c.encode(targets, forKey: .targets)
        try c.encode(displayGuard, forKey: .guard)
        try c.encode(effect, forKey: .effect)
        try c.encode(cancels, forKey: .cancels)
        if implicit { try c.encode(true, forKey: .implicit) }
        if shadowed { try c.encode(true, forKey: .shadowed) }
        if let trigger { try c.encode(trigger, forKey: .trigger) }
        let unknown = outcomes.compactMap { if case .unknown(let e) = $0.target { e } else { nil } }
        if !unknown.isEmpty { try c.encode(unknown, forKey: .dataDependent) }
        let patterns = outcomes.compactMap { $0.pattern?.narrows == true ? $0.pattern!.trigger : nil }.uniqued()
        if !patterns.isEmpty { try c.encode(patterns, forKey: .patterns) }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        location = try c.decode(SourceLocation.self, forKey: .location)
        let inputs = try c.decode([String].self, forKey: .inputs)
        let from = try c.decode([String].self, forKey: .from)
        let targets = try c.decode([String].self, forKey: .targets)
        let dataDependent = try c.decodeIfPresent([String].self, forKey: .dataDependent) ?? []
        let patterns = try c.decodeIfPresent([String].self, forKey: .patterns) ?? []
        // The JSON keeps the projections, not the branches: every branch gets every pair (the product of
        // `from` and `inputs` gives both lists back in their order), one branch per target and per
        // data-dependent expression (a `stay` branch when there is neither), and the patterns go onto
        // the branches in order (more `stay` branches when there are more patterns). The rule's effect
        // and cancels go on the first branch only, so they merge back to the same values.
        let pairs = from.flatMap { s in inputs.map { Pair(from: s, input: $0) } }
        var targetList = targets.map(Target.state) + dataDependent.map(Target.unknown)
        if targetList.isEmpty { targetList = [.stay] }
        while targetList.count < patterns.count { targetList.append(.stay) }
        outcomes = targetList.enumerated().map { i, target in
            Outcome(pairs: pairs, target: target, pattern: i < patterns.count ? InputPattern(trigger: patterns[i]) : nil)
        }
        outcomes[0].effect = try c.decodeIfPresent(Effect.self, forKey: .effect)
        outcomes[0].cancels = try c.decodeIfPresent([String].self, forKey: .cancels) ?? []
        guardText = try c.decodeIfPresent(String.self, forKey: .guard)
        implicit = try c.decodeIfPresent(Bool.self, forKey: .implicit) ?? false
        shadowed = try c.decodeIfPresent(Bool.self, forKey: .shadowed) ?? false
        catchAll = false
        trigger = try c.decodeIfPresent(String.self, forKey: .trigger)
    }
}

/// A transition between two concrete states, produced by a rule.
public struct Edge: Codable, Hashable, Sendable {
    public var from: String
    public var input: String
    public var to: String
    public var rule: Int
    /// The branch neither changes the state nor starts or cancels an effect.
    public var noop: Bool
    /// The pattern that fires the edge, nested cases and literal arguments kept, bindings dropped
    /// (`view(.saveTapped)`, `send(didSucceed:true)`); equal to `input` for a plain case.
    public var trigger: String
    /// What the branches of the rule behind this edge require, start and cancel (`Rule.branches(behind:)`,
    /// set by the analyzer; never the rule's as a whole: a `guard … else { return .close }` branch's
    /// `.close` is on its own edges only).
    public var guardText: String?
    public var effect: Effect?
    public var cancels: [String]?
    /// The branches one by one, when they differ in what they start or cancel (`return ok ? .redial :
    /// .none`: `effect` above joins them).
    public var branches: [EdgeBranch]?

    public init(from: String, input: String, to: String, rule: Int, noop: Bool, trigger: String? = nil) {
        self.from = from
        self.input = input
        self.to = to
        self.rule = rule
        self.noop = noop
        self.trigger = trigger ?? input
    }

    enum CodingKeys: String, CodingKey {
        case from, input, to, rule, noop, trigger, effect, cancels, branches
        case guardText = "guard"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        from = try c.decode(String.self, forKey: .from)
        input = try c.decode(String.self, forKey: .input)
        to = try c.decode(String.self, forKey: .to)
        rule = try c.decode(Int.self, forKey: .rule)
        noop = try c.decodeIfPresent(Bool.self, forKey: .noop) ?? false
        trigger = try c.decodeIfPresent(String.self, forKey: .trigger) ?? input
        guardText = try c.decodeIfPresent(String.self, forKey: .guardText)
        effect = try c.decodeIfPresent(Effect.self, forKey: .effect)
        cancels = try c.decodeIfPresent([String].self, forKey: .cancels)
        branches = try c.decodeIfPresent([EdgeBranch].self, forKey: .branches)
    }
}

/// One branch behind an edge: its condition, what it starts and what it cancels.
public struct EdgeBranch: Codable, Hashable, Sendable {
    public var guardText: String?
    public var effect: Effect?
    public var cancels: [String]?

    public init(guardText: String?, effect: Effect?, cancels: [String]?) {
        self.guardText = guardText
        self.effect = effect
        self.cancels = cancels
    }

    enum CodingKeys: String, CodingKey {
        case effect, cancels
        case guardText = "guard"
    }
}

/// How the rules of a machine combine when several match one pair.
public enum RuleOrder: String, Codable, Hashable, Sendable {
    /// The first matching rule wins; overlaps between rules are worth reporting (operator tables).
    case firstMatch = "first-match"
    /// Every matching rule applies (route DSLs, `.reduce(.all, …)`): overlaps are reported.
    case allMatch = "all-match"
    /// The extractor already resolved the order (a `switch`): later catch-alls are normal.
    case resolved
}

/// Check ids, as they appear in JSON, lint output and configuration.
public enum Check: String, Codable, CaseIterable, Sendable, CustomStringConvertible {
    case unreachableState = "unreachable_state"
    case deadEndState = "dead_end_state"
    case overlappingRules = "overlapping_rules"
    case shadowedRule = "shadowed_rule"
    case dataDependentTarget = "data_dependent_target"
    case unusedInput = "unused_input"
    case duplicateKey = "duplicate_key"
    /// A combination of a struct state's fields that is reachable but breaks a stated invariant.
    case invariantViolation = "invariant_violation"
    /// Effect-aware (explored over the machine's state and its effects in flight).
    case staleEffectOutput = "stale_effect_output"
    case uncancelledEffect = "uncancelled_effect"
    case waitingForever = "waiting_forever"
    case unknownCancelID = "unknown_cancel_id"
    /// Reported by lint, not the analyser: a `machine-viz:disable` comment that suppressed nothing.
    case unusedSuppression = "unused_suppression"

    public var description: String { rawValue }

    public var defaultSeverity: Severity {
        switch self {
        // a dictionary literal with a key twice traps when it is evaluated: that fails the build by default
        case .duplicateKey: .error
        case .unreachableState, .deadEndState, .overlappingRules, .shadowedRule, .unusedSuppression, .invariantViolation: .warning
        // run-time bugs: a late response that moves the machine, a stream that runs for nothing, a spinner that never stops
        case .staleEffectOutput, .uncancelledEffect, .waitingForever, .unknownCancelID: .warning
        case .dataDependentTarget, .unusedInput: .note
        }
    }
}

/// One step of a witness trace: the input that arrived, the pattern it matched, who sent it (the
/// user or the environment, or an effect in flight), and the state after it.
public struct TraceStep: Codable, Hashable, Sendable {
    public enum Origin: String, Codable, Hashable, Sendable { case user, effect }

    public var input: String
    public var trigger: String
    public var by: Origin
    public var state: String

    public init(input: String, trigger: String? = nil, by: Origin = .user, state: String) {
        self.input = input
        self.trigger = trigger ?? input
        self.by = by
        self.state = state
    }

    /// The step as the readable reports show it: the trigger the code matched (`view(.startTapped)`), or
    /// for a machine without inputs the state it moves to (`to playing`).
    public var readable: String { input == "*" ? "to \(state)" : trigger }
}

public struct Finding: Codable, Hashable, Sendable {
    public var check: String
    public var severity: Severity
    public var message: String
    public var location: SourceLocation
    public var subject: String
    /// The shortest sequence of steps from the initial state after which the finding holds.
    public var trace: [TraceStep]?

    public init(check: String, severity: Severity, message: String, location: SourceLocation, subject: String,
                trace: [TraceStep]? = nil) {
        self.check = check
        self.severity = severity
        self.message = message
        self.location = location
        self.subject = subject
        self.trace = trace
    }

    public init(check: Check, message: String, location: SourceLocation, subject: String, trace: [TraceStep]? = nil) {
        self.init(check: check.rawValue, severity: check.defaultSeverity, message: message, location: location,
                  subject: subject, trace: trace)
    }

    /// The inputs of the trace: what a person types to get there.
    public var witness: [String]? { trace?.map(\.input) }

    /// The trace as the code matched it (`view(.startTapped)` where the input is `view`; a move of a
    /// machine without inputs by the state it enters, `to playing`): what the readable reports show.
    public var triggers: [String]? { trace?.map(\.readable) }
}

/// The shape of code a machine was read from (`../docs/dialects.md`).
public enum Dialect: String, Codable, Hashable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case operatorTable = "operator-table"
    case mappingFunction = "mapping-function"
    case actomaton
    case tca
    case tcaLegacy = "tca-legacy"
    case swiftstate
    case tinder
    case combineProcessor = "combine-processor"
    case switchMethod = "switch-method"
    case dictionaryTable = "dictionary-table"
    case gameplaykit

    public static func < (a: Dialect, b: Dialect) -> Bool { a.rawValue < b.rawValue }
    public var description: String { rawValue }
}

public struct Machine: Codable, Hashable, Sendable {
    public var name: String
    /// Stable identity: module + declaration path + field, never a line number. Baselines and
    /// suppressions key on it.
    public var id: String
    public var dialect: Dialect
    public var location: SourceLocation
    public var states: [String]
    public var inputs: [String]
    public var initial: String?
    /// Inputs that only the machine's own effects send back (set by the analyser from the effects,
    /// or by configuration).
    public var internalInputs: [String]
    public var rules: [Rule]
    public var edges: [Edge]
    public var findings: [Finding]
    public var order: RuleOrder
    /// States allowed to be dead ends (`// machine-viz: terminal`, configuration).
    public var terminal: [String]
    /// Where each state is declared, when the code declares it.
    public var stateLocations: [String: SourceLocation]
    /// Where each input is declared.
    public var inputLocations: [String: SourceLocation]
    /// The state is also written where the extractor does not follow (another method, a closure, a
    /// helper, another type): the machine holds only what it read. It is drawn marked partial, and
    /// its reachability findings are notes, not warnings.
    public var partial: Bool = false
    /// The writes of the state that were not read (set with `partial`).
    public var unreadWrites: [SourceLocation] = []
    /// Statements where the walk of its rules left paths out, too many to follow (set with `partial`).
    public var pathsLeftOut: [SourceLocation] = []
    /// States the code assigns only to overwrite them before the method returns (copy-on-write's
    /// `.modifying` placeholder): held only while a method runs, never reported unreachable.
    public var transient: [String] = []
    /// Effect ids given elsewhere in the code its module sees: where actions are sent with an id
    /// (Actomaton's `send(_:id:)`), and on effects outside its rules (a child feature's
    /// `.cancellable(id:)`, TCA cancellation being store-wide). A cancel of one of them is not unknown.
    /// Not part of the JSON.
    public var givenIDs: [String] = []

    public init(name: String, id: String? = nil, dialect: Dialect, location: SourceLocation, states: [String], inputs: [String],
                initial: String?, rules: [Rule], order: RuleOrder, terminal: [String] = [],
                stateLocations: [String: SourceLocation] = [:], inputLocations: [String: SourceLocation] = [:]) {
        self.name = name
        self.id = id ?? name
        self.dialect = dialect
        self.location = location
        self.states = states
        self.inputs = inputs
        self.initial = initial
        self.internalInputs = []
        self.rules = rules
        self.edges = []
        self.findings = []
        self.order = order
        self.terminal = terminal
        self.stateLocations = stateLocations
        self.inputLocations = inputLocations
    }

    enum CodingKeys: String, CodingKey {
        case name, id, dialect, location, states, inputs, internalInputs, initial, rules, edges, findings, order, terminal
        case partial, unreadWrites, pathsLeftOut, transient
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(id, forKey: .id)
        try c.encode(dialect, forKey: .dialect)
        try c.encode(location, forKey: .location)
        try c.encode(states, forKey: .states)
        try c.encode(inputs, forKey: .inputs)
        try c.encode(initial, forKey: .initial)
        try c.encode(internalInputs, forKey: .internalInputs)
        try c.encode(rules, forKey: .rules)
        try c.encode(edges, forKey: .edges)
        try c.encode(findings, forKey: .findings)
        try c.encode(order, forKey: .order)
        try c.encode(terminal, forKey: .terminal)
        if partial {
            try c.encode(true, forKey: .partial)
            try c.encode(unreadWrites, forKey: .unreadWrites)
            if !pathsLeftOut.isEmpty { try c.encode(pathsLeftOut, forKey: .pathsLeftOut) }
        }
        if !transient.isEmpty { try c.encode(transient, forKey: .transient) }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        id = try c.decodeIfPresent(String.self, forKey: .id) ?? name
        dialect = try c.decode(Dialect.self, forKey: .dialect)
        location = try c.decode(SourceLocation.self, forKey: .location)
        states = try c.decode([String].self, forKey: .states)
        inputs = try c.decode([String].self, forKey: .inputs)
        initial = try c.decodeIfPresent(String.self, forKey: .initial)
        internalInputs = try c.decodeIfPresent([String].self, forKey: .internalInputs) ?? []
        rules = try c.decode([Rule].self, forKey: .rules)
        edges = try c.decode([Edge].self, forKey: .edges)
        findings = try c.decode([Finding].self, forKey: .findings)
        order = try c.decodeIfPresent(RuleOrder.self, forKey: .order) ?? .resolved
        terminal = try c.decodeIfPresent([String].self, forKey: .terminal) ?? []
        partial = try c.decodeIfPresent(Bool.self, forKey: .partial) ?? false
        unreadWrites = try c.decodeIfPresent([SourceLocation].self, forKey: .unreadWrites) ?? []
        pathsLeftOut = try c.decodeIfPresent([SourceLocation].self, forKey: .pathsLeftOut) ?? []
        transient = try c.decodeIfPresent([String].self, forKey: .transient) ?? []
        stateLocations = [:]
        inputLocations = [:]
    }
}

/// The document `machine-viz analyze --format json` writes (schemaVersion 2: machine ids, edge
/// triggers, internal inputs, effect kinds and finding traces).
public struct AnalysisDocument: Codable, Hashable, Sendable {
    public var schemaVersion: Int
    public var machines: [Machine]
    public var diagnostics: [Diagnostic]
    /// Everything shaped like a machine and what became of it (`analyze --explain` only).
    public var candidates: [Candidate]?

    public init(machines: [Machine], diagnostics: [Diagnostic]) {
        self.schemaVersion = 2
        self.machines = machines
        self.diagnostics = diagnostics
    }

    /// Sorted keys, stable order: the same model gives the same bytes.
    public func jsonData() throws -> Data { try StableJSON.data(self) }
}

/// The one JSON encoding of the project: pretty-printed, sorted keys, unescaped slashes, a final
/// newline. Documents, baselines and reporters all use it, so equal values give equal bytes.
public enum StableJSON {
    public static func data<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        return data
    }
}

extension String {
    /// Whether `part` occurs in the string, compared byte by byte (Foundation's `contains` on Linux
    /// goes through NSString, which costs more than the search).
    public func containsBytes(_ part: String) -> Bool {
        let needle = Array(part.utf8)
        guard let first = needle.first else { return true }
        var text = self
        return text.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return false }
            var i = 0
            while i <= bytes.count - needle.count {
                if bytes[i] == first {
                    var k = 1
                    while k < needle.count, bytes[i + k] == needle[k] { k += 1 }
                    if k == needle.count { return true }
                }
                i += 1
            }
            return false
        }
    }
}

extension Array where Element: Hashable {
    /// The elements in first-seen order, each once.
    public func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }

    public func appendingUnique(_ other: [Element]) -> [Element] { (self + other).uniqued() }
}

/// `1 rule`, `2 rules`, `0 rules`: every count the tool prints goes through this.
public func counted(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
}

/// 64-bit FNV-1a of the text's UTF-8 bytes as 16 hex digits: a stable change detector and key, not a
/// cryptographic hash.
public func fnv1a64(_ text: String) -> String {
    var hash: UInt64 = 0xcbf29ce484222325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100000001b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}
