import MachineModel
import SwiftSyntax

/// Finds `switch` statements in a body without entering nested closures or functions.
final class SwitchFinder: SyntaxVisitor {
    var switches: [SwitchExprSyntax] = []
    var returns: [ReturnStmtSyntax] = []
    var assignments: [(lhs: ExprSyntax, rhs: ExprSyntax)] = []
    var calls: [FunctionCallExprSyntax] = []
    var inouts: [InOutExprSyntax] = []
    /// What `if let`/`guard let` conditions bind (`guard let next = step.next`).
    var bound: [ExprSyntax] = []

    /// Whether closures and nested functions are entered too.
    private var all = false

    init() { super.init(viewMode: .sourceAccurate) }

    static func scan(_ node: some SyntaxProtocol) -> SwitchFinder {
        let f = SwitchFinder()
        f.walk(node)
        return f
    }

    /// The same, closures and nested functions entered.
    static func scanAll(_ node: some SyntaxProtocol) -> SwitchFinder {
        let f = SwitchFinder()
        f.all = true
        f.walk(node)
        return f
    }

    /// (a closure run at once is part of the body: `lock.withLock { state = .open }`)
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { all || SyntaxHelpers.runsAtOnce(node) ? .visitChildren : .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { all ? .visitChildren : .skipChildren }
    override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind {
        switches.append(node)
        return .visitChildren
    }
    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
        returns.append(node)
        return .visitChildren
    }
    override func visit(_ node: InOutExprSyntax) -> SyntaxVisitorContinueKind {
        inouts.append(node)
        return .visitChildren
    }
    override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
        if let value = node.initializer?.value { bound.append(value) }
        return .visitChildren
    }
    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        calls.append(node)
        return .visitChildren
    }
    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        if elements.count == 3, elements[1].is(AssignmentExprSyntax.self) {
            assignments.append((elements[0], elements[2]))
        } else if elements.count > 3, elements[1].is(AssignmentExprSyntax.self),
                  let folded = SyntaxHelpers.fold(ExprSyntax(node)).as(InfixOperatorExprSyntax.self),
                  folded.operator.is(AssignmentExprSyntax.self) {
            // `x = x == .a ? .b : .a`, `x = a ?? b`: the right side is everything after `=`
            assignments.append((elements[0], folded.rightOperand))
        }
        return .visitChildren
    }
    override func visit(_ node: InfixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
        if node.operator.is(AssignmentExprSyntax.self) { assignments.append((node.leftOperand, node.rightOperand)) }
        return .visitChildren
    }

    /// The writes found of a value named by `roots`: its assignments (`state = .x`, the left side the
    /// node) and calls of its `setters` (`viewState.onNext(.x)`, the call the node), with the value given.
    func writes(of roots: Set<String>, setters: Set<String> = []) -> [(node: ExprSyntax, value: ExprSyntax)] {
        assignments.filter { roots.contains(SyntaxHelpers.path($0.lhs) ?? "") }.map { ($0.lhs, $0.rhs) }
            + (setters.isEmpty ? [] : calls.compactMap { call in
                guard call.arguments.count == 1, let path = SyntaxHelpers.path(call.calledExpression), setters.contains(path) else { return nil }
                return (ExprSyntax(call), call.arguments.first!.expression)
            })
    }
}

/// Whether a body tests a value named by one of `roots` (a parameter, a property): a `switch` over it,
/// alone or in a tuple, a pattern matched against it (`if case .x = e`, `guard case`), or a comparison
/// with `==` / `!=` anywhere outside closures and nested functions. The mark of an event method written
/// with `if`s instead of a `switch` (`if state == .a && event == .go { … }`). With `predicates`, a
/// `Bool` property of the value's enum read on it (`state.isBusy`) tests it too; with `testers`, the
/// owner's methods returning `Bool`, each with whether it tests the value itself: a call of one that
/// does (`guard canTransition(to: next)`), or of any given the value (`guard canTransition(from: stage,
/// to: next)`).
final class ValueTestFinder: SyntaxVisitor {
    let roots: Set<String>
    let predicates: Set<String>
    let testers: [String: Bool]
    private(set) var found = false

    /// Whether a root is a path (`viewState.phase`, a struct's field): then the value's whole path is asked.
    private let paths: Bool

    init(roots: Set<String>, predicates: Set<String> = [], testers: [String: Bool] = [:]) {
        self.roots = roots
        self.predicates = predicates
        self.testers = testers
        paths = roots.contains { $0.contains(".") }
        super.init(viewMode: .sourceAccurate)
    }

    static func tests(_ node: some SyntaxProtocol, roots: Set<String>, predicates: Set<String> = [], testers: [String: Bool] = [:]) -> Bool {
        let f = ValueTestFinder(roots: roots, predicates: predicates, testers: testers)
        f.walk(node)
        return f.found
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        if !predicates.isEmpty, let base = node.base, predicates.contains(node.declName.baseName.text), names(base) { found = true }
        return found ? .skipChildren : .visitChildren
    }

    private func names(_ expr: ExprSyntax) -> Bool {
        SyntaxHelpers.root(expr).map(roots.contains) == true || paths && SyntaxHelpers.path(expr).map(roots.contains) == true
    }

    /// (a closure run at once is part of the body: `lock.withLock { guard state == .idle … }`, `queue.sync { … }`)
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { SyntaxHelpers.runsAtOnce(node) ? .visitChildren : .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind {
        let subject = SyntaxHelpers.unwrap(node.subject)
        if let tuple = subject.as(TupleExprSyntax.self) {
            if tuple.elements.contains(where: { names($0.expression) }) { found = true }
        } else if names(subject) {
            found = true
        }
        return found ? .skipChildren : .visitChildren
    }
    override func visit(_ node: MatchingPatternConditionSyntax) -> SyntaxVisitorContinueKind {
        if names(node.initializer.value) { found = true }
        return found ? .skipChildren : .visitChildren
    }
    /// `phase.canMove(to: next)`: a relation of its enum named as moves (`AllowedMoves`) tests it; a step
    /// (`phase.next()`, `phase.next(on: e)`) does not.
    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if node.arguments.count == 1, let member = node.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
           names(base), case let name = member.declName.baseName.text, !name.lowercased().hasPrefix("next"),
           AllowedMoves.namedAsMoves(name) { found = true }
        // (or its list of next cases asked: `phase.nextStates.contains(next)`)
        if node.arguments.count == 1, let member = node.calledExpression.as(MemberAccessExprSyntax.self),
           member.declName.baseName.text == "contains", let list = member.base?.as(MemberAccessExprSyntax.self),
           let base = list.base, names(base), AllowedMoves.namedAsMoves(list.declName.baseName.text) { found = true }
        // (or a static one given it first: `Phase.canTransition(from: phase, to: next)`; not a function whose
        // result is assigned, which steps it: `phase = Rules.transition(phase, event)`)
        if node.arguments.count == 2, let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil,
           names(node.arguments.first!.expression), AllowedMoves.namedAsMoves(member.declName.baseName.text),
           !(node.parent?.parent?.as(SequenceExprSyntax.self)?.elements.contains { $0.is(AssignmentExprSyntax.self) } ?? false) { found = true }
        if !testers.isEmpty, let callee = SyntaxHelpers.path(node.calledExpression),
           let tested = testers[callee.hasPrefix("self.") ? String(callee.dropFirst(5)) : callee],
           tested || node.arguments.contains(where: { names($0.expression) }) { found = true }
        return found ? .skipChildren : .visitChildren
    }
    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        for (i, e) in elements.enumerated() {
            guard let op = e.as(BinaryOperatorExprSyntax.self), ["==", "!="].contains(op.operator.text) else { continue }
            if (i > 0 && names(elements[i - 1])) || (i + 1 < elements.count && names(elements[i + 1])) { found = true }
        }
        return found ? .skipChildren : .visitChildren
    }
    override func visit(_ node: InfixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
        if let op = node.operator.as(BinaryOperatorExprSyntax.self), ["==", "!="].contains(op.operator.text),
           names(node.leftOperand) || names(node.rightOperand) { found = true }
        return found ? .skipChildren : .visitChildren
    }
}

/// Whether a test of the event decides a write of the state: an `if` testing it whose branches assign the
/// state, a `guard` testing it in a body that assigns the state, or an assignment of a value chosen by it
/// (`state = event == .go ? .b : .a`). An option tested for something else (`if case .enabled = mode {
/// addHandler() }`) decides none.
final class EventControlFinder: SyntaxVisitor {
    let event: String
    let state: Set<String>
    private var found = false
    private var guarded = false
    private var assigns = false

    init(event: String, state: Set<String>) {
        self.event = event
        self.state = state
        super.init(viewMode: .sourceAccurate)
    }

    static func controls(_ body: some SyntaxProtocol, event: String, state: Set<String>) -> Bool {
        let f = EventControlFinder(event: event, state: state)
        f.walk(body)
        return f.found || (f.guarded && f.assigns)
    }

    private func writesState(_ node: some SyntaxProtocol) -> Bool {
        SwitchFinder.scan(node).assignments.contains { SyntaxHelpers.root($0.lhs).map(state.contains) ?? false }
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: IfExprSyntax) -> SyntaxVisitorContinueKind {
        if ValueTestFinder.tests(node.conditions, roots: [event]), writesState(node.body) || node.elseBody.map(writesState) == true { found = true }
        return found ? .skipChildren : .visitChildren
    }
    override func visit(_ node: GuardStmtSyntax) -> SyntaxVisitorContinueKind {
        if ValueTestFinder.tests(node.conditions, roots: [event]) { guarded = true }
        return .visitChildren
    }
    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        if let (lhs, rhs) = SyntaxHelpers.assignment(node), SyntaxHelpers.root(lhs).map(state.contains) == true {
            assigns = true
            if rhs.contains(where: { ValueTestFinder.tests($0, roots: [event]) }) { found = true }
        }
        return found ? .skipChildren : .visitChildren
    }
}

enum PatternNames {
    /// Case names a pattern names at each position of a tuple subject of `arity` elements.
    static func byPosition(_ sw: SwitchExprSyntax, arity: Int, index: SymbolIndex) -> [[String]] {
        var names = Array(repeating: [String](), count: arity)
        for sc in SyntaxHelpers.cases(of: sw) {
            guard case .case(let label) = sc.label else { continue }
            for item in label.caseItems {
                let atom = PatternAtom(item.pattern, index)
                if arity == 1 { names[0] += caseNames(atom) }
                else if case .tuple(let atoms) = atom, atoms.count == arity {
                    for (i, a) in atoms.enumerated() { names[i] += caseNames(a) }
                }
            }
        }
        return names
    }

    static func caseNames(_ atom: PatternAtom) -> [String] {
        if case .cases(let n, _, _) = atom { return n.sorted() }
        return []
    }
}

/// D2: a closure or function that switches on a tuple of its (input, state) parameters and returns
/// the next state or `nil`; also the `inout` form that assigns the state and returns an effect.
struct MappingFunctionRecogniser: Recogniser {
    func finder(for file: ParsedFile) -> SyntaxVisitor? { CandidateFinder() }

    func recognise(in context: ExtractionContext, found: [SyntaxVisitor?]) {
        for (file, finder) in self.found(found, in: context, as: CandidateFinder.self) {
            for candidate in finder.candidates where !context.claimed.contains(candidate.node.id) {
                // (a function a library's reducer closure hands its state `inout` is part of that reducer:
                // `return handleTransfer(action: action, state: &state)`)
                if candidate.node.is(FunctionDeclSyntax.self), context.inoutCalledFromClosures.contains(candidate.node.id) { continue }
                if build(candidate, file: file, context: context) { context.claimed.insert(candidate.node.id) }
            }
        }
    }

    struct Candidate {
        var node: Syntax
        var parameters: [String]
        var parameterTypes: [String?]
        var body: CodeBlockItemListSyntax
        var name: String?
        var typeHint: String?
    }

