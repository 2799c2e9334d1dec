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
    public var label: String?
    public var emits: [String]
    public var queue: String?
    public var policy: String?
    public var id: String?

    public init(label: String? = nil, emits: [String] = [], queue: String? = nil, policy: String? = nil, id: String? = nil) {
        self.label = label
        self.emits = emits
        self.queue = queue
        self.policy = policy
        self.id = id
    }

    /// Two effects of one rule joined (`+`, `.merge`, branches of one case).
    public func merged(with other: Effect) -> Effect {
        var labels: [String] = []
        for l in [label, other.label].compactMap({ $0 }) where !labels.contains(l) { labels.append(l) }
        return Effect(
            label: labels.isEmpty ? nil : labels.joined(separator: " + "),
            emits: emits.appendingUnique(other.emits),
            queue: queue ?? other.queue,
            policy: policy ?? other.policy,
            id: id ?? other.id)
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
    /// The case pattern when it narrows the input further than its case name (`.view(.stopTapped)`).
    public var pattern: String?

    public init(pairs: [Pair], target: Target, effect: Effect? = nil, cancels: [String] = [], guardText: String? = nil,
                pattern: String? = nil) {
        self.pairs = pairs
        self.target = target
        self.effect = effect
        self.cancels = cancels
        self.guardText = guardText
        self.pattern = pattern
    }

    /// Whether this branch produces the edge `from --input--> to`.
    public func produces(from: String, input: String, to: String) -> Bool {
        guard pairs.contains(Pair(from: from, input: input)) else { return false }
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
    public var effect: Effect? {
        var result: Effect?
        for e in outcomes.compactMap(\.effect) { result = result.map { $0.merged(with: e) } ?? e }
        return result
    }
    public var cancels: [String] { outcomes.flatMap(\.cancels).uniqued() }
    /// The branches behind one edge of this rule.
    public func outcomes(for edge: Edge) -> [Outcome] {
        outcomes.filter { $0.produces(from: edge.from, input: edge.input, to: edge.to) }
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
        let patterns = outcomes.compactMap(\.pattern).uniqued()
        if !patterns.isEmpty { try c.encode(patterns, forKey: .patterns) }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        location = try c.decode(SourceLocation.self, forKey: .location)
        let inputs = try c.decode([String].self, forKey: .inputs)
        let from = try c.decode([String].self, forKey: .from)
        let targets = try c.decode([String].self, forKey: .targets)
        let pairs = from.flatMap { s in inputs.map { Pair(from: s, input: $0) } }
        let effect = try c.decodeIfPresent(Effect.self, forKey: .effect)
        let cancels = try c.decodeIfPresent([String].self, forKey: .cancels) ?? []
        outcomes = (targets.isEmpty ? [Target.stay] : targets.map(Target.state)).map {
            Outcome(pairs: pairs, target: $0, effect: effect, cancels: cancels)
        }
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

    public init(from: String, input: String, to: String, rule: Int, noop: Bool) {
        self.from = from
        self.input = input
        self.to = to
        self.rule = rule
        self.noop = noop
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

public struct Finding: Codable, Hashable, Sendable {
    public var check: String
    public var severity: Severity
    public var message: String
    public var location: SourceLocation
    public var subject: String
    /// The shortest input sequence from the initial state that reaches the finding's state.
    public var witness: [String]?

    public init(check: String, severity: Severity, message: String, location: SourceLocation, subject: String, witness: [String]? = nil) {
        self.check = check
        self.severity = severity
        self.message = message
        self.location = location
        self.subject = subject
        self.witness = witness
    }
}

public struct Machine: Codable, Hashable, Sendable {
    public var name: String
    public var dialect: String
    public var location: SourceLocation
    public var states: [String]
    public var inputs: [String]
    public var initial: String?
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

    public init(name: String, dialect: String, location: SourceLocation, states: [String], inputs: [String],
                initial: String?, rules: [Rule], order: RuleOrder, terminal: [String] = [],
                stateLocations: [String: SourceLocation] = [:], inputLocations: [String: SourceLocation] = [:]) {
        self.name = name
        self.dialect = dialect
        self.location = location
        self.states = states
        self.inputs = inputs
        self.initial = initial
        self.rules = rules
        self.edges = []
        self.findings = []
        self.order = order
        self.terminal = terminal
        self.stateLocations = stateLocations
        self.inputLocations = inputLocations
    }

    enum CodingKeys: String, CodingKey {
        case name, dialect, location, states, inputs, initial, rules, edges, findings, order, terminal
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(dialect, forKey: .dialect)
        try c.encode(location, forKey: .location)
        try c.encode(states, forKey: .states)
        try c.encode(inputs, forKey: .inputs)
        try c.encode(initial, forKey: .initial)
        try c.encode(rules, forKey: .rules)
        try c.encode(edges, forKey: .edges)
        try c.encode(findings, forKey: .findings)
        try c.encode(order, forKey: .order)
        try c.encode(terminal, forKey: .terminal)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        dialect = try c.decode(String.self, forKey: .dialect)
        location = try c.decode(SourceLocation.self, forKey: .location)
        states = try c.decode([String].self, forKey: .states)
        inputs = try c.decode([String].self, forKey: .inputs)
        initial = try c.decodeIfPresent(String.self, forKey: .initial)
        rules = try c.decode([Rule].self, forKey: .rules)
        edges = try c.decode([Edge].self, forKey: .edges)
        findings = try c.decode([Finding].self, forKey: .findings)
        order = try c.decodeIfPresent(RuleOrder.self, forKey: .order) ?? .resolved
        terminal = try c.decodeIfPresent([String].self, forKey: .terminal) ?? []
        stateLocations = [:]
        inputLocations = [:]
    }
}

/// The document `machine-viz analyze --format json` writes (schemaVersion 1).
public struct AnalysisDocument: Codable, Hashable, Sendable {
    public var schemaVersion: Int
    public var machines: [Machine]
    public var diagnostics: [Diagnostic]

    public init(machines: [Machine], diagnostics: [Diagnostic]) {
        self.schemaVersion = 1
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
