import SwiftSyntax

/// A predicate over two values of an enum read by trying every pair (`AllowedMoves`): the body is
/// evaluated with its two subjects bound to each pair of cases, following `switch`, `if`, `guard` and
/// `return` as Swift runs them, and each `return` (or the body's one expression) decided from what it
/// says of the two values: `==`, `!=`, `&&`, `||`, `!`, a ternary, `[.a, .b].contains(next)`, a list of
/// next cases of the enum (`allowedNext.contains(next)`), a static table (`Self.next[self]?.contains(n)
/// ?? false`). Anything else (a stored flag, arithmetic) leaves the whole predicate unread: nil.
struct PairPredicate {
    let moves: AllowedMoves
    /// The subjects' names: the source (`self`, or a static function's first parameter) and the target.
    let from: String
    let to: String

    enum Value: Equatable {
        case bool(Bool)
        case name(String)
        case list(Set<String>)
        /// An optional that is `nil` (a table's missing key).
        case none
    }

    /// The pairs the predicate allows, each with the `return` that allows it; nil when a pair is not decided.
    func allowed(_ body: CodeBlockItemListSyntax) -> [(move: AllowedMoves.Move, node: Syntax)]? {
        let states = moves.stateEnum.caseNames
        var result: [(move: AllowedMoves.Move, node: Syntax)] = []
        for f in states {
            for t in states {
                var env = [from: f, to: t]
                guard case .returned(let answer, let node)? = value(of: body, &env), case .bool(let allows) = answer else { return nil }
                if allows { result.append((AllowedMoves.Move(from: f, to: t), node)) }
            }
        }
        return result
    }

    enum Outcome {
        case returned(Value, Syntax)
        case fellThrough
    }

    /// Runs statements: what the first `return` reached gives, or `fellThrough`; nil where unreadable.
    func run(_ items: CodeBlockItemListSyntax, _ env: inout [String: String]) -> Outcome? {
        for item in items {
            let outcome: Outcome?
            if let ret = item.item.as(ReturnStmtSyntax.self) {
                guard let e = ret.expression else { return nil }
                if let choice = choice(e) { outcome = run(choiceOf: choice, &env) }
                else { outcome = eval(e, env).map { .returned($0, Syntax(ret)) } }
            } else if let e = item.item.as(ExprSyntax.self) ?? item.item.as(ExpressionStmtSyntax.self)?.expression, let choice = choice(e) {
                outcome = run(choiceOf: choice, &env)
            } else if let g = item.item.as(GuardStmtSyntax.self) {
                guard let holds = conditions(g.conditions, &env) else { return nil }
                outcome = holds ? .fellThrough : run(g.body.statements, &env)
            } else if let v = item.item.as(VariableDeclSyntax.self), v.bindings.count == 1,
                      let name = v.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                      let initial = v.bindings.first?.initializer?.value, case .name(let n)? = eval(initial, env) {
                env[name] = n
                outcome = .fellThrough
            } else {
                return nil
            }
            guard let outcome else { return nil }
            if case .returned = outcome { return outcome }
        }
        return .fellThrough
    }

    /// A `switch` or `if` used as a statement or a returned value.
    func choice(_ raw: ExprSyntax) -> ExprSyntax? {
        let e = SyntaxHelpers.unwrap(raw)
        return e.is(SwitchExprSyntax.self) || e.is(IfExprSyntax.self) ? e : nil
    }

    func run(choiceOf e: ExprSyntax, _ env: inout [String: String]) -> Outcome? {
        if let sw = e.as(SwitchExprSyntax.self) {
            let subject = SyntaxHelpers.unwrap(sw.subject)
            let values: [String]
            if let tuple = subject.as(TupleExprSyntax.self) {
                var vs: [String] = []
                for element in tuple.elements {
                    guard case .name(let n)? = eval(element.expression, env) else { return nil }
                    vs.append(n)
                }
                values = vs
            } else {
                guard case .name(let n)? = eval(subject, env) else { return nil }
                values = [n]
            }
            for sc in SyntaxHelpers.cases(of: sw) {
                var matched = false
                switch sc.label {
                case .default: matched = true
                case .case(let label):
                    for item in label.caseItems {
                        var bound = env
                        guard let m = match(item.pattern, values, &bound) else { return nil }
                        guard m else { continue }
                        if let w = item.whereClause {
                            guard case .bool(let holds)? = eval(w.condition, bound) else { return nil }
                            guard holds else { continue }
                        }
                        env = bound
                        matched = true
                        break
                    }
                }
                if matched { return value(of: sc.statements, &env) }
            }
            return nil
        }
        guard let choice = e.as(IfExprSyntax.self), let holds = conditions(choice.conditions, &env) else { return nil }
        if holds { return value(of: choice.body.statements, &env) }
        switch choice.elseBody {
        case .codeBlock(let block)?: return value(of: block.statements, &env)
        case .ifExpr(let next)?: return run(choiceOf: ExprSyntax(next), &env)
        case nil: return .fellThrough
        }
    }