    final class CandidateFinder: SyntaxVisitor {
        var candidates: [Candidate] = []
        init() { super.init(viewMode: .sourceAccurate) }

        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
            let params = SyntaxHelpers.closureParameterNames(node)
            if params.count >= 2 {
                var hint: String?
                if let call = node.parent?.as(FunctionCallExprSyntax.self) ?? node.parent?.parent?.parent?.as(FunctionCallExprSyntax.self) {
                    // (`let m: Harvester<Press, Lamp>.EffectMapping<…> = .makeInout { … }`: the annotation's types)
                    let implicit = call.calledExpression.as(MemberAccessExprSyntax.self).map { $0.base == nil } ?? false
                    hint = implicit ? DSLSupport.annotatedType(of: node) ?? call.calledExpression.compactText : call.calledExpression.compactText
                } else {
                    hint = DSLSupport.annotatedType(of: node)
                }
                // (a `scan` is named by what its result is assigned to: `light = events.scan(Light.off) { … }`)
                let name = MappingFunctionRecogniser.scanCall(of: node).flatMap { SyntaxHelpers.assignedName($0) } ?? SyntaxHelpers.enclosingBindingName(node)
                candidates.append(Candidate(node: Syntax(node), parameters: params, parameterTypes: SyntaxHelpers.closureParameterTypes(node),
                                            body: node.statements, name: name, typeHint: hint))
            }
            return .visitChildren
        }

        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            let params = node.signature.parameterClause.parameters
            // (a method of one parameter taking the state `inout` may be the input enum's own: `func
            // apply(toState state: inout State)` over `switch self`)
            let inoutOne = params.count == 1 && params.first!.type.trimmedText.hasPrefix("inout ")
                && !node.modifiers.contains { $0.name.text == "static" }
            if params.count >= 2 || inoutOne, let body = node.body {
                candidates.append(Candidate(node: Syntax(node), parameters: params.map { ($0.secondName ?? $0.firstName).text },
                                            parameterTypes: params.map { $0.type.trimmedText },
                                            body: body.statements, name: node.name.text,
                                            typeHint: node.signature.returnClause?.type.trimmedText))
            }
            return .visitChildren
        }
    }

    func build(_ c: Candidate, file: ParsedFile, context: ExtractionContext) -> Bool {
        // most functions and closures switch over no pair: found in the file's recorded walk, not by scanning the body
        guard file.events.contains(.switchExpr, within: c.body, where: { sw in
            sw.as(SwitchExprSyntax.self).flatMap { SyntaxHelpers.unwrap($0.subject).as(TupleExprSyntax.self) }?.elements.count == 2
        }) else { return buildFromSignature(c, file: file, context: context) }
        let scan = SwitchFinder.scan(c.body)
        // the first switch over a tuple of two parameter paths
        for sw in scan.switches {
            guard let tuple = SyntaxHelpers.unwrap(sw.subject).as(TupleExprSyntax.self), tuple.elements.count == 2 else { continue }
            let paths = tuple.elements.map { SyntaxHelpers.path($0.expression) }
            guard paths.allSatisfy({ p in p.map { c.parameters.contains(String($0.split(separator: ".").first!)) } ?? false }) else { continue }
            let names = PatternNames.byPosition(sw, arity: 2, index: context.index)
            // (what `return`s give, and the branches of a body that is one `switch` or `if` expression)
            let values = scan.returns.compactMap(\.expression).flatMap(SyntaxHelpers.branches)
                + (ReducerInterpreter.returnedChoice(c.body).map(SyntaxHelpers.branches) ?? [])
            let returned = values.compactMap { e -> String? in
                if let t = SyntaxHelpers.unwrap(e).as(TupleExprSyntax.self), t.elements.count == 2 {
                    return SyntaxHelpers.caseReference(t.elements.first!.expression, context.index)?.name
                }
                return SyntaxHelpers.caseReference(e, context.index)?.name
            }
            let assigned = scan.assignments.compactMap { SyntaxHelpers.path($0.lhs) }
            let inoutForm = paths.contains { p in assigned.contains(p!) }
            let returnsNil = values.contains { $0.is(NilLiteralExprSyntax.self) }
            guard inoutForm || (!returned.isEmpty && (returnsNil || returned.count >= 2)) else { continue }

            // each position's enum: its parameter's written type, else the written types around (a
            // `Harvester<In, St>.Mapping` annotation) that declare the cases used there
            let location = file.location(of: c.node)
            let hints = context.writtenEnums(c.typeHint, at: c.node)
            let enums: [EnumInfo?] = (0..<2).map { k in
                let root = String(paths[k]!.split(separator: ".").first!)
                // (ReSwift's state comes optional, `nil` before the first action: `state: Route?`)
                if root == paths[k]!, let i = c.parameters.firstIndex(of: root), i < c.parameterTypes.count,
                   let written = c.parameterTypes[i], let resolved = context.resolve(SyntaxHelpers.optionalWrapped(written) ?? written, at: c.node) {
                    return resolved.enumInfo
                }
                // (a field's enum is the one declaring every case its patterns name: `switch (dial,
                // oven.heat)` under `Harvester<Dial, Oven>` does not take `Dial` for naming `.off` too)
                let among = root == paths[k]! ? hints : hints.filter { Set(names[k]).isSubset(of: Set($0.caseNames)) }
                return context.enumDeclaring(Set(names[k]), among: among, role: "case", at: location)
            }
            var statePosition: Int
            if inoutForm {
                statePosition = assigned.contains(paths[0]!) ? 0 : 1
            } else {
                // the position whose type declares the returned cases; without types, the one whose
                // patterns name them
                let scores = (0..<2).map { k in Set(returned).intersection(Set(enums[k]?.caseNames ?? names[k])).count }
                guard scores[0] != scores[1] else { continue }
                statePosition = scores[1] > scores[0] ? 1 : 0
            }
            let inputPosition = 1 - statePosition
            let stateEnum = enums[statePosition]
            let inputEnum = enums[inputPosition].flatMap { $0.key == stateEnum?.key ? nil : $0 }
            // (in the inout form, what the closure returns is its effect: `.empty`, `.cancel(.tick)` are no states)
            let states = context.caseList(stateEnum, used: names[statePosition] + (inoutForm ? [] : returned))
            let inputs = context.caseList(inputEnum, used: names[inputPosition])
            guard !states.isEmpty, !inputs.isEmpty else { continue }
            // a closure returning cases of some other type (a comparator's `.orderedAscending`) is no mapping
            if !inoutForm, let s = stateEnum, !Set(returned).isSubset(of: Set(s.caseNames)) { continue }
            if !inoutForm, stateEnum == nil {
                context.warn("no written type says which switched value is the state; `\(paths[statePosition]!)` is read as the state because the returned values name its cases",
                             at: location, severity: .note)
            }
            add(c, file: file, context: context, states: states, inputs: inputs, stateEnum: stateEnum, inputEnum: inputEnum,
                statePath: paths[statePosition]!, inputPath: paths[inputPosition]!, inoutForm: inoutForm)
            return true
        }
        return buildFromSignature(c, file: file, context: context)
    }

    /// A function whose written signature makes it a transition function, `(S, E) -> S` with `S` and `E`
    /// enums: a parameter of the type it returns (`S`, `S?`, `(S, effect)?`) or takes `inout`, another of
    /// another enum, and a body that tests one of them however it is spelt (`switch event { case .next:
    /// switch step { … } }`, `if case .skip = event`, `==`), not only by a `switch` over the pair. A
    /// closure's signature is the function type it is annotated with (`let reduce: Reducer<Light, Tick> =
    /// { state, action in … }`, `typealias Reducer<S, A> = (inout S, A) -> Void`).
    func buildFromSignature(_ c: Candidate, file: ParsedFile, context: ExtractionContext) -> Bool {
        guard let signature = signature(c, context: context) else { return false }
        var (enums, takenInout) = (signature.enums, signature.takenInout)
        let (returned, next) = (signature.returned, signature.next)
        var c = c
        let scope = context.index.scope(of: c.node)
        // an action of a protocol cast to an enum at the top (ReSwift's `guard let nav = action as?
        // NavAction else { return state }`): the cast's name is the input
        var aliases: [String] = []
        for k in enums.indices where enums[k] == nil && c.parameters.count == 2 {
            guard let cast = ReducerRecogniser.CandidateFinder.castAction(c.body, param: c.parameters[k]),
                  let e = context.index.enumInfo(cast.type, in: scope) else { continue }
            enums[k] = e
            aliases.append(c.parameters[k])
            c.parameters[k] = cast.name
        }
        let function = c.node.as(FunctionDeclSyntax.self)
        // a method of an enum taking the state `inout` is that enum's step: `self` is the input
        if c.parameters.count == 1 {
            // (an extension's methods are seen in it, not in the type it extends)
            guard function != nil, let owner = scope?.innermostType,
                  let own = owner.enumInfo ?? context.index.enumInfo(owner.qualifiedName, in: scope), !own.cases.isEmpty else { return false }
            c.parameters.append("self")
            enums.append(own)
            takenInout.append(false)
        }
        // the state: the parameter of the returned type, else the one taken inout, whatever the function
        // returns then (an effect)
        let returnedKey = returned?.key
        let ofReturned = enums.indices.first { k in returnedKey != nil && enums[k]?.key == returnedKey && !takenInout[k] }
        guard let s = ofReturned ?? takenInout.firstIndex(of: true), let stateEnum = enums[s], !stateEnum.cases.isEmpty else { return false }
        guard let i = enums.indices.first(where: { k in k != s && enums[k].map { $0.key != stateEnum.key && !$0.cases.isEmpty } == true }),
              let inputEnum = enums[i] else { return false }
        let state = c.parameters[s], input = c.parameters[i]
        guard ValueTestFinder.tests(c.body, roots: [state, input]) else { return false }
        // a method of a type that keeps such a state in a stored property is the step of that property's
        // machine (`state = reduce(state, event)`), read with it by the `switch`-method reader
        if function != nil, let owner = scope?.innermostType,
           owner.properties.contains(where: { p in
               !p.isComputed && !p.isStatic && p.typeText.flatMap { context.index.enumInfo($0, in: scope) }?.key == stateEnum.key
           }) { return false }
        let scan = SwitchFinder.scan(c.body)
        let inoutForm = takenInout[s]
        if inoutForm {
            guard scan.assignments.contains(where: { SyntaxHelpers.path($0.lhs) == state }) else { return false }
        } else {
            // (Mobius's `.next(.x, effects: …)` names `.x`; its `.noChange` and `.dispatchEffects` name none)
            // (each side of a ternary: `return s == .lowered ? .moving : s`)
            let values = scan.returns.compactMap { r in r.expression.flatMap { e in next ? SyntaxHelpers.nextValue(e)?.model : e } }
                .flatMap(SyntaxHelpers.branches)
            let cases = values.compactMap { e -> String? in
                let value = SyntaxHelpers.unwrap(e).as(TupleExprSyntax.self).flatMap { $0.elements.count == 2 ? $0.elements.first!.expression : nil } ?? e
                return SyntaxHelpers.caseReference(value, context.index)?.name
            }
            // (or a copy it changes and returns: `var state = state ?? .home; … state = .detail … return state`)
            let changesCopy = values.contains { SyntaxHelpers.path($0) == state } && scan.assignments.contains { SyntaxHelpers.path($0.lhs) == state }
            guard !cases.isEmpty || changesCopy, Set(cases).isSubset(of: Set(stateEnum.caseNames)) else { return false }
        }
        add(c, file: file, context: context, states: stateEnum.caseNames, inputs: inputEnum.caseNames, stateEnum: stateEnum,
            inputEnum: inputEnum, statePath: state, inputPath: input, inputAliases: aliases, inoutForm: inoutForm, returnsNext: next)
        return true
    }

    /// A candidate's parameters' enums, which it takes `inout`, the enum it returns (of `S`, `S?`, `(S,
    /// effect)?`, Mobius's `Next<S, Effect>`) and whether that is a `Next`: a function's as written; a
    /// closure's from the function type it is annotated with, typealiases followed, a parameter its body
    /// assigns being `inout` (a closure can assign no other).
    func signature(_ c: Candidate, context: ExtractionContext) -> (enums: [EnumInfo?], takenInout: [Bool], returned: EnumInfo?, next: Bool)? {
        let scope = context.index.scope(of: c.node)
        if let function = c.node.as(FunctionDeclSyntax.self) {
            guard c.parameterTypes.count == c.parameters.count else { return nil }
            // (ReSwift's state comes optional: `state: Route?`)
            let texts = c.parameterTypes.map { t in t.map { $0.hasPrefix("inout ") ? String($0.dropFirst(6)) : SyntaxHelpers.optionalWrapped($0) ?? $0 } }
            let takenInout = c.parameterTypes.map { $0?.hasPrefix("inout ") ?? false }
            // (a text test first: most functions take and return no enum of the kind)
            let next = function.signature.returnClause.flatMap { SyntaxHelpers.nextModelType($0.type) }
            let returned = next ?? function.signature.returnClause.map { r -> String in
                var t = r.type
                if let o = t.as(OptionalTypeSyntax.self) { t = o.wrappedType }
                if let tuple = t.as(TupleTypeSyntax.self), let first = tuple.elements.first { t = first.type }
                return t.trimmedText
            }
            guard (returned != nil && texts.contains(returned)) || takenInout.contains(true) || c.parameters.count == 1 else { return nil }
            return (texts.map { $0.flatMap { context.index.enumInfo($0, in: scope) } }, takenInout,
                    returned.flatMap { context.index.enumInfo($0, in: scope) }, next != nil)
        }
        // (a closure whose parameters are written with their types: `{ (current: Light, event: LampEvent) -> Light
        // in … }`; what it returns, where it says none, is a `scan`'s accumulator, its first parameter)
        if let closure = c.node.as(ClosureExprSyntax.self), let scope, c.parameters.count >= 2, c.parameterTypes.count == c.parameters.count,
           case let written = c.parameterTypes.compactMap({ $0 }), written.count == c.parameters.count {
            let takenInout = written.map { $0.hasPrefix("inout ") }
            let enums = written.map { context.index.enumInfo($0.hasPrefix("inout ") ? String($0.dropFirst(6)) : $0, in: scope) }
            let returned = closure.signature?.returnClause.map { r in context.index.enumInfo(SyntaxHelpers.optionalWrapped(r.type.trimmedText) ?? r.type.trimmedText, in: scope) }
                ?? (Self.scanCall(of: closure) != nil ? enums[0] : nil)
            return (enums, takenInout, returned, false)
        }
        // (not reported when ambiguous: the hint may be the callee the closure is handed to, not its type)
        guard c.parameters.count >= 2, let hint = c.typeHint, let scope, case let resolved = context.index.resolveType(hint, in: scope),
              resolved.externalName == "(function)", resolved.arguments.count == c.parameters.count + 1 else { return nil }
        var result = resolved.arguments.last!
        if result.externalName == "Optional", let wrapped = result.arguments.first { result = wrapped }
        if result.externalName == "(tuple)", let first = result.arguments.first { result = first }
        let assigned = Set(SwitchFinder.scan(c.body).assignments.compactMap { SyntaxHelpers.path($0.lhs)?.split(separator: ".").first.map(String.init) })
        return (resolved.arguments.dropLast().map(\.enumInfo), c.parameters.map(assigned.contains), result.enumInfo, false)
    }

    func add(_ c: Candidate, file: ParsedFile, context: ExtractionContext, states: [String], inputs: [String], stateEnum: EnumInfo?,
             inputEnum: EnumInfo?, statePath: String, inputPath: String, inputAliases: [String] = [], inoutForm: Bool, returnsNext: Bool = false) {
        let domain = Domain(states: states, inputs: inputs)
        let mappingType = c.typeHint.flatMap { t in context.index.scope(of: c.node).map { context.index.resolveType(t, in: $0) } }
        // Harvest's `EffectMapping` returns nil for "no transition" (typealiases followed)
        let failureOnNil = !inoutForm || mappingType?.shortName == "EffectMapping"
        var spec = ReducerSpec(domain: domain, statePaths: [statePath], inputPaths: Set([inputPath] + inputAliases),
                               returnsState: !inoutForm, nilIsFailure: failureOnNil, enumFactories: context.factories(of: stateEnum))
        spec.returnsNext = returnsNext
        let reader = context.effectReader(inputs: inputs, inputType: inputEnum, at: c.node, mappingType: mappingType)
        let interpreter = ReducerInterpreter(spec: spec, file: file, effects: reader, readings: context.readings)
        let rules = interpreter.run(c.body, at: file.location(of: c.node))
        let built = context.construction(referencing: c.name, around: c.node)
        var start: ExprSyntax? = built?.initial.map { Self.fieldStart($0, statePath: statePath, context: context) }
        start = start ?? Self.declaredStart(of: stateEnum, context: context) ?? Self.nilDefault(of: statePath, in: c.body)
            ?? Self.reactorStart(of: c.node, context: context)
        if start == nil, let closure = c.node.as(ClosureExprSyntax.self) { start = Self.scanSeed(of: closure) }
        let machine = Machine(
            name: built?.binding ?? c.name ?? "mapping@\(file.location(of: c.node).line)", dialect: .mappingFunction,
            location: file.location(of: c.node), states: states, inputs: inputs,
            initial: context.initialState(start, states: states) ?? (built == nil ? Self.heldStart(of: c.name, stateEnum: stateEnum, context: context) : nil),
            rules: rules, order: .resolved,
            stateLocations: context.locations(stateEnum), inputLocations: context.locations(inputEnum))
        context.add(machine, stateEnum: stateEnum, at: built?.call ?? c.node, leftOut: [interpreter.leftOut])
    }

    /// The value a field of a struct state starts with, when the machine is given the struct built
    /// (`Harvester(state: Kettle(), …)` with the mapping setting `st.phase`): the argument of the field's
    /// label, else the field's default; otherwise `value` itself.
    static func fieldStart(_ value: ExprSyntax, statePath: String, context: ExtractionContext) -> ExprSyntax {
        let parts = statePath.split(separator: ".")
        guard parts.count == 2, let call = SyntaxHelpers.unwrap(value).as(FunctionCallExprSyntax.self),
              call.calledExpression.is(DeclReferenceExprSyntax.self), let type = context.index.typeExpression(call.calledExpression, at: call),
              let field = type.properties.first(where: { !$0.isStatic && !$0.isComputed && $0.name == parts[1] }) else { return value }
        return SyntaxHelpers.argument(call, String(parts[1])) ?? field.initializer ?? value
    }

    /// Where the stored properties that keep the function's result start, when they agree: `private var
    /// state = Vending.State.idle`, then `state = Vending.reduce(state, input)`.
    static func heldStart(of function: String?, stateEnum: EnumInfo?, context: ExtractionContext) -> String? {
        guard let function, let stateEnum else { return nil }
        let recogniser = SwitchMethodRecogniser()
        // (`model = update(model, msg)`, `(model, cmd) = update(model, msg)`, `update(&model, msg)`)
        let holders = recogniser.holders(of: stateEnum, context: context).filter { owner, property in
            let paths = [property.name, "self." + property.name]
            func names(_ e: ExprSyntax) -> Bool {
                if let tuple = e.as(TupleExprSyntax.self), tuple.elements.count > 1 { return tuple.elements.contains { names($0.expression) } }
                return paths.contains(SyntaxHelpers.path(e) ?? "")
            }
            return owner.methods.contains { method, _ in
                method.body.map { body in
                    let scan = SwitchFinder.scan(body)
                    // (or through a local the call's result is bound to: `let (next, _) = update(model, msg); model = next`,
                    // `if let n = step(valve, c) { valve = n }`)
                    var results = Set<String>()
                    func calls(_ value: ExprSyntax?) -> Bool {
                        value.flatMap { SyntaxHelpers.unwrap($0).as(FunctionCallExprSyntax.self) }.flatMap { DSLSupport.calleeName($0) } == function
                    }
                    for token in body.tokens(viewMode: .sourceAccurate) where token.tokenKind == .keyword(.let) || token.tokenKind == .keyword(.var) {
                        var bound: [PatternSyntax] = []
                        if let decl = token.parent?.as(VariableDeclSyntax.self) {
                            bound = decl.bindings.filter { calls($0.initializer?.value) }.map(\.pattern)
                        } else if let condition = token.parent?.as(OptionalBindingConditionSyntax.self), calls(condition.initializer?.value) {
                            bound = [condition.pattern]
                        }
                        for pattern in bound {
                            for token in pattern.tokens(viewMode: .sourceAccurate) {
                                if case .identifier(let name) = token.tokenKind { results.insert(name) }
                            }
                        }
                    }
                    return scan.assignments.contains { lhs, rhs in
                        // (`state = next(state, e) ?? state`: ignored inputs keep it)
                        let value = SyntaxHelpers.withoutFallback(rhs).value
                        return names(lhs) && (value.as(FunctionCallExprSyntax.self).flatMap { DSLSupport.calleeName($0) } == function
                                                || value.as(DeclReferenceExprSyntax.self).map { results.contains($0.baseName.text) } == true)
                    } || scan.calls.contains { call in
                        DSLSupport.calleeName(call) == function
                            && call.arguments.contains { $0.expression.as(InOutExprSyntax.self).map { paths.contains(SyntaxHelpers.path($0.expression) ?? "") } ?? false }
                    }
                } == true
            }
        }
        guard !holders.isEmpty else { return nil }
        return SwitchMethodRecogniser.agreed(holders.map { owner, property in
            recogniser.startingState(of: property, in: owner, states: stateEnum.caseNames, optional: false, context: context)
        })
    }

    /// The `scan` call a closure is the accumulating closure of (`events.scan(.off) { state, event in … }`,
    /// `scan(into: .closed) { … }`), if it is one.
    static func scanCall(of closure: ClosureExprSyntax) -> FunctionCallExprSyntax? {
        SyntaxHelpers.call(taking: closure).flatMap { ExtractionContext.scanSeed($0) != nil ? $0 : nil }
    }

    /// The seed of a `scan`: the value its accumulator starts with.
    static func scanSeed(of closure: ClosureExprSyntax) -> ExprSyntax? {
        scanCall(of: closure).flatMap(ExtractionContext.scanSeed)
    }

    /// The value an optional state stands for before the first input, where the function defaults it
    /// first (ReSwift's `let state = state ?? .home`).
    static func nilDefault(of statePath: String, in body: CodeBlockItemListSyntax) -> ExprSyntax? {
        guard let binding = body.first?.item.as(VariableDeclSyntax.self)?.bindings.first,
              binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == statePath,
              let value = binding.initializer?.value, case let (given, fallback?) = SyntaxHelpers.withoutFallback(value),
              SyntaxHelpers.path(given) == statePath else { return nil }
        return fallback
    }

    /// ReactorKit's start of a reactor's `reduce(state:mutation:)`: the `initialState` property of the type
    /// the function is a method of (`let initialState: State = .stopped`, or what its initializers set).
    static func reactorStart(of node: Syntax, context: ExtractionContext) -> ExprSyntax? {
        guard node.is(FunctionDeclSyntax.self), let owner = context.index.scope(of: node)?.innermostType,
              let property = owner.properties.first(where: { $0.name == "initialState" && !$0.isStatic }) else { return nil }
        return property.initializer ?? SwitchMethodRecogniser.initializerValue(of: property.name, in: owner)
    }

    /// The value a state starts with where no construction gives one: what the type declaring its enum
    /// returns from `makeInitialState()` (Square's Workflow: `func makeInitialState() -> State { .cart }`,
    /// its actions' `apply(toState:)` the machine).
    static func declaredStart(of stateEnum: EnumInfo?, context: ExtractionContext) -> ExprSyntax? {
        guard let stateEnum, let owner = context.index.types[stateEnum.key]?.parent,
              let function = owner.methods.first(where: { $0.0.name.text == "makeInitialState" && $0.0.signature.parameterClause.parameters.isEmpty })?.0,
              let statements = function.body?.statements, statements.count == 1, let item = statements.first?.item else { return nil }
        return item.as(ReturnStmtSyntax.self)?.expression ?? item.as(ExpressionStmtSyntax.self)?.expression ?? item.as(ExprSyntax.self)
    }
}

/// D9: a method that switches over (state property, event parameter) and assigns the property.
struct SwitchMethodRecogniser: Recogniser {
    /// Each type is read on its own: its machines claim only its own methods. With several jobs, each
    /// type is built in a forked context on `jobs` threads and the forks are merged in type order, so
    /// machines and diagnostics come out as they would one type after the other.
    func recognise(in context: ExtractionContext, found: [SyntaxVisitor?]) {
        let types = context.index.typeOrder
        var methodIDs = Set<SyntaxIdentifier>()
        let ownMethods = types.allSatisfy { t in t.methods.allSatisfy { methodIDs.insert($0.0.id).inserted } }
        // a field a reducer writes is that reducer's machine: the mutating methods of its state it calls
        // (`case .start: return state.start()`) were walked as its helpers
        let reduced = Set(context.machines.map(\.id))
        context.buildEach(types, inParallel: ownMethods && context.pendingConstruction == nil) { type, context in
            recognise(type, in: context, reduced: reduced)
        }
    }

    func recognise(_ type: TypeInfo, in context: ExtractionContext, reduced: Set<String> = []) {
        // per method, the names whose fields it assigns (`state.mode = …` gives `state`): read once per type
        // from the files' recorded walks, when some property is a struct's candidate store
        var fieldWriters: [(method: FunctionDeclSyntax, file: ParsedFile, roots: Set<String>)]?
        let facts = TypeFacts(type)
        // (a computed property kept in a raw value, with a setter the type's methods assign, is a state too:
        // `var status: Status { get { Status(rawValue: raw) ?? .open } set { raw = newValue.rawValue } }`, a
        // persisted model's)
        var assignedNames: Set<String>?
        let defaultsView = Self.withDefaults(type, context: context).map { view, defaults in (view, defaults, TypeFacts(view)) }
        for property in type.properties where !property.isStatic && !reduced.contains("\(type.key).\(property.name)") {
            if property.isComputed {
                guard Self.settable(property), Self.rawBacked(property) || Self.backing(of: property, in: type) != nil else { continue }
                if assignedNames == nil { assignedNames = Self.assignedNames(in: type) }
                guard assignedNames!.contains(property.name) else { continue }
            }
            guard let (stateEnum, kind) = stateType(of: property, owner: type, context: context),
                  !property.isComputed || kind == .enumeration else {
                // (a computed optional is a view of data: a generated message's `oneof`)
                guard !property.isComputed else { continue }
                if let (stateEnum, wrapper) = Self.stateWrapper(of: property, in: type, context: context) {
                    build(type: type, property: property, stateEnum: stateEnum, kind: .enumeration, facts: facts, context: context, wrapper: wrapper)
                    continue
                }
                if StatePattern(holder: type, property: property, context: context).build() { continue }
                if fieldWriters == nil { fieldWriters = Self.fieldWriters(of: type) }
                let writers = fieldWriters!.filter { $0.roots.contains(property.name) }
                if let store = storeType(of: property, writers: writers, context: context),
                   !buildStore(type: type, property: property, typeText: store.text, writers: writers, context: context) {
                    buildFields(type: type, property: property, of: store.type, facts: facts, context: context)
                }
                continue
            }
            // a SwiftUI view's `@State`, changed by its controls
            if kind == .enumeration || kind == .optional, ViewState.applies(to: type, property: property),
               ViewState(type: type, property: property, stateEnum: stateEnum, optional: kind == .optional, context: context).build() { continue }
            if let (view, defaults, viewFacts) = defaultsView {
                // (a default is no conformer's own: none claims it, whatever the order types are built in)
                build(type: view, property: property, stateEnum: stateEnum, kind: kind, facts: viewFacts, context: context)
                context.claimed.subtract(defaults)
            } else {
                build(type: type, property: property, stateEnum: stateEnum, kind: kind, facts: facts, context: context)
            }
            // `func move(to p: Phase) { switch (phase, p) { case (.a, .b): phase = p … } }`: the moves it allows
            if kind == .enumeration, !context.machines.contains(where: { $0.id == "\(type.key).\(property.name)" }),
               let read = AllowedMoves(type: type, stateEnum: stateEnum, context: context).readValidated(subject: property.name) {
                let initial = startingState(of: property, in: type, states: stateEnum.caseNames, optional: false, context: context)
                addMoves(read, name: "\(type.name).\(property.name)", key: "\(type.key).\(property.name)", initial: initial,
                         stateEnum: stateEnum, context: context)
            }
        }
        // a property of a generic superclass holding the enum the class binds its parameter to (`class
        // FeedViewModel: BaseViewModel<FeedState>`, `@Published var state: ViewState` in the base)
        for (property, stateEnum) in Self.inheritedStates(of: type, context: context)
        where !reduced.contains("\(type.key).\(property.name)") && !type.properties.contains(where: { $0.name == property.name }) {
            build(type: type, property: property, stateEnum: stateEnum, kind: .enumeration, facts: facts, context: context)
        }
        // a property of a superclass that the class's own methods write (`class TurboEngine: Engine` whose
        // `boost()` sets `state`): the class's machine, with the methods it inherits
        for (property, stateEnum, view) in Self.superclassStates(of: type, context: context)
        where !reduced.contains("\(type.key).\(property.name)") {
            build(type: view, property: property, stateEnum: stateEnum, kind: .enumeration, facts: TypeFacts(view), context: context)
        }
        if let own = type.enumInfo {
            buildSelfMachine(type: type, stateEnum: own, context: context)
            if !context.machines.contains(where: { $0.id == type.key }) { buildAllowedMoves(type: type, stateEnum: own, context: context) }
        }
    }

    /// An enum's allowed moves (`AllowedMoves`), when it is no machine of its own events.
    func buildAllowedMoves(type: TypeInfo, stateEnum: EnumInfo, context: ExtractionContext) {
        let reader = AllowedMoves(type: type, stateEnum: stateEnum, context: context)
        guard let read = reader.read() else {
            // (a predicate over two of its values, named as moves, that no pair of cases could be decided by)
            if let (method, file) = reader.unreadPredicate() {
                context.warn("`\(type.name).\(method.name.text)` looks like the moves \(type.name) allows, but its body decides no pair of cases from the two values alone (it reads something else, or a shape not followed); no machine of its moves", at: file.location(of: method), severity: .note)
            }
            return
        }
        // (a constant holds no machine: `struct InvalidMove: Error { let from: Phase }` carries a value)
        let initial = Self.agreed(holders(of: stateEnum, context: context).filter { !Self.isConstant($0.1) }.map { owner, property in
            startingState(of: property, in: owner, states: stateEnum.caseNames, optional: false, context: context)
        })
        addMoves(read, name: "\(type.name).\(read.member)", key: type.key, initial: initial, stateEnum: stateEnum, context: context)
    }

    /// Whether a stored property is a `let`.
    static func isConstant(_ property: Binding) -> Bool {
        property.node.parent?.parent?.as(VariableDeclSyntax.self)?.bindingSpecifier.tokenKind == .keyword(.let)
    }

    /// The starting value the holders agree on (none when one of them has none or they differ).
    static func agreed(_ starts: [String?]) -> String? {
        starts.first.flatMap { first in starts.allSatisfy { $0 == first } ? first : nil }
    }

    /// The machine of allowed moves: each an edge with no input but the member that allows it.
    func addMoves(_ read: AllowedMoves.Reading, name: String, key: String, initial: String?, stateEnum: EnumInfo, context: ExtractionContext) {
        let rules = read.moves.map { move, location in
            Rule(location: location, outcomes: [Outcome(pairs: [Pair(from: move.from, input: "*")], target: .state(move.to))], trigger: read.trigger)
        }
        let machine = Machine(name: name, dialect: .switchMethod, location: read.location, states: stateEnum.caseNames, inputs: [],
                              initial: initial, rules: rules, order: .resolved, stateLocations: context.locations(stateEnum))
        context.add(machine, stateEnum: stateEnum, key: key)
    }

    /// A store: a stored property of a struct type (`var state = State()`) and a method taking an enum
    /// action that tests it and assigns the struct's fields (`func dispatch(_ action: Action) { switch
    /// action { case .load: state.status = .loading … } }`). The method is read as a reducer of that
    /// state, one machine per field that is an enum, a Bool or an optional (the first such method).
    static func fieldWriters(of type: TypeInfo) -> [(method: FunctionDeclSyntax, file: ParsedFile, roots: Set<String>)] {
        type.methods.compactMap { method, file in
            guard let body = method.body else { return nil }
            var roots = Set<String>()
            _ = file.events.contains(.sequenceExpr, within: body) { node in
                // a field's write: the path has a dot
                if let lhs = SyntaxHelpers.assignment(node)?.lhs, let path = SyntaxHelpers.path(lhs), path.contains(".") {
                    roots.insert(String(path.prefix { $0 != "." }))
                }
                return false
            }
            return roots.isEmpty ? nil : (method, file, roots)
        }
    }

    /// The struct a stored property holds whose fields the type's methods assign (`writers`).
    func storeType(of property: Binding, writers: [(method: FunctionDeclSyntax, file: ParsedFile, roots: Set<String>)],
                   context: ExtractionContext) -> (text: String, type: TypeInfo)? {
        let typeText = property.typeText ?? property.initializer.flatMap { i -> String? in
            guard let call = SyntaxHelpers.unwrap(i).as(FunctionCallExprSyntax.self) else { return nil }
            let callee = call.calledExpression.trimmedText
            return callee.hasSuffix(".init") ? String(callee.dropLast(5)) : callee
        }
        // most properties have no method assigning a field of them: nothing is resolved for those
        guard let typeText, !writers.isEmpty, let stateType = context.index.type(typeText, in: context.index.scope(of: property.node)),
              stateType.kind == "struct" else { return nil }
        return (typeText, stateType)
    }

    /// A struct held by a type whose method takes an event and tests it (`func send(_ action: Action)`
    /// assigning `state.mode`), read as a reducer over the struct; true when one was.
    func buildStore(type: TypeInfo, property: Binding, typeText: String, writers: [(method: FunctionDeclSyntax, file: ParsedFile, roots: Set<String>)],
                    context: ExtractionContext) -> Bool {
        for (method, file, _) in writers where !context.claimed.contains(method.id) {
            guard let body = method.body else { continue }
            for p in method.signature.parameterClause.parameters where !SyntaxHelpers.isInout(p) {
                let name = (p.secondName ?? p.firstName).text
                guard let action = context.index.enumInfo(p.type.trimmedText, in: context.index.scope(of: method)), !action.cases.isEmpty,
                      ValueTestFinder.tests(body, roots: [name]) else { continue }
                var c = ReducerRecogniser.Candidate(node: Syntax(method), body: body.statements, dialect: .switchMethod,
                                                    stateParam: property.name, actionParam: name, stateType: typeText,
                                                    actionType: p.type.trimmedText, bindingName: method.name.text,
                                                    ownerTypes: SyntaxHelpers.enclosingTypeNames(method), file: file)
                c.bySignature = true
                context.claimed.insert(method.id)
                ReducerRecogniser().build(c, context: context)
                return true
            }
        }
        return false
    }

