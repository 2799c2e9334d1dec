import MachineModel
import SwiftSyntax

/// D1: arrays of rows `input | from => to` and `input | from => to | effect` (Harvest,
/// ReactiveAutomaton, RxAutomaton), folded by `.reduce(.first, rows)` / `reduce(rows)`.
struct OperatorTableRecogniser: Recogniser {
    struct Row {
        var input: ExprSyntax
        var from: ExprSyntax
        var to: ExprSyntax
        var effect: ExprSyntax?
        var node: ExprSyntax
    }

    func recognise(in context: ExtractionContext) {
        for file in context.files {
            let finder = TableFinder()
            finder.walk(file.tree)
            for table in finder.tables { build(table, file: file, context: context) }
        }
    }

    /// Splits `a | b => c | d` (unfolded: custom operators have no known precedence) into a row.
    static func row(_ expr: ExprSyntax) -> Row? {
        guard let seq = expr.as(SequenceExprSyntax.self) else { return nil }
        let elements = Array(seq.elements)
        var parts: [[ExprSyntax]] = [[]]
        var ops: [String] = []
        for e in elements {
            if let op = e.as(BinaryOperatorExprSyntax.self), ["|", "=>"].contains(op.operator.text) {
                ops.append(op.operator.text)
                parts.append([])
            } else {
                parts[parts.count - 1].append(e)
            }
        }
        guard ops == ["|", "=>"] || ops == ["|", "=>", "|"], parts.allSatisfy({ $0.count == 1 }) else { return nil }
        return Row(input: parts[0][0], from: parts[1][0], to: parts[2][0], effect: parts.count > 3 ? parts[3][0] : nil, node: expr)
    }

    final class TableFinder: SyntaxVisitor {
        var tables: [ArrayExprSyntax] = []
        init() { super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: ArrayExprSyntax) -> SyntaxVisitorContinueKind {
            if node.elements.contains(where: { OperatorTableRecogniser.row($0.expression) != nil }) {
                tables.append(node)
                return .skipChildren
            }
            return .visitChildren
        }
    }

    func build(_ table: ArrayExprSyntax, file: ParsedFile, context: ExtractionContext) {
        let rows = table.elements.compactMap { Self.row($0.expression) }
        let skipped = table.elements.filter { Self.row($0.expression) == nil }
        for element in skipped {
            context.warn("not a transition row (`input | from => to`): \(element.expression.compactText.prefix(60)); left out of the machine",
                         at: file.location(of: element))
        }
        // Names used on each side
        var stateNames: [String] = []
        var inputNames: [String] = []
        for row in rows {
            if let r = SyntaxHelpers.caseReference(row.input) { inputNames.append(r.name) }
            if let r = SyntaxHelpers.caseReference(row.from) { stateNames.append(r.name) }
            if let r = SyntaxHelpers.caseReference(row.to) { stateNames.append(r.name) }
            stateNames += predicateCaseNames(row.from, context: context)
        }
        let bindingName = SyntaxHelpers.enclosingBindingName(table)
        var typeText: String?
        if let name = bindingName, let binding = context.index.bindings[name]?.first(where: { $0.file === file }) { typeText = binding.typeText }
        let hints = context.typeHints(typeText)
        let stateEnum = context.index.bestEnum(containing: Set(stateNames), preferring: hints)
        let inputEnum = context.index.bestEnum(containing: Set(inputNames), preferring: hints,
                                               excluding: stateEnum.map { [$0.qualifiedName] } ?? [])
        let states = context.caseList(stateEnum, used: stateNames)
        let inputs = context.caseList(inputEnum, used: inputNames)
        let domain = Domain(states: states, inputs: inputs)
        let reader = context.effectReader(inputs: inputs, inputType: inputEnum)

        var rules: [Rule] = []
        for row in rows {
            let location = file.location(of: row.node)
            var catchAll = false
            let rowInputs: [String]
            if isAny(row.input) {
                rowInputs = inputs
                catchAll = true
            } else if let r = SyntaxHelpers.caseReference(row.input) {
                rowInputs = [r.name]
            } else {
                context.warn("cannot read the input of this row: \(row.input.compactText); row left out", at: location)
                continue
            }
            var guardText: String?
            let fromStates: [String]
            if let set = fromSet(row.from, domain: domain, context: context, guardText: &guardText) {
                fromStates = set
            } else {
                context.warn("cannot tell which states `\(row.from.compactText)` accepts; the row is assumed to apply in every state",
                             at: file.location(of: row.from))
                fromStates = states
                guardText = row.from.compactText
            }
            let target: Target
            if let r = SyntaxHelpers.caseReference(row.to), domain.stateIndex[r.name] != nil {
                target = .state(r.name)
            } else {
                target = .unknown(row.to.compactText)
                context.warn("the target `\(row.to.compactText)` is computed at run time; its edges cannot be drawn",
                             at: file.location(of: row.to), severity: .note)
            }
            let effect = row.effect.map { reader.read($0) } ?? EffectReader.Result()
            let pairs = fromStates.flatMap { s in rowInputs.map { Pair(from: s, input: $0) } }
            rules.append(Rule(location: location,
                              outcomes: [Outcome(pairs: pairs, target: target, effect: effect.effect, cancels: effect.cancels)],
                              guardText: guardText, catchAll: catchAll))
        }
        guard !rules.isEmpty else { return }
        let built = context.construction(referencing: bindingName, around: Syntax(table))
        // `Automaton(…, strategy: .latest)`: every new effect cancels the one in flight
        if let strategy = built.flatMap({ SyntaxHelpers.argument($0.call, "strategy") }), strategy.trimmedDescription.hasSuffix("latest") {
            for i in rules.indices {
                for k in rules[i].outcomes.indices where rules[i].outcomes[k].effect != nil {
                    if rules[i].outcomes[k].effect!.queue == nil { rules[i].outcomes[k].effect!.policy = "latest" }
                    for p in rules[i].outcomes[k].effect!.parts.indices where rules[i].outcomes[k].effect!.parts[p].queue == nil {
                        rules[i].outcomes[k].effect!.parts[p].policy = "latest"
                    }
                    rules[i].outcomes[k].cancels = rules[i].outcomes[k].cancels.appendingUnique(["strategy: .latest"])
                }
            }
        }
        let order: RuleOrder = (built?.call.arguments.compactText.contains(".all") ?? false) ? .allMatch : .firstMatch
        let name = built?.binding ?? bindingName ?? "table@\(file.location(of: table).line)"
        let machine = Machine(
            name: name, dialect: .operatorTable, location: file.location(of: table), states: states, inputs: inputs,
            initial: context.initialState(built?.initial, states: states), rules: rules, order: order,
            stateLocations: context.locations(stateEnum), inputLocations: context.locations(inputEnum))
        context.add(machine, stateEnum: stateEnum)
    }

