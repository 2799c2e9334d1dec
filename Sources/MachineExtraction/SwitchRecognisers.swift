import MachineModel
import SwiftSyntax

/// Finds `switch` statements in a body without entering nested closures or functions.
final class SwitchFinder: SyntaxVisitor {
    var switches: [SwitchExprSyntax] = []
    var returns: [ReturnStmtSyntax] = []
    var assignments: [(lhs: ExprSyntax, rhs: ExprSyntax)] = []
    var calls: [FunctionCallExprSyntax] = []

    init() { super.init(viewMode: .sourceAccurate) }

    static func scan(_ node: some SyntaxProtocol) -> SwitchFinder {
        let f = SwitchFinder()
        f.walk(node)
        return f
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind {
        switches.append(node)
        return .visitChildren
    }
    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
        returns.append(node)
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
        }
        return .visitChildren
    }
    override func visit(_ node: InfixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
        if node.operator.is(AssignmentExprSyntax.self) { assignments.append((node.leftOperand, node.rightOperand)) }
        return .visitChildren
    }
}

enum PatternNames {
    /// Case names a pattern names at each position of a tuple subject of `arity` elements.
    static func byPosition(_ sw: SwitchExprSyntax, arity: Int) -> [[String]] {
        var names = Array(repeating: [String](), count: arity)
        for sc in SyntaxHelpers.cases(of: sw) {
            guard case .case(let label) = sc.label else { continue }
            for item in label.caseItems {
                let atom = PatternAtom(item.pattern)
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
    func recognise(in context: ExtractionContext) {
        for file in context.files {
            let finder = CandidateFinder()
            finder.walk(file.tree)
            for candidate in finder.candidates where !context.claimed.contains(candidate.node.id) {
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
                    hint = call.calledExpression.compactText
                }
                candidates.append(Candidate(node: Syntax(node), parameters: params, parameterTypes: SyntaxHelpers.closureParameterTypes(node),
                                            body: node.statements, name: SyntaxHelpers.enclosingBindingName(node), typeHint: hint))
            }
            return .visitChildren
        }

        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            let params = node.signature.parameterClause.parameters
            if params.count >= 2, let body = node.body {
                candidates.append(Candidate(node: Syntax(node), parameters: params.map { ($0.secondName ?? $0.firstName).text },
                                            parameterTypes: params.map { $0.type.trimmedDescription },
                                            body: body.statements, name: node.name.text,
                                            typeHint: node.signature.returnClause?.type.trimmedDescription))
            }
            return .visitChildren
        }
    }

    func build(_ c: Candidate, file: ParsedFile, context: ExtractionContext) -> Bool {
        let scan = SwitchFinder.scan(c.body)
        // the first switch over a tuple of two parameter paths
        for sw in scan.switches {
            guard let tuple = SyntaxHelpers.unwrap(sw.subject).as(TupleExprSyntax.self), tuple.elements.count == 2 else { continue }
            let paths = tuple.elements.map { SyntaxHelpers.path($0.expression) }
            guard paths.allSatisfy({ p in p.map { c.parameters.contains(String($0.split(separator: ".").first!)) } ?? false }) else { continue }
            let names = PatternNames.byPosition(sw, arity: 2)
            let returned = scan.returns.compactMap { r -> String? in
                guard let e = r.expression else { return nil }
                if let t = SyntaxHelpers.unwrap(e).as(TupleExprSyntax.self), t.elements.count == 2 {
                    return SyntaxHelpers.caseReference(t.elements.first!.expression)?.name
                }
                return SyntaxHelpers.caseReference(e)?.name
            }
            let assigned = scan.assignments.compactMap { SyntaxHelpers.path($0.lhs) }
            let inoutForm = paths.contains { p in assigned.contains(p!) }
            let returnsNil = scan.returns.contains { $0.expression?.is(NilLiteralExprSyntax.self) ?? false }
            guard inoutForm || (!returned.isEmpty && (returnsNil || returned.count >= 2)) else { continue }

            let hints = context.typeHints(c.typeHint) + c.parameterTypes.compactMap { $0 }.flatMap { context.typeHints($0) }
            let enums = names.map { context.index.bestEnum(containing: Set($0), preferring: hints) }
            var statePosition: Int
            if inoutForm {
                statePosition = assigned.contains(paths[0]!) ? 0 : 1
            } else {
                let scores = enums.map { e in Set(returned).intersection(Set(e?.caseNames ?? [])).count }
                statePosition = scores[1] > scores[0] ? 1 : 0
                if scores[0] == scores[1] {
                    let n = paths.map { $0!.lowercased() }
                    statePosition = (n[1].contains("state") || n[1].contains("st")) ? 1 : 0
                }
            }
            let inputPosition = 1 - statePosition
            var stateEnum = enums[statePosition]
            if let s = stateEnum, !returned.allSatisfy({ s.caseNames.contains($0) }) {
                stateEnum = context.index.bestEnum(containing: Set(names[statePosition] + returned), preferring: hints) ?? s
            }
            let inputEnum = enums[inputPosition].flatMap { $0.qualifiedName == stateEnum?.qualifiedName ? nil : $0 }
                ?? context.index.bestEnum(containing: Set(names[inputPosition]), preferring: hints, excluding: stateEnum.map { [$0.qualifiedName] } ?? [])
            let states = context.caseList(stateEnum, used: names[statePosition] + returned)
            let inputs = context.caseList(inputEnum, used: names[inputPosition])
            guard !states.isEmpty, !inputs.isEmpty else { continue }
            // a closure returning cases of some other type (a comparator's `.orderedAscending`) is no mapping
            if !inoutForm, let s = stateEnum, !Set(returned).isSubset(of: Set(s.caseNames)) { continue }
            let domain = Domain(states: states, inputs: inputs)
            let failureOnNil = !inoutForm || (c.typeHint ?? "").contains("EffectMapping")
            let spec = ReducerSpec(domain: domain, statePaths: [paths[statePosition]!], inputPaths: [paths[inputPosition]!],
                                   returnsState: !inoutForm, nilIsFailure: failureOnNil)
            let interpreter = ReducerInterpreter(spec: spec, file: file, effects: context.effectReader(inputs: inputs, inputType: inputEnum))
            let rules = interpreter.run(c.body, at: file.location(of: c.node))
            let built = context.construction(referencing: c.name, around: c.node)
            let machine = Machine(
                name: built?.binding ?? c.name ?? "mapping@\(file.location(of: c.node).line)", dialect: .mappingFunction,
                location: file.location(of: c.node), states: states, inputs: inputs,
                initial: context.initialState(built?.initial, states: states), rules: rules, order: .resolved,
                stateLocations: context.locations(stateEnum), inputLocations: context.locations(inputEnum))
            context.add(machine, stateEnum: stateEnum)
            return true
        }
        return false
    }
}

/// D9: a method that switches over (state property, event parameter) and assigns the property.
struct SwitchMethodRecogniser: Recogniser {
    func recognise(in context: ExtractionContext) {
        for type in context.index.typeOrder {
            for property in type.properties where !property.isComputed && !property.isStatic {
                guard let (stateEnum, kind) = stateType(of: property, owner: type, context: context) else { continue }
                build(type: type, property: property, stateEnum: stateEnum, kind: kind, context: context)
            }
            if let own = context.index.enumsByQualifiedName[type.qualifiedName] {
                buildSelfMachine(type: type, stateEnum: own, context: context)
            }
        }
    }