    /// The enum fields named as states of a struct a type keeps, which its methods assign (`private(set) var viewState =
    /// ViewState()` with `var phase: Phase = .editing`, then `viewState.phase = .validating`): each is read
    /// as a state of the holder, `CheckoutModel.viewState.phase`, starting as the holder's initializer or the
    /// field's default gives it. A method replacing the whole struct is a write not followed.
    func buildFields(type: TypeInfo, property: Binding, of store: TypeInfo, facts: TypeFacts, context: ExtractionContext) {
        // the fields the methods assign (`viewState.phase = …`), and where they replace the whole struct
        var assigned = Set<String>()
        var replaced: [StateWrites.Unfollowed] = []
        for (method, file) in type.methods {
            guard let body = method.body else { continue }
            for (lhs, _) in SwitchFinder.scanAll(body).assignments {
                guard let path = SyntaxHelpers.path(lhs) else { continue }
                if path == property.name {
                    replaced.append(.init(location: file.location(of: lhs), why: "'\(property.name)' replaced whole in \(method.name.text)()"))
                } else if path.hasPrefix(property.name + ".") {
                    assigned.insert(String(path.dropFirst(property.name.count + 1).prefix { $0 != "." }))
                }
            }
        }
        let made = (property.initializer ?? Self.initializerValue(of: property.name, in: type)).flatMap { SyntaxHelpers.unwrap($0).as(FunctionCallExprSyntax.self) }
        for field in store.properties where !field.isStatic && !field.isComputed && assigned.contains(field.name) {
            // (named as a state, or kept in a struct named as one, `state.clock`: a struct's other enums are
            // mostly data, a parser's token kind; the machine's own tests still decide)
            guard let (stateEnum, kind) = stateType(of: field, owner: store, context: context), kind == .enumeration,
                  Self.namedAsState(field.name) || Self.namedAsState(stateEnum.name) || Self.namedAsState(property.name) else { continue }
            // (given to the struct's memberwise initializer, else its default)
            let start = made.map { call in call.arguments.first { $0.label?.text == field.name }?.expression ?? field.initializer } ?? nil
            build(type: type, property: property, stateEnum: stateEnum, kind: kind, facts: facts, context: context,
                  field: Field(name: field.name, start: start, replaced: replaced))
        }
    }

    /// A field of a struct a type keeps, read as a state of its own (`buildFields`).
    struct Field {
        var name: String
        var start: ExprSyntax?
        var replaced: [StateWrites.Unfollowed]
    }

    /// An enum that is its own machine: `mutating func handle(_ e: Event) { switch (self, e) { … self = .x } }`
    /// or `func next(_ e: Event) -> Self? { switch (self, e) { … return .x } }`.
    func buildSelfMachine(type: TypeInfo, stateEnum: EnumInfo, context: ExtractionContext) {
        var rules: [Rule] = []
        var leftOut: [SourceLocation?] = []
        var location: SourceLocation?
        var inputEnum: EnumInfo?
        var inputNames: [String] = []
        var eventMethods = Set<String>()
        let successors = context.successors(of: stateEnum)
        for (method, file) in type.methods where !context.claimed.contains(method.id) {
            guard let body = method.body else { continue }
            let mutating = method.modifiers.contains { $0.name.text == "mutating" }
            let returns = method.signature.returnClause.map { SymbolIndex.bareTypeName($0.type.trimmedText) }
            let returnsSelf = returns == "Self" || returns == type.name || returns == type.qualifiedName
            guard mutating || returnsSelf else { continue }
            guard let (paramName, event, inputs) = eventParameter(of: method, in: type, stateEnum: stateEnum, sameAs: inputEnum, context: context) else { continue }
            let scan = SwitchFinder.scan(body)
            // (`switch self`, `switch (self, e)`, also moved or copied: `switch consume self`)
            let onSelf = scan.switches.contains { sw in
                let subject = SyntaxHelpers.unwrap(sw.subject)
                return SyntaxHelpers.isSelf(subject)
                    || subject.as(TupleExprSyntax.self).map { t in t.elements.contains { SyntaxHelpers.isSelf(SyntaxHelpers.unwrap($0.expression)) } } == true
            }
            let assignsSelf = scan.assignments.contains { $0.lhs.trimmedText == "self" }
            guard assignsSelf || returnsSelf else { continue }
            // (or a `switch` over the event whose cases test `self`: `case .toggle: return self == .off ? .on : .off`)
            guard onSelf || scan.switches.contains(where: { SyntaxHelpers.path($0.subject) == paramName })
                    && ValueTestFinder.tests(body, roots: ["self"]) else { continue }
            inputEnum = event
            inputNames = (inputNames + inputs).uniqued()
            let domain = Domain(states: stateEnum.caseNames, inputs: inputs)
            let optional = method.signature.returnClause?.type.trimmedText.hasSuffix("?") ?? false
            let spec = ReducerSpec(domain: domain, statePaths: ["self"], inputPaths: [paramName],
                                   returnsState: !assignsSelf && returnsSelf, nilIsFailure: optional, enumSuccessors: successors)
            let interpreter = ReducerInterpreter(spec: spec, file: file, effects: context.effectReader(inputs: inputs, inputType: event, at: method), readings: context.readings)
            rules += interpreter.run(body.statements, at: file.location(of: method))
            leftOut.append(interpreter.leftOut)
            location = location ?? file.location(of: method)
            context.claimed.insert(method.id)
            eventMethods.insert(method.name.text)
        }
        // Its other mutating methods (`mutating func shutDown()`) are inputs of their own, as for a stored
        // property's machine.
        let mutators = type.methods.filter { m, _ in m.modifiers.contains { $0.name.text == "mutating" } }
        // Without an event method, its mutating methods are its events when it is named as a state, one
        // of them tests `self` and no other type holds it (a holder's property is that type's machine).
        if location == nil {
            guard Self.namedAsState(stateEnum.name),
                  let tester = Self.firstTesting(["self"], among: Set(mutators.map(\.0.name.text)), of: type, successors: Set(successors.keys)),
                  holders(of: stateEnum, context: context).isEmpty else { return }
            location = tester.1.location(of: tester.0)
        }
        guard let location else { return }
        let walked = methodInputs(mutators, of: type, like: ReducerSpec(domain: Domain(states: stateEnum.caseNames, inputs: []),
                                                                  statePaths: ["self"], inputPaths: [], helperStatePaths: ["self"],
                                                                  enumSuccessors: successors),
                                  context: context, stateEnum: stateEnum)
        guard inputNames.isEmpty ? walked.inputs.count >= 2 : !rules.isEmpty else { return }
        rules += walked.rules
        leftOut += walked.leftOut
        var methodInputs = walked.inputs
        // A type holding it in a stored property that assigns the property itself (`self.mode = .closed`
        // in `handlerRemoved`): those methods are inputs too, named by that type (`Handler.handlerRemoved()`).
        // Writes in closures, which no walk reaches, make the machine partial.
        // A holder's method that only hands its argument to the enum's own event method (`gear =
        // gear.next(on: lever)`) sends those events: it is no input of its own.
        var unfollowed: [StateWrites.Unfollowed] = []
        var starts: [String?] = []
        var assigned: [(node: Syntax, value: ExprSyntax)] = []
        for (owner, property) in holders(of: stateEnum, context: context) {
            let writes = StateWrites(property: property.name, enumMethods: [], type: owner, index: context.index)
            var spec = ReducerSpec(domain: Domain(states: stateEnum.caseNames, inputs: []), statePaths: [property.name], inputPaths: [],
                                   helperStatePaths: [property.name], enumFactories: context.factories(of: stateEnum))
            spec.stateIsMember = true
            spec.stateEnumKey = stateEnum.key
            let own = writes.entries.filter { !Self.forwards($0.0, property: property.name, to: eventMethods) }
            starts.append(startingState(of: property, in: owner, states: stateEnum.caseNames, optional: false, context: context))
            let held = self.methodInputs(own, of: owner, like: spec, context: context, qualified: true)
            rules += held.rules
            leftOut += held.leftOut
            methodInputs += held.inputs
            unfollowed += writes.unfollowed
            assigned += writes.assigned
        }
        // the holders' starting value, when they agree; without one, what the enum's own initializers
        // all make it (`init() { self = .idle(Idle()) }`, held as `Mutex(State())`)
        let initial = starts.allSatisfy({ $0 == nil })
            ? context.initialState(Self.initializerValue(of: "self", in: type), states: stateEnum.caseNames)
            : Self.agreed(starts)
        var machine = Machine(name: type.name, dialect: .switchMethod, location: location, states: stateEnum.caseNames,
                              inputs: inputNames + methodInputs, initial: initial, rules: rules, order: .resolved,
                              stateLocations: context.locations(stateEnum), inputLocations: context.locations(inputEnum))
        machine.transient = Self.transient(assigned, of: machine, unobservable: [], context: context)
        markUnfollowed(unfollowed, in: &machine, context: context)
        context.add(machine, stateEnum: stateEnum, key: type.key, leftOut: leftOut)
    }