    /// A body or a branch: its statements, or its one value (`case (.a, .b): true`, a predicate's one expression).
    func value(of items: CodeBlockItemListSyntax, _ env: inout [String: String]) -> Outcome? {
        if items.count == 1, let only = items.first, let e = only.item.as(ExprSyntax.self) ?? only.item.as(ExpressionStmtSyntax.self)?.expression {
            if let choice = choice(e) { return run(choiceOf: choice, &env) }
            return eval(e, env).map { .returned($0, Syntax(e)) }
        }
        return run(items, &env)
    }

    /// Whether a pattern matches the subject's values; nil when it cannot tell.
    func match(_ pattern: PatternSyntax, _ values: [String], _ env: inout [String: String]) -> Bool? {
        if let binding = pattern.as(ValueBindingPatternSyntax.self) { return match(binding.pattern, values, &env) }
        if pattern.is(WildcardPatternSyntax.self) { return true }
        if let id = pattern.as(IdentifierPatternSyntax.self), values.count == 1 {
            env[id.identifier.text] = values[0]
            return true
        }
        if let tuple = pattern.as(TuplePatternSyntax.self), tuple.elements.count == values.count {
            for (element, value) in zip(tuple.elements, values) {
                guard let m = match(element.pattern, [value], &env) else { return nil }
                if !m { return false }
            }
            return true
        }
        guard let e = pattern.as(ExpressionPatternSyntax.self)?.expression else { return nil }
        return match(e, values, &env)
    }

    func match(_ raw: ExprSyntax, _ values: [String], _ env: inout [String: String]) -> Bool? {
        let e = SyntaxHelpers.unwrap(raw)
        if let tuple = e.as(TupleExprSyntax.self), tuple.elements.count == values.count, values.count > 1 {
            for (element, value) in zip(tuple.elements, values) {
                guard let m = match(element.expression, [value], &env) else { return nil }
                if !m { return false }
            }
            return true
        }
        guard values.count == 1 else { return nil }
        if e.is(DiscardAssignmentExprSyntax.self) { return true }
        if let p = e.as(PatternExprSyntax.self) { return match(p.pattern, values, &env) }
        // (`.loading(_)`: the case, whatever it carries)
        let named = e.as(FunctionCallExprSyntax.self)?.calledExpression ?? e
        guard let name = moves.state(named) else { return nil }
        return name == values[0]
    }

    /// Whether conditions all hold; nil when one cannot be told.
    func conditions(_ list: ConditionElementListSyntax, _ env: inout [String: String]) -> Bool? {
        for element in list {
            switch element.condition {
            case .expression(let e):
                guard case .bool(let holds)? = eval(e, env) else { return nil }
                if !holds { return false }
            case .matchingPattern(let m):
                guard case .name(let n)? = eval(m.initializer.value, env), let holds = match(m.pattern, [n], &env) else { return nil }
                if !holds { return false }
            default:
                return nil
            }
        }
        return true
    }

