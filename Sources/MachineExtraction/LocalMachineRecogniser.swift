import MachineModel
import SwiftSyntax

/// D9 in a function's body: a local variable holding a case of a declared enum (`var state = Lex.start`,
/// `var phase: Phase = .idle`) that a loop tests and assigns cases (`for ch in text { switch state { case
/// .start: if ch.isNumber { state = .number } … } }`, `switch (mode, signal)`, or a `switch` over the event
/// assigning it): a machine named by the function and the variable (`Lexer.tokenize().state`), starting at
/// the variable's initializer, whose inputs are the cases of the events a loop over an enum's values takes
/// (`for await signal in signals`, `signals: AsyncStream<Signal>`), else the loop's next turn
/// (`tokenize() on text` for a `for` loop, `run() loop` for `while` and `repeat`). The loop may stop in any
/// state, so every state may end it (none is a dead end).
struct LocalMachineRecogniser: Recogniser {
    final class Finder: SyntaxVisitor {
        /// Every `switch`, and every assignment of a case to a bare name (`section = .inSection`, a loop
        /// testing the name with `if`/`guard`), in walk order.
        var anchors: [Syntax] = []
        override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind {
            anchors.append(Syntax(node))
            return .visitChildren
        }
        override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
            if node.elements.count == 3, let (lhs, rhs) = SyntaxHelpers.assignment(node), lhs.is(DeclReferenceExprSyntax.self),
               rhs.count == 1, SyntaxHelpers.unwrap(rhs[0]).is(MemberAccessExprSyntax.self) { anchors.append(Syntax(node)) }
            return .visitChildren
        }
    }

    func finder(for file: ParsedFile) -> SyntaxVisitor? { Finder(viewMode: .sourceAccurate) }

    func recognise(in context: ExtractionContext, found: [SyntaxVisitor?]) {
        for (file, finder) in self.found(found, in: context, as: Finder.self) {
            var built = Set<SyntaxIdentifier>()
            // (the `switch`es first: a machine one of them steps is located there)
            for anchor in finder.anchors.filter({ $0.is(SwitchExprSyntax.self) }) + finder.anchors.filter({ !$0.is(SwitchExprSyntax.self) }) {
                guard let (loop, body, function) = Self.enclosing(anchor) else { continue }
                // the names it switches over (`switch state`, `switch (mode, signal)`) and those it assigns
                let names: [String]
                if let sw = anchor.as(SwitchExprSyntax.self) {
                    let subject = SyntaxHelpers.unwrap(sw.subject)
                    let tested = subject.as(TupleExprSyntax.self).map { $0.elements.map(\.expression) } ?? [subject]
                    names = (tested.compactMap { $0.as(DeclReferenceExprSyntax.self)?.baseName.text }
                        + SwitchFinder.scan(sw).assignments.compactMap { $0.lhs.as(DeclReferenceExprSyntax.self)?.baseName.text }).uniqued()
                } else {
                    // (one the function returns is a value it computes, the worst level seen: `return worst`)
                    let name = anchor.as(SequenceExprSyntax.self).flatMap(SyntaxHelpers.assignment).flatMap { $0.lhs.as(DeclReferenceExprSyntax.self)?.baseName.text }
                    let returned = Self.body(of: function).map { SwitchFinder.scan($0).returns.contains { $0.expression.flatMap(SyntaxHelpers.path) == name } } ?? true
                    names = name.map { returned ? [] : [$0] } ?? []
                }
                for name in names {
                    build(name, loop: loop, body: body, function: function, at: anchor, file: file, context: context, built: &built)
                }
            }
        }
    }

    /// The loop a `switch` is in and the function around it, when no closure or nested function comes between.
    static func enclosing(_ node: some SyntaxProtocol) -> (loop: Syntax, body: CodeBlockSyntax, function: Syntax)? {
        var loop: (Syntax, CodeBlockSyntax)?
        for ancestor in sequence(first: Syntax(node), next: { $0.parent }).dropFirst() {
            if ancestor.is(ClosureExprSyntax.self) { return nil }
            if ancestor.is(FunctionDeclSyntax.self) || ancestor.is(InitializerDeclSyntax.self) || ancestor.is(AccessorDeclSyntax.self) {
                return loop.map { ($0.0, $0.1, ancestor) }
            }
            if loop == nil {
                if let f = ancestor.as(ForStmtSyntax.self) { loop = (ancestor, f.body) }
                else if let w = ancestor.as(WhileStmtSyntax.self) { loop = (ancestor, w.body) }
                else if let r = ancestor.as(RepeatStmtSyntax.self) { loop = (ancestor, r.body) }
            }
        }
        return nil
    }

    /// The body of a function, initializer or accessor.
    static func body(of function: Syntax) -> CodeBlockSyntax? {
        function.as(FunctionDeclSyntax.self)?.body ?? function.as(InitializerDeclSyntax.self)?.body ?? function.as(AccessorDeclSyntax.self)?.body
    }

    /// The `var` declaring `name` in a body around `node`, before it.
    static func declaration(of name: String, before node: Syntax) -> PatternBindingSyntax? {
        var child = node
        for ancestor in sequence(first: node.parent, next: { $0?.parent }) {
            guard let ancestor else { return nil }
            defer { child = ancestor }
            if ancestor.is(FunctionDeclSyntax.self) || ancestor.is(InitializerDeclSyntax.self) || ancestor.is(AccessorDeclSyntax.self) { return nil }
            guard let list = ancestor.as(CodeBlockItemListSyntax.self) else { continue }
            for item in list where item.position < child.position {
                guard let v = item.item.as(VariableDeclSyntax.self), v.bindingSpecifier.tokenKind == .keyword(.var) else { continue }
                if let binding = v.bindings.last(where: { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }) { return binding }
            }
        }
        return nil
    }

    func build(_ name: String, loop: Syntax, body: CodeBlockSyntax, function: Syntax, at sw: Syntax, file: ParsedFile,
               context: ExtractionContext, built: inout Set<SyntaxIdentifier>) {
        guard let binding = Self.declaration(of: name, before: loop), !built.contains(binding.id) else { return }
        // the variable's enum: written, or the type of the case it starts at (`Lex.start`)
        let scope = context.index.scope(of: binding)
        let start = binding.initializer?.value
        let typeText = binding.typeAnnotation?.type.trimmedText
            ?? start.flatMap { SyntaxHelpers.caseReference($0, context.index)?.type }
        guard let typeText, let stateEnum = context.index.enumInfo(typeText, in: scope), stateEnum.cases.count >= 2 else { return }
        // (the loop steps it: it tests it and assigns it cases; a value read each turn, `command = try
        // channel.read()` in the loop's body itself, is the loop's input, not a state; and it starts at one)
        let states = stateEnum.caseNames
        let writes = SwitchFinder.scan(body).assignments.filter { SyntaxHelpers.path($0.lhs) == name }
        func isCase(_ rhs: ExprSyntax) -> Bool {
            SyntaxHelpers.branches(rhs).allSatisfy { SyntaxHelpers.caseReference($0, context.index, accepting: states.contains) != nil }
        }
        func everyTurn(_ lhs: ExprSyntax) -> Bool {
            SyntaxHelpers.nearest(lhs, { $0.as(CodeBlockItemSyntax.self) })?.parent?.id == body.statements.id
        }
        // (each write copying the case a `switch` over another value matched, `case .error: worst = .error`,
        // folds values of its enum into it: the most severe one seen)
        func copiesMatched(_ write: (lhs: ExprSyntax, rhs: ExprSyntax)) -> Bool {
            guard let written = SyntaxHelpers.caseReference(write.rhs, context.index)?.name,
                  let matched = SyntaxHelpers.nearest(write.lhs, { $0.as(SwitchCaseSyntax.self) }),
                  case .case(let label) = matched.label,
                  let subject = matched.parent?.parent?.as(SwitchExprSyntax.self)?.subject, SyntaxHelpers.root(subject) != name else { return false }
            return label.caseItems.contains { item in
                item.pattern.as(ExpressionPatternSyntax.self).flatMap { SyntaxHelpers.caseReference($0.expression, context.index)?.name } == written
            }
        }
        guard start != nil, writes.contains(where: { isCase($0.rhs) }), !writes.contains(where: { !isCase($0.rhs) && everyTurn($0.lhs) }),
              !writes.allSatisfy(copiesMatched), ValueTestFinder.tests(body, roots: [name]) else { return }
        built.insert(binding.id)
        let functionName = function.as(FunctionDeclSyntax.self)?.name.text ?? (function.is(InitializerDeclSyntax.self) ? "init" : "get")
        // the input: each value of a loop over events of an enum (`for await signal in signals` with
        // `signals: AsyncStream<Signal>`, `for e in events: [Event]`), else the loop's next turn
        var inputs: [String]
        var inputPaths: Set<String> = []
        var inputEnum: EnumInfo?
        let elements = Self.elements(of: loop, in: function, context: context)
        // (a loop over values of the variable's own enum folds them into it, the most severe or the last
        // seen: a value it computes, not a machine it runs)
        if elements?.enumInfo.key == stateEnum.key { return }
        if let event = elements {
            (inputs, inputPaths, inputEnum) = (event.enumInfo.caseNames, [event.name], event.enumInfo)
        } else if let f = loop.as(ForStmtSyntax.self) {
            inputs = ["\(functionName)() on \(Suspension.describe(Syntax(f)).what)"]
        } else {
            inputs = ["\(functionName)() loop"]
        }
        let location = file.location(of: sw)
        let spec = ReducerSpec(domain: Domain(states: states, inputs: inputs), statePaths: [name], inputPaths: inputPaths,
                               enumMethods: context.mutatingMethods(of: stateEnum), enumFactories: context.factories(of: stateEnum),
                               enumPredicates: context.predicates(of: stateEnum), enumSuccessors: context.successors(of: stateEnum))
        let interpreter = ReducerInterpreter(spec: spec, file: file, effects: context.effectReader(inputs: inputs, inputType: inputEnum, at: sw),
                                             readings: context.readings)
        let rules = interpreter.run(body.statements, at: location)
        guard rules.contains(where: { rule in rule.outcomes.contains { if case .state = $0.target { true } else { false } } }) else { return }
        let owner = context.index.scope(of: function)?.innermostType.map { $0.name + "." } ?? ""
        var machine = Machine(name: "\(owner)\(functionName)().\(name)", dialect: .switchMethod, location: location, states: states,
                              inputs: inputs, initial: start.flatMap { context.initialState($0, states: states) }, rules: rules,
                              order: .resolved, terminal: states, stateLocations: context.locations(stateEnum),
                              inputLocations: context.locations(inputEnum))
        // (a placeholder it holds only while a turn runs, `state = .modifying` then the `switch`, is no unreachable state)
        machine.transient = SwitchMethodRecogniser.transient(writes.map { (Syntax($0.lhs), $0.rhs) }, of: machine, unobservable: [], context: context)
        context.add(machine, stateEnum: stateEnum, at: binding, leftOut: [interpreter.leftOut])
    }

    /// A loop over values of an enum: its variable and the enum, from the written type of the sequence (a
    /// parameter of the function or a property of its type: `AsyncStream<Signal>`,
    /// `AsyncThrowingStream<Signal, Error>`, `[Signal]`).
    static func elements(of loop: Syntax, in function: Syntax, context: ExtractionContext) -> (name: String, enumInfo: EnumInfo)? {
        let element: (name: String, sequence: ExprSyntax)?
        if let f = loop.as(ForStmtSyntax.self) {
            element = f.pattern.as(IdentifierPatternSyntax.self).map { ($0.identifier.text, f.sequence) }
        } else {
            element = loop.as(WhileStmtSyntax.self).flatMap(Self.iterated)
        }
        guard let (name, sequence) = element,
              let stream = SyntaxHelpers.path(sequence).map({ $0.hasPrefix("self.") ? String($0.dropFirst(5)) : $0 }) else { return nil }
        let parameters = function.as(FunctionDeclSyntax.self)?.signature.parameterClause.parameters
        let typeText = parameters?.first { ($0.secondName ?? $0.firstName).text == stream }?.type.trimmedText
            ?? context.index.scope(of: function)?.innermostType?.properties.first { $0.name == stream && !$0.isStatic }?.typeText
        guard let typeText, let e = SwitchMethodRecogniser.elementEnum(ofSequenceTyped: typeText, at: loop, arrays: true, context: context) else { return nil }
        return (name, e)
    }

    /// `while let token = iterator.next()` with `var iterator = tokens.makeIterator()`: the name each
    /// value is bound to and the sequence iterated.
    static func iterated(_ loop: WhileStmtSyntax) -> (name: String, sequence: ExprSyntax)? {
        guard loop.conditions.count == 1, case .optionalBinding(let b) = loop.conditions.first!.condition,
              let name = b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let next = b.initializer.flatMap({ SyntaxHelpers.unwrap($0.value).as(FunctionCallExprSyntax.self) }), next.arguments.isEmpty,
              let member = next.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "next",
              let iterator = member.base?.as(DeclReferenceExprSyntax.self),
              let local = SymbolIndex.localDeclaration(of: iterator.baseName.text, around: Syntax(loop))?.as(PatternBindingSyntax.self),
              let made = local.initializer.flatMap({ SyntaxHelpers.unwrap($0.value).as(FunctionCallExprSyntax.self) }),
              let maker = made.calledExpression.as(MemberAccessExprSyntax.self), maker.declName.baseName.text == "makeIterator",
              let sequence = maker.base else { return nil }
        return (name, sequence)
    }
}