    /// Whether one of an enum's methods switches over `self` and one of its parameters (`switch (self, e)`, or
    /// one inside the other: `switch e { case .advance: switch self { … } }`): the enum's own machine of its events.
    static func switchesOverSelf(_ methods: some Sequence<FunctionDeclSyntax>) -> Bool {
        methods.contains { m in
            let parameters = Set(m.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
            guard let body = m.body else { return false }
            var overSelf = false, overParameter = false
            for sw in SwitchFinder.scan(body).switches {
                let subject = SyntaxHelpers.unwrap(sw.subject)
                let parts = subject.as(TupleExprSyntax.self).map { $0.elements.map(\.expression) } ?? [subject]
                overSelf = overSelf || parts.contains { SyntaxHelpers.isSelf($0) }
                overParameter = overParameter || parts.contains { parameters.contains(SyntaxHelpers.path($0) ?? "") }
            }
            return overSelf && overParameter
        }
    }

    /// Whether `method` only gives `property` what one of `eventMethods` of its own value returns: it
    /// calls one (`gear.next(on: lever)`), and assigns the property that call or a local holding its
    /// result (`guard let next = phase.transition(on: e) else { return }; phase = next`).
    static func forwards(_ method: FunctionDeclSyntax, property: String, to eventMethods: Set<String>) -> Bool {
        guard !eventMethods.isEmpty, let body = method.body else { return false }
        let paths: Set<String> = [property, "self." + property]
        let scan = SwitchFinder.scan(body)
        func isEventCall(_ expr: ExprSyntax) -> Bool {
            guard let call = SyntaxHelpers.unwrap(expr).as(FunctionCallExprSyntax.self) else { return false }
            return SyntaxHelpers.member(of: call.calledExpression, on: paths).map(eventMethods.contains) ?? false
        }
        // (assigned what the event method returns, `gear = gear.next(on: lever)`, or stepped by it, `ferry.handle(e)`)
        let assignments = scan.assignments.filter { paths.contains(SyntaxHelpers.path($0.lhs) ?? "") }
        return scan.calls.contains { isEventCall(ExprSyntax($0)) } && assignments.allSatisfy { _, rhs in
            isEventCall(rhs) || SyntaxHelpers.unwrap(rhs).as(DeclReferenceExprSyntax.self).map { !paths.contains($0.baseName.text) } ?? false
        }
    }

    /// The cases of the state's enum that are this type's states: all of them, unless the enum is declared
    /// outside the type and other types hold it too (a vocabulary shared by many classes, each using some
    /// of it); then the cases the type names, in its declaration or its methods. A case it never names
    /// is no state of its machine, rather than a state reported unreachable in each of them.
    func scopedStates(_ stateEnum: EnumInfo, of type: TypeInfo, property: String, facts: TypeFacts, context: ExtractionContext) -> [String] {
        let all = stateEnum.caseNames
        guard !stateEnum.qualifiedName.hasPrefix(type.qualifiedName + "."),
              Set(holders(of: stateEnum, context: context).map(\.0.key)).count > 1 else { return all }
        // (one stepping it by the enum's own successors, `turn = turn.opponent`, reaches the cases they give)
        let steps = context.successors(of: stateEnum).keys.map { $0.hasSuffix("()") ? String($0.dropLast(2)) : $0 }
        if steps.contains(where: facts.identifiers.contains) { return all }
        // (one set from other data holding a value of the enum, `status = reply.status`, reaches any of its cases)
        for (method, _) in type.methods {
            guard let body = method.body else { continue }
            for (lhs, rhs) in SwitchFinder.scanAll(body).assignments where SyntaxHelpers.path(lhs) == property {
                if context.index.storedMemberType(SyntaxHelpers.unwrap(rhs))?.enumInfo?.key == stateEnum.key { return all }
            }
        }
        // (a case named only in the patterns of a `switch` over the property is one the type reads, as Swift's
        // exhaustive `switch` makes it, not one it has: `switch state { case .idle, .loaded, .empty: false … }`)
        let outside = facts.identifiers(outsidePatternsOver: property)
        let used = all.filter { facts.identifiers.contains($0) && outside.contains($0) }
        return used.isEmpty ? all : used
    }

    /// What the machines of one type's properties read of the whole type, found once per type when first asked.
    final class TypeFacts {
        let type: TypeInfo
        init(_ type: TypeInfo) { self.type = type }

        /// The names the type's declaration and methods use.
        lazy var identifiers: Set<String> = {
            var named = Set<String>()
            for node in [type.node] + type.methods.compactMap({ $0.0.body.map(Syntax.init) }) {
                for token in node.tokens(viewMode: .sourceAccurate) {
                    if case .identifier(let text) = token.tokenKind { named.insert(text.withoutBackticks) }
                }
            }
            return named
        }()

        /// The names it uses outside the patterns of the `switch`es over `property` (asked for shared enums
        /// only, once per property).
        func identifiers(outsidePatternsOver property: String) -> Set<String> {
            if let known = outsidePatterns[property] { return known }
            final class Names: SyntaxVisitor {
                let property: String
                var named = Set<String>()
                init(_ property: String) { self.property = property; super.init(viewMode: .sourceAccurate) }
                override func visit(_ node: SwitchCaseLabelSyntax) -> SyntaxVisitorContinueKind {
                    let subject = node.parent?.parent?.parent?.as(SwitchExprSyntax.self)?.subject
                    return subject.flatMap(SyntaxHelpers.path)?.split(separator: ".").last.map(String.init) == property ? .skipChildren : .visitChildren
                }
                override func visit(_ node: TokenSyntax) -> SyntaxVisitorContinueKind {
                    if case .identifier(let text) = node.tokenKind { named.insert(text.withoutBackticks) }
                    return .skipChildren
                }
            }
            let names = Names(property)
            for node in [type.node] + type.methods.compactMap({ $0.0.body.map(Syntax.init) }) { names.walk(node) }
            outsidePatterns[property] = names.named
            return names.named
        }
        private var outsidePatterns: [String: Set<String>] = [:]

        /// The `switch`es of its methods, by the path of their subject.
        lazy var switches: [String: [SwitchExprSyntax]] = {
            var result: [String: [SwitchExprSyntax]] = [:]
            for (method, file) in type.methods {
                guard let body = method.body else { continue }
                _ = file.events.contains(.switchExpr, within: body) { node in
                    if let sw = node.as(SwitchExprSyntax.self), let path = SyntaxHelpers.path(sw.subject) { result[path, default: []].append(sw) }
                    return false
                }
            }
            return result
        }()
    }

    /// The states a type's methods assign the property and always overwrite before they return: no rule
    /// leads to them (`self.state = .modifying` while a payload is changed in place, copy-on-write's
    /// placeholder). They are held only while a method runs, so they are not reported unreachable.
    /// So are the states the code never lets anyone see (`unobservable`) that it assigns. (Only states:
    /// `.initial` standing for a case, `.none` of an optional, `.init(rawValue: 0)` name none.)
    static func transient(_ assigned: [(node: Syntax, value: ExprSyntax)], of machine: Machine,
                          unobservable: Set<String>, context: ExtractionContext) -> [String] {
        let targets = Self.targets(of: machine.rules), states = Set(machine.states)
        // (a write left last on its way in a method the reader walked, `job = .weird; return`, is no
        // placeholder: when no rule leads to it, no run gets there)
        let writes = assigned.map(\.node)
        func walked(_ write: Syntax) -> Bool {
            guard let function = sequence(first: write, next: { $0.parent }).first(where: {
                      $0.is(FunctionDeclSyntax.self) || $0.is(InitializerDeclSyntax.self) || $0.is(AccessorBlockSyntax.self) }),
                  let file = context.index.file(of: function) else { return false }
            let start = file.location(of: function), end = file.location(of: function.lastToken(viewMode: .sourceAccurate) ?? function.firstToken(viewMode: .sourceAccurate)!)
            return machine.rules.contains { $0.location.file == start.file && (start.line...end.line).contains($0.location.line) }
        }
        return assigned.filter { !walked($0.node) || overwritten($0.node, by: writes) }.compactMap { SyntaxHelpers.caseReference($0.value, context.index)?.name }
            .filter { states.contains($0) && ((!targets.contains($0) && $0 != machine.initial) || unobservable.contains($0)) }.uniqued()
    }

    /// Whether a write of the state may be overwritten before its function returns: another write follows
    /// it in its block or an enclosing one (or a call of the type's own methods, or the state handed on
    /// `inout`, which may write it), or it runs in a closure (whose time the reader does not know).
    static func overwritten(_ write: Syntax, by writes: [Syntax]) -> Bool {
        func mayWrite(_ later: CodeBlockItemSyntax) -> Bool {
            if writes.contains(where: { ExtractionContext.contains(later, $0) }) { return true }
            return later.tokens(viewMode: .sourceAccurate).contains { token in
                // (handed on `inout`, a closure that may run at once, a `fallthrough` into the next case)
                if token.tokenKind == .prefixAmpersand || token.tokenKind == .keyword(.fallthrough) { return true }
                if token.tokenKind == .leftBrace, token.parent?.is(ClosureExprSyntax.self) == true { return true }
                // (`finish()`, `self.finish()`)
                guard token.tokenKind == .leftParen, let call = token.parent?.as(FunctionCallExprSyntax.self) else { return false }
                let callee = call.calledExpression
                return callee.is(DeclReferenceExprSyntax.self) || callee.as(MemberAccessExprSyntax.self).map { $0.base.map(SyntaxHelpers.isSelf) ?? false } ?? false
            }
        }
        var node = write
        while let parent = node.parent {
            if parent.is(ClosureExprSyntax.self) { return true }
            if parent.is(FunctionDeclSyntax.self) || parent.is(InitializerDeclSyntax.self) || parent.is(AccessorBlockSyntax.self) { return false }
            if let list = parent.as(CodeBlockItemListSyntax.self), let item = node.as(CodeBlockItemSyntax.self) {
                for later in list where later.position > item.position {
                    if mayWrite(later) { return true }
                    // (the function is left first)
                    if later.item.is(ReturnStmtSyntax.self) || later.item.is(ThrowStmtSyntax.self) { return false }
                }
            }
            node = parent
        }
        return true
    }

    /// The states some rule leads to.
    static func targets(of rules: [Rule]) -> Set<String> {
        Set(rules.flatMap { rule in rule.outcomes.compactMap { o -> String? in if case .state(let s) = o.target { s } else { nil } } })
    }

    /// Placeholders: the states that every case naming them in a `switch` over the property traps in
    /// (`case .modifying: fatalError()`), when some `switch` names them, and that each assignment of them is
    /// followed, in its block, by another write of the property (`self.state = .modifying; …; self.state =
    /// next`, `body(&self.state)`). No one sees them between calls. (A final state that every call traps
    /// in is assigned last: it is seen.)
    static func unobservable(_ statePaths: Set<String>, among states: [String], facts: TypeFacts,
                             assigned: [(node: Syntax, value: ExprSyntax)], context: ExtractionContext) -> Set<String> {
        var trapping = Set<String>(), observed = Set<String>()
        for sw in statePaths.sorted().flatMap({ facts.switches[$0] ?? [] }) {
            for sc in SyntaxHelpers.cases(of: sw) {
                guard case .case(let label) = sc.label else { continue }
                let named = label.caseItems.flatMap { item in
                    item.pattern.tokens(viewMode: .sourceAccurate).compactMap { t -> String? in
                        if case .identifier(let name) = t.tokenKind, states.contains(name) { name } else { nil }
                    }
                }
                if SyntaxHelpers.onlyTraps(sc.statements) { trapping.formUnion(named) } else { observed.formUnion(named) }
            }
        }
        let candidates = trapping.subtracting(observed)
        guard !candidates.isEmpty else { return [] }
        var placeholders = Set<String>(), kept = Set<String>()
        for (node, value) in assigned {
            guard let name = SyntaxHelpers.caseReference(value, context.index)?.name, candidates.contains(name) else { continue }
            if overwrittenLater(node, statePaths: statePaths) { placeholders.insert(name) } else { kept.insert(name) }
        }
        return placeholders.subtracting(kept)
    }

    /// Whether a statement after the one holding `node`, in its block, writes the property.
    static func overwrittenLater(_ node: Syntax, statePaths: Set<String>) -> Bool {
        var statement = node
        while let parent = statement.parent, !parent.is(CodeBlockItemListSyntax.self) { statement = parent }
        guard let block = statement.parent?.as(CodeBlockItemListSyntax.self) else { return false }
        return block.contains { item in
            guard item.position > statement.position else { return false }
            let scan = SwitchFinder.scan(item)
            return scan.assignments.contains { statePaths.contains(SyntaxHelpers.path($0.lhs) ?? "") }
                || scan.inouts.contains { statePaths.contains(SyntaxHelpers.path($0.expression) ?? "") }
        }
    }

    /// The stored properties of other types whose type is `stateEnum`, with their types, in index order.
    /// (Once per enum and run: the properties are bucketed by the last name of their type first, as
    /// resolving every property of every type costs.)
    /// The stored properties of a class's generic superclass whose type is a parameter the class binds to
    /// an enum (`class FeedViewModel: BaseViewModel<FeedState>` and `var state: ViewState` in `class
    /// BaseViewModel<ViewState>`), with that enum.
    static func inheritedStates(of type: TypeInfo, context: ExtractionContext) -> [(Binding, EnumInfo)] {
        guard type.kind == "class", let first = type.inherited.first, first.contains("<"), let scope = context.index.scope(of: type.node),
              case .declared(let base, let arguments) = context.index.resolveType(first, in: scope), base.kind == "class",
              base.genericParameters.count == arguments.count else { return [] }
        return base.properties.compactMap { property in
            guard !property.isStatic, !property.isComputed, let text = property.typeText,
                  let i = base.genericParameters.firstIndex(of: text), let e = arguments[i].enumInfo, !e.cases.isEmpty else { return nil }
            return (property, e)
        }
    }

    /// The type with the default methods of the protocols it conforms to (those the inputs declare, and
    /// the protocols they refine) that it does not implement itself, which in Swift are its methods
    /// (`extension Runnable { func run() { phase = .running } }` for `final class Job: Runnable`), and
    /// their identities; nil when there are none. Only defaults that change one of its stored properties
    /// themselves (`phase = …`, `self.state.register()`): one that forwards to another method
    /// (`func sink(…) { subscribe(…) }`) adds an input doing what that one does.
    static func withDefaults(_ type: TypeInfo, context: ExtractionContext) -> (TypeInfo, Set<SyntaxIdentifier>)? {
        guard type.kind != "protocol", !type.inherited.isEmpty else { return nil }
        // (by name first: most types conform to no protocol of the code with a default)
        let withDefaults = context.protocolsWithDefaults()
        guard type.inherited.contains(where: { withDefaults.contains(ExtractionContext.lastName($0)) }) else { return nil }
        var queue = context.index.supertypes(of: type).filter { $0.kind == "protocol" }
        guard !queue.isEmpty else { return nil }
        let stored = Set(type.properties.filter { !$0.isStatic && !$0.isComputed }.map(\.name))
        func changesStored(_ method: FunctionDeclSyntax) -> Bool {
            func own(_ e: ExprSyntax) -> Bool {
                let path = SyntaxHelpers.path(e).map { $0.hasPrefix("self.") ? String($0.dropFirst(5)) : $0 }
                return path.map { stored.contains(String($0.prefix { $0 != "." })) } ?? false
            }
            guard let body = method.body else { return false }
            let scan = SwitchFinder.scan(body)
            return scan.assignments.contains { own($0.lhs) }
                || scan.calls.contains { $0.calledExpression.as(MemberAccessExprSyntax.self)?.base.map(own) ?? false }
        }
        // (a default of a constrained extension is the type's only where it meets the constraint: `extension
        // Holder where State == Blinds.State` is not `Shutter`'s, whose `State` is another declared type)
        func meets(_ method: FunctionDeclSyntax) -> Bool {
            guard let ext = sequence(first: Syntax(method), next: { $0.parent }).lazy.compactMap({ $0.as(ExtensionDeclSyntax.self) }).first,
                  let requirements = ext.genericWhereClause?.requirements else { return true }
            for r in requirements {
                guard case .sameTypeRequirement(let same) = r.requirement else { continue }
                let left = same.leftType.trimmedText.hasPrefix("Self.") ? String(same.leftType.trimmedText.dropFirst(5)) : same.leftType.trimmedText
                if let own = context.index.type("\(type.name).\(left)", in: context.index.scope(of: type.node)),
                   let required = context.index.type(same.rightType.trimmedText, in: context.index.scope(of: ext)), own !== required {
                    return false
                }
            }
            return true
        }
        // the methods it has, by plain name (full names are made only where plain names meet)
        var names = Dictionary(grouping: type.methods.map(\.0), by: { $0.name.text })
        func has(_ method: FunctionDeclSyntax) -> Bool {
            guard let alike = names[method.name.text] else { return false }
            let full = SyntaxHelpers.fullName(method)
            return alike.contains { SyntaxHelpers.fullName($0) == full }
        }
        var defaults: [(FunctionDeclSyntax, ParsedFile)] = []
        var seen: [TypeInfo] = []
        while !queue.isEmpty, seen.count < 16 {
            let conformed = queue.removeFirst()
            guard !seen.contains(where: { $0 === conformed }) else { continue }
            seen.append(conformed)
            let bodies = conformed.methods.filter { $0.0.body != nil && !$0.0.modifiers.contains { $0.name.text == "private" } && meets($0.0) }
            defaults += bodies.filter { !has($0.0) && changesStored($0.0) }
            for (m, _) in bodies { names[m.name.text, default: []].append(m) }
            queue += context.index.supertypes(of: conformed).filter { $0.kind == "protocol" }
        }
        return defaults.isEmpty ? nil : (type.view(adding: defaults), Set(defaults.map(\.0.id)))
    }

    /// The stored enum properties of a class's (non-generic) superclasses that the class's own methods
    /// assign, each with a view of the class holding the methods it inherits too (those it does not
    /// override), read as its own.
    static func superclassStates(of type: TypeInfo, context: ExtractionContext) -> [(Binding, EnumInfo, TypeInfo)] {
        guard type.kind == "class", !type.methods.isEmpty else { return [] }
        var result: [(Binding, EnumInfo, TypeInfo)] = []
        var bases: [TypeInfo] = []
        var current = type
        while let base = context.index.supertypes(of: current).first(where: { $0.kind == "class" }), bases.count < 8,
              !bases.contains(where: { $0 === base }) {
            bases.append(base)
            current = base
        }
        guard !bases.isEmpty else { return [] }
        let own = Set(type.properties.map(\.name))
        // (the class's method bodies are scanned only for a superclass holding an enum)
        var assigned: Set<String>?
        for base in bases where base.genericParameters.isEmpty {
            for property in base.properties where !property.isStatic && !property.isComputed && !own.contains(property.name) {
                guard let text = typeText(of: property), let e = context.index.enumInfo(text, in: context.index.scope(of: property.node)),
                      !e.cases.isEmpty, !result.contains(where: { $0.0.name == property.name }) else { continue }
                if assigned == nil { assigned = assignedNames(in: type) }
                guard assigned!.contains(property.name) else { continue }
                var names = Set(type.methods.map(\.0.name.text))
                var inherited: [(FunctionDeclSyntax, ParsedFile)] = []
                for b in bases {
                    for m in b.methods where !names.contains(m.0.name.text) && !m.0.modifiers.contains(where: { $0.name.text == "private" }) {
                        inherited.append(m)
                    }
                    names.formUnion(b.methods.map(\.0.name.text))
                }
                result.append((property, e, type.view(adding: inherited, properties: [property])))
            }
        }
        return result
    }

    func holders(of stateEnum: EnumInfo, context: ExtractionContext) -> [(TypeInfo, Binding)] {
        let caches = context.caches
        caches.lock.lock()
        defer { caches.lock.unlock() }
        if let known = caches.holders[stateEnum.key] { return known }
        if caches.propertiesByTypeName == nil {
            var buckets: [String: [(TypeInfo, Binding)]] = [:]
            for owner in context.index.typeOrder {
                for property in owner.properties where !property.isComputed && !property.isStatic {
                    guard let text = Self.typeText(of: property), let last = SymbolIndex.bareTypeName(text).split(separator: ".").last else { continue }
                    buckets[String(last), default: []].append((owner, property))
                }
            }
            caches.propertiesByTypeName = buckets
        }
        let result = (caches.propertiesByTypeName![stateEnum.name] ?? []).filter { owner, property in
            guard owner.enumInfo?.key != stateEnum.key else { return false }
            return Self.enumType(of: property, context: context)?.key == stateEnum.key
        }
        caches.holders[stateEnum.key] = result
        return result
    }

    /// A stored property's type as written, else the base of the case it starts as (`var status =
    /// Status.idle`, `Status.failed(0)`), by its text: nothing is resolved.
    static func typeText(of property: Binding) -> String? {
        // (the value a lock or box holds: `Mutex<State>`)
        func held(_ text: String) -> String? {
            guard boxName(text) != nil, let open = text.firstIndex(of: "<"), text.hasSuffix(">") else { return nil }
            return String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        }
        if let written = property.typeText { return held(written) ?? written }
        guard var value = property.initializer.map(SyntaxHelpers.unwrap) else { return nil }
        // (a case by its raw value or its place in `allCases`: `Stage(rawValue: 0)!`, `Lap.allCases[0]`,
        // `Face.allCases.first!`)
        if let sub = value.as(SubscriptCallExprSyntax.self) { value = sub.calledExpression }
        if let call = value.as(FunctionCallExprSyntax.self) {
            if call.arguments.first?.label?.text == "rawValue", let type = call.calledExpression.as(DeclReferenceExprSyntax.self) {
                return type.baseName.text
            }
            if let inner = held(call.calledExpression.trimmedText) { return inner }
            // (`NIOLockedValueBox(Lifecycle.running)`: the case it holds)
            if boxName(call.calledExpression.trimmedText) != nil, let first = call.arguments.first?.expression {
                value = SyntaxHelpers.unwrap(first)
                if let inner = value.as(FunctionCallExprSyntax.self) { value = inner.calledExpression }
            } else {
                value = call.calledExpression
            }
        }
        guard let member = value.as(MemberAccessExprSyntax.self) else { return nil }
        if let all = member.base?.as(MemberAccessExprSyntax.self), all.declName.baseName.text == "allCases" { return all.base?.trimmedText }
        return member.base?.trimmedText
    }

    /// The enum a stored property holds, by `typeText(of:)`, looked up where the property is declared; an
    /// ambiguous name said as a diagnostic when `reporting`.
    static func enumType(of property: Binding, context: ExtractionContext, reporting: Bool = false) -> EnumInfo? {
        guard let text = typeText(of: property) else { return nil }
        return reporting ? context.resolve(text, at: property.node)?.enumInfo : context.index.enumInfo(text, in: context.index.scope(of: property.node))
    }

    /// The note for a property its type's initializer is given the start of (`init(_ stage: Stage) { self.stage
    /// = stage }`): no initial state.
    static func noteStartGiven(_ given: String, of name: String, at location: SourceLocation, context: ExtractionContext) {
        context.warn("\(name) starts as \(given) is given; no initial state, so no state is checked for reachability",
                     at: location, severity: .note)
    }

    /// The writes giving the property a case from outside its type (`spy.mode = .hang`, `self.player.state =
    /// .idle`): each an input named by the function making it (`LoginTests.testHang()`), from every state.
    /// Only a property others may set (not `private`, `fileprivate`, `private(set)`) on a value whose declared
    /// type is the property's type: a local, parameter or property declared with it or made by its
    /// initializer; a value of a type not known is left alone.
    static func outsideWrites(of property: Binding, in type: TypeInfo, enumName: String, states: [String], context: ExtractionContext) -> (rules: [Rule], inputs: [String]) {
        guard let writes = context.facts.memberWrites[property.name], !property.isStatic, !property.isComputed,
              let decl = property.node.parent?.parent?.as(VariableDeclSyntax.self),
              !decl.modifiers.contains(where: { ["private", "fileprivate"].contains($0.name.text) }) else { return ([], []) }
        func typeText(of base: ExprSyntax) -> String? {
            let e = base.as(OptionalChainingExprSyntax.self)?.expression ?? base.as(ForceUnwrapExprSyntax.self)?.expression ?? base
            let name: String
            if let ref = e.as(DeclReferenceExprSyntax.self) {
                name = ref.baseName.text
                // (a local or parameter: its declared type, else that of what it is given, `let m = Hub.shared`)
                if let local = SymbolIndex.localDeclaration(of: name, around: Syntax(ref)) {
                    return SymbolIndex.declaredType(ofLocal: local)
                        ?? local.as(PatternBindingSyntax.self)?.initializer.flatMap { SyntaxHelpers.unwrap($0.value).is(MemberAccessExprSyntax.self) ? typeText(of: $0.value) : nil }
                }
            } else if let member = e.as(MemberAccessExprSyntax.self), member.base.map(SyntaxHelpers.isSelf) == true {
                name = member.declName.baseName.text
            } else if let member = e.as(MemberAccessExprSyntax.self), let typeBase = member.base,
                      let owner = context.index.typeExpression(typeBase, at: typeBase) {
                // a type's shared instance (`GameCenter.shared.phase = .won`): the static property's type
                let b = context.index.properties(named: member.declName.baseName.text, of: owner).first { $0.isStatic }
                return b.flatMap { $0.typeText ?? $0.initializer.flatMap { SyntaxHelpers.unwrap($0).as(FunctionCallExprSyntax.self)?.calledExpression.trimmedText } }
            } else {
                return nil
            }
            guard let b = context.index.binding(named: name, at: e, where: { !$0.isStatic }) else { return nil }
            return b.typeText ?? b.initializer.flatMap { SyntaxHelpers.unwrap($0).as(FunctionCallExprSyntax.self)?.calledExpression.trimmedText }
        }
        var rules: [Rule] = []
        var inputs: [String] = []
        // (a test or preview arranging a state of the program's type, `sut.status = .failed`, is no way the app
        // reaches it; a stub the tests declare is theirs to drive)
        let typeIsTest = ExtractionContext.isTestOrPreview(type.node, index: context.index)
        for (lhs, value) in writes where typeIsTest || !ExtractionContext.isTestOrPreview(lhs, index: context.index) {
            // (each case a choice gives: `cell.state = done ? .downloaded : .remote`)
            let targets = SyntaxHelpers.branches(value).compactMap { SyntaxHelpers.caseReference($0, context.index, accepting: states.contains) }
            guard let base = lhs.base, let file = context.index.file(of: lhs), !targets.isEmpty,
                  // (a case written with its type: that of the state, `Spy.Mode.hang`)
                  targets.allSatisfy({ target in target.type.map({ $0.split(separator: ".").last.map(String.init) == enumName }) ?? true }),
                  let written = typeText(of: base),
                  SymbolIndex.bareTypeName(written).split(separator: ".").last.map(String.init) == type.name else { continue }
            let owner = context.index.scope(of: lhs)?.innermostType.map { $0.name + "." } ?? ""
            // (a view's button writing a model's state, `Button("Edit") { model.phase = .editing }`: named
            // by its title, from the states the view shows it in, `if model.phase == .viewing { … }`)
            let button = Self.button(around: lhs)
            let input = owner + (button?.title ?? SyntaxHelpers.enclosingFunction(lhs).flatMap { SyntaxHelpers.isDelegateCallback($0) ? SyntaxHelpers.fullName($0) : nil }
                ?? DSLSupport.enclosingFunctionName(lhs) ?? "top level")
            let from = button.map { b in
                let evaluator = PredicateEvaluator(values: states, subjects: [lhs.trimmedText], file: file, index: context.index)
                return states.filter(ViewState.shown(Syntax(b.call), in: Set(states), evaluator).contains)
            } ?? states
            guard !from.isEmpty else { continue }
            inputs = inputs.appendingUnique([input])
            rules.append(Rule(location: file.location(of: lhs), outcomes: targets.map(\.name).uniqued().map { target in
                Outcome(pairs: from.map { Pair(from: $0, input: input) }, target: .state(target)) }))
        }
        return (rules, inputs)
    }

    /// The `Button` whose action a node is written in (`Button("Edit") { model.phase = .editing }`), with its
    /// title, if one.
    static func button(around node: some SyntaxProtocol) -> (call: FunctionCallExprSyntax, title: String)? {
        guard let closure = sequence(first: Syntax(node), next: { $0.parent }).lazy.compactMap({ $0.as(ClosureExprSyntax.self) }).first,
              let call = SyntaxHelpers.call(taking: closure), call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Button",
              let title = call.arguments.first(where: { $0.label == nil }).flatMap({ ViewState.firstString(in: Syntax($0.expression)) }) else { return nil }
        return (call, title)
    }

    /// Writes no walk reaches make the machine partial, each with a note where it is.
    func markUnfollowed(_ unfollowed: [StateWrites.Unfollowed], in machine: inout Machine, context: ExtractionContext) {
        guard !unfollowed.isEmpty else { return }
        machine.partial = true
        machine.unreadWrites = unfollowed.map(\.location)
        for w in unfollowed {
            context.warn("'\(machine.name)' is also written here (\(w.why)), where the tool does not follow; the machine is partial",
                         at: w.location, severity: .note)
        }
    }

    /// The state a stored property starts in: its default, else what every initializer of its type assigns
    /// it; `nil` for an optional with neither.
    func startingState(of property: Binding, in type: TypeInfo, states: [String], optional: Bool, context: ExtractionContext) -> String? {
        let stateEnum = Self.enumType(of: property, context: context)
        if property.isComputed {
            return Self.storedStart(of: property, in: type, states: states, raws: stateEnum.flatMap { context.successors(of: $0)["rawValue="] })
        }
        // (an initializer setting it to what it is given starts it where its caller says)
        if Self.startGiven(of: property.name, in: type) != nil { return nil }
        let start = property.initializer ?? Self.initializerValue(of: property.name, in: type, index: context.index)
        // (`= .none` is `nil`, as Swift reads it even where the enum has a case of that name, and `Optional.none`)
        if optional, start == nil || PatternReader.value(start!, context.index) == .named(.literal("nil")) {
            return "nil"
        }
        return context.initialState(Self.enumInitStart(start, context: context) ?? start, states: states, of: stateEnum)
    }

    /// An initializer of the type that sets the property to one of its parameters (`init(restored: Status)
    /// { status = restored }`): its name.
    static func startGiven(of property: String, in type: TypeInfo) -> String? {
        for initializer in type.initializers + type.extensionInitializers {
            let parameters = Set(initializer.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
            let given = initializer.body?.statements.contains { item in
                guard let (lhs, rhs) = SyntaxHelpers.assignment(item.item), rhs.count == 1, SyntaxHelpers.path(lhs) == property,
                      let name = rhs[0].as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
                return parameters.contains(name)
            } ?? false
            if given {
                let labels = initializer.signature.parameterClause.parameters.map { "\($0.firstName.text):" }.joined()
                return "init(\(labels))"
            }
        }
        return nil
    }

    /// For a value made by the state enum's own initializer (`State()`, `State.init()`), the case that
    /// initializer gives `self` (`init() { self = .idle }`).
    static func enumInitStart(_ start: ExprSyntax?, context: ExtractionContext) -> ExprSyntax? {
        guard let call = start.flatMap({ SyntaxHelpers.unwrap($0).as(FunctionCallExprSyntax.self) }), call.arguments.isEmpty,
              call.trailingClosure == nil, let scope = context.index.scope(of: call) else { return nil }
        let callee = call.calledExpression.trimmedText
        guard callee.first?.isUppercase == true, case .declared(let type, _) = context.index.resolveType(callee.hasSuffix(".init") ? String(callee.dropLast(5)) : callee, in: scope),
              type.enumInfo != nil else { return nil }
        return initializerValue(of: "self", in: type)
    }

    /// The starting state of a computed property kept in a stored raw value (`var status: Status { get {
    /// Status(rawValue: raw) ?? .open } … }` with `var raw = Status.open.rawValue` or `= "open"`): the
    /// case the raw value starts as.
    /// `raws`: the enum's cases by raw value (`"20"` → `closed`), where it has them.
    static func storedStart(of property: Binding, in type: TypeInfo, states: [String], raws: [String: String]? = nil) -> String? {
        // kept in a stored property of its type: where that one starts (`private var _state: State = .ready`)
        if let backing = backing(of: property, in: type) {
            return backing.initializer.flatMap { SyntaxHelpers.unwrap($0).as(MemberAccessExprSyntax.self) }
                .map { $0.declName.baseName.text }.flatMap { states.contains($0) ? $0 : nil }
        }
        guard let getter = ExtractionContext.getter(of: property), getter.count == 1, let item = getter.first?.item,
              let value = item.as(ExpressionStmtSyntax.self)?.expression ?? item.as(ReturnStmtSyntax.self)?.expression ?? item.as(ExprSyntax.self)
        else { return nil }
        // `E(rawValue: raw)`, alone or before `?? …`
        let folded = SyntaxHelpers.unwrapFolded(value)
        let call = SyntaxHelpers.unwrap(folded.as(InfixOperatorExprSyntax.self)?.leftOperand ?? folded).as(FunctionCallExprSyntax.self)
        guard let argument = call?.arguments.first, argument.label?.text == "rawValue", call?.arguments.count == 1 else { return nil }
        guard let raw = SyntaxHelpers.path(argument.expression).map({ $0.hasPrefix("self.") ? String($0.dropFirst(5)) : $0 }),
              let backing = type.properties.first(where: { $0.name == raw && !$0.isComputed }) else {
            // kept elsewhere (`Stage(rawValue: defaults.string(forKey: key) ?? "") ?? .welcome`): the case it
            // gives while nothing is stored
            guard let fallback = folded.as(InfixOperatorExprSyntax.self), fallback.operator.trimmedText == "??",
                  let member = SyntaxHelpers.unwrap(fallback.rightOperand).as(MemberAccessExprSyntax.self),
                  states.contains(member.declName.baseName.text) else { return nil }
            return member.declName.baseName.text
        }
        guard let start = backing.initializer.map(SyntaxHelpers.unwrap) else { return nil }
        if let member = start.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "rawValue",
           let base = member.base?.as(MemberAccessExprSyntax.self), states.contains(base.declName.baseName.text) {
            return base.declName.baseName.text
        }
        if let literal = start.as(StringLiteralExprSyntax.self), literal.segments.count == 1, case let text = literal.segments.trimmedDescription,
           states.contains(text) {
            return text
        }
        // (a raw value written as a literal: `var statusRaw: Int = 20`, `= "shut"`)
        let written = start.as(StringLiteralExprSyntax.self).flatMap(SyntaxHelpers.stringContent) ?? start.trimmedText
        return raws?[written].flatMap { states.contains($0) ? $0 : nil }
    }

    /// The value every initializer of the type assigns the property among its own statements (`init() {
    /// self.state = .idle }`), when they all assign the same (written alike); nil otherwise.
    /// With `index`, a `super.init(…)` whose superclass initializer sets the property to one of its parameters
    /// (`init(initial: State) { state = initial }`) hands it the argument there (`super.init(initial: .editing)`).
    static func initializerValue(of property: String, in type: TypeInfo, index: SymbolIndex? = nil) -> ExprSyntax? {
        guard type.node.isProtocol(DeclGroupSyntax.self) else { return nil }
        func handed(_ call: FunctionCallExprSyntax) -> ExprSyntax? {
            guard let index else { return nil }
            let labels = call.arguments.map { $0.label?.text ?? "_" }
            for superclass in index.supertypes(of: type) where superclass.kind == "class" {
                for initializer in superclass.initializers {
                    let parameters = Array(initializer.signature.parameterClause.parameters)
                    guard parameters.map(\.firstName.text) == labels, let body = initializer.body else { continue }
                    for item in body.statements {
                        guard let (lhs, rhs) = SyntaxHelpers.assignment(item.item), rhs.count == 1, SyntaxHelpers.path(lhs) == property,
                              let name = rhs[0].as(DeclReferenceExprSyntax.self)?.baseName.text,
                              let position = parameters.firstIndex(where: { ($0.secondName ?? $0.firstName).text == name }) else { continue }
                        return Array(call.arguments)[position].expression
                    }
                }
            }
            return nil
        }
        var values: [ExprSyntax] = []
        // (those of its extensions too: `convenience init(…) { self.init(…); self.state = .inline }`)
        for initializer in type.initializers + type.extensionInitializers {
            // (one that only traps makes no value: `required init?(coder: NSCoder) { fatalError() }`)
            if let body = initializer.body, SyntaxHelpers.onlyTraps(body.statements) { continue }
            let assigned = initializer.body?.statements.lazy.compactMap { item -> ExprSyntax? in
                // (or handed to the superclass's initializer that sets it: `super.init(state: .idle)`,
                // `super.init(initialState: .idle)`)
                if let call = item.item.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedText == "super.init" {
                    let labels = [property, "initial" + property.prefix(1).uppercased() + property.dropFirst()]
                    return call.arguments.first { $0.label.map { labels.contains($0.text) } == true }?.expression ?? handed(call)
                }
                guard let (lhs, rhs) = SyntaxHelpers.assignment(item.item), SyntaxHelpers.path(lhs) == property else { return nil }
                // (`auth = token == nil ? .signedOut : .signedIn`: the value, its operators folded)
                return rhs.count == 1 ? rhs[0] : item.item.as(ExprSyntax.self).flatMap { SyntaxHelpers.fold($0).as(InfixOperatorExprSyntax.self)?.rightOperand }
            }.first
            // (one handing over to another, `self.init(…)`, and not setting it after, starts where that one does)
            if assigned == nil, initializer.body?.statements.contains(where: { SyntaxHelpers.delegatesToSelfInit($0.item) }) == true { continue }
            guard let assigned else { return nil }
            values.append(assigned)
        }
        guard let first = values.first, values.allSatisfy({ $0.trimmedText == first.trimmedText }) else { return nil }
        return first
    }

    /// Methods of `type` walked as inputs of their own, named `method()`, each with `template`'s state
    /// and the type's other methods as helpers: the rules of those that change the state and their
    /// inputs. A method that never changes the state adds nothing; one claimed already is skipped.
    /// `qualified`: the methods are another type's (a holder of the state), named `Type.method()`, and read
    /// whatever that type's own machines claim (they are built apart, maybe on another thread).
    /// A method taking a value of the state's enum (`func transition(to next: State)`, `move(to:)`) is
    /// walked once for each of its cases, the parameter standing for it: the cases its `switch (state,
    /// next)` lets through are its moves. `writers`: every method writing the state (the helpers too,
    /// whose waits are the waits of the work that calls them); by default, `methods`.
    func methodInputs(_ methods: [(FunctionDeclSyntax, ParsedFile)], of type: TypeInfo, like template: ReducerSpec,
                      context: ExtractionContext, qualified: Bool = false, stateEnum: EnumInfo? = nil,
                      writers: Set<String>? = nil, start: String? = nil) -> (rules: [Rule], leftOut: [SourceLocation?], inputs: [String]) {
        var result: (rules: [Rule], leftOut: [SourceLocation?], inputs: [String]) = ([], [], [])
        var tasks: [(launch: ReducerInterpreter.Launch, file: ParsedFile, spec: ReducerSpec)] = []
        let writers = writers ?? Set(methods.map(\.0.name.text))
        // (a test's extension of the program's type, `extension Link { func simulateCaptive() … }` in a test
        // target, adds helpers for the tests, no input of the program)
        let typeIsTest = ExtractionContext.isTestOrPreview(type.node, index: context.index)
        for (method, file) in methods where qualified || !context.claimed.contains(method.id) {
            guard let body = method.body, typeIsTest || !ExtractionContext.isTestOrPreview(method, index: context.index) else { continue }
            let input = (qualified ? type.name + "." : "") + Self.inputName(of: method, among: type.methods)
            var spec = template
            spec.domain = Domain(states: template.domain.states, inputs: [input])
            let resumed = Self.suspending(&spec, method: method, of: type, input: input, own: writers)
            spec.helpers = ReducerSpec.helperTable(type.methods.map(\.0).filter { $0.id != method.id })
            // (what the framework calls once, before anything else, `override func viewDidLoad()`, comes in the
            // state the machine starts in)
            if let start, Self.calledOnceAtStart(method) { spec.arrivals[input] = Arrival(states: [start]) }
            // (once with nothing bound, or once for each case of a parameter of the state's enum)
            let given = stateEnum.flatMap { Self.stateParameter(of: method, stateEnum: $0, context: context) }
            let bindings: [[String: ExprSyntax]] = given.map { name, cases in
                cases.map { [name: ExprSyntax(MemberAccessExprSyntax(period: .periodToken(), name: .identifier($0)))] }
            } ?? [[:]]
            var walked: [Rule] = []
            var leftOut: [SourceLocation] = []
            for binding in bindings {
                let interpreter = ReducerInterpreter(spec: spec, file: file, effects: context.effectReader(inputs: [], inputType: nil), readings: context.readings)
                if !binding.isEmpty { interpreter.substitutions = [binding] }
                walked += interpreter.run(body.statements, at: file.location(of: method))
                leftOut += interpreter.leftOut.map { [$0] } ?? []
                for launch in interpreter.launches {
                    guard let i = tasks.firstIndex(where: { $0.launch.closure.id == launch.closure.id }) else {
                        tasks.append((launch, file, spec))
                        continue
                    }
                    tasks[i].launch.states.formUnion(launch.states)
                    tasks[i].launch.inputs.formUnion(launch.inputs)
                }
            }
            // (a method that only starts work is no input of its own: the work is, `cancel() task`)
            guard Self.changesState(walked) else { continue }
            result.rules += walked
            result.leftOut.append(leftOut.first)
            result.inputs = result.inputs.appendingUnique([input] + Self.arrived(resumed, in: walked))
        }
        // the work they start to run later (`Task { … }`), each walked once, from every state a method starts it in
        let started = Self.tasks(tasks, of: type, own: Self.sharesState(type) ? writers : nil, context: context)
        result.rules += started.rules
        result.leftOut += started.leftOut
        result.inputs = result.inputs.appendingUnique(started.inputs)
        return result
    }

    /// Whether a body keeps in another value a handler called on each of its events that writes a value named
    /// by `roots` (`monitor.pathUpdateHandler = { [weak self] path in self?.status = … }`).
    static func installsListener(_ body: CodeBlockSyntax, _ roots: Set<String>) -> Bool {
        SwitchFinder.scanAll(body).assignments.contains { _, rhs in
            guard let closure = SyntaxHelpers.unwrap(rhs).as(ClosureExprSyntax.self), let handler = SyntaxHelpers.handlerProperty(of: closure),
                  SyntaxHelpers.deliversRepeatedly(closure, kind: handler) else { return false }
            return SwitchFinder.scanAll(closure.statements).assignments.contains { lhs, _ in
                roots.contains(SyntaxHelpers.path(lhs) ?? "")
            }
        }
    }

    /// Whether the framework calls a method once, before the object's other events: an override of a view
    /// controller's or a view's first lifecycle call (`viewDidLoad()`, `loadView()`, `awakeFromNib()`).
    static func calledOnceAtStart(_ method: FunctionDeclSyntax) -> Bool {
        ["viewDidLoad", "loadView", "awakeFromNib"].contains(method.name.text) && method.signature.parameterClause.parameters.isEmpty
            && method.modifiers.contains { $0.name.text == "override" }
    }

    /// A parameter of a method whose type is the state's enum, when none of its cases carries data: its
    /// name and the cases it may be given.
    static func stateParameter(of method: FunctionDeclSyntax, stateEnum: EnumInfo, context: ExtractionContext) -> (String, [String])? {
        guard !stateEnum.cases.contains(where: \.hasPayload) else { return nil }
        for p in method.signature.parameterClause.parameters {
            let name = SymbolIndex.bareTypeName(p.type.trimmedText)
            guard name == stateEnum.name || name == "Self" && method.parent?.parent?.parent?.is(EnumDeclSyntax.self) == true,
                  context.index.enumInfo(p.type.trimmedText, in: context.index.scope(of: p.type))?.key == stateEnum.key else { continue }
            return ((p.secondName ?? p.firstName).text, stateEnum.caseNames)
        }
        return nil
    }

    /// The Combine pipelines of a type assigning a property (`upstream.map { … }.assign(to: &$phase)`, or
    /// `.assign(to: \.phase, on: self)`): each an input named by the pipeline's source (`$query assign`),
    /// arriving in any state, leading to each case the `map` before it gives (`$0.isEmpty ? .idle :
    /// .searching`). A pipeline giving no case the tool can read is a write it does not follow.
    static func pipelineAssignments(of property: String, in type: TypeInfo, states: [String], context: ExtractionContext)
        -> (rules: [Rule], inputs: [String], unfollowed: [StateWrites.Unfollowed]) {
        var result: (rules: [Rule], inputs: [String], unfollowed: [StateWrites.Unfollowed]) = ([], [], [])
        let bodies = type.methods.compactMap { m, file in m.body.map { (Syntax($0), file) } } + type.initializers.compactMap { i in i.body.map { (Syntax($0), type.file) } }
        for (body, file) in bodies {
            for call in SwitchFinder.scanAll(body).calls where call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "assign" {
                let target = call.arguments.first { $0.label?.text == "to" }?.expression
                let onSelf = call.arguments.first { $0.label?.text == "on" }.map { $0.expression.trimmedText == "self" } ?? true
                guard let target, onSelf, [
                    "&$" + property, "&self.$" + property, "\\." + property, "\\Self." + property, "\\\(type.name)." + property,
                ].contains(target.trimmedText.replacingOccurrences(of: " ", with: "")) else { continue }
                // the pipeline before it: its source, and the values its last `map` gives
                var base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
                var values: [ExprSyntax]?
                while let b = base {
                    let inner = SyntaxHelpers.unwrap(b).as(FunctionCallExprSyntax.self)
                    let member = (inner?.calledExpression ?? b).as(MemberAccessExprSyntax.self)
                    if values == nil, let inner, ["map", "compactMap"].contains(member?.declName.baseName.text ?? ""),
                       let closure = SyntaxHelpers.closures(of: inner).first {
                        values = SyntaxHelpers.returnedValues(of: closure)
                    }
                    guard let next = member?.base else { break }
                    base = next
                }
                let source = base.map { $0.trimmedText } ?? "pipeline"
                let cases = (values ?? []).compactMap { SyntaxHelpers.caseReference($0, context.index, accepting: states.contains)?.name }.uniqued()
                guard !cases.isEmpty, cases.count == values?.count else {
                    result.unfollowed.append(StateWrites.Unfollowed(location: file.location(of: call), why: "by a Combine pipeline whose values are not read"))
                    continue
                }
                let input = source + " assign"
                let pairs = states.map { Pair(from: $0, input: input) }
                result.rules.append(Rule(location: file.location(of: call), outcomes: cases.map {
                    Outcome(pairs: pairs, target: .state($0), guardText: cases.count > 1 ? "chosen by the value \(source) gives" : nil)
                }))
                result.inputs = result.inputs.appendingUnique([input])
            }
        }
        return result
    }

    /// The work a type's initializers start (`center.addObserver(…) { [weak self] _ in … }`, `publisher.sink
    /// { [weak self] … }`, a `Task`): each an input of its own (`init() callback`, `init() sink`), arriving in
    /// every state, since it runs whenever it is called back after the value is made.
    func initializerWork(of type: TypeInfo, like template: ReducerSpec, own: Set<String>, context: ExtractionContext)
        -> (rules: [Rule], leftOut: [SourceLocation?], inputs: [String]) {
        var started: [(launch: ReducerInterpreter.Launch, file: ParsedFile, spec: ReducerSpec)] = []
        for initializer in type.initializers {
            guard let body = initializer.body, SyntaxHelpers.mayStartWork(body) else { continue }
            var spec = template
            spec.domain = Domain(states: template.domain.states, inputs: ["init()"])
            spec.helpers = ReducerSpec.helperTable(type.methods.map(\.0))
            let walker = ReducerInterpreter(spec: spec, file: type.file, effects: context.effectReader(inputs: [], inputType: nil), readings: context.readings)
            _ = walker.run(body.statements, at: type.file.location(of: initializer))
            for var launch in walker.launches {
                launch.states = Set(template.domain.states)
                launch.inputs = ["init()"]
                started.append((launch, type.file, spec))
            }
        }
        return Self.tasks(started, of: type, own: Self.sharesState(type) ? own : nil, context: context)
    }

    /// Whether others may change the type's state while one of its methods or tasks waits: a class's or
    /// an actor's (a struct's mutating method holds the value until it returns).
    static func sharesState(_ type: TypeInfo) -> Bool { type.kind == "class" || type.kind == "actor" }

    /// Walks `method` (an input, or the inputs of `spec`'s domain) with its suspension points (`await`):
    /// the inputs its rest arrives as after them are added to the domain and returned. Only an `async`
    /// method of a class or an actor: other calls may run while it waits; a struct's mutating method
    /// holds the value until it returns.
    static func suspending(_ spec: inout ReducerSpec, method: FunctionDeclSyntax, of type: TypeInfo, input: String,
                           own: Set<String>) -> [String] {
        guard sharesState(type), method.signature.effectSpecifiers?.asyncSpecifier != nil,
              let body = method.body else { return [] }
        return suspending(&spec, body: body, except: method, of: type, input: input, own: own)
    }

    /// The same for any body that may wait (a `Task`'s closure, a SwiftUI `.task { … }`), of a type whose
    /// state others may change meanwhile; `except` is the method the body is (not walked in line).
    static func suspending(_ spec: inout ReducerSpec, body: some SyntaxProtocol, except: FunctionDeclSyntax? = nil, of type: TypeInfo,
                           input: String, own: Set<String>) -> [String] {
        var writers: [String: FunctionDeclSyntax] = [:]
        for (m, _) in type.methods where own.contains(m.name.text) && m.id != except?.id { writers[m.name.text] = writers[m.name.text] ?? m }
        spec.suspensions = Suspension.points(in: body, input: input, own: writers)
        let resumed = spec.suspensions.values.map(\.input).uniqued().sorted()
        if !resumed.isEmpty { spec.domain = Domain(states: spec.domain.states, inputs: spec.domain.inputs + resumed) }
        return resumed
    }

    /// The inputs among `resumed` some rule fires on.
    static func arrived(_ resumed: [String], in rules: [Rule]) -> [String] {
        guard !resumed.isEmpty else { return [] }
        let inputs = Set(rules.flatMap { $0.outcomes.flatMap { $0.pairs.map(\.input) } })
        return resumed.filter(inputs.contains)
    }

    /// Whether some rule leads to another state (or to one computed at run time).
    static func changesState(_ rules: [Rule]) -> Bool {
        rules.contains { $0.outcomes.contains { o in if case .stay = o.target { false } else { true } } }
    }

    /// Work the methods start to run later (`Task { … }`), each an input of its own, named by the input
    /// that starts it (`sync task`, `load() task`) or, when several do, by the method it is written in. It
    /// arrives in the states the inputs start it from (what other inputs do while it runs is not
    /// followed), and is walked like them. One that never changes the state adds nothing.
    static func tasks(_ started: [(launch: ReducerInterpreter.Launch, file: ParsedFile, spec: ReducerSpec)],
                      of type: TypeInfo, own: Set<String>? = nil, context: ExtractionContext) -> (rules: [Rule], leftOut: [SourceLocation?], inputs: [String]) {
        var result: (rules: [Rule], leftOut: [SourceLocation?], inputs: [String]) = ([], [], [])
        // (work a task starts in turn, `start() callback callback`, is walked after it, three deep at most;
        // a sink's completion after its values)
        let all = started.map { ($0.launch, $0.file, $0.spec, 0) }
        var pending = all.filter { $0.0.kind != "sink completion" } + all.filter { $0.0.kind == "sink completion" }
        // (each closure walked, with its input's name and the states it was walked from: work that starts
        // itself again, `receive { … self.listen() }`, is walked again from the states it is new in)
        var walkedClosures: [SyntaxIdentifier: (name: String, states: Set<String>)] = [:]
        // (the states a sink's values lead to, by its call: its completion comes after them, from there too)
        var afterValues: [SyntaxIdentifier: Set<String>] = [:]
        while !pending.isEmpty {
            var (launch, file, template, depth) = pending.removeFirst()
            let call = launch.kind.hasPrefix("sink") ? SyntaxHelpers.call(taking: launch.closure)?.id : nil
            if launch.kind == "sink completion", let call, let more = afterValues[call] { launch.states.formUnion(more) }
            let again = walkedClosures[launch.closure.id]
            if let again {
                launch.states.subtract(again.states)
                guard !launch.states.isEmpty else { continue }
            }
            var starter = launch.inputs.count == 1 ? launch.inputs.first!
                : SyntaxHelpers.enclosingFunction(launch.closure).map { inputName(of: $0, among: type.methods) }
                    ?? Self.observerName(around: launch.closure) ?? "Task"
            // (a subscription made in `init` is named by what it subscribes to: `didEnterBackgroundNotification
            // sink`, `$query sink`, `loginTap onNext`, not `init() sink 2`)
            if starter == "init()", let subscribed = SyntaxHelpers.subscription(of: launch.closure)?.source { starter = subscribed }
            var name = again?.name ?? starter + " " + launch.kind
            var k = 1
            while again == nil, result.inputs.contains(name) { k += 1; name = starter + " \(launch.kind) \(k)" }
            walkedClosures[launch.closure.id] = (name, (again?.states ?? []).union(launch.states))
            var spec = template
            spec.domain = Domain(states: spec.domain.states, inputs: [name])
            spec.suspensions = [:]
            // (a task's `await`s are suspension points where others may change the state: `own` names the
            // type's methods that change it)
            let resumed = own.map { Self.suspending(&spec, body: launch.closure.statements, of: type, input: name, own: $0) } ?? []
            spec.arrivals = [name: Arrival(states: launch.states, presented: nil)]
            spec.mainHopsNow = launch.isCallback
            // it may call any method of the type, the one that started it too (`send(.loaded)`)
            spec.helpers = ReducerSpec.helperTable(type.methods.map(\.0))
            let home = launch.file ?? file
            let walker = ReducerInterpreter(spec: spec, file: home, effects: context.effectReader(inputs: [], inputType: nil),
                                            readings: context.readings)
            let walked = walker.run(launch.closure.statements, at: home.location(of: launch.closure))
            if depth < 3 { pending += walker.launches.map { ($0, home, template, depth + 1) } }
            if launch.kind == "sink", let call { afterValues[call, default: []].formUnion(targets(of: walked)) }
            guard changesState(walked) else { continue }
            result.rules += walked
            result.leftOut.append(walker.leftOut)
            result.inputs = result.inputs.appendingUnique([name] + arrived(resumed, in: walked))
        }
        return result
    }

    /// Whether rules step a state through its cases: they lead to two states or more, and some state only
    /// from some states (`size -feed()-> sizeLF`, `sizeLF -feed()-> data`), not a setter that may give
    /// any state from any (`mode = x > 0 ? .on : .off`).
    static func steps(_ rules: [Rule], states: [String]) -> Bool {
        var sources: [String: Set<String>] = [:]
        for rule in rules {
            for outcome in rule.outcomes {
                guard case .state(let to) = outcome.target else { continue }
                for pair in outcome.pairs where pair.from != to { sources[to, default: []].insert(pair.from) }
            }
        }
        return sources.count >= 2 && sources.contains { to, from in from.count < states.count - 1 }
    }

    /// The property observer a node is written in, by the property and the observer (`digits.didSet`).
    static func observerName(around node: some SyntaxProtocol) -> String? {
        let ancestors = sequence(first: Syntax(node), next: { $0.parent })
        guard let accessor = ancestors.first(where: { $0.is(AccessorDeclSyntax.self) })?.as(AccessorDeclSyntax.self),
              let binding = ancestors.first(where: { $0.is(PatternBindingSyntax.self) })?.as(PatternBindingSyntax.self),
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
        return "\(name).\(accessor.accessorSpecifier.text)"
    }

    /// Words that name a state: a property or enum named with one (`state`, `connectionState`, `Phase`,
    /// `Status`, `Stage`, `mode`) whose type's methods change it and test it is that type's machine, with
    /// the methods as its events; an enum named otherwise (`storage`, `sign`, `Backing`) is read as data.
    static let stateWords = ["state", "phase", "status", "stage", "mode", "step", "screen", "loadable"]

    /// Whether one of the words of a camel-case name is a state word (`connectionState`, `_state`,
    /// `HTTPState`, `SubscriptionStatus`; not `statement`).
    static func namedAsState(_ name: String) -> Bool {
        var words: [String] = []
        var word = ""
        let characters = Array(name)
        for (i, c) in characters.enumerated() {
            let previous = i > 0 ? characters[i - 1] : nil, next = i + 1 < characters.count ? characters[i + 1] : nil
            // a word starts at an upper-case letter after a lower-case one, or before a lower-case one
            // at the end of a run of capitals (`HTTPState`)
            let starts = c.isUppercase && (previous?.isLowercase == true || (previous?.isUppercase == true && next?.isLowercase == true))
            if !c.isLetter || starts {
                if !word.isEmpty { words.append(word.lowercased()) }
                word = c.isLetter ? String(c) : ""
            } else {
                word.append(c)
            }
        }
        if !word.isEmpty { words.append(word.lowercased()) }
        return words.contains { stateWords.contains($0) }
    }

    /// The first method among `names` (in declaration order) that tests a value named by `roots`, or
    /// gives it one of `successors` of its enum; only the latter without `tests`.
    static func firstTesting(_ roots: Set<String>, among names: Set<String>, of type: TypeInfo,
                             successors: Set<String> = [], tests: Bool = true,
                             predicates: Set<String> = []) -> (FunctionDeclSyntax, ParsedFile)? {
        // `light = light.next`, a successor of the state's enum, tests it too
        func steps(_ body: CodeBlockSyntax) -> Bool {
            guard !successors.isEmpty else { return false }
            let scan = SwitchFinder.scan(body)
            return scan.assignments.contains { _, rhs in SyntaxHelpers.successorName(rhs, on: roots).map(successors.contains) ?? false }
                // (or names its next case by raw value: `guard let next = Step(rawValue: step.rawValue + 1)`, or
                // binds an optional one: `if let next = step.next`)
                || scan.calls.contains { SyntaxHelpers.successorName(ExprSyntax($0), on: roots).map(successors.contains) ?? false }
                || scan.bound.contains { SyntaxHelpers.successorName($0, on: roots).map(successors.contains) ?? false }
                // (or picks its next case by position: `stage = Stage.allCases[Stage.allCases.firstIndex(of: stage)! + 1]`)
                || successors.contains("allCases=") && (scan.assignments.map(\.rhs) + scan.bound).contains { Self.picksByPosition($0, of: roots) }
                // (or steps it by raw value, by any amount or clamped: `DimStep(rawValue: min(step.rawValue + 1, 3))!`)
                || successors.contains("rawValue=") && (scan.assignments.map(\.rhs) + scan.bound).contains { rhs in
                    SyntaxHelpers.rawOffset(rhs).map { roots.contains(SyntaxHelpers.path($0.base) ?? "") } ?? false
                }
        }
        func first(testers: [String: Bool]) -> (FunctionDeclSyntax, ParsedFile)? {
            type.methods.first { method, _ in
                names.contains(method.name.text)
                    && method.body.map { tests && ValueTestFinder.tests($0, roots: roots, predicates: predicates, testers: testers) || steps($0) } == true
            }
        }
        // (the type's `Bool` methods are read only when no writer tests it itself)
        return first(testers: [:]) ?? (tests ? first(testers: Self.testers(of: roots, in: type, besides: names, predicates: predicates)) : nil)
    }

    /// The methods of a type returning `Bool` (other than `names`), each with whether it tests a value
    /// named by `roots`: called in a writer, one that does (`canTransition(to: next)`), or any given the
    /// value (`canTransition(from: level, to: next)`), tests it there.
    static func testers(of roots: Set<String>, in type: TypeInfo, besides names: Set<String>, predicates: Set<String>) -> [String: Bool] {
        var testers: [String: Bool] = [:]
        for (method, _) in type.methods where method.signature.returnClause?.type.trimmedText == "Bool" && !names.contains(method.name.text) {
            testers[method.name.text, default: false] = testers[method.name.text] == true
                || method.body.map { ValueTestFinder.tests($0, roots: roots, predicates: predicates) } == true
        }
        return testers
    }

    /// The first method among `names` (in declaration order) when a computed property of the type tests
    /// a value named by `roots` (`override var isExecuting: Bool { state == .executing }` in an
    /// `Operation` whose `start()` and `finish()` set it, none testing it): what the state decides is read
    /// there, not in the methods.
    static func firstWriterWhenTested(_ roots: Set<String>, among names: Set<String>, of type: TypeInfo) -> (FunctionDeclSyntax, ParsedFile)? {
        let tested = type.properties.contains { property in
            guard property.isComputed, let accessors = property.node.as(PatternBindingSyntax.self)?.accessorBlock else { return false }
            return ValueTestFinder.tests(accessors, roots: roots)
        }
        return tested ? firstWriter(among: names, of: type) : nil
    }

    /// The first method among `names`, in declaration order.
    static func firstWriter(among names: Set<String>, of type: TypeInfo) -> (FunctionDeclSyntax, ParsedFile)? {
        type.methods.first { names.contains($0.0.name.text) }
    }

    /// Whether the methods assign at least `count` cases (a value only ever reset, `keepAliveState =
    /// .unknown`, is a cache, no state).
    static func assignsCases(_ writes: StateWrites, atLeast count: Int, context: ExtractionContext) -> Bool {
        var names = Set<String>()
        for (_, value) in writes.assigned {
            for branch in SyntaxHelpers.branches(value) {
                if let name = SyntaxHelpers.caseReference(branch, context.index)?.name { names.insert(name) }
            }
            if names.count >= count { return true }
        }
        return false
    }

    /// The first method among `names` (in declaration order) when another method of the type switches over
    /// a value named by `roots` (`private func render() { switch state { case .loading: … } }`, called
    /// from its `didSet`): a view controller's state, which its methods set and one method shows.
    static func firstWriterWhenRendered(_ roots: Set<String>, among names: Set<String>, of type: TypeInfo) -> (FunctionDeclSyntax, ParsedFile)? {
        let rendered = type.methods.contains { method, _ in
            !names.contains(method.name.text) && method.body.map { body in
                SwitchFinder.scan(body).switches.contains { roots.contains(SyntaxHelpers.path($0.subject) ?? "") }
            } == true
        }
        return rendered ? firstWriter(among: names, of: type) : nil
    }

    /// How each closure between a node and the method body around it runs, innermost first; nil when a
    /// nested function is in between (no walk follows it).
    static func closureRuns(around node: Syntax, in body: CodeBlockSyntax, context: ExtractionContext) -> [SyntaxHelpers.ClosureRun]? {
        var runs: [SyntaxHelpers.ClosureRun] = []
        for n in sequence(first: node, next: { $0.parent }).prefix(while: { $0.id != body.id }) {
            if n.is(FunctionDeclSyntax.self) { return nil }
            if let closure = n.as(ClosureExprSyntax.self) { runs.append(SyntaxHelpers.run(of: closure, index: context.index)) }
        }
        return runs
    }

    /// The first method among `names` (in declaration order) that assigns a value named by `roots` a case
    /// in work it starts to be called back later (`monitor.pathUpdateHandler = { [weak self] path in
    /// self?.status = … }`, a completion handler, a `Task`), or calls there another of `names` (`engine.onFinish
    /// = { [weak self] in self?.finish() }`): an event of the world changes it, as no setting does.
    static func firstCalledBack(_ roots: Set<String>, setters: Set<String>, among names: Set<String>, of type: TypeInfo,
                                context: ExtractionContext) -> (FunctionDeclSyntax, ParsedFile)? {
        type.methods.first { method, _ in
            guard names.contains(method.name.text), let body = method.body else { return false }
            return callsBack(body, roots, setters: setters, among: names.subtracting([method.name.text]), context: context)
        }
    }

    /// The first method among `names` that assigns a value named by `roots` a case after an `await` in its
    /// own body (`guard await authorized() else { status = .denied; return }`, `for await update in updates
    /// { tier = .gold }`): what the awaited world answers sets it, as a callback would.
    static func firstAwaiting(_ roots: Set<String>, setters: Set<String>, among names: Set<String>, of type: TypeInfo,
                              context: ExtractionContext) -> (FunctionDeclSyntax, ParsedFile)? {
        type.methods.first { method, _ in
            guard names.contains(method.name.text), method.signature.effectSpecifiers?.asyncSpecifier != nil, let body = method.body else { return false }
            let awaits = body.tokens(viewMode: .sourceAccurate).filter { $0.tokenKind == .keyword(.await) }.map(\.position)
            guard let first = awaits.first else { return false }
            return SwitchFinder.scanAll(body).writes(of: roots, setters: setters).contains { lhs, rhs in
                lhs.position > first && SyntaxHelpers.enclosingClosure(of: Syntax(lhs)).map { $0.position < body.position } != false
                    && SyntaxHelpers.branches(rhs).contains { SyntaxHelpers.caseReference($0, context.index) != nil }
            }
        }
    }

    /// Whether work a body starts (a callback, a task) assigns a value named by `roots` a case, or calls
    /// another method among `names` writing it (`{ [weak self] in self?.finish() }`).
    static func callsBack(_ body: CodeBlockSyntax, _ roots: Set<String>, setters: Set<String>, among names: Set<String>,
                          context: ExtractionContext) -> Bool {
        func calledBack(_ node: Syntax) -> Bool {
            closureRuns(around: node, in: body, context: context).map { $0.contains(.started) && !$0.contains(.other) } == true
        }
        let scan = SwitchFinder.scanAll(body)
        return scan.writes(of: roots, setters: setters).contains { lhs, rhs in
            SyntaxHelpers.branches(rhs).contains { SyntaxHelpers.caseReference($0, context.index) != nil } && calledBack(Syntax(lhs))
        } || scan.calls.contains { call in
            let callee = call.calledExpression.as(MemberAccessExprSyntax.self).flatMap { m in m.base.map(SyntaxHelpers.isSelf) == true ? m.declName.baseName.text : nil }
                ?? call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
            return callee.map(names.contains) == true && calledBack(Syntax(call))
        }
    }

    /// Whether an expression picks a case of `allCases` at a position found from a value at `roots`
    /// (`all[(all.firstIndex(of: stage)! + 1) % all.count]`).
    static func picksByPosition(_ expr: ExprSyntax, of roots: Set<String>) -> Bool {
        guard let pick = SyntaxHelpers.withoutFallback(expr).value.as(SubscriptCallExprSyntax.self) else { return false }
        // (a position kept in a local first: `guard let i = Step.allCases.firstIndex(of: step)`, then `[i + 1]`)
        let kept = pick.arguments.tokens(viewMode: .sourceAccurate).compactMap { token in
            token.parent?.as(DeclReferenceExprSyntax.self).flatMap(SyntaxHelpers.localValue)?.trimmedText
        }
        let position = ([pick.arguments.trimmedText] + kept).joined().filter { !$0.isWhitespace }
        return roots.contains { position.contains("firstIndex(of:\($0))") || position.contains("firstIndex(of:self.\($0))") }
    }

    /// The first method among `names` (in declaration order) that is a delegate's callback and assigns a
    /// value named by `roots` a case (`func centralManager(_ central: CBCentralManager, didConnect …) {
    /// connectionState = .connected }`): the world changes it, as in a callback.
    static func firstDelegateCallback(_ roots: Set<String>, setters: Set<String>, among names: Set<String>, of type: TypeInfo,
                                      context: ExtractionContext) -> (FunctionDeclSyntax, ParsedFile)? {
        type.methods.first { method, _ in
            guard names.contains(method.name.text), SyntaxHelpers.isDelegateCallback(method), let body = method.body else { return false }
            return SwitchFinder.scanAll(body).writes(of: roots, setters: setters).contains { _, rhs in
                SyntaxHelpers.branches(rhs).contains { SyntaxHelpers.caseReference($0, context.index) != nil }
            }
        }
    }

    /// The first method among `names` (in declaration order) that steps a value named by `roots` by the
    /// case it holds: a `switch` over it (alone or in a tuple) whose cases assign it (`switch step { case
    /// .intro: step = .details … }`), the mark of a state machine whatever the value is called.
    static func firstStepping(_ roots: Set<String>, among names: Set<String>, of type: TypeInfo) -> (FunctionDeclSyntax, ParsedFile)? {
        type.methods.first { method, _ in
            guard names.contains(method.name.text), let body = method.body else { return false }
            // (in the method, or in work it starts: `Timer.scheduledTimer(…) { _ in switch self.light { case .red:
            // self.light = .green … } }`)
            // (`self.light` has the path `light`)
            let scan = SwitchFinder.scanAll(body)
            func named(_ e: ExprSyntax) -> Bool { roots.contains(SyntaxHelpers.path(e) ?? "") }
            return scan.switches.contains { sw in
                // (alone or in a tuple: `switch (gear, next)`)
                let subject = SyntaxHelpers.unwrap(sw.subject)
                let parts = subject.as(TupleExprSyntax.self).map { $0.elements.map(\.expression) } ?? [subject]
                return parts.contains(where: named)
                    && (SwitchFinder.scanAll(sw).assignments.contains { named($0.lhs) }
                        // (or gives it its value: `light = switch light { case .red: .green … }`)
                        || scan.assignments.contains { named($0.lhs) && SyntaxHelpers.unwrap($0.rhs).id == sw.id })
            }
        }
    }

    /// The first method among `names` (in declaration order) that guards a value named by `roots`: it
    /// assigns it a case where a test of it decides (`if door == .closed { door = .open }`, after `guard
    /// door == .closed else { return }`, `mode = mode == .a ? .b : .a`). A write a test of something else
    /// decides (`case .update: format = .thresholds` in a `switch command`) is none.
    static func firstGuarding(_ roots: Set<String>, among names: Set<String>, of type: TypeInfo, predicates: Set<String> = [],
                              context: ExtractionContext) -> (FunctionDeclSyntax, ParsedFile)? {
        var known: [String: Bool]?
        var testers: [String: Bool] {
            if known == nil { known = Self.testers(of: roots, in: type, besides: names, predicates: predicates) }
            return known!
        }
        func guarded(_ lhs: ExprSyntax, _ rhs: ExprSyntax, in body: CodeBlockSyntax, scan: SwitchFinder, parameters: Set<String>) -> Bool {
            if let ternary = SyntaxHelpers.unwrap(rhs).as(TernaryExprSyntax.self), ValueTestFinder.tests(ternary.condition, roots: roots) {
                return true
            }
            // (`mode = if mode == .a { .b } else { .a }`)
            if let choice = SyntaxHelpers.unwrap(rhs).as(IfExprSyntax.self), ValueTestFinder.tests(choice.conditions, roots: roots) {
                return true
            }
            // (a case, or a choice of cases: `stroke = pencil ? .inking : .smudging`; or the setter's argument
            // after a predicate method of the type allowed it: `guard canTransition(to: next) …; level = next`)
            let argument = SyntaxHelpers.unwrap(rhs).as(DeclReferenceExprSyntax.self).map { parameters.contains($0.baseName.text) } == true
                && (!testers.isEmpty || scan.calls.contains { call in
                    // (or the enum's relation given the value: `Tide.canTransition(from: tide, to: next)`, or asked
                    // of it: `tide.canTransition(to: next)`)
                    DSLSupport.calleeName(call).map(AllowedMoves.namedAsMoves) == true
                        && (call.arguments.contains { roots.contains(SyntaxHelpers.path($0.expression) ?? "") }
                            || call.calledExpression.as(MemberAccessExprSyntax.self)?.base.flatMap(SyntaxHelpers.path).map(roots.contains) == true)
                })
            guard argument || SyntaxHelpers.branches(rhs).allSatisfy({ SyntaxHelpers.caseReference($0, context.index) != nil }) else { return false }
            for node in sequence(first: Syntax(lhs), next: { $0.parent }).prefix(while: { $0.id != body.id }) {
                if let branch = node.parent?.as(IfExprSyntax.self), node.id == branch.body.id,
                   ValueTestFinder.tests(branch.conditions, roots: roots, predicates: predicates, testers: testers) { return true }
                if let item = node.as(CodeBlockItemSyntax.self), let list = item.parent?.as(CodeBlockItemListSyntax.self),
                   list.prefix(while: { $0.id != item.id }).contains(where: { earlier in
                       earlier.item.as(GuardStmtSyntax.self).map { ValueTestFinder.tests($0.conditions, roots: roots, predicates: predicates, testers: testers) } == true
                   }) { return true }
            }
            return false
        }
        return type.methods.first { method, _ in
            guard names.contains(method.name.text), let body = method.body else { return false }
            let parameters = Set(method.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
            let scan = SwitchFinder.scan(body)
            return scan.assignments.contains { lhs, rhs in
                roots.contains(SyntaxHelpers.path(lhs) ?? "") && guarded(lhs, rhs, in: body, scan: scan, parameters: parameters)
            }
        }
    }

    /// The first method among `names` (in declaration order) that takes a value named by `roots` through
    /// stages: it assigns it a case, then another one later on the same path (`state = .loading`, then
    /// `state = .loaded(items)` in the `do` after it), as a view model's `load()` does without testing the
    /// state first; the later one may be in work the method starts (`sink`, `Task`, a completion handler).
    /// Two cases assigned in the branches of one `if` are no stages. With `waiting`, the later write must
    /// come after the method waits (an `await` between the two) or in work it starts: the mark of a value
    /// loaded in stages (`articles = .loading`, then `.loaded(list)` after `try await fetch()`), which a
    /// value's representation built in two steps is not.
    static func firstStaging(_ roots: Set<String>, setters: Set<String> = [], among names: Set<String>, of type: TypeInfo, waiting: Bool = false,
                             context: ExtractionContext) -> (FunctionDeclSyntax, ParsedFile)? {
        // (a write in a closure counts when every closure around it is work the method starts)
        func reached(_ node: Syntax, in body: CodeBlockSyntax) -> Bool {
            closureRuns(around: node, in: body, context: context)?.allSatisfy { $0 == .started } == true
        }
        func waits(from first: Syntax, to second: Syntax, in body: CodeBlockSyntax) -> Bool {
            // (in work started apart from the first write, or after an `await` between them)
            if let closure = SyntaxHelpers.enclosingClosure(of: second),
               !(closure.position..<closure.endPosition).contains(first.position) { return true }
            let span = first.endPosition..<second.position
            return body.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.await) && span.contains($0.position) }
        }
        return type.methods.first { method, _ in
            guard names.contains(method.name.text), let body = method.body else { return false }
            var written: [(node: Syntax, name: String)] = []
            for (lhs, rhs) in SwitchFinder.scanAll(body).writes(of: roots, setters: setters) where reached(Syntax(lhs), in: body) {
                // (each case a ternary may give: `ok ? .finished : .failed`)
                for value in SyntaxHelpers.branches(rhs) {
                    if let name = SyntaxHelpers.caseReference(value, context.index)?.name { written.append((Syntax(lhs), name)) }
                }
            }
            // a write whose block holds (or is) the block of a write of another case
            return written.contains { first in
                guard let block = sequence(first: first.node, next: { $0.parent }).first(where: { $0.is(CodeBlockItemListSyntax.self) })
                else { return false }
                return written.contains { second in
                    second.name != first.name && second.node.position > first.node.position
                        && sequence(first: second.node, next: { $0.parent }).contains { $0.id == block.id }
                        && (!waiting || waits(from: first.node, to: second.node, in: body))
                }
            }
        }
    }

    /// A method as an input: `reset()`, or its full name (`next(isolation:)`, `write(_:promise:)`) where
    /// the type has several methods of that name, or where it is a delegate's callback, whose labels say
    /// the event (`locationManager(_:didUpdateLocations:)`).
    static func inputName(of method: FunctionDeclSyntax, among methods: [(FunctionDeclSyntax, ParsedFile)]) -> String {
        let name = method.name.text
        guard methods.lazy.filter({ $0.0.name.text == name }).count > 1 || SyntaxHelpers.isDelegateCallback(method) else { return name + "()" }
        let full = SyntaxHelpers.fullName(method)
        // (overloads told apart by their parameters' types only, as CallKit's `provider(_:perform:)` for each
        // action: with the types)
        guard methods.contains(where: { $0.0.id != method.id && SyntaxHelpers.fullName($0.0) == full }) else { return full }
        // (`__owned Element` is `Element`)
        return name + "(" + method.signature.parameterClause.parameters.map { p in
            "\(p.firstName.text): \((p.type.as(AttributedTypeSyntax.self)?.baseType ?? p.type).trimmedText)"
        }.joined(separator: ", ") + ")"
    }

    /// Whether a method body reads as an event method without a `switch` over its event: it tests the state,
    /// and the event decides whether it is assigned (`if state == .a && event == .go { state = .b }`), or it assigns the
    /// state what a method of the type that tests its parameters returns for the event (`state =
    /// reduce(state, event)`). A method that only tests an option (`if mode == .output { … }`) is none.
    func testsEvent(_ parameter: String, in body: CodeBlockSyntax, of type: TypeInfo, statePaths: Set<String>) -> Bool {
        if ValueTestFinder.tests(body, roots: statePaths), EventControlFinder.controls(body, event: parameter, state: statePaths) { return true }
        for (lhs, rhs) in SwitchFinder.scan(body).assignments where statePaths.contains(SyntaxHelpers.path(lhs) ?? "") {
            guard let call = SyntaxHelpers.unwrap(rhs).as(FunctionCallExprSyntax.self),
                  call.arguments.contains(where: { SyntaxHelpers.path($0.expression) == parameter }) else { continue }
            let callee = call.calledExpression
            let name = callee.as(DeclReferenceExprSyntax.self)?.baseName.text
                ?? callee.as(MemberAccessExprSyntax.self).flatMap { $0.base?.trimmedText == "self" ? $0.declName.baseName.text : nil }
            for (method, _) in type.methods where method.name.text == name {
                let parameters = method.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text }
                if let b = method.body, ValueTestFinder.tests(b, roots: Set(parameters)) { return true }
            }
        }
        return false
    }