    /// An enum that is its own machine: `mutating func handle(_ e: Event) { switch (self, e) { … self = .x } }`
    /// or `func next(_ e: Event) -> Self? { switch (self, e) { … return .x } }`.
    func buildSelfMachine(type: TypeInfo, stateEnum: EnumInfo, context: ExtractionContext) {
        var rules: [Rule] = []
        var location: SourceLocation?
        var inputEnum: EnumInfo?
        for (method, file) in type.methods where !context.claimed.contains(method.id) {
            guard let body = method.body else { continue }
            let mutating = method.modifiers.contains { $0.name.text == "mutating" }
            let returns = method.signature.returnClause.map { SymbolIndex.bareTypeName($0.type.trimmedDescription) }
            let returnsSelf = returns == "Self" || returns == type.name || returns == type.qualifiedName
            guard mutating || returnsSelf else { continue }
            guard let (paramName, event) = eventParameter(of: method, in: type, stateEnum: stateEnum, sameAs: inputEnum, context: context) else { continue }
            let scan = SwitchFinder.scan(body)
            let onSelf = scan.switches.contains { sw in
                let text = sw.subject.compactText
                return text == "self" || text.hasPrefix("(self,") || text.hasSuffix(", self)")
            }
            let assignsSelf = scan.assignments.contains { $0.lhs.trimmedDescription == "self" }
            guard onSelf, assignsSelf || returnsSelf else { continue }
            inputEnum = event
            let domain = Domain(states: stateEnum.caseNames, inputs: event.caseNames)
            let optional = method.signature.returnClause?.type.trimmedDescription.hasSuffix("?") ?? false
            let spec = ReducerSpec(domain: domain, statePaths: ["self"], inputPaths: [paramName],
                                   returnsState: !assignsSelf && returnsSelf, nilIsFailure: optional)
            let interpreter = ReducerInterpreter(spec: spec, file: file, effects: context.effectReader(inputs: event.caseNames, inputType: event))
            rules += interpreter.run(body.statements, at: file.location(of: method))
            location = location ?? file.location(of: method)
            context.claimed.insert(method.id)
        }
        guard let location, !rules.isEmpty else { return }
        context.add(Machine(name: type.name, dialect: .switchMethod, location: location, states: stateEnum.caseNames,
                            inputs: inputEnum?.caseNames ?? [], initial: nil, rules: rules, order: .resolved,
                            stateLocations: context.locations(stateEnum), inputLocations: context.locations(inputEnum)),
                    stateEnum: stateEnum)
    }