    func isAny(_ expr: ExprSyntax) -> Bool {
        let t = expr.trimmedDescription
        return t == "any" || t == ".any" || t == "_"
    }

    /// Case names mentioned by a from-side predicate (for type inference).
    func predicateCaseNames(_ expr: ExprSyntax, context: ExtractionContext) -> [String] {
        var source: Syntax = Syntax(expr)
        if let ref = expr.as(DeclReferenceExprSyntax.self), let b = context.index.bindings[ref.baseName.text]?.first, let i = b.initializer {
            source = Syntax(i)
        }
        let finder = CaseNameFinder()
        finder.walk(source)
        return finder.names
    }

    final class CaseNameFinder: SyntaxVisitor {
        var names: [String] = []
        init() { super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
            if node.base == nil { names.append(node.declName.baseName.text) }
            return .visitChildren
        }
    }

    /// The states a from-side accepts: a case, `any`, `[.a, .b].contains`, a closure or a named predicate.
    func fromSet(_ expr: ExprSyntax, domain: Domain, context: ExtractionContext, guardText: inout String?) -> [String]? {
        if isAny(expr) { return domain.states }
        if let r = SyntaxHelpers.caseReference(expr), domain.stateIndex[r.name] != nil { return [r.name] }
        var e = SyntaxHelpers.unwrap(expr)
        var depth = 0
        while let ref = e.as(DeclReferenceExprSyntax.self), depth < 4 {
            depth += 1
            if let b = context.index.bindings[ref.baseName.text]?.first, let i = b.initializer {
                e = SyntaxHelpers.unwrap(i)
            } else if let f = context.index.methodsByName[ref.baseName.text]?.first?.0
                        ?? FunctionFinder.find(ref.baseName.text, in: context.files) {
                return predicateStates(body: f.body?.statements, parameter: f.signature.parameterClause.parameters.first.map { ($0.secondName ?? $0.firstName).text },
                                       domain: domain, context: context, guardText: &guardText)
            } else {
                return nil
            }
        }
        // [.a, .b].contains
        if let member = e.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "contains",
           let array = member.base?.as(ArrayExprSyntax.self) {
            let names = array.elements.compactMap { SyntaxHelpers.caseReference($0.expression)?.name }
            return names.filter { domain.stateIndex[$0] != nil }
        }
        if let closure = e.as(ClosureExprSyntax.self) {
            let param = SyntaxHelpers.closureParameterNames(closure).first ?? "$0"
            return predicateStates(body: closure.statements, parameter: param, domain: domain, context: context, guardText: &guardText)
        }
        return nil
    }

    func predicateStates(body: CodeBlockItemListSyntax?, parameter: String?, domain: Domain, context: ExtractionContext, guardText: inout String?) -> [String]? {
        guard let body, let parameter else { return nil }
        var expr: ExprSyntax?
        if body.count == 1, let only = body.first {
            if let e = only.item.as(ExprSyntax.self) { expr = e }
            if let r = only.item.as(ReturnStmtSyntax.self) { expr = r.expression }
            if let s = only.item.as(ExpressionStmtSyntax.self) { expr = s.expression }
        }
        guard let expr else { return nil }
        let predicateDomain = Domain(states: domain.states, inputs: [])
        let spec = ReducerSpec(domain: predicateDomain, statePaths: [parameter, "$0"], inputPaths: [])
        let file = context.files[0]
        let interpreter = ReducerInterpreter(spec: spec, file: file, effects: context.effectReader(inputs: [], inputType: nil))
        let ctx = ReducerInterpreter.Ctx(pairs: predicateDomain.all, slot: 0)
        let pred = interpreter.eval(expr, ctx)
        if !pred.maybe.isEmpty { guardText = expr.compactText }
        return predicateDomain.stateNames(pred.possible)
    }

    enum FunctionFinder {
        static func find(_ name: String, in files: [ParsedFile]) -> FunctionDeclSyntax? {
            for file in files {
                for item in file.tree.statements {
                    if let f = item.item.as(FunctionDeclSyntax.self), f.name.text == name { return f }
                }
            }
            return nil
        }
    }
}