    /// The event parameter of a method: its first parameter of an enum type other than the state's
    /// (the same enum as the machine's other methods take, once one is known), with the inputs it gives:
    /// the enum's cases, and `nil` when it is optional (`_ frame: Frame?`, where `nil` ends a stream).
    func eventParameter(of method: FunctionDeclSyntax, in type: TypeInfo, stateEnum: EnumInfo, sameAs inputEnum: EnumInfo?,
                        context: ExtractionContext) -> (String, EnumInfo, [String])? {
        for p in method.signature.parameterClause.parameters {
            let wrapped = p.type.as(OptionalTypeSyntax.self)?.wrappedType ?? p.type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self)?.wrappedType
            let written = Self.boundType((wrapped ?? p.type).trimmedText, of: type) ?? (wrapped ?? p.type)
            guard let e = context.index.enumInfo(written.trimmedText, in: context.index.scope(of: written)),
                  e.key != stateEnum.key, inputEnum == nil || inputEnum!.key == e.key else { continue }
            return ((p.secondName ?? p.firstName).text, e, e.caseNames + (wrapped == nil || e.caseNames.contains("nil") ? [] : ["nil"]))
        }
        return nil
    }

    /// A SwiftNIO handler's event unwrapped from its parameter (`let part = self.unwrapInboundIn(data)`,
    /// then `switch part { case .head(let h): … case .body: … case .end: … }` among the method's
    /// statements) of a method that is not private: the local, and as inputs the cases that `switch`
    /// names (the event's type is the framework's, declared nowhere in the code read).
    static func unwrappedEvent(in method: FunctionDeclSyntax) -> (local: String, inputs: [String])? {
        // (a handler's own entry point: a private helper unwrapping what its callers hand it is walked in them)
        guard let body = method.body, !SymbolIndex.isPrivate(method) else { return nil }
        let parameters = Set(method.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
        func caseName(_ raw: PatternSyntax) -> String? {
            let pattern = raw.as(ValueBindingPatternSyntax.self)?.pattern ?? raw
            return pattern.as(ExpressionPatternSyntax.self).flatMap { SyntaxHelpers.spelledCase($0.expression) }
        }
        var local: String?
        for item in body.statements {
            if let v = item.item.as(VariableDeclSyntax.self), v.bindings.count == 1, let binding = v.bindings.first,
               let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
               let call = binding.initializer.map({ SyntaxHelpers.unwrap($0.value) })?.as(FunctionCallExprSyntax.self),
               DSLSupport.calleeName(call)?.hasPrefix("unwrap") == true, call.arguments.count == 1,
               let argument = call.arguments.first.flatMap({ SyntaxHelpers.path($0.expression) }), parameters.contains(argument) {
                local = name
                continue
            }
            guard let local, let sw = item.item.as(ExpressionStmtSyntax.self)?.expression.as(SwitchExprSyntax.self),
                  SyntaxHelpers.path(sw.subject) == local else { continue }
            var names: [String] = []
            for sc in SyntaxHelpers.cases(of: sw) {
                guard case .case(let label) = sc.label else { continue }
                for item in label.caseItems {
                    guard let name = caseName(item.pattern) else { return nil }
                    names.append(name)
                }
            }
            return names.uniqued().count >= 2 ? (local, names.uniqued()) : nil
        }
        return nil
    }

    /// A loop over a stream of events in a method (`for await event in events { switch (phase, event) {
    /// … } }`), the stream a parameter or a stored property of type `AsyncStream<E>` or
    /// `AsyncThrowingStream<E, …>` of an enum `E` other than the state's: the loop's variable, the enum,
    /// its cases as inputs, and the loop's body.
    func eventLoop(in method: FunctionDeclSyntax, of type: TypeInfo, stateEnum: EnumInfo, sameAs inputEnum: EnumInfo?,
                   context: ExtractionContext) -> (name: String, event: EnumInfo, inputs: [String], body: CodeBlockSyntax)? {
        guard let body = method.body else { return nil }
        for item in body.statements {
            // (`events: for await event in events`, labelled for a `continue events` or `break events`)
            guard let loop = item.item.as(ForStmtSyntax.self) ?? item.item.as(LabeledStmtSyntax.self)?.statement.as(ForStmtSyntax.self),
                  loop.awaitKeyword != nil,
                  let name = loop.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                  let stream = SyntaxHelpers.path(loop.sequence).map({ $0.hasPrefix("self.") ? String($0.dropFirst(5)) : $0 }) else { continue }
            let parameter = method.signature.parameterClause.parameters.first { ($0.secondName ?? $0.firstName).text == stream }
            guard let typeText = parameter?.type.trimmedText ?? type.properties.first(where: { $0.name == stream && !$0.isStatic })?.typeText,
                  let e = Self.elementEnum(ofSequenceTyped: typeText, at: loop, arrays: false, context: context),
                  e.key != stateEnum.key, inputEnum == nil || inputEnum!.key == e.key else { continue }
            return (name, e, e.caseNames, loop.body)
        }
        return nil
    }

    /// The declared enum a sequence of that written type gives values of: `AsyncStream<E>`,
    /// `AsyncThrowingStream<E, …>`, and with `arrays`, `[E]` and `Array<E>`.
    static func elementEnum(ofSequenceTyped typeText: String, at node: some SyntaxProtocol, arrays: Bool, context: ExtractionContext) -> EnumInfo? {
        if arrays, typeText.hasPrefix("["), typeText.hasSuffix("]") {
            return context.index.scope(of: node).flatMap { context.index.resolveType(String(typeText.dropFirst().dropLast()), in: $0).enumInfo }
        }
        let generic = DSLSupport.genericType(typeText, at: node, index: context.index)
        return (["AsyncStream", "AsyncThrowingStream"] + (arrays ? ["Array"] : [])).contains(generic.name) ? generic.arguments.first?.enumInfo : nil
    }

    /// The type a generic parameter of `type` is bound to by the extensions that declare its methods
    /// (`extension Dimmer where S == Lamp`), when they all bind it to the same written type.
    static func boundType(_ parameter: String, of type: TypeInfo) -> TypeSyntax? {
        guard type.genericParameters.contains(parameter) else { return nil }
        var bound: [TypeSyntax] = []
        for (method, _) in type.methods {
            guard let ext = method.parent?.parent?.parent?.parent?.as(ExtensionDeclSyntax.self),
                  let requirements = ext.genericWhereClause?.requirements else { continue }
            for r in requirements {
                if case .sameTypeRequirement(let same) = r.requirement, same.leftType.trimmedText == parameter,
                   let right = same.rightType.as(TypeSyntax.self) {
                    bound.append(right)
                }
            }
        }
        guard let first = bound.first, bound.allSatisfy({ $0.trimmedText == first.trimmedText }) else { return nil }
        return first
    }

    /// The enum a stored property holds: its written type, or the type of the case it starts as. An
    /// optional enum (`var phase: Phase?`) has `nil` as a state of its own.
    /// The names the type's methods assign (`status = .done`, `self.status = …`), by their tokens.
    static func assignedNames(in type: TypeInfo) -> Set<String> {
        var names = Set<String>()
        for (method, _) in type.methods {
            guard let body = method.body else { continue }
            var previous: TokenSyntax?
            for token in body.tokens(viewMode: .sourceAccurate) {
                if token.tokenKind == .equal, let p = previous, case .identifier(let name) = p.tokenKind { names.insert(name) }
                previous = token
            }
        }
        return names
    }

    /// Whether a computed property's getter makes its value from a raw value (`Status(rawValue: raw)`).
    static func rawBacked(_ property: Binding) -> Bool {
        guard let getter = ExtractionContext.getter(of: property) else { return false }
        var previous: TokenSyntax?
        for token in getter.tokens(viewMode: .sourceAccurate) {
            if token.tokenKind == .colon, previous?.text == "rawValue" { return true }
            previous = token
        }
        return false
    }

    /// The stored property of the same type a computed one reads and its setter writes, under a lock or
    /// a queue (an asynchronous `Operation`'s `var state: State { get { queue.sync { _state } } set {
    /// willChangeValue(…); queue.sync(flags: .barrier) { _state = newValue }; … } }`).
    static func backing(of property: Binding, in type: TypeInfo) -> Binding? {
        guard let written = property.typeText, let getter = ExtractionContext.getter(of: property),
              case .accessors(let accessors)? = property.node.as(PatternBindingSyntax.self)?.accessorBlock?.accessors,
              let setter = accessors.first(where: { $0.accessorSpecifier.tokenKind == .keyword(.set) })?.body else { return nil }
        func names(_ node: some SyntaxProtocol) -> Set<String> {
            let finder = PredicateEvaluator.NameFinder()
            finder.walk(node)
            return finder.names
        }
        let read = names(getter), set = names(setter)
        guard set.contains("newValue") else { return nil }
        let candidates = type.properties.filter { p in
            !p.isComputed && !p.isStatic && p.name != property.name && read.contains(p.name) && set.contains(p.name) && p.typeText == written
        }
        return candidates.count == 1 ? candidates[0] : nil
    }

    /// Whether a computed property has a setter (`set { … }`).
    static func settable(_ property: Binding) -> Bool {
        guard case .accessors(let accessors)? = property.node.as(PatternBindingSyntax.self)?.accessorBlock?.accessors else { return false }
        return accessors.contains { $0.accessorSpecifier.tokenKind == .keyword(.set) }
    }

    func stateType(of property: Binding, owner: TypeInfo, context: ExtractionContext) -> (EnumInfo, StateKind)? {
        if let t = property.typeText {
            let wrapped = SyntaxHelpers.optionalWrapped(t)
            let bound = Self.boundType(wrapped ?? t, of: owner)
            let text = bound?.trimmedText ?? wrapped ?? t, node = bound.map(Syntax.init) ?? property.node
            // (most optionals hold structs and classes, and most computed properties are views of data: a
            // name declared twice is reported only for a stored property where no `?` is written)
            let resolved = wrapped == nil && !property.isComputed ? context.resolve(text, at: node)
                : context.index.scope(of: node).map { context.index.resolveType(text, in: $0) }
            // (an optional of an enum with a case `none`: `.none` is the optional's, as Swift reads it, and
            // `Band.none` the case)
            if let e = resolved?.enumInfo, !e.cases.isEmpty {
                return (e, wrapped == nil ? .enumeration : .optional)
            }
            return nil
        }
        // (a case, or a static constant of the enum standing for one: `var state = State.initial`)
        if let i = property.initializer, let ref = SyntaxHelpers.caseReference(i, context.index), let type = ref.type,
           let e = context.resolve(type, at: property.node)?.enumInfo,
           e.caseNames.contains(ref.name) || context.index.staticCase(ref.name, among: e.caseNames) != nil {
            return (e, .enumeration)
        }
        // (a case by its raw value or its place in `allCases`: `var stage = Stage(rawValue: 0)!`, `= Lap.allCases[0]`)
        if let i = property.initializer, let e = Self.enumType(of: property, context: context, reporting: true), context.initialState(i, states: e.caseNames, of: e) != nil {
            return (e, .enumeration)
        }
        return nil
    }

    /// How a struct rebuilds itself with a new value of `property` (`SelfRebuild`): its static members
    /// whose one expression is such a rebuild. Nil for other kinds of type.
    static func rebuild(of type: TypeInfo, property: String) -> SelfRebuild? {
        guard type.kind == "struct" else { return nil }
        var rebuild = SelfRebuild(property: property, typeName: type.name)
        var builders: [String: ExprSyntax] = [:]
        for (method, _) in type.methods where method.modifiers.contains(where: { $0.name.text == "static" }) {
            guard let items = method.body?.statements, let value = SyntaxHelpers.onlyValue(items), let state = rebuild.state(in: value) else { continue }
            builders[method.name.text] = builders[method.name.text] ?? state
        }
        for p in type.properties where p.isStatic && p.isComputed {
            guard case .getter(let items)? = p.node.as(PatternBindingSyntax.self)?.accessorBlock?.accessors,
                  let value = SyntaxHelpers.onlyValue(items), let state = rebuild.state(in: value) else { continue }
            builders[p.name] = builders[p.name] ?? state
        }
        rebuild.builders = builders
        return rebuild
    }

    /// A state held in a reactive box (`let phase = BehaviorRelay<Phase>(value: .idle)`, a Combine
    /// `CurrentValueSubject`, RxSwift's `BehaviorSubject`, ReactiveSwift's `MutableProperty`): read as
    /// `phase.value`, written by `phase.value = …` or the box's setter (`accept`, `send`, `onNext`).
    struct StateWrapper {
        var base: String
        var setters: Set<String>
        var initial: ExprSyntax?
        /// A lock's methods that hand the value to a closure (`withLock`): the value is read and written
        /// there only, and the property stands for it.
        var accessors: Set<String> = []
        var path: String { accessors.isEmpty ? base + ".value" : base }
    }

    /// The boxes a state may be held in, by type name, with their setters.
    static let wrappers: [String: Set<String>] = [
        "BehaviorRelay": ["accept"], "CurrentValueRelay": ["accept"], "CurrentValueSubject": ["send"],
        "BehaviorSubject": ["onNext"], "MutableProperty": [], "Variable": [],
    ]

    /// The box or lock a type is written with (`Mutex<State>`, `RxRelay.BehaviorRelay<Phase>`, the callee
    /// `NIOLockedValueBox`), by its last name; nil for any other type.
    static func boxName(_ text: String) -> String? {
        let name = text.prefix(while: { $0 != "<" && $0 != "(" }).split(separator: ".").last.map(String.init) ?? ""
        return wrappers[name] != nil || locks[name] != nil ? name : nil
    }

    /// The locks a state may be held in, by type name, with the methods handing it to a closure.
    static let locks: [String: Set<String>] = [
        "Mutex": ["withLock"], "OSAllocatedUnfairLock": ["withLock", "withLockUnchecked"],
        "NIOLockedValueBox": ["withLockedValue"], "LockedValueBox": ["withLockedValue"],
        "ManagedCriticalState": ["withCriticalRegion"],
    ]

    /// The enum a property's box holds (its written type, else its initializer's: `BehaviorRelay<Phase>(value:
    /// .idle)`), and how it is read and written.
    static func stateWrapper(of property: Binding, in type: TypeInfo, context: ExtractionContext) -> (EnumInfo, StateWrapper)? {
        guard !property.isComputed, !property.isStatic else { return nil }
        let call = property.initializer.flatMap { SyntaxHelpers.unwrap($0).as(FunctionCallExprSyntax.self) }
        // (by the written text first: most properties are held in no box)
        guard let text = property.typeText ?? call?.calledExpression.trimmedText,
              boxName(text) != nil,
              case let box = DSLSupport.genericType(text, at: property.node, index: context.index),
              wrappers[box.name] != nil || locks[box.name] != nil, let scope = context.index.scope(of: property.node) else { return nil }
        // the value it starts with, given to its initializer or to the property in every `init` (`self.state =
        // NIOLockedValueBox(.idle)`)
        let initial = (call ?? initializerValue(of: property.name, in: type).flatMap { SyntaxHelpers.unwrap($0).as(FunctionCallExprSyntax.self) })?
            .arguments.first?.expression
        // the enum: the box's argument (`Mutex<State>`), else the type of the case it starts with
        // (`NIOLockedValueBox(Lifecycle.running)`)
        let argument = box.arguments.first
        guard let e = argument?.enumInfo ?? argument?.externalName.flatMap({ context.index.enumInfo($0, in: scope) })
                ?? (argument == nil ? initial.flatMap({ SyntaxHelpers.caseReference($0, context.index)?.type }).flatMap({ context.index.enumInfo($0, in: scope) }) : nil),
              !e.cases.isEmpty else { return nil }
        return (e, StateWrapper(base: property.name, setters: wrappers[box.name] ?? [], initial: initial, accessors: locks[box.name] ?? []))
    }

    func build(type: TypeInfo, property: Binding, stateEnum: EnumInfo, kind: StateKind, facts: TypeFacts, context: ExtractionContext,
               wrapper: StateWrapper? = nil, field: Field? = nil) {
        // (a field is named by its path: `viewState.phase`; a box read through its value, `phase.value`)
        let name = field.map { property.name + "." + $0.name } ?? property.name
        let path = field == nil ? wrapper?.path ?? name : name
        let statePaths: Set<String> = [path]
        var rules: [Rule] = []
        var leftOut: [SourceLocation?] = []
        var inputEnum: EnumInfo?
        var location: SourceLocation?
        var inputNames: [String] = []
        // written directly (`p = …`, `p.advance()` of a mutating method of its enum) or through another method
        let enumMethods = context.mutatingMethods(of: stateEnum)
        let enumFactories = context.factories(of: stateEnum)
        let successors = context.successors(of: stateEnum)
        let named = Self.namedAsState(field?.name ?? property.name) || Self.namedAsState(stateEnum.name)
        let rebuild = field == nil ? Self.rebuild(of: type, property: property.name) : nil
        let accessors: Set<String> = wrapper.map { w in Set(w.accessors.map { "\(w.base).\($0)" }) }
            ?? (field == nil ? StateWrites.wrapperAccessors(of: property, context: context) : [])
        let writes = StateWrites(property: path, enumMethods: Set(enumMethods.keys), type: type, rebuild: rebuild,
                                 setters: wrapper.map { w in Set(w.setters.map { "\(w.base).\($0)" }) } ?? [],
                                 accessors: accessors, index: context.index,
                                 outside: context.namedAsMember)
        // (the initializers installing a listener that changes it, asked only when needed: `init() {
        // monitor.pathUpdateHandler = { [weak self] path in self?.status = … } }`)
        lazy var listeners = type.initializers.filter { i in
            i.body.map { Self.callsBack($0, statePaths, setters: writes.setters, among: writes.writers, context: context) } ?? false
        }
        guard !writes.direct.isEmpty || named && !listeners.isEmpty else { return }
        // (a holder whose methods only hand events to the enum's own machine, `mutating func signal(_ e: Event) {
        // ferry.handle(e) }`, has none of its own: the enum's machine is started by it)
        if field == nil, wrapper == nil, Self.switchesOverSelf(enumMethods.values),
           writes.entries.allSatisfy({ Self.forwards($0.0, property: property.name, to: Set(enumMethods.keys)) }) { return }
        // (the methods changing it only when the framework calls them, overrides, delegates' callbacks and
        // `@objc` targets, setting two cases at least: `override func setEditing(_:animated:) { mode = editing ?
        // .reordering : .normal }`, `viewDidAppear` and `viewDidDisappear`)
        lazy var calledByFramework: (FunctionDeclSyntax, ParsedFile)? = {
            guard let first = writes.entries.first, writes.entries.allSatisfy({ m, _ in
                m.modifiers.contains { $0.name.text == "override" } || SyntaxHelpers.isDelegateCallback(m)
                    || m.attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedText == "objc" }
            }) else { return nil }
            // (a value kept in a local constant first: `let next: Header = y > 120 ? .collapsed : .expanded`)
            let cases = writes.entries.flatMap { m, _ in
                m.body.map { SwitchFinder.scanAll($0).writes(of: statePaths, setters: writes.setters).flatMap { write in
                    SyntaxHelpers.branches(SyntaxHelpers.unwrap(write.value).as(DeclReferenceExprSyntax.self).flatMap(SyntaxHelpers.localValue) ?? write.value)
                } } ?? []
            }.compactMap { SyntaxHelpers.caseReference($0, context.index)?.name }
            return Set(cases).count >= 2 ? first : nil
        }()
        let cases = scopedStates(stateEnum, of: type, property: field?.name ?? property.name, facts: facts, context: context)
        // an optional enum: `nil` and each case, read as the values `.x` and `.x?` patterns match
        let states = kind == .optional ? ["nil"] + cases : cases
        // (a case name written twice, as broken code may, is one state)
        let valueStates = kind == .optional ? Dictionary(cases.map { ($0, InputPattern.member($0)) }, uniquingKeysWith: { first, _ in first }) : [:]
        let unobservable = Self.unobservable(statePaths, among: states, facts: facts, assigned: writes.assigned, context: context)
        var started: [(launch: ReducerInterpreter.Launch, file: ParsedFile, spec: ReducerSpec)] = []
        for (method, file) in type.methods where !context.claimed.contains(method.id) {
            guard let methodBody = method.body, writes.writers.contains(method.name.text) else { continue }
            // the event: a parameter, or what a loop over a stream of events gives (`for await event in
            // events`), its body then one step
            var body = methodBody
            guard let (paramName, event, inputs) = eventParameter(of: method, in: type, stateEnum: stateEnum, sameAs: inputEnum, context: context)
                .map({ ($0.0, Optional($0.1), $0.2) })
                ?? eventLoop(in: method, of: type, stateEnum: stateEnum, sameAs: inputEnum, context: context).map({ loop in
                    body = loop.body
                    return (loop.name, Optional(loop.event), loop.inputs)
                })
                ?? (inputEnum == nil ? Self.unwrappedEvent(in: method).map { ($0.local, nil, $0.inputs) } : nil) else { continue }
            let scan = SwitchFinder.scan(body)
            let switchesOnBoth = scan.switches.contains { sw in
                let text = sw.subject.compactText
                return text.contains(paramName) || statePaths.contains(SyntaxHelpers.path(sw.subject) ?? "")
            }
            guard switchesOnBoth || testsEvent(paramName, in: body, of: type, statePaths: statePaths) else { continue }
            // an optional that is data (`var type: ChannelType?` set from a message) is no state: one the
            // method tests, or named as a state, is
            guard kind != .optional || named || ValueTestFinder.tests(body, roots: statePaths) else { continue }
            inputEnum = event
            inputNames = (inputNames + inputs).uniqued()
            let domain = Domain(states: states, inputs: inputs)
            let helpers = ReducerSpec.helperTable(type.methods.map(\.0).filter { $0.id != method.id })
            var spec = ReducerSpec(domain: domain, stateKind: kind, statePaths: statePaths, inputPaths: [paramName],
                                   helpers: helpers, helperStatePaths: statePaths, enumMethods: enumMethods,
                                   enumFactories: enumFactories,
                                   enumPredicates: context.predicates(of: stateEnum), enumRelations: context.relations(of: stateEnum),
                                   enumSuccessors: successors, unobservable: unobservable,
                                   valueStates: valueStates, rebuild: rebuild)
            spec.setters = writes.setters
            spec.accessors = writes.accessors
            spec.observers = writes.observers.mapValues(\.body)
            spec.ownObserver = field == nil && wrapper == nil ? StateWrites.didSet(of: property) : nil
            spec.stateIsMember = true
            spec.stateEnumKey = stateEnum.key
            let resumed = Self.suspending(&spec, method: method, of: type, input: Self.inputName(of: method, among: type.methods), own: writes.writers)
            let interpreter = ReducerInterpreter(spec: spec, file: file, effects: context.effectReader(inputs: inputs, inputType: event, at: method), readings: context.readings)
            let walked = interpreter.run(body.statements, at: file.location(of: method))
            rules += walked
            inputNames = inputNames.appendingUnique(Self.arrived(resumed, in: walked))
            leftOut.append(interpreter.leftOut)
            location = location ?? file.location(of: method)
            context.claimed.insert(method.id)
            started += interpreter.launches.map { ($0, file, spec) }
        }
        // the work the event methods start to run later (`Task { … }`)
        let tasks = Self.tasks(started, of: type, own: Self.sharesState(type) ? writes.writers : nil, context: context)
        rules += tasks.rules
        leftOut += tasks.leftOut
        inputNames += tasks.inputs
        // Without an event method, the methods are the events (`mutating func channelActive()`, `func
        // play()`) when the property or its enum is named as a state and one of them tests it.
        // Named otherwise (`step`, `page`, `door`), the property is a state when a method steps it by its
        // case, guards it or gives it its enum's successor (`step = step.next`), and no case carries data (`.one(Element)`, `.inline(Word, Word)`:
        // a storage's representation); or when a method takes it through stages across a wait
        // (`Loadable<[Article]>`: `.loading`, then after `await`, `.loaded(list)`).
        if location == nil {
            let plain = (kind == .enumeration || kind == .optional) && !stateEnum.cases.contains(where: \.hasPayload)
            // (an enum kept in a lock, changed in its closures, or one whose own mutating methods step it by
            // its case, `mutating func closed() -> OnClosed { switch self { … } }`, `if self == .off { self =
            // .on }`, is a state whatever tests it)
            // (or gives itself its next case, whatever the property's name: `mutating func advance() { self =
            // Self(rawValue: rawValue + 1) ?? self }`)
            let steppedByItself = enumMethods.values.contains { m in
                guard let body = m.body else { return false }
                let scan = SwitchFinder.scan(body)
                let selfWrites = scan.assignments.filter { SyntaxHelpers.path($0.lhs) == "self" }
                if selfWrites.contains(where: { SyntaxHelpers.successorName($0.rhs, on: ["self"]) != nil }) { return true }
                return (named || plain && !selfWrites.isEmpty)
                    && (scan.switches.contains { SyntaxHelpers.path($0.subject) == "self" } || ValueTestFinder.tests(body, roots: ["self"]))
            }
            // (a callback, or what an `await` answers)
            func answered() -> (FunctionDeclSyntax, ParsedFile)? {
                Self.firstCalledBack(statePaths, setters: writes.setters, among: writes.writers, of: type, context: context)
                    ?? Self.firstAwaiting(statePaths, setters: writes.setters, among: writes.writers, of: type, context: context)
            }
            let tester = !writes.accessors.isEmpty || steppedByItself ? Self.firstWriter(among: writes.writers, of: type) : named
                // (a box's tests read its value: `phase.value == .idle`)
                ? Self.firstTesting(wrapper.map { [$0.base] } ?? statePaths, among: writes.writers, of: type, successors: Set(successors.keys),
                                    predicates: Set(context.predicates(of: stateEnum).keys))
                    ?? Self.firstStaging(statePaths, setters: writes.setters, among: writes.writers, of: type, context: context)
                    ?? (plain ? Self.firstWriterWhenTested(statePaths, among: writes.writers, of: type) : nil)
                    // (the world changes it: a callback, a delegate's method, or a listener the initializer installs,
                    // `auth = .signedIn(user)` with `case signedIn(User)` too)
                    ?? answered()
                    ?? Self.firstDelegateCallback(statePaths, setters: writes.setters, among: writes.writers, of: type, context: context)
                    ?? (!listeners.isEmpty ? Self.firstWriter(among: writes.writers, of: type) : nil)
                    ?? (Self.assignsCases(writes, atLeast: 2, context: context) ? Self.firstWriterWhenRendered(statePaths, among: writes.writers, of: type) : nil)
                : (plain ? Self.firstStepping(statePaths, among: writes.writers, of: type)
                        ?? Self.firstGuarding(statePaths, among: writes.writers, of: type, predicates: Set(context.predicates(of: stateEnum).keys),
                                              context: context)
                        ?? Self.firstTesting(statePaths, among: writes.writers, of: type, successors: Set(successors.keys), tests: false) : nil)
                    ?? Self.firstStaging(statePaths, setters: writes.setters, among: writes.writers, of: type, waiting: true, context: context)
            // (or only the world changes it: a listener the initializer installs, `init() { monitor.pathUpdateHandler
            // = { [weak self] path in self?.status = … } }`, no method writing it; or the framework's calls)
            if let tester { location = tester.1.location(of: tester.0) }
            else if named, writes.writers.isEmpty, let first = listeners.first { location = type.file.location(of: first) }
            else if named, let (method, file) = calledByFramework { location = file.location(of: method) }
            else { return }
        }
        guard let location else { return }
        // Other methods of the type that write the property are inputs of their own (`reset()`): each is
        // walked like the event methods. Writes the walk cannot reach (in closures) make the machine partial.
        var template = ReducerSpec(domain: Domain(states: states, inputs: []), stateKind: kind,
                                   statePaths: statePaths, inputPaths: [], helperStatePaths: statePaths,
                                   enumMethods: enumMethods, enumFactories: enumFactories, enumPredicates: context.predicates(of: stateEnum),
                                   enumRelations: context.relations(of: stateEnum), enumSuccessors: successors,
                                   unobservable: unobservable, valueStates: valueStates, rebuild: rebuild,
                                   setters: writes.setters, accessors: writes.accessors)
        template.observers = writes.observers.mapValues(\.body)
        template.ownObserver = field == nil && wrapper == nil ? StateWrites.didSet(of: property) : nil
        template.stateIsMember = true
        template.stateEnumKey = stateEnum.key
        if kind == .enumeration { template.ownerPredicates = context.ownerPredicates(of: type, statePaths: statePaths, states: states) }
        let startsAs = field == nil && wrapper == nil ? startingState(of: property, in: type, states: states, optional: kind == .optional, context: context) : nil
        var walked = methodInputs(writes.entries, of: type, like: template, context: context, stateEnum: stateEnum, writers: writes.writers,
                                  start: startsAs)
        let initWork = initializerWork(of: type, like: template, own: writes.writers, context: context)
        walked.rules += initWork.rules
        walked.leftOut += initWork.leftOut
        walked.inputs = walked.inputs.appendingUnique(initWork.inputs)
        // events that are methods: at least two of them change the state, or one in a type its author
        // calls a state machine (`GlitchesMonitorStateMachine`)
        // (or one that steps it through its cases, a decoder's `mutating func feed(_ byte: UInt8)`, given
        // data: not another value of its kind to merge with, `mutating func reduce(to: Visibility)`)
        let ownTypes: Set<String> = [type.name, type.qualifiedName, "Self", stateEnum.name]
        let stepper = walked.inputs.count == 1 && Self.steps(walked.rules, states: states) && !writes.entries.contains { m, _ in
            m.signature.parameterClause.parameters.contains { ownTypes.contains(SymbolIndex.bareTypeName($0.type.trimmedText)) }
        }
        // (or, named as a state, one the world changes: a listener the initializer installs, a path monitor's
        // `status`; or the framework, calling the one override or delegate's callback that sets it,
        // `override func setEditing(_:animated:) { mode = editing ? .reordering : .normal }`)
        // (or a listener one method installs, `func start() { monitor.pathUpdateHandler = { … } }`)
        let listened = named && (writes.writers.isEmpty && !initWork.inputs.isEmpty
            || initWork.inputs.isEmpty && calledByFramework != nil
            || initWork.inputs.isEmpty && writes.entries.count == 1 && writes.entries[0].0.body.map { Self.installsListener($0, statePaths) } == true)
        guard inputNames.isEmpty ? walked.inputs.count >= 2 || walked.inputs.count == 1 && (type.name.contains("StateMachine") || stepper || listened)
                : !rules.isEmpty else { return }
        rules += walked.rules
        leftOut += walked.leftOut
        inputNames += walked.inputs
        // a Combine pipeline assigning it (`$query.map { … }.assign(to: &$phase)`)
        let assigned = field == nil ? Self.pipelineAssignments(of: property.name, in: type, states: states, context: context) : (rules: [], inputs: [], unfollowed: [])
        rules += assigned.rules
        inputNames = inputNames.appendingUnique(assigned.inputs)
        // writes from outside the type (`spy.mode = .hang` in a test)
        if field == nil, wrapper == nil, kind == .enumeration {
            let outside = Self.outsideWrites(of: property, in: type, enumName: stateEnum.name, states: states, context: context)
            rules += outside.rules
            inputNames = inputNames.appendingUnique(outside.inputs)
        }
        let start = field.map(\.start) ?? wrapper?.initial
        let initial = field != nil || wrapper != nil ? context.initialState(Self.enumInitStart(start, context: context) ?? start, states: states)
            : startsAs
        if initial == nil, field == nil, wrapper == nil, let given = Self.startGiven(of: property.name, in: type) {
            Self.noteStartGiven(given, of: "\(type.name).\(name)", at: property.location, context: context)
        }
        // (`auth = token == nil ? .signedOut : .signedIn` in `init`: said, not guessed)
        if initial == nil, field == nil, wrapper == nil,
           let choice = (property.initializer ?? Self.initializerValue(of: property.name, in: type)).flatMap({ SyntaxHelpers.unwrapFolded($0).as(TernaryExprSyntax.self) }),
           let a = context.initialState(choice.thenExpression, states: states), let b = context.initialState(choice.elseExpression, states: states) {
            context.warn("\(type.name).\(name) starts as \(a) or \(b) depending on `\(choice.condition.compactText)`; no initial state, so no state is checked for reachability",
                         at: property.location, severity: .note)
        }
        var machine = Machine(name: "\(type.name).\(name)", dialect: .switchMethod, location: location,
                              states: states, inputs: inputNames, initial: initial, rules: rules, order: .resolved,
                              stateLocations: context.locations(stateEnum), inputLocations: context.locations(inputEnum))
        let targets = Self.targets(of: machine.rules)
        machine.transient = Self.transient(writes.assigned, of: machine, unobservable: unobservable, context: context)
        // a path that ends in a state the code never lets anyone see missed the write that leaves it (made
        // by a closure it hands the state to: `avoidingCoW { $0 = … }`)
        let stuck = unobservable.intersection(targets).sorted()
        if !stuck.isEmpty {
            machine.partial = true
            context.warn("'\(machine.name)' ends some methods in \(stuck.map { "'\($0)'" }.joined(separator: ", ")), which every switch over it traps in: the write that leaves it is not followed, and the machine is partial",
                         at: location, severity: .note)
        }
        markUnfollowed(writes.unfollowed + assigned.unfollowed + (field?.replaced ?? []), in: &machine, context: context)
        // a case carrying a case of another enum (`.live(.buffering)`, `.live(.playing)`): its changes are one state here
        // (written by two methods at least: one method choosing between modes, `.sslRequestSent(.prefer)` or
        // `(.require)`, sets data)
        var carried: [String: (inner: Set<String>, methods: Set<SyntaxIdentifier>)] = [:]
        for write in writes.assigned {
            guard let (outer, inner) = Self.nestedCase(write.value, context: context),
                  let method = SyntaxHelpers.nearest(write.node, { $0.as(FunctionDeclSyntax.self) }) else { continue }
            carried[outer, default: ([], [])].inner.insert(inner)
            carried[outer, default: ([], [])].methods.insert(method.id)
        }
        let nested = carried.filter { $0.value.inner.count >= 2 && $0.value.methods.count >= 2 }.keys.sorted()
        if !nested.isEmpty {
            context.warn("'\(machine.name)': \(nested.map { "'\($0)'" }.joined(separator: ", ")) carr\(nested.count == 1 ? "ies" : "y") a case of another enum that the code changes (`.\(nested[0])(.…)`); the states are the outer cases, so those changes are drawn as no change",
                         at: location, severity: .note)
        }
        context.add(machine, stateEnum: stateEnum, key: "\(type.key).\(name)", leftOut: leftOut)
    }

    /// A case written with a case as its one payload (`.live(.buffering)`): the two case names.
    static func nestedCase(_ value: ExprSyntax, context: ExtractionContext) -> (outer: String, inner: String)? {
        guard let call = SyntaxHelpers.unwrap(value).as(FunctionCallExprSyntax.self), call.arguments.count == 1,
              let outer = SyntaxHelpers.caseReference(ExprSyntax(call.calledExpression), context.index)?.name,
              let inner = call.arguments.first.flatMap({ SyntaxHelpers.unwrap($0.expression).as(MemberAccessExprSyntax.self) }),
              inner.base == nil else { return nil }
        return (outer, inner.declName.baseName.text)
    }
}