    /// The event parameter of a method: its first parameter of an enum type other than the state's
    /// (the same enum as the machine's other methods take, once one is known).
    func eventParameter(of method: FunctionDeclSyntax, in type: TypeInfo, stateEnum: EnumInfo, sameAs inputEnum: EnumInfo?,
                        context: ExtractionContext) -> (String, EnumInfo)? {
        for p in method.signature.parameterClause.parameters {
            guard let e = context.index.enumInfo(named: p.type.trimmedDescription, near: type.qualifiedName),
                  e.qualifiedName != stateEnum.qualifiedName,
                  inputEnum == nil || inputEnum!.qualifiedName == e.qualifiedName else { continue }
            return ((p.secondName ?? p.firstName).text, e)
        }
        return nil
    }

    func stateType(of property: Binding, owner: TypeInfo, context: ExtractionContext) -> (EnumInfo, StateKind)? {
        if let t = property.typeText {
            guard !t.hasSuffix("?") else { return nil }
            if let e = context.index.enumInfo(named: context.index.resolveAlias(t), near: owner.qualifiedName), !e.cases.isEmpty { return (e, .enumeration) }
            return nil
        }
        if let i = property.initializer, let ref = SyntaxHelpers.caseReference(i), let type = ref.type,
           let e = context.index.enumInfo(named: type, near: owner.qualifiedName), e.caseNames.contains(ref.name) {
            return (e, .enumeration)
        }
        return nil
    }

    func build(type: TypeInfo, property: Binding, stateEnum: EnumInfo, kind: StateKind, context: ExtractionContext) {
        let statePaths: Set<String> = [property.name]
        var rules: [Rule] = []
        var inputEnum: EnumInfo?
        var location: SourceLocation?
        var inputNames: [String] = []
        let assigners = Set(type.methods.filter { m, _ in
            m.body.map { SwitchFinder.scan($0).assignments.contains { statePaths.contains(SyntaxHelpers.path($0.lhs) ?? "") } } ?? false
        }.map { $0.0.name.text })
        guard !assigners.isEmpty else { return }
        for (method, file) in type.methods where !context.claimed.contains(method.id) {
            guard let body = method.body else { continue }
            let scan = SwitchFinder.scan(body)
            // it assigns the property, itself or through another method of the type (`transition(to:)`)
            let callsAssigner = scan.calls.contains { call in
                let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
                    ?? call.calledExpression.as(MemberAccessExprSyntax.self).flatMap { $0.base?.trimmedDescription == "self" ? $0.declName.baseName.text : nil }
                return callee.map(assigners.contains) ?? false
            }
            guard scan.assignments.contains(where: { statePaths.contains(SyntaxHelpers.path($0.lhs) ?? "") }) || callsAssigner else { continue }
            guard let (paramName, event) = eventParameter(of: method, in: type, stateEnum: stateEnum, sameAs: inputEnum, context: context) else { continue }
            let switchesOnBoth = scan.switches.contains { sw in
                let text = sw.subject.compactText
                return text.contains(paramName) || statePaths.contains(SyntaxHelpers.path(sw.subject) ?? "")
            }
            guard switchesOnBoth else { continue }
            inputEnum = event
            inputNames = event.caseNames
            let domain = Domain(states: stateEnum.caseNames, inputs: inputNames)
            var helpers: [String: FunctionDeclSyntax] = [:]
            for (m, _) in type.methods where m.name.text != method.name.text { helpers[m.name.text] = m }
            let spec = ReducerSpec(domain: domain, stateKind: kind, statePaths: statePaths, inputPaths: [paramName],
                                   helpers: helpers, helperStatePaths: statePaths)
            let interpreter = ReducerInterpreter(spec: spec, file: file, effects: context.effectReader(inputs: inputNames, inputType: event))
            rules += interpreter.run(body.statements, at: file.location(of: method))
            location = location ?? file.location(of: method)
            context.claimed.insert(method.id)
        }
        guard let location, !rules.isEmpty else { return }
        let initial = context.initialState(property.initializer, states: stateEnum.caseNames)
        let machine = Machine(name: "\(type.name).\(property.name)", dialect: .switchMethod, location: location,
                              states: stateEnum.caseNames, inputs: inputNames, initial: initial, rules: rules, order: .resolved,
                              stateLocations: context.locations(stateEnum), inputLocations: context.locations(inputEnum))
        context.add(machine, stateEnum: stateEnum)
    }
}
