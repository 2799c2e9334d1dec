import MachineModel

/// Everything said about one check, once: the source of SARIF rule help, `docs/checks.md` and the
/// example tests (each triggering example must produce the check exactly where its `↓` markers
/// are; each non-triggering example must not produce it at all).
public struct CheckDescription: Hashable, Sendable {
    public var check: Check
    /// Short human name (`Unreachable state`).
    public var name: String
    /// One sentence: what the check reports.
    public var summary: String
    /// Why it matters and what to do about it.
    public var rationale: String
    /// What the finding's subject is (a state, `state/input`, …), which baselines key on.
    public var subject: String
    /// Swift sources that must trigger the check; `↓` marks where each finding is located.
    public var triggeringExamples: [String]
    /// Swift sources that must not trigger it.
    public var nonTriggeringExamples: [String]
    /// The witness of the first triggering example's finding, as `input → input (effect) → …`
    /// (tested against the analyser's trace), for checks whose findings carry one worth showing.
    public var trace: String?
    /// How to fix it, when the rationale does not already say.
    public var fix: String?

    public var identifier: String { check.rawValue }
    public var defaultSeverity: Severity { check.defaultSeverity }

    /// Every check, in `Check.allCases` order.
    public static var all: [CheckDescription] { Check.allCases.map(\.checkDescription) }

    /// The marker that shows where a triggering example's finding must be.
    public static let marker: Character = "↓"

    init(check: Check, name: String, summary: String, rationale: String, subject: String, triggeringExamples: [String],
         nonTriggeringExamples: [String], trace: String? = nil, fix: String? = nil) {
        self.check = check
        self.name = name
        self.summary = summary
        self.rationale = rationale
        self.subject = subject
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
        self.trace = trace
        self.fix = fix
    }

    /// A trace as the docs write it: triggers joined by ` → `, those an effect sent marked `(effect)`.
    public static func describe(_ trace: [TraceStep]) -> String {
        trace.map { $0.by == .effect ? "\($0.readable) (effect)" : $0.readable }.joined(separator: " → ")
    }
}