/// Where a stored state property is written in the methods of its type: directly (`self.p = …`,
/// `p = …`, `&p`), through a mutating method of the state's enum (`p.advance()`) or through another
/// method of the type that does (`start(newState: .x)`).
struct StateWrites {
    struct Unfollowed {
        var location: SourceLocation
        var why: String
    }

    /// Calls that set the property to their argument (`phase.accept`).
    let setters: Set<String>
    /// Calls of a lock holding it that hand it to their closure (`state.withLock`).
    let accessors: Set<String>
    /// Methods that write the property themselves.
    var direct = Set<String>()
    /// Methods of `direct` writing it outside the work they start (`Task { … }`, a callback).
    var own = Set<String>()
    /// Methods that write it themselves or call one that does.
    var writers = Set<String>()
    /// Writers that can be called from outside the type, or that no other method of it calls: the
    /// entry points of the writes.
    var entries: [(FunctionDeclSyntax, ParsedFile)] = []
    /// Writes no walk of a method body reaches: inside a closure (run later, by someone else).
    var unfollowed: [Unfollowed] = []
    /// The assignments of the property outside closures, with the value assigned (`.modifying` in
    /// `self.state = .modifying`).
    var assigned: [(node: Syntax, value: ExprSyntax)] = []
    /// The observers of the type's other stored properties (`observers(of:except:)`).
    var observers: [String: Observer] = [:]

