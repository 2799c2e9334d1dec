import MachineModel

/// The effect-aware checks: `stale_effect_output`, `uncancelled_effect` and `waiting_forever` from an
/// exploration of configurations, `unknown_cancel_id` from the rules. Not run when the initial state
/// is unknown.
struct EffectChecks {
    var bounds: EffectBounds

    /// `firing`: the machine's, when the caller has resolved its rules already.
    func run(_ machine: Machine, product: ProductView? = nil,
             firing: [Pair: [(rule: Rule, outcome: Outcome)]]? = nil) -> (findings: [Finding], diagnostics: [Diagnostic]) {
        guard machine.initial != nil else { return ([], []) }
        var findings = unknownCancelIDs(machine)
        let model = EffectModel(machine: machine, bounds: bounds, firing: firing)
        guard !model.definitions.isEmpty || !machine.internalInputs.isEmpty else { return (findings, []) }
        guard model.states.count <= EffectExplorer.maxStates else {
            return (findings, [Diagnostic(severity: .note, message: "\(machine.name): \(model.states.count) states, more than the \(EffectExplorer.maxStates) the effect exploration takes; its effects are not checked", location: machine.location)])
        }
        // along moves that assume nothing: no false alarm from another field's value, and no witness lost
        // because a configuration was first reached on an assumption
        let result = EffectExplorer(model: model, sureOnly: true).explore()
        var diagnostics: [Diagnostic] = []
        func path(_ trace: [TraceStep]) -> String {
            trace.isEmpty ? "from the start" : "after " + trace.map { "\($0.readable)\($0.by == .effect ? " (effect)" : "")" }.joined(separator: " → ")
        }
        // only witnesses that assume nothing the tool cannot check: no false alarms from other fields
        var stale = result.stale.filter { !$0.assumed }.map { (model, $0) }
        // a race the machine alone can show only on a condition over another field: the product of the
        // struct's fields evaluates those conditions
        if let product, model.moves.joined().joined().contains(where: \.assumed) {
            let productModel = product.effectModel(internalInputs: machine.internalInputs, bounds: bounds)
            if productModel.states.count <= EffectExplorer.maxStates {
                let found = Set(stale.map(\.1.input))
                stale += EffectExplorer(model: productModel, sureOnly: true).explore().stale
                    .filter { !$0.assumed && !found.contains($0.input) }.map { (productModel, $0) }
            } else {
                diagnostics.append(Diagnostic(
                    severity: .note,
                    message: "\(machine.name): the product \(product.machine.name) has \(productModel.states.count) combinations, more than the \(EffectExplorer.maxStates) the effect exploration takes; races that depend on another field are not checked",
                    location: machine.location))
            }
        }
        for (model, s) in stale {
            let d = model.definitions[s.definition]
            let earlier = s.trace.dropLast()
            findings.append(Finding(
                check: .staleEffectOutput,
                message: "a late '\(s.input)' from the effect started at line \(d.location.line) (`\(d.label)`) moves the machine from '\(s.from)' to '\(s.to)' \(path(Array(earlier))): the state that effect was started for has been left since, and nothing cancelled it",
                location: d.location, subject: s.input, trace: s.trace))
        }
        for u in result.uncancelled where !u.assumed {
            let d = model.definitions[u.definition]
            let sends = d.emits.map { "'\(model.inputs[$0])'" }.joined(separator: ", ")
            findings.append(Finding(
                check: .uncancelledEffect,
                message: "the stream started at line \(d.location.line) (`\(d.label)`) is still running in '\(u.state)' \(path(u.trace)), where what it sends (\(sends)) does nothing: it runs for nothing until the feature goes away",
                location: d.location, subject: d.subject, trace: u.trace))
        }
        for w in result.waiting where !w.assumed {
            let exits = w.exits.map { "'\($0)'" }.joined(separator: " or ")
            findings.append(Finding(
                check: .waitingForever,
                message: "'\(w.state)' is left only by \(exits), which only effects send, and \(path(w.trace)) no effect that could send \(w.exits.count == 1 ? "it" : "them") is in flight, nor can an input start one: the machine stays in '\(w.state)' forever",
                location: machine.stateLocations[w.state] ?? machine.location, subject: w.state, trace: w.trace))
        }
        if let hit = result.boundHit {
            let def = model.definitions[hit.definition]
            let trace = hit.trace
            // common (an effect any tap restarts), so a note; the budget below is a warning
            diagnostics.append(Diagnostic(
                severity: .note,
                message: "\(machine.name): more than \(bounds.maxInstances) instances of the effect started at line \(def.location.line) (`\(def.label)`) can be in flight (\(path(trace))); configurations with more were not explored, so effect findings may be missing (raise the bound with --max-effect-instances or `effects: { max_instances: N }`)",
                location: def.location))
        }
        if !result.complete {
            diagnostics.append(Diagnostic(
                severity: .warning,
                message: "\(machine.name): effect exploration stopped at its budget of \(bounds.budget) configurations; effect findings may be missing (raise it with --effect-budget or `effects: { budget: N }`)",
                location: machine.location))
        }
        return (findings, diagnostics)
    }