extension Check {
    public var checkDescription: CheckDescription {
        switch self {
        case .unreachableState:
            CheckDescription(
                check: self, name: "Unreachable state",
                summary: "A declared state that no sequence of inputs from the initial state reaches.",
                rationale: "Code for an unreachable state never runs: it is either dead and can go, or a rule that should lead to it is missing. The finding is located at the enum case. It is only reported when the initial state is known (from the code, `// machine-viz: initial`, or `initial:` in `.machine-viz.yml`). A state reached only from one the machine holds while a method runs (`state = .activating; …; state = .active`) is a note: a call re-entering the machine meanwhile would reach it, and re-entrant calls are not followed.",
                subject: "the state",
                triggeringExamples: [
                    """
                    enum Door { case closed, open, ↓broken }
                    enum DoorInput { case push, pull }

                    let doorRules: [Automaton<DoorInput, Door>.Mapping] = [
                        .push | .closed => .open,
                        .pull | .open   => .closed,
                    ]
                    let door = Automaton(state: .closed, input: doorInputs, mapping: reduce(doorRules))
                    """,
                ],
                nonTriggeringExamples: [
                    """
                    enum Door { case closed, open, broken }
                    enum DoorInput { case push, pull, kick, fix }

                    let doorRules: [Automaton<DoorInput, Door>.Mapping] = [
                        .push | .closed => .open,
                        .pull | .open   => .closed,
                        .kick | .closed => .broken,
                        .fix  | .broken => .closed,
                    ]
                    let door = Automaton(state: .closed, input: doorInputs, mapping: reduce(doorRules))
                    """,
                ])
        case .deadEndState:
            CheckDescription(
                check: self, name: "Dead-end state",
                summary: "A reachable state that no input leads out of.",
                rationale: "A machine that enters a dead end stays there for good. That is right for final states (done, cancelled): mark those `// machine-viz: terminal` or list them under `terminal:` in `.machine-viz.yml`. Otherwise a rule that leaves the state is missing. The finding is located at the enum case and carries a witness: the shortest input sequence that gets there. When the code gives no initial state, a state that some transition enters counts as reachable (the finding then has no witness). A machine of one state has no dead end: it has nowhere else to go.",
                subject: "the state",
                triggeringExamples: [
                    """
                    enum Job {
                        case queued, running
                        case ↓failed
                    }
                    enum JobInput { case start, finish, fail }

                    let jobRules: [Automaton<JobInput, Job>.Mapping] = [
                        .start  | .queued  => .running,
                        .finish | .running => .queued,
                        .fail   | .running => .failed,
                    ]
                    let job = Automaton(state: .queued, input: jobInputs, mapping: reduce(jobRules))
                    """,
                ],
                nonTriggeringExamples: [
                    """
                    enum Job {
                        case queued, running
                        // machine-viz: terminal
                        case failed
                    }
                    enum JobInput { case start, finish, fail }

                    let jobRules: [Automaton<JobInput, Job>.Mapping] = [
                        .start  | .queued  => .running,
                        .finish | .running => .queued,
                        .fail   | .running => .failed,
                    ]
                    let job = Automaton(state: .queued, input: jobInputs, mapping: reduce(jobRules))
                    """,
                    """
                    enum Job { case queued, running, failed }
                    enum JobInput { case start, finish, fail, retry }

                    let jobRules: [Automaton<JobInput, Job>.Mapping] = [
                        .start  | .queued  => .running,
                        .finish | .running => .queued,
                        .fail   | .running => .failed,
                        .retry  | .failed  => .queued,
                    ]
                    let job = Automaton(state: .queued, input: jobInputs, mapping: reduce(jobRules))
                    """,
                ])
        case .overlappingRules:
            CheckDescription(
                check: self, name: "Overlapping rules",
                summary: "Two or more rules with different targets match the same state and input.",
                rationale: "In dialects whose rules read as an unordered set (operator tables, route DSLs, `state { on }` blocks) only one of the overlapping rules decides the next state, and which one is easy to misread. The message says which rule wins and why. Make the patterns disjoint. Switch-based dialects are ordered on purpose and are not reported. The finding is located at the second rule.",
                subject: "`state/input`",
                triggeringExamples: [
                    """
                    enum Phase { case idle, armed, firing }
                    enum Signal { case arm, fire, reset }

                    let phaseRules: [Automaton<Signal, Phase>.Mapping] = [
                        .arm   | any     => .armed,
                        ↓any   | .armed  => .firing,
                        .reset | .firing => .idle,
                    ]
                    let phases = Automaton(state: .idle, input: signals, mapping: reduce(phaseRules))
                    """,
                ],
                nonTriggeringExamples: [
                    """
                    enum Phase { case idle, armed, firing }
                    enum Signal { case arm, fire, reset }

                    let phaseRules: [Automaton<Signal, Phase>.Mapping] = [
                        .arm   | .idle   => .armed,
                        .fire  | .armed  => .firing,
                        .reset | .firing => .idle,
                    ]
                    let phases = Automaton(state: .idle, input: signals, mapping: reduce(phaseRules))
                    """,
                ])
        case .shadowedRule:
            CheckDescription(
                check: self, name: "Shadowed rule",
                summary: "A rule that never fires because earlier rules take every state and input it matches.",
                rationale: "A shadowed rule is dead code that looks alive: a reader expects it to apply. Remove it, or move it before the rule that takes its pairs. The finding is located at the shadowed rule; its subject names the line, so baselines key it by the rule's states, inputs and targets instead.",
                subject: "`line:N`",
                triggeringExamples: [
                    """
                    enum Light { case red, green, flashing }
                    enum LightEvent { case timer, fault, reset }

                    struct Junction {
                        var light: Light = .red

                        mutating func handle(_ event: LightEvent) {
                            switch (light, event) {
                            case (.red, .timer): light = .green
                            case (.green, .timer): light = .red
                            case (.flashing, .reset): light = .red
                            case (_, .fault): light = .flashing
                            ↓case (.red, .fault): light = .red
                            default: break
                            }
                        }
                    }
                    """,
                ],
                nonTriggeringExamples: [
                    """
                    enum Light { case red, green, flashing }
                    enum LightEvent { case timer, fault, reset }

                    struct Junction {
                        var light: Light = .red

                        mutating func handle(_ event: LightEvent) {
                            switch (light, event) {
                            case (.red, .fault): light = .red
                            case (.red, .timer): light = .green
                            case (.green, .timer): light = .red
                            case (.flashing, .reset): light = .red
                            case (_, .fault): light = .flashing
                            default: break
                            }
                        }
                    }
                    """,
                ])
        case .dataDependentTarget:
            CheckDescription(
                check: self, name: "Data-dependent target",
                summary: "One rule can lead to several states, chosen by a payload or the environment.",
                rationale: "The diagram shows every possible target, but which one is taken depends on data the tool cannot see. This is often intended (a validation result); the note makes it visible. Split the input into distinct inputs if the choice is really part of the protocol.",
                subject: "`state/input`",
                triggeringExamples: [
                    """
                    enum Form { case editing, sending, invalid }
                    enum FormEvent { case submit, edit }

                    struct Signup {
                        var form: Form = .editing
                        var isValid = false

                        mutating func send(_ event: FormEvent) {
                            switch (form, event) {
                            ↓case (.editing, .submit):
                                if isValid { form = .sending } else { form = .invalid }
                            case (.invalid, .edit), (.sending, .edit):
                                form = .editing
                            default:
                                break
                            }
                        }
                    }
                    """,
                ],
                nonTriggeringExamples: [
                    """
                    enum Form { case editing, sending }
                    enum FormEvent { case submit, edit }

                    struct Signup {
                        var form: Form = .editing

                        mutating func send(_ event: FormEvent) {
                            switch (form, event) {
                            case (.editing, .submit):
                                form = .sending
                            case (.sending, .edit):
                                form = .editing
                            default:
                                break
                            }
                        }
                    }
                    """,
                ])
        case .unusedInput:
            CheckDescription(
                check: self, name: "Unused input",
                summary: "A declared input that no rule accepts in any state.",
                rationale: "Sending an unused input does nothing, which is rarely what the sender meant: a rule is missing, or the input can go. The finding is located at the input's enum case.",
                subject: "the input",
                triggeringExamples: [
                    """
                    enum Fan { case off, on }
                    enum FanInput { case toggle, ↓boost }

                    let fanRules: [Automaton<FanInput, Fan>.Mapping] = [
                        .toggle | .off => .on,
                        .toggle | .on  => .off,
                    ]
                    let fan = Automaton(state: .off, input: fanInputs, mapping: reduce(fanRules))
                    """,
                ],
                nonTriggeringExamples: [
                    """
                    enum Fan { case off, on, boosted }
                    enum FanInput { case toggle, boost }

                    let fanRules: [Automaton<FanInput, Fan>.Mapping] = [
                        .toggle | .off     => .on,
                        .toggle | .on      => .off,
                        .boost  | .on      => .boosted,
                        .toggle | .boosted => .off,
                    ]
                    let fan = Automaton(state: .off, input: fanInputs, mapping: reduce(fanRules))
                    """,
                ])
        case .duplicateKey:
            CheckDescription(
                check: self, name: "Duplicate key",
                summary: "A transition table literal names the same state and input twice, or the same state twice as the outer key of a nested table.",
                rationale: "A dictionary literal with a key written twice traps at run time (\"Dictionary literal contains duplicate keys\"), and one of the two entries was meant otherwise: two transitions for one state and input, or two rows for one state whose inputs belong in one row. Keep one, or merge the rows. Reported for table dialects that build the table from a literal (dictionary tables).",
                subject: "`state/input`, or `state/*` for a row written twice",
                triggeringExamples: [
                    """
                    enum Tap { case closed, open }
                    enum TapInput { case turn, close }

                    let tapTable: [Tap: [TapInput: Tap]] = [
                        .closed: [.turn: .open],
                        .open: [.close: .closed, ↓.close: .open],
                    ]
                    """,
                ],
                nonTriggeringExamples: [
                    """
                    enum Tap { case closed, open }
                    enum TapInput { case turn, close }

                    let tapTable: [Tap: [TapInput: Tap]] = [
                        .closed: [.turn: .open],
                        .open: [.close: .closed],
                    ]
                    """,
                ])
        case .invariantViolation:
            CheckDescription(
                check: self, name: "Invariant violation",
                summary: "A combination of a struct state's fields that some input sequence reaches although a stated invariant forbids it.",
                rationale: "A feature whose state has several fields that are machines (an enum, a `Bool`, an `Optional`) is explored as their product, so a condition on one field (`guard !state.isLoading`) is evaluated in the branch that changes another. State what must always hold with `// machine-viz: invariant isLoading implies phase == .loading` inside the state type, or under `invariants:` in `.machine-viz.yml`; a reachable combination that breaks it is reported at the case whose branch made it, with the shortest trace (`machine-viz render --product Feature --trace invariant_violation:…` draws it). Fix the branch so it writes both fields, or guard it. Exploration stops at `product_budget` combinations (10000 by default) with a diagnostic.",
                subject: "the invariant's text",
                triggeringExamples: [
                    """
                    import ComposableArchitecture

                    @Reducer
                    struct Search {
                        @ObservableState
                        struct State {
                            // machine-viz: invariant isLoading implies phase == .loading
                            var phase: Phase = .idle
                            var isLoading = false
                        }
                        enum Phase { case idle, loading, done }
                        enum Action { case search, finished, cancel }

                        var body: some ReducerOf<Self> {
                            Reduce { state, action in
                                switch action {
                                case .search:
                                    guard !state.isLoading else { return .none }
                                    state.phase = .loading
                                    state.isLoading = true
                                    return .none
                                ↓case .cancel:
                                    state.phase = .idle
                                    return .none
                                case .finished:
                                    state.phase = .done
                                    state.isLoading = false
                                    return .none
                                }
                            }
                        }
                    }
                    """,
                ],
                nonTriggeringExamples: [
                    """
                    import ComposableArchitecture

                    @Reducer
                    struct Search {
                        @ObservableState
                        struct State {
                            // machine-viz: invariant isLoading implies phase == .loading
                            var phase: Phase = .idle
                            var isLoading = false
                        }
                        enum Phase { case idle, loading, done }
                        enum Action { case search, finished, cancel }

                        var body: some ReducerOf<Self> {
                            Reduce { state, action in
                                switch action {
                                case .search:
                                    guard !state.isLoading else { return .none }
                                    state.phase = .loading
                                    state.isLoading = true
                                    return .none
                                case .cancel:
                                    state.phase = .idle
                                    state.isLoading = false
                                    return .none
                                case .finished:
                                    guard state.isLoading else { return .none }
                                    state.phase = .done
                                    state.isLoading = false
                                    return .none
                                }
                            }
                        }
                    }
                    """,
                ])
        case .staleEffectOutput, .uncancelledEffect, .waitingForever, .unknownCancelID:
            effectCheckDescription
        case .unusedSuppression:
            CheckDescription(
                check: self, name: "Unused suppression",
                summary: "A `// machine-viz:disable…` comment that suppresses no finding, or names no known check.",
                rationale: "A suppression outlives the finding it was written for: once the code is fixed the comment only hides the next real problem on that line. Remove it. Commands for checks disabled in `.machine-viz.yml` are not reported. The finding is located at the comment.",
                subject: "`File.swift: machine-viz:COMMAND CHECK`",
                triggeringExamples: [
                    """
                    enum Door {
                        case closed
                        ↓// machine-viz:disable:next dead_end_state - open is not a dead end
                        case open
                    }
                    enum DoorInput { case push, pull }

                    let doorRules: [Automaton<DoorInput, Door>.Mapping] = [
                        .push | .closed => .open,
                        .pull | .open   => .closed,
                    ]
                    let door = Automaton(state: .closed, input: doorInputs, mapping: reduce(doorRules))
                    """,
                ],
                nonTriggeringExamples: [
                    """
                    enum Door {
                        case closed
                        // machine-viz:disable:next dead_end_state - the door is welded shut for good
                        case welded
                    }
                    enum DoorInput { case weld }

                    let doorRules: [Automaton<DoorInput, Door>.Mapping] = [
                        .weld | .closed => .welded,
                    ]
                    let door = Automaton(state: .closed, input: doorInputs, mapping: reduce(doorRules))
                    """,
                ])
        }
    }
}