    func eval(_ raw: ExprSyntax, _ env: [String: String]) -> Value? {
        let e = SyntaxHelpers.unwrapFolded(raw)
        if let b = e.as(BooleanLiteralExprSyntax.self) { return .bool(b.literal.tokenKind == .keyword(.true)) }
        if e.is(NilLiteralExprSyntax.self) { return Value.none }
        if let ref = e.as(DeclReferenceExprSyntax.self), let n = env[ref.baseName.text] { return .name(n) }
        if let prefix = e.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            guard case .bool(let b)? = eval(prefix.expression, env) else { return nil }
            return .bool(!b)
        }
        if let ternary = e.as(TernaryExprSyntax.self) {
            guard case .bool(let b)? = eval(ternary.condition, env) else { return nil }
            return eval(b ? ternary.thenExpression : ternary.elseExpression, env)
        }
        if let infix = e.as(InfixOperatorExprSyntax.self) {
            let op = infix.operator.trimmedText
            guard let l = eval(infix.leftOperand, env) else { return nil }
            switch op {
            case "&&", "||":
                guard case .bool(let a) = l else { return nil }
                if op == "&&" && !a || op == "||" && a { return .bool(a) }
                guard case .bool(let b)? = eval(infix.rightOperand, env) else { return nil }
                return .bool(b)
            case "??":
                return l == Value.none ? eval(infix.rightOperand, env) : l
            case "==", "!=":
                guard let r = eval(infix.rightOperand, env) else { return nil }
                return .bool((l == r) == (op == "=="))
            default:
                return nil
            }
        }
        if let array = e.as(ArrayExprSyntax.self) {
            var names = Set<String>()
            for element in array.elements {
                guard case .name(let n)? = eval(element.expression, env) else { return nil }
                names.insert(n)
            }
            return .list(names)
        }
        if let call = e.as(FunctionCallExprSyntax.self) {
            // `Set([.a, .b])`
            if call.calledExpression.trimmedText.hasPrefix("Set"), call.arguments.count == 1, let only = call.arguments.first?.expression {
                return eval(only, env)
            }
            guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "contains",
                  call.arguments.count == 1, call.arguments.first?.label == nil, let base = member.base,
                  case .name(let n)? = eval(call.arguments.first!.expression, env) else { return nil }
            // (`table[self]?.contains(next)`: nil when the key is missing)
            let optional = base.as(OptionalChainingExprSyntax.self)
            switch eval(optional?.expression ?? base, env) {
            case .list(let names)?: return .bool(names.contains(n))
            case .none? where optional != nil: return Value.none
            default: return nil
            }
        }
        if let subscriptCall = e.as(SubscriptCallExprSyntax.self), subscriptCall.arguments.count == 1,
           case .name(let key)? = eval(subscriptCall.arguments.first!.expression, env),
           let table = table(SyntaxHelpers.unwrap(subscriptCall.calledExpression)) {
            return table[key].map { .list($0) } ?? Value.none
        }
        // `allowedNext` / `self.allowedNext` / `next.isTerminal`: the enum's list of next cases, or its
        // computed `Bool` (`var isTerminal: Bool { self == .done }`), of one of the two values
        var named: (value: String, member: String)?
        if let member = e.as(MemberAccessExprSyntax.self), let base = member.base, case .name(let n)? = eval(base, env) {
            named = (n, member.declName.baseName.text)
        } else if let ref = e.as(DeclReferenceExprSyntax.self), from == "self", let n = env["self"] {
            named = (n, ref.baseName.text)
        }
        if let named {
            if let listed = list(named: named.member) { return .list(listed[named.value] ?? []) }
            if let verdict = moves.context.predicates(of: moves.stateEnum)[named.member] {
                return verdict.yes.contains(named.value) ? .bool(true) : verdict.maybe.contains(named.value) ? nil : .bool(false)
            }
        }
        if let name = moves.state(e) { return .name(name) }
        return nil
    }

    /// A computed property of the enum listing each case's next cases, by source.
    func list(named name: String) -> [String: Set<String>]? {
        guard let property = moves.type.properties.first(where: { $0.name == name && $0.isComputed && !$0.isStatic }),
              let text = property.typeText, moves.isCollectionOfSelf(text), let body = ExtractionContext.getter(of: property),
              let listed = moves.listed(body) else { return nil }
        return Dictionary(grouping: listed.map(\.move), by: \.from).mapValues { Set($0.map(\.to)) }
    }

    /// A static dictionary of the enum (or the type) from a case to its next cases (`static let next:
    /// [Phase: Set<Phase>] = [.idle: [.busy], …]`), by key.
    func table(_ base: ExprSyntax) -> [String: Set<String>]? {
        let name: String
        if let member = base.as(MemberAccessExprSyntax.self), let owner = member.base, moves.selfNames.contains(owner.trimmedText) {
            name = member.declName.baseName.text
        } else if let ref = base.as(DeclReferenceExprSyntax.self) {
            name = ref.baseName.text
        } else {
            return nil
        }
        guard let property = moves.type.properties.first(where: { $0.name == name && $0.isStatic && !$0.isComputed }),
              let dict = property.initializer.map(SyntaxHelpers.unwrap)?.as(DictionaryExprSyntax.self),
              case .elements(let elements) = dict.content else { return nil }
        var result: [String: Set<String>] = [:]
        for element in elements {
            guard let key = moves.state(element.key), case .list(let targets)? = eval(element.value, [:]) else { return nil }
            result[key, default: []].formUnion(targets)
        }
        return result
    }
}