    /// Cancels naming an id no effect of the machine uses (as an id or a queue), nor the code around
    /// it gives (`Machine.givenIDs`: a send with an id, a child feature's cancellable effect).
    func unknownCancelIDs(_ machine: Machine) -> [Finding] {
        // each single effect: an id given to one part of a `.merge` counts too
        let effects = machine.rules.flatMap { $0.outcomes.compactMap(\.effect) }.flatMap { [$0] + $0.components }
        let used = (effects.flatMap { [$0.id, $0.queue].compactMap { $0 } } + machine.givenIDs).map(Self.head)
        var seen = Set<String>()
        var findings: [Finding] = []
        for rule in machine.rules {
            for outcome in rule.outcomes {
                for id in outcome.cancels where id != "*" && id != "strategy: .latest" && seen.insert(id).inserted {
                    let head = Self.head(id)
                    // a run-time value (`id`, `state.id`): cannot say which effect it names
                    guard let first = head.first, first.isUppercase || !head.contains(".") && !id.hasSuffix("(runtime value)"),
                          !used.contains(where: { EffectModel.sameID($0, head) }) else { continue }
                    findings.append(Finding(
                        check: .unknownCancelID,
                        message: "the cancel of '\(id)' names an id that no effect of \(machine.name) uses: at run time it cancels nothing (a misspelt id, or an effect that lost its cancellable id)",
                        location: rule.location, subject: id))
                }
            }
        }
        return findings
    }

    /// `DownloadID(id) (runtime value)` → `DownloadID`; `CancelID.timer` stays.
    static func head(_ id: String) -> String {
        var text = id
        if let r = text.range(of: " (runtime value)") { text = String(text[..<r.lowerBound]) }
        if let paren = text.firstIndex(of: "(") { text = String(text[..<paren]) }
        return text
    }
}

/// A struct state's product (`ProductExplorer`) seen from one of its fields: the field machine
/// `Type.field` checks its effects on it where its own exploration has to assume another field.
public struct ProductView: Sendable {
    public var machine: Machine
    public var field: String
    /// Each product state's field values.
    public var values: [[String: String]]

    public init(machine: Machine, field: String, values: [[String: String]]) {
        self.machine = machine
        self.field = field
        self.values = values
    }

    /// The product's effect model seen from the field: effects go stale when the field changes, and
    /// one started whatever the field's value is (the other fields alike) is started for no value.
    public func effectModel(internalInputs: [String]? = nil, bounds: EffectBounds = EffectBounds()) -> EffectModel {
        var whole = machine
        if let internalInputs { whole.internalInputs = internalInputs }
        let seen = values.map { $0[field] ?? "?" }
        let others = values.map { $0.filter { $0.key != field }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") }
        return EffectModel(machine: whole, bounds: bounds, projection: seen, context: others)
    }

    /// The view of `machine` (named `Type.field`) among explored products, when one is complete.
    public static func find(for machine: Machine, in products: [ProductExplorer.Result]) -> ProductView? {
        for p in products where p.unexplored == nil && p.budgetMessage == nil && p.machine.location.file == machine.location.file {
            guard machine.name.hasPrefix(p.machine.name + "."), let first = p.values.first else { continue }
            let field = String(machine.name.dropFirst(p.machine.name.count + 1))
            guard first[field] != nil else { continue }
            return ProductView(machine: p.machine, field: field, values: p.values)
        }
        return nil
    }
}