    /// `setters`: calls that set the property to their argument (`phase.accept`, for a state held in a box).
    /// `outside`: whether the code names a method as another value's member (`ExtractionContext.namedAsMember`).
    init(property: String, enumMethods: Set<String>, type: TypeInfo, rebuild: SelfRebuild? = nil, setters: Set<String> = [],
         accessors: Set<String> = [], index: SymbolIndex? = nil, outside: ((String) -> Bool)? = nil) {
        self.setters = setters
        self.accessors = accessors
        var callees: [String: Set<String>] = [:]
        var calledUnfollowed = Set<String>()
        observers = Self.observers(of: type, except: property)
        func finder() -> WriteFinder {
            let finder = WriteFinder(property: property, enumMethods: enumMethods, rebuild: rebuild, setters: setters, accessors: accessors, index: index)
            finder.observed = Set(observers.keys)
            return finder
        }
        // another property's observer that writes it is called by every method setting that property
        // (`var email = "" { didSet { validationState = … } }`)
        for (name, observer) in observers.sorted(by: { $0.key < $1.key }) {
            let finder = finder()
            finder.walk(observer.body)
            if !finder.writes.isEmpty { direct.insert(Self.observerCallee(name)) }
            assigned += finder.values
            callees[Self.observerCallee(name), default: []].formUnion(finder.calledOutsideClosures)
            calledUnfollowed.formUnion(finder.calledInClosures)
            for w in finder.closureWrites {
                unfollowed.append(Unfollowed(location: observer.file.location(of: w), why: "inside a closure in \(name)'s \(observer.kind)"))
            }
        }
        for (method, file) in type.methods {
            guard let body = method.body else { continue }
            let finder = finder()
            finder.walk(body)
            if !finder.writes.isEmpty { direct.insert(method.name.text) }
            // (an override running the superclass's method it overrides, `override func play() { super.play();
            // … }`, writes what that writes)
            else if let index, finder.superCalls.contains(method.name.text),
                    let overridden = index.superclassMethod(named: method.name.text, fullName: SyntaxHelpers.fullName(method), of: type)?.body {
                let inner = WriteFinder(property: property, enumMethods: enumMethods, rebuild: rebuild, setters: setters, accessors: accessors, index: index)
                inner.walk(overridden)
                if !inner.writes.isEmpty { direct.insert(method.name.text) }
                assigned += inner.values
                if inner.writesOwn { own.insert(method.name.text) }
            }
            if finder.writesOwn { own.insert(method.name.text) }
            assigned += finder.values
            callees[method.name.text, default: []].formUnion(finder.calledOutsideClosures)
            calledUnfollowed.formUnion(finder.calledInClosures)
            for w in finder.closureWrites {
                let nested = sequence(first: w, next: { $0.parent }).prefix { $0.id != body.id }.contains { $0.is(FunctionDeclSyntax.self) }
                unfollowed.append(Unfollowed(location: file.location(of: w), why: "inside a \(nested ? "nested function" : "closure") in \(method.name.text)()"))
            }
        }
        // an initializer's writes give the starting state, but those in its closures come later (a
        // `childChannelInitializer { … }`, an observer), from no method of the type
        // (only for a property some method writes: one none writes is no machine)
        for initializer in direct.isEmpty ? [] : type.initializers {
            guard let body = initializer.body else { continue }
            let finder = finder()
            finder.walk(body)
            // (work it starts, `{ [weak self] _ in … }`, is walked: `initializerWork`)
            for w in finder.closureWrites {
                unfollowed.append(Unfollowed(location: type.file.location(of: w), why: "inside a closure in init()"))
            }
            // a private method an initializer calls is part of initializing, or of the work it starts
            callees["init", default: []].formUnion(finder.calledOutsideClosures)
            calledUnfollowed.formUnion(finder.calledInClosures)
        }
        // writers: the direct ones and every method calling one
        writers = direct
        var changed = true
        while changed {
            changed = false
            for (name, called) in callees where !writers.contains(name) && !called.isDisjoint(with: writers) {
                writers.insert(name)
                changed = true
            }
        }
        let calledByOthers = Set(callees.flatMap { caller, called in called.filter { $0 != caller } })
        // a private method others call is their helper (unless also called where no walk follows), and so is
        // an internal one that changes the state only through the work it starts (`func performRequest() {
        // api.upload { [weak self] ok in … } }` that only `sync()` calls), when no code names it on another
        // value and the type does not hand it on; any other writer can be called from outside
        entries = type.methods.filter { m, _ in
            let name = m.name.text
            guard writers.contains(name) else { return false }
            guard calledByOthers.contains(name), !calledUnfollowed.contains(name) else { return true }
            if SymbolIndex.isPrivate(m) { return false }
            guard let outside, !own.contains(name), !Self.exposed(m), type.methods.lazy.filter({ $0.0.name.text == name }).count == 1
            else { return true }
            return outside(name) || Self.handedOn(name, in: type)
        }
    }

