import Foundation
import MachineModel
import SwiftSyntax

/// D7: Tinder/StateMachine's result-builder DSL:
///
/// ```swift
/// StateMachine<State, Event, SideEffect> {
///     initialState(start)
///     state(.x) {
///         on(.e) { transition(to: .y, emit: .effect) }
///         on(.f) { state, event in cond ? transition(to: .y) : dontTransition() }
///     }
///     onTransition { … }
/// }
/// ```
///
/// - `state(.x)` and `on(.e)` match by case, ignoring payloads (`@StateMachineHashable`): names only.
/// - Each `on` is a rule. Its targets are the `transition(to:)` / `dontTransition()` calls in its body,
///   under the `if`/`guard`/`?:`/`switch` conditions that choose them (shown as guards); several targets make
///   the rule data-dependent. A body that computes its result elsewhere gives an unknown target and a diagnostic.
/// - `dontTransition(emit:)` is a self-loop with an effect; `emit:` values are side-effect cases, shown as
///   the effect's label (they are interpreted by `onTransition`, they are not inputs).
/// - `initialState(x)`: a case, a parameter's default value, or a stored value.
/// - Unhandled pairs fail with `Transition.Invalid`: no edge.
struct TinderRecogniser: Recogniser {
    func finder(for file: ParsedFile) -> SyntaxVisitor? { Finder() }

    func recognise(in context: ExtractionContext, found: [SyntaxVisitor?]) {
        for (file, finder) in self.found(found, in: context, as: Finder.self) {
            for (call, closure) in finder.builders(index: context.index) { build(call, closure, file: file, context: context) }
        }
    }

    final class Finder: SyntaxVisitor {
        /// Calls with a builder-shaped closure (`state(…) { … }` among its statements), in walk order;
        /// `initial`: it also sets `initialState`, a builder whatever the called type.
        var shaped: [(call: FunctionCallExprSyntax, closure: ClosureExprSyntax, initial: Bool)] = []
        init() { super.init(viewMode: .sourceAccurate) }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            // (or one setting the initial state whose `state` blocks come from functions it calls: `Machine {
            // initialState(.idle); idleState(); paidState() }`)
            guard let closure = SyntaxHelpers.closures(of: node).last else { return .visitChildren }
            let hasInitial = TinderRecogniser.lazyTopCalls(closure.statements).contains { DSLSupport.calleeName($0) == "initialState" }
            guard hasInitial || TinderRecogniser.lazyTopCalls(closure.statements).contains(where: { DSLSupport.calleeName($0) == "state" && $0.trailingClosure != nil })
            else { return .visitChildren }
            shaped.append((node, closure, hasInitial))
            // a builder's closure is read by the builder (one with no initial state is judged by its type)
            return hasInitial ? .skipChildren : .visitChildren
        }

