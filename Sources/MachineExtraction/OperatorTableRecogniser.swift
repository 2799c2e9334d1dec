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

    func finder(for file: ParsedFile) -> SyntaxVisitor? { TableFinder() }

    func recognise(in context: ExtractionContext, found: [SyntaxVisitor?]) {
        var tables: [(table: ArrayExprSyntax, file: ParsedFile)] = []
        var sums: [(sum: SequenceExprSyntax, operands: [ExprSyntax], file: ParsedFile)] = []
        var additions: [(target: ExprSyntax, rows: [ExprSyntax], array: ArrayExprSyntax?, file: ParsedFile)] = []
        for (file, finder) in self.found(found, in: context, as: TableFinder.self) {
            tables += finder.tables.map { ($0, file) }
            sums += finder.sums.map { ($0.0, $0.1, file) }
            additions += finder.additions.map { ($0.target, $0.rows, $0.array, file) }
        }
        // tables kept apart and joined (`static let all = starting + pausing + stopping`, `flowRows() +
        // cleanupRows()`): one machine, of the join, for all their rows (the names resolved where the join
        // is written); a table kept in a variable or returned by a function
        var tableByDeclaration: [SyntaxIdentifier: Int] = [:]
        for (i, t) in tables.enumerated() {
            if let binding = t.table.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self) {
                tableByDeclaration[binding.id] = i
            } else if let function = SyntaxHelpers.nearest(t.table, { $0.as(FunctionDeclSyntax.self) }), let body = function.body,
                      SyntaxHelpers.onlyValue(body.statements).map(SyntaxHelpers.unwrap)?.id == Syntax(t.table).id {
                tableByDeclaration[function.id] = i
            }
        }
        func table(_ operand: ExprSyntax) -> Int? {
            if let call = operand.as(FunctionCallExprSyntax.self) {
                let functions = context.index.functions(referencedBy: call.calledExpression)
                return functions.count == 1 ? tableByDeclaration[functions[0].id] : nil
            }
            return DSLSupport.variable(operand, index: context.index).flatMap { tableByDeclaration[$0.node.id] }
        }
        var joined = Set<Int>()
        var joins: [(sum: SequenceExprSyntax, parts: [Int], file: ParsedFile)] = []
        if !tableByDeclaration.isEmpty {
            for sum in sums {
                let parts = sum.operands.compactMap(table)
                guard parts.count == sum.operands.count, Set(parts).count == parts.count else { continue }
                joins.append((sum.sum, parts, sum.file))
                joined.formUnion(parts)
            }
        }
        // rows added to a table's variable (`rules += [ … ]`, `rules.append(.dim | .on => .dimmed)`): its rows
        var added: [Int: [(rows: [ExprSyntax], file: ParsedFile)]] = [:]
        for addition in additions {
            guard let i = table(addition.target) else { continue }
            if let array = addition.array, let j = tables.firstIndex(where: { $0.table.id == array.id }) { joined.insert(j) }
            added[i, default: []].append((addition.rows, addition.file))
        }
        func parts(_ i: Int) -> [(rows: [ExprSyntax], file: ParsedFile)] {
            [(tables[i].table.elements.map(\.expression), tables[i].file)] + (added[i] ?? [])
        }
        for (i, t) in tables.enumerated() where !joined.contains(i) {
            build(parts(i), table: t.table, at: Syntax(t.table), file: t.file, context: context)
        }
        for join in joins {
            build(join.parts.flatMap(parts), table: tables[join.parts[0]].table, at: Syntax(join.sum), file: join.file, context: context)
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
        /// Sums of names (`starting + pausing`), with the names: tables joined, when they name tables.
        var sums: [(SequenceExprSyntax, [ExprSyntax])] = []
        /// Rows added to a variable: `rules += [ … ]` (with the array), `rules.append(row)`.
        var additions: [(target: ExprSyntax, rows: [ExprSyntax], array: ArrayExprSyntax?)] = []
        init() { super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
            let elements = Array(node.elements)
            guard elements.count >= 3, elements.count % 2 == 1 else { return .visitChildren }
            if elements.count == 3, elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "+=",
               let array = SyntaxHelpers.unwrap(elements[2]).as(ArrayExprSyntax.self),
               array.elements.contains(where: { OperatorTableRecogniser.row($0.expression) != nil }) {
                additions.append((elements[0], array.elements.map(\.expression), array))
                return .visitChildren
            }
            var operands: [ExprSyntax] = []
            for (i, e) in elements.enumerated() {
                if i % 2 == 1 {
                    guard e.as(BinaryOperatorExprSyntax.self)?.operator.text == "+" else { return .visitChildren }
                } else {
                    // (a table's name, or a call of a function returning one: `flowRows() + cleanupRows()`)
                    let call = e.as(FunctionCallExprSyntax.self)
                    guard e.is(DeclReferenceExprSyntax.self) || e.is(MemberAccessExprSyntax.self)
                            || call.map({ $0.arguments.isEmpty && $0.trailingClosure == nil }) == true else { return .visitChildren }
                    operands.append(e)
                }
            }
            sums.append((node, operands))
            return .visitChildren
        }
        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            if let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "append",
               let target = member.base, node.arguments.count == 1, let row = node.arguments.first?.expression,
               OperatorTableRecogniser.row(row) != nil {
                additions.append((target, [row], nil))
            }
            return .visitChildren
        }
        override func visit(_ node: ArrayExprSyntax) -> SyntaxVisitorContinueKind {
            if node.elements.contains(where: { OperatorTableRecogniser.row($0.expression) != nil }) {
                tables.append(node)
                return .skipChildren
            }
            return .visitChildren
        }
    }

    /// One machine of the rows of `parts` (one table and the rows added to it, or the tables a sum joins),
    /// the first `table`, found at `anchor` in `file`.
    func build(_ parts: [(rows: [ExprSyntax], file: ParsedFile)], table: ArrayExprSyntax, at anchor: Syntax, file: ParsedFile, context: ExtractionContext) {
        var rows: [(row: Row, file: ParsedFile)] = []
        for (elements, file) in parts {
            for element in elements {
                if let row = Self.row(element) { rows.append((row, file)); continue }
                context.warn("not a transition row (`input | from => to`): \(element.compactText.prefix(60)); left out of the machine",
                             at: file.location(of: element))
            }
        }
        // Names used on each side
        var stateNames: [String] = []
        var inputNames: [String] = []
        for (row, _) in rows {
            if let r = SyntaxHelpers.caseReference(row.input, context.index) { inputNames.append(r.name) }
            if !isAny(row.from), let r = SyntaxHelpers.caseReference(row.from, context.index) { stateNames.append(r.name) }
            if let r = SyntaxHelpers.caseReference(row.to, context.index) { stateNames.append(r.name) }
            if !isAny(row.from) { stateNames += predicateCaseNames(row.from, context: context) }
        }
        let bindingName = SyntaxHelpers.enclosingBindingName(anchor)
        var typeText: String?
        if let name = SyntaxHelpers.enclosingBindingName(table), let binding = context.index.binding(named: name, at: table) { typeText = binding.typeText }
        // a local `let rows: [Mapping] = [ … ]`
        if typeText == nil { typeText = DSLSupport.annotatedType(of: table) }
        let written = context.resolve(typeText, at: table)
        let hints = written?.enums ?? []
        let stateEnum = context.enumDeclaring(Set(stateNames), among: hints, role: "state", at: parts[0].file.location(of: table))
        let inputEnum = context.enumDeclaring(Set(inputNames), among: hints, excluding: stateEnum, role: "input", at: parts[0].file.location(of: table))
        let states = context.caseList(stateEnum, used: stateNames)
        let inputs = context.caseList(inputEnum, used: inputNames)
        let domain = Domain(states: states, inputs: inputs)
        let reader = context.effectReader(inputs: inputs, inputType: inputEnum, at: table, mappingType: written)

        var rules: [Rule] = []
        for (row, file) in rows {
            let location = file.location(of: row.node)
            var catchAll = false
            let rowInputs: [String]
            if isAny(row.input) {
                rowInputs = inputs
                catchAll = true
            } else if let r = SyntaxHelpers.caseReference(row.input, context.index) {
                rowInputs = [r.name]
            } else {
                context.warn("cannot read the input of this row: \(row.input.compactText); row left out", at: location)
                continue
            }
            var guardText: String?
            let fromStates: [String]
            if let set = fromSet(row.from, domain: domain, context: context, file: file, guardText: &guardText) {
                fromStates = set
            } else {
                context.warn("cannot tell which states `\(row.from.compactText)` accepts; the row is assumed to apply in every state",
                             at: file.location(of: row.from))
                fromStates = states
                guardText = row.from.compactText
            }
            let target: Target
            if let r = SyntaxHelpers.caseReference(row.to, context.index, accepting: { domain.stateIndex[$0] != nil }) {
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
        // (or of the variable the rows are folded into first: `let mapping = reduce(mappings)`, then
        // `Automaton(state: .idle, input: signal, mapping: mapping)`)
        let built = context.construction(referencing: bindingName, around: anchor)
            ?? bindingName.flatMap { Self.folded($0, in: file) }.flatMap { context.construction(referencing: $0.name, around: Syntax($0.value)) }
        // `Automaton(…, strategy: .latest)`: every new effect cancels the one in flight
        if let strategy = built.flatMap({ SyntaxHelpers.argument($0.call, "strategy") }), SyntaxHelpers.caseReference(strategy, context.index, accepting: { $0 == "latest" }) != nil {
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
        // `.reduce(.all, rows)`: every matching row applies (the API's `.all` case among the arguments; a
        // table named `all`, `ValveRules.all`, is none)
        let order: RuleOrder = (built?.call.arguments.contains { a in
            DSLSupport.calls(in: a.expression).contains { call in
                call.arguments.contains { SyntaxHelpers.unwrap($0.expression).as(MemberAccessExprSyntax.self).map { $0.base == nil && $0.declName.baseName.text == "all" } == true }
            }
        } ?? false) ? .allMatch : .firstMatch
        let name = built?.binding ?? bindingName ?? "table@\(file.location(of: anchor).line)"
        let machine = Machine(
            name: name, dialect: .operatorTable, location: file.location(of: anchor), states: states, inputs: inputs,
            initial: context.initialState(built?.initial, states: states), rules: rules, order: order,
            stateLocations: context.locations(stateEnum), inputLocations: context.locations(inputEnum))
        context.add(machine, stateEnum: stateEnum, at: built?.call ?? anchor)
    }

    /// The variable a table named `name` is folded into in `file` (`let mapping = reduce(mappings)`,
    /// `reduce(Self.mappings)`): its name and value.
    static func folded(_ name: String, in file: ParsedFile) -> (name: String, value: ExprSyntax)? {
        final class Finder: SyntaxVisitor {
            let name: String
            var found: (name: String, value: ExprSyntax)?
            init(_ name: String) {
                self.name = name
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
                guard found == nil, let id = node.pattern.as(IdentifierPatternSyntax.self), let value = node.initializer?.value,
                      let call = SyntaxHelpers.unwrap(value).as(FunctionCallExprSyntax.self),
                      DSLSupport.calleeName(call) == "reduce",
                      call.arguments.contains(where: { SyntaxHelpers.lastName($0.expression) == name }) else { return .visitChildren }
                found = (id.identifier.text, value)
                return .skipChildren
            }
        }
        let finder = Finder(name)
        finder.walk(file.tree)
        return finder.found
    }

    func isAny(_ expr: ExprSyntax) -> Bool {
        let t = expr.trimmedText
        return t == "any" || t == ".any" || t == "_"
    }

    /// Case names mentioned by a from-side predicate (for type inference).
    func predicateCaseNames(_ expr: ExprSyntax, context: ExtractionContext) -> [String] {
        var source: Syntax = Syntax(expr)
        if let ref = expr.as(DeclReferenceExprSyntax.self), let b = context.index.binding(named: ref.baseName.text, at: ref), let i = b.initializer {
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
            if node.base == nil { names.append(node.declName.baseName.text.withoutBackticks) }
            return .visitChildren
        }
    }

    /// The states a from-side accepts: a case, `any`, or a predicate (PredicateEvaluator). A predicate it
    /// can only partly read gives every state it may accept, with its text as the guard.
    func fromSet(_ expr: ExprSyntax, domain: Domain, context: ExtractionContext, file: ParsedFile, guardText: inout String?) -> [String]? {
        if isAny(expr) { return domain.states }
        if let r = SyntaxHelpers.caseReference(expr, context.index, accepting: { domain.stateIndex[$0] != nil }) { return [r.name] }
        let evaluator = context.predicateEvaluator(values: domain.states, subjects: [], file: file)
        guard let verdict = evaluator.predicate(expr) else { return nil }
        if !verdict.maybe.isEmpty {
            guardText = expr.compactText
            context.warn("the predicate `\(expr.compactText.prefix(60))` is only partly read (`\(evaluator.unknownTexts.uniqued().joined(separator: "`, `").prefix(80))`); "
                         + "the row is taken to apply in every state it may accept, guarded by it", at: file.location(of: expr), severity: .note)
        }
        return domain.states.filter(verdict.possible.contains)
    }
}