    /// The methods of a property wrapper the code declares that run a closure at once with the wrapped value
    /// `inout` (`func mutate(_ body: (inout Value) -> Void)`), reached through its storage or projection:
    /// `_state.mutate { s in s = .running }` writes the state as `state = .running` does.
    static func wrapperAccessors(of property: Binding, context: ExtractionContext) -> Set<String> {
        guard let decl = property.node.parent?.parent?.as(VariableDeclSyntax.self), !decl.attributes.isEmpty else { return [] }
        var result = Set<String>()
        for case .attribute(let attribute) in decl.attributes {
            guard let wrapper = context.index.type(attribute.attributeName.trimmedText, in: context.index.scope(of: property.node)) else { continue }
            for (method, _) in wrapper.methods where method.signature.parameterClause.parameters.contains(where: { $0.type.trimmedText.contains("inout") }) {
                result.insert("_\(property.name).\(method.name.text)")
                result.insert("$\(property.name).\(method.name.text)")
            }
        }
        return result
    }

    /// Whether a method is called from outside the code (`public`, `open`, an `override`, `@objc`, `@IBAction`).
    static func exposed(_ method: FunctionDeclSyntax) -> Bool {
        method.modifiers.contains { ["public", "open", "override"].contains($0.name.text) }
            || method.attributes.contains { $0.as(AttributeSyntax.self).map { ["objc", "IBAction", "IBSegueAction", "usableFromInline"].contains($0.attributeName.trimmedText) } ?? true }
    }

    /// Whether the type's own code (its declaration and extensions) names a method without calling it
    /// (`Button(action: refresh)`, `#selector(refresh)`, `let retry = self.refresh`): someone else calls it, later.
    static func handedOn(_ name: String, in type: TypeInfo) -> Bool {
        ([type.node] + type.extensions).contains { body in
            body.tokens(viewMode: .sourceAccurate).contains { token in
                guard token.tokenKind == .identifier(name), var reference = token.parent?.as(DeclReferenceExprSyntax.self).map(Syntax.init) else { return false }
                if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { reference = Syntax(member) }
                return reference.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id != reference.id
            }
        }
    }

    /// The name a walk of writes gives another property's observer, as if it were a method the property's
    /// setters call (no method can have it).
    static func observerCallee(_ property: String) -> String { "\(property).didSet" }

    /// An observer of a stored property: its body, its kind (`didSet`, `willSet`) and its file.
    struct Observer {
        var body: CodeBlockSyntax
        var kind: String
        var file: ParsedFile
    }

    /// A stored property's `didSet` body when it sets the property again from its new value (`if state ==
    /// .snoozed && muted { state = .armed }`). One that only reads it (`didSet { render() }`) changes no
    /// edge, and one going back to `oldValue` (`step = oldValue` where a move is not allowed) cannot be
    /// followed: neither is run.
    static func didSet(of property: Binding) -> CodeBlockSyntax? {
        guard case .accessors(let list)? = property.node.as(PatternBindingSyntax.self)?.accessorBlock?.accessors,
              let observer = list.first(where: { $0.accessorSpecifier.text == "didSet" }), let body = observer.body else { return nil }
        let old = observer.parameters?.name.text ?? "oldValue"
        guard SwitchFinder.scan(body).assignments.contains(where: { SyntaxHelpers.path($0.lhs) == property.name }),
              !body.tokens(viewMode: .sourceAccurate).contains(where: { $0.text == old }) else { return nil }
        return body
    }

    /// The observers of the type's stored properties other than `property`, by property name (`didSet`,
    /// else `willSet`), and the setters of its computed ones (`var isOn: Bool { get { … } set { power =
    /// newValue ? .on : .off } }`: setting it runs the setter).
    static func observers(of type: TypeInfo, except property: String) -> [String: Observer] {
        var result: [String: Observer] = [:]
        for b in type.properties where !b.isStatic && b.name != property {
            guard case .accessors(let list)? = b.node.as(PatternBindingSyntax.self)?.accessorBlock?.accessors else { continue }
            let observer = b.isComputed ? list.first { $0.accessorSpecifier.text == "set" }
                : list.first { $0.accessorSpecifier.text == "didSet" } ?? list.first { $0.accessorSpecifier.text == "willSet" }
            if let observer, let body = observer.body { result[b.name] = Observer(body: body, kind: observer.accessorSpecifier.text, file: b.file) }
        }
        return result
    }

    final class WriteFinder: SyntaxVisitor {
        let property: String
        let enumMethods: Set<String>
        let rebuild: SelfRebuild?
        var writes: [Syntax] = []
        var closureWrites: [Syntax] = []
        /// The assignments in `writes` outside closures, with their right sides.
        var values: [(node: Syntax, value: ExprSyntax)] = []
        var calledOutsideClosures = Set<String>()
        /// Methods called in closures no walk follows (`let action = { self?.emit() }`).
        var calledInClosures = Set<String>()
        var closureDepth = 0

        let setters: Set<String>
        let accessors: Set<String>
        /// The names the closures of `accessors` being walked give the value (`state` in `withLock { state
        /// in … }`, `$0`), innermost last.
        var aliases: [String] = []
        let index: SymbolIndex?

        /// Other properties of the type with an observer (`didSet`): setting one runs it, as a call would.
        var observed: Set<String> = []

        init(property: String, enumMethods: Set<String>, rebuild: SelfRebuild?, setters: Set<String>, accessors: Set<String>, index: SymbolIndex?) {
            self.accessors = accessors
            self.index = index
            self.property = property
            self.enumMethods = enumMethods
            self.rebuild = rebuild
            self.setters = setters
            super.init(viewMode: .sourceAccurate)
        }

        /// The value an assignment gives the property: itself (`p = v`), or through a rebuild of `self`.
        func assigned(_ lhs: ExprSyntax, _ rhs: ExprSyntax) -> ExprSyntax? {
            if isProperty(lhs) { return rhs }
            guard let rebuild, SyntaxHelpers.path(lhs) == "self" else { return nil }
            return rebuild.state(in: rhs)
        }

        /// A write of an observed property calls its observer (`StateWrites.observerCallee`).
        func called(_ name: String) {
            if closureDepth == 0 { calledOutsideClosures.insert(name) } else { calledInClosures.insert(name) }
        }

        func setsObserved(_ lhs: ExprSyntax) {
            if !observed.isEmpty, let path = SyntaxHelpers.path(lhs), observed.contains(path), !isProperty(lhs) {
                called(StateWrites.observerCallee(path))
            }
        }

        func found(_ node: some SyntaxProtocol) {
            if closureDepth > 0 { closureWrites.append(Syntax(node)) } else { writes.append(Syntax(node)) }
            if closureDepth == 0, startedDepth == 0 { writesOwn = true }
        }
        /// Whether one of `writes` is in no closure the method starts (`Task { … }`, a callback): its own.
        var writesOwn = false
        /// The superclass's methods called (`super.play()`), outside closures.
        var superCalls = Set<String>()
        /// How many closures the method starts (walked as work of their own) the walk is in.
        var startedDepth = 0

        /// Whether `expr` names the property here: its path is the property's, and no closure parameter of
        /// that name hides it (unless written `self.p`).
        func isProperty(_ expr: ExprSyntax) -> Bool {
            if let alias = aliases.last, SyntaxHelpers.path(expr) == alias { return true }
            guard SyntaxHelpers.path(expr) == property else { return false }
            // a local or parameter of its name declared around it hides it (`var state = State.closed`)
            // (a closure's parameter too, `{ state in state = .closed }`: there only `self.state` is the property)
            return !SymbolIndex.isLocalName(expr)
        }

        /// Whether each closure being walked runs later (not `withAnimation { … }`, which runs at once).
        var later: [Bool] = []

        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
            // the closure of a lock's accessor runs at once, with the value (`state.withLock { state in … }`)
            if !accessors.isEmpty, let call = SyntaxHelpers.call(taking: node),
               let (closure, value) = SyntaxHelpers.accessorClosure(of: call, among: accessors),
               closure.id == node.id {
                aliases.append(value)
                later.append(false)
                started.append(false)
                return .visitChildren
            }
            // a `Task { … }` the method starts is walked as an input of its own (`load() task`)
            let run = SyntaxHelpers.run(of: node, index: index)
            later.append(!(run == .now || run == .started && closureDepth == 0))
            if later.last! { closureDepth += 1 }
            started.append(run == .started && closureDepth == 0)
            if started.last! { startedDepth += 1 }
            aliases.append("")
            return .visitChildren
        }
        override func visitPost(_ node: ClosureExprSyntax) {
            if later.removeLast() { closureDepth -= 1 }
            if started.removeLast() { startedDepth -= 1 }
            aliases.removeLast()
        }
        /// Whether each closure being walked is work the method starts.
        var started: [Bool] = []
        // a nested function's writes are not followed either (`func doClose() { … }` run by work started)
        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            closureDepth += 1
            return .visitChildren
        }
        override func visitPost(_ node: FunctionDeclSyntax) { closureDepth -= 1 }

        override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
            // (`score += 1` calls the observer of `score` too)
            if !observed.isEmpty, let compound = SyntaxHelpers.compoundAssignment(node) { setsObserved(compound) }
            if let (lhs, rhs) = SyntaxHelpers.assignment(node) {
                setsObserved(lhs)
                let value = rhs.count == 1 ? assigned(lhs, rhs[0]) : nil
                if value != nil || isProperty(lhs) {
                    found(node)
                    if closureDepth == 0, let value { values.append((Syntax(node), value)) }
                }
            }
            return .visitChildren
        }
        override func visit(_ node: InfixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
            if node.operator.is(AssignmentExprSyntax.self) { setsObserved(node.leftOperand) }
            if node.operator.is(AssignmentExprSyntax.self), let value = assigned(node.leftOperand, node.rightOperand) {
                found(node)
                if closureDepth == 0 { values.append((Syntax(node), value)) }
            }
            return .visitChildren
        }
        override func visit(_ node: InOutExprSyntax) -> SyntaxVisitorContinueKind {
            if isProperty(node.expression) { found(node) }
            return .visitChildren
        }
        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            let callee = node.calledExpression
            if !setters.isEmpty, node.arguments.count == 1, let path = SyntaxHelpers.path(callee), setters.contains(path) {
                found(node)
                if closureDepth == 0 { values.append((Syntax(node), node.arguments.first!.expression)) }
            }
            if let member = callee.as(MemberAccessExprSyntax.self), let base = member.base {
                if isProperty(base), enumMethods.contains(member.declName.baseName.text) { found(node) }
                if base.is(SuperExprSyntax.self), closureDepth == 0 { superCalls.insert(member.declName.baseName.text) }
                // (`self?.handle(result)` in a completion handler the walk follows too)
                if SyntaxHelpers.isSelf(base) { called(member.declName.baseName.text) }
            } else if let ref = callee.as(DeclReferenceExprSyntax.self) {
                called(ref.baseName.text)
            }
            return .visitChildren
        }
    }
}