        /// The builders: a shaped call that sets its initial state, or constructs Tinder's
        /// `StateMachine<S, E, F>` (typealiases followed), and not inside another builder.
        func builders(index: SymbolIndex) -> [(FunctionCallExprSyntax, ClosureExprSyntax)] {
            SyntaxHelpers.outermost(shaped, node: { Syntax($0.call) }) { s in
                s.initial || DSLSupport.constructedType(s.call, index: index).map { DSLSupport.genericType($0, at: s.call, index: index).name } == "StateMachine"
            }.map { ($0.call, $0.closure) }
        }
    }

    /// Calls that are whole statements of a builder block.
    static func topCalls(_ items: CodeBlockItemListSyntax) -> [FunctionCallExprSyntax] {
        Array(lazyTopCalls(items))
    }

    /// The same, computed as they are asked for: the finder asks it of every closure passed to a call,
    /// and most have no call that matters.
    static func lazyTopCalls(_ items: CodeBlockItemListSyntax) -> some Sequence<FunctionCallExprSyntax> {
        items.lazy.compactMap { item -> FunctionCallExprSyntax? in
            var e: ExprSyntax?
            if let x = item.item.as(ExprSyntax.self) { e = x }
            if let s = item.item.as(ExpressionStmtSyntax.self) { e = s.expression }
            return e.flatMap { SyntaxHelpers.unwrap($0).as(FunctionCallExprSyntax.self) }
        }
    }

    struct Branch {
        var target: ExprSyntax?      // nil: dontTransition
        var emit: ExprSyntax?
        var guards: [String]
    }

    /// A builder block's calls, those of a function it calls with nothing that gives `state` blocks in their
    /// place (`idleState()` returning `state(.idle) { … }`).
    static func blockCalls(_ items: CodeBlockItemListSyntax, index: SymbolIndex) -> [FunctionCallExprSyntax] {
        topCalls(items).flatMap { call -> [FunctionCallExprSyntax] in
            guard call.arguments.isEmpty, call.trailingClosure == nil, !["state", "initialState"].contains(DSLSupport.calleeName(call)) else { return [call] }
            let functions = index.functions(referencedBy: call.calledExpression, at: Syntax(call))
            // (in the same file: its rows are located there)
            guard functions.count == 1, let body = functions[0].body, body.root.id == call.root.id else { return [call] }
            let inner = SyntaxHelpers.onlyValue(body.statements).flatMap { SyntaxHelpers.unwrap($0).as(FunctionCallExprSyntax.self) }.map { [$0] }
                ?? topCalls(body.statements)
            return inner.contains { DSLSupport.calleeName($0) == "state" } ? inner : [call]
        }
    }

    func build(_ call: FunctionCallExprSyntax, _ closure: ClosureExprSyntax, file: ParsedFile, context: ExtractionContext) {
        let top = Self.blockCalls(closure.statements, index: context.index)
        // Types: the constructed type (through typealiases), the binding's annotation, or the function's return type.
        var typeText = DSLSupport.constructedType(call, index: context.index)
        if typeText == nil || typeText == ".init" { typeText = DSLSupport.annotatedType(of: call) }
        if typeText == nil, let f = SyntaxHelpers.enclosingFunction(call) { typeText = f.signature.returnClause?.type.trimmedText }
        let generic = typeText.map { DSLSupport.genericType($0, at: call, index: context.index) }
        let args = generic?.arguments ?? []

        var stateNames: [String] = []
        var eventNames: [String] = []
        var blocks: [(FunctionCallExprSyntax, [String])] = []
        for c in top where DSLSupport.calleeName(c) == "state" {
            let names = c.arguments.compactMap { SyntaxHelpers.caseReference($0.expression, context.index)?.name }
            if names.count != c.arguments.count || names.isEmpty {
                context.warn("cannot read the state of `\(c.arguments.compactText.prefix(40))`; its block is left out", at: file.location(of: c))
                continue
            }
            stateNames += names
            blocks.append((c, names))
            for on in c.trailingClosure.map({ Self.topCalls($0.statements) }) ?? [] where DSLSupport.calleeName(on) == "on" {
                eventNames += on.arguments.compactMap { $0.expression.is(ClosureExprSyntax.self) ? nil : SyntaxHelpers.caseReference($0.expression, context.index)?.name }
            }
        }
        // targets, for type inference
        for c in DSLSupport.calls(in: closure) where DSLSupport.calleeName(c) == "transition" {
            if let t = SyntaxHelpers.argument(c, "to"), let r = SyntaxHelpers.caseReference(t, context.index) { stateNames.append(r.name) }
        }
        // StateMachine<State, Event, SideEffect>: the type arguments say which enum is which
        let stateEnum = args.first?.enumInfo
        let eventEnum = args.count > 1 ? args[1].enumInfo : nil
        let states = context.caseList(stateEnum, used: stateNames)
        let inputs = context.caseList(eventEnum, used: eventNames)
        guard !states.isEmpty else { return }

        // The library keeps one handler per state and event, in dictionaries: a later `state(.s)` block
        // replaces an earlier one whole, and a later `on(.e)` in a block replaces an earlier one
        func ons(_ block: FunctionCallExprSyntax) -> [FunctionCallExprSyntax] {
            (block.trailingClosure.map { Self.topCalls($0.statements) } ?? []).filter { DSLSupport.calleeName($0) == "on" }
        }
        func events(of on: FunctionCallExprSyntax) -> [String] {
            on.arguments.compactMap { $0.expression.is(ClosureExprSyntax.self) ? nil : SyntaxHelpers.caseReference($0.expression, context.index)?.name }
        }
        var lastBlock: [String: Int] = [:]
        var lastOn: [Pair: SyntaxIdentifier] = [:]
        for (k, (block, from)) in blocks.enumerated() {
            for state in from { lastBlock[state] = k }
            for on in ons(block) { for state in from { for e in events(of: on) { lastOn[Pair(from: state, input: e)] = on.id } } }
        }
        var rules: [Rule] = []
        for (k, (block, from)) in blocks.enumerated() {
            for on in ons(block) {
                let location = file.location(of: on)
                let events = events(of: on)
                guard !events.isEmpty else {
                    context.warn("cannot read the event of `on(\(on.arguments.compactText.prefix(40)))`; it is left out", at: location)
                    continue
                }
                let replaced = from.filter { state in lastBlock[state] != k || events.contains { lastOn[Pair(from: state, input: $0)] != on.id } }
                if !replaced.isEmpty {
                    let later = lastBlock[replaced[0]] != k ? "a later `state(.\(replaced[0]))` block replaces this one" : "a later `on(.\(events[0]))` in this block replaces it"
                    context.warn("`on(.\(events[0]))` in state .\(replaced[0]) never runs: StateMachine keeps one handler per state and event, and \(later)",
                                 at: location)
                }
                let live = from.filter { !replaced.contains($0) }
                guard !live.isEmpty else { continue }
                guard let body = SyntaxHelpers.closures(of: on).last else {
                    context.warn("`on(.\(events[0]))` has no closure to read; it is left out", at: location)
                    continue
                }
                context.claimed.insert(body.id)
                let statePath = SyntaxHelpers.closureParameterNames(body).first
                let pairs = live.flatMap { s in events.map { Pair(from: s, input: $0) } }
                let branches = self.branches(in: body)
                var outcomes: [Outcome] = []
                if branches.isEmpty {
                    let text = body.statements.compactText
                    context.warn("`on(.\(events[0]))` in state .\(live[0]) computes its result (`\(text.prefix(50))`); its target cannot be drawn",
                                 at: location)
                    outcomes.append(Outcome(pairs: pairs, target: .unknown(String(text.prefix(60)))))
                }
                for b in branches {
                    var target: Target = .stay
                    if let t = b.target {
                        if let r = SyntaxHelpers.caseReference(t, context.index, accepting: states.contains) {
                            target = .state(r.name)
                        } else if let p = SyntaxHelpers.path(t), p == statePath {
                            target = .stay
                        } else {
                            target = .unknown(t.compactText)
                            context.warn("the target `\(t.compactText.prefix(40))` is computed at run time; its edges cannot be drawn",
                                         at: file.location(of: t), severity: .note)
                        }
                    }
                    let effect = b.emit.map { e -> Effect in
                        let label = SyntaxHelpers.caseReference(e, context.index)?.name ?? e.compactText
                        return Effect(label: label)
                    }
                    outcomes.append(Outcome(pairs: pairs, target: target, effect: effect,
                                            guardText: b.guards.isEmpty ? nil : b.guards.joined(separator: " && ")))
                }
                rules.append(Rule(location: location, outcomes: outcomes))
            }
        }
        guard !rules.isEmpty else { return }
        let initial = initialState(top, call: call, states: states, file: file, context: context)
        let name = DSLSupport.storageName(call) ?? "stateMachine@\(file.location(of: call).line)"
        let machine = Machine(name: name, dialect: .tinder, location: file.location(of: call), states: states, inputs: inputs,
                              initial: initial, rules: rules, order: .allMatch,
                              stateLocations: context.locations(stateEnum), inputLocations: context.locations(eventEnum))
        context.add(machine, stateEnum: stateEnum, at: call)
    }

    /// `transition(to:emit:)` / `dontTransition(emit:)` calls in an `on` body, with the conditions leading to each.
    func branches(in body: ClosureExprSyntax) -> [Branch] {
        final class V: SyntaxVisitor {
            var calls: [FunctionCallExprSyntax] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if let n = DSLSupport.calleeName(node), n == "transition" || n == "dontTransition" {
                    calls.append(node)
                    return .skipChildren
                }
                return .visitChildren
            }
        }
        let v = V()
        for item in body.statements { v.walk(item) }
        return v.calls.map { c in
            let name = DSLSupport.calleeName(c)
            return Branch(target: name == "transition" ? (SyntaxHelpers.argument(c, "to") ?? c.arguments.first?.expression) : nil,
                          emit: SyntaxHelpers.argument(c, "emit"), guards: conditions(of: c, upTo: body))
        }
    }

    /// The `if`, `?:`, `guard` and `case` conditions on the way from a closure to a node.
    func conditions(of node: some SyntaxProtocol, upTo top: ClosureExprSyntax) -> [String] {
        var result: [String] = []
        var child = Syntax(node)
        var current = child.parent
        while let c = current, c.id != top.id {
            if let i = c.as(IfExprSyntax.self) {
                let text = i.conditions.compactText
                if child.id == i.body.id { result.append(text) } else if child.id == i.elseBody?.id { result.append("!(\(text))") }
            } else if let t = c.as(TernaryExprSyntax.self) {
                let text = t.condition.compactText
                if child.id == t.thenExpression.id { result.append(text) } else if child.id == t.elseExpression.id { result.append("!(\(text))") }
            } else if let list = c.as(ExprListSyntax.self) {
                // unfolded `a ? b : c`: `c` follows the ternary marker
                let elements = Array(list)
                if let k = elements.firstIndex(where: { $0.id == child.id }), k > 0, elements[k - 1].is(UnresolvedTernaryExprSyntax.self) {
                    result.append("!(\(elements[..<(k - 1)].map(\.compactText).joined(separator: " ")))")
                }
            } else if let tern = c.as(UnresolvedTernaryExprSyntax.self), let seq = tern.parent?.as(ExprListSyntax.self) {
                let elements = Array(seq)
                if let k = elements.firstIndex(where: { $0.id == tern.id }) {
                    result.append(elements[..<k].map(\.compactText).joined(separator: " "))
                }
            } else if let sc = c.as(SwitchCaseSyntax.self), let sw = sc.parent?.parent?.as(SwitchExprSyntax.self) {
                result.append("\(sw.subject.compactText) ~ \(sc.label.compactText.replacingOccurrences(of: "case ", with: "").trimmingCharacters(in: CharacterSet(charactersIn: ":")))")
            } else if let block = c.as(CodeBlockItemListSyntax.self) {
                // guards before this statement in the same block
                for item in block {
                    if item.position >= child.position { break }
                    if let g = item.item.as(GuardStmtSyntax.self) { result.append(g.conditions.compactText) }
                }
            }
            child = c
            current = c.parent
        }
        return result.reversed()
    }

    func initialState(_ top: [FunctionCallExprSyntax], call: FunctionCallExprSyntax, states: [String], file: ParsedFile,
                      context: ExtractionContext) -> String? {
        guard let ic = top.first(where: { DSLSupport.calleeName($0) == "initialState" }), let arg = ic.arguments.first?.expression else { return nil }
        if let r = context.initialState(arg, states: states) { return r }
        guard let name = SyntaxHelpers.lastName(arg) else { return nil }
        // a parameter of the enclosing function or initializer, with a default value
        var current = call.parent
        while let c = current {
            var params: FunctionParameterListSyntax?
            if let f = c.as(FunctionDeclSyntax.self) { params = f.signature.parameterClause.parameters }
            if let i = c.as(InitializerDeclSyntax.self) { params = i.signature.parameterClause.parameters }
            if let params, let param = params.first(where: { ($0.secondName ?? $0.firstName).text == name }) {
                if let d = param.defaultValue?.value, let s = context.initialState(d, states: states) { return s }
                context.warn("the initial state is the parameter '\(name)', which has no default value; initial state unknown",
                             at: file.location(of: ic), severity: .note)
                return nil
            }
            current = c.parent
        }
        if let b = context.index.binding(named: name, at: call, where: { $0.initializer != nil }), let s = context.initialState(b.initializer, states: states) {
            return s
        }
        return nil
    }
}
