import MachineModel
import SwiftSyntax

/// For which values of a subject a Boolean expression holds: surely (`yes`) or depending on data (`maybe`).
struct Verdict: Hashable {
    var yes: Set<String> = []
    var maybe: Set<String> = []
    var possible: Set<String> { yes.union(maybe) }

    static func all(_ values: Set<String>) -> Verdict { Verdict(yes: values) }
    static func unknown(_ values: Set<String>) -> Verdict { Verdict(maybe: values) }

    func or(_ o: Verdict) -> Verdict {
        let y = yes.union(o.yes)
        return Verdict(yes: y, maybe: maybe.union(o.maybe).subtracting(y))
    }
    func and(_ o: Verdict) -> Verdict {
        let y = yes.intersection(o.yes)
        return Verdict(yes: y, maybe: possible.intersection(o.possible).subtracting(y))
    }
    func not(_ all: Set<String>) -> Verdict {
        Verdict(yes: all.subtracting(yes).subtracting(maybe), maybe: maybe)
    }
    func restricted(_ s: Set<String>) -> Verdict { Verdict(yes: yes.intersection(s), maybe: maybe.intersection(s)) }
    /// Values reached only under a condition that depends on data (`maybe`) become `maybe` too.
    func demoted(_ uncertain: Set<String>) -> Verdict {
        Verdict(yes: yes.subtracting(uncertain), maybe: maybe.union(yes.intersection(uncertain)))
    }
}

/// The one evaluator from Boolean expressions about a subject (a state variable, a predicate's
/// parameter, `self` in a computed property, GameplayKit's `stateClass`) to the set of the subject's
/// values for which they hold.
///
/// It reads `==`, `!=`, `===`, `!==`, `~=`, `||`, `&&`, `!`, `?:`, `true`/`false`, `is`, array and set
/// literals in any element spelling (`[Lamp.dim, .bright]`, `Set<Lamp>([...])`, a variable holding one)
/// with `contains`, and predicates written as closures (typed parameters too), functions, variables and
/// computed properties whose body is an expression, a `switch`, an `if case`, `guard` or `return`s.
/// What it cannot read is `maybe` for every value it could concern, and its text is kept in
/// `unknownTexts` so the caller can mark the over-approximation (a guard, a diagnostic).
final class PredicateEvaluator {
    let values: [String]
    let all: Set<String>
    /// Paths that denote the subject (`state`, `self.mode` written `mode`, `$0`).
    var subjects: Set<String>
    let file: ParsedFile
    let index: SymbolIndex
    /// A dialect's own literals (`X.self` for GameplayKit classes), tried before enum cases.
    var literal: ((ExprSyntax) -> String?)?
    /// `is T`, `case is T`, `as? T` (T's text): the values of type T, when the dialect knows them.
    var typeTest: ((String) -> Set<String>?)?
    /// A call the dialect answers itself (`super.isValidNextState(c)`).
    var special: ((FunctionCallExprSyntax) -> Verdict?)?
    /// Computed `Bool` properties of the subject's type (`state.isActive`), by name.
    var property: ((String) -> Verdict?)?
    /// `Bool` properties and methods taking nothing of the type the subject is kept in, by name: `isBusy`,
    /// `self.isBusy`, `canSave()` (`var isBusy: Bool { state == .saving }`).
    var ownProperty: ((String) -> Verdict?)?
    /// The value those are read through, when it is not `self` (`state.canSubmit` in a TCA reducer, `state`).
    var ownerPath: String?
    /// Whether a local declaration hides a subject's name where it is written (`if let state = saved, state
    /// == .signedIn` tests the local, not the property): such a name is no subject. Not passed on to the
    /// evaluators of called functions, whose subjects are their parameters.
    var hidden: ((ExprSyntax) -> Bool)?
    /// Source texts of the parts it could not read.
    var unknownTexts: [String] = []
    /// Where each value is first named (for rule locations).
    var mentions: [String: SourceLocation] = [:]
    private var depth = 0
    /// The outermost expression read that is part of an input file: names in rebuilt (operator-folded)
    /// expressions are looked up from there.
    var origin: Syntax?

    init(values: [String], subjects: Set<String>, file: ParsedFile, index: SymbolIndex) {
        self.values = values
        self.all = Set(values)
        self.subjects = subjects
        self.file = file
        self.index = index
    }

    /// The same evaluator for another parameter name (a closure or function the predicate calls).
    private func nested(subject: String) -> PredicateEvaluator {
        let e = PredicateEvaluator(values: values, subjects: [subject], file: file, index: index)
        e.literal = literal
        e.typeTest = typeTest
        e.special = special
        e.property = property
        e.ownProperty = ownProperty
        e.ownerPath = ownerPath
        e.origin = origin
        e.depth = depth + 1
        return e
    }

    func isSubject(_ e: ExprSyntax) -> Bool {
        guard let p = SyntaxHelpers.path(e) else { return false }
        return subjects.contains(p) && hidden?(e) != true
    }

    func unknown(_ e: some SyntaxProtocol) -> Verdict {
        unknownTexts.append(e.compactText)
        return .unknown(all)
    }

    private func note(_ names: Set<String>, _ node: some SyntaxProtocol) {
        for n in names where mentions[n] == nil { mentions[n] = index.location(of: node, orIn: file) }
    }

    // MARK: Values and collections

    /// The value a literal names: `.a`, `T.a`, `.a(…)`, `nil`, `true`, `"a"`, `3`, or a dialect literal.
    func valueName(_ expr: ExprSyntax) -> String? {
        let e = SyntaxHelpers.unwrap(expr)
        if let hook = literal, let v = hook(e) { return v }
        if e.is(NilLiteralExprSyntax.self) { return "nil" }
        if let b = e.as(BooleanLiteralExprSyntax.self) { return b.literal.text }
        return DSLSupport.literalName(e, index)
    }

    /// The values an array or set literal holds (`[.a, T.b]`, `Set([...])`, `Set<T>(arrayLiteral: …)`,
    /// a variable or static property holding one); nil when an element is not a literal.
    func collection(_ expr: ExprSyntax) -> Set<String>? {
        let e = SyntaxHelpers.unwrap(expr)
        if let array = e.as(ArrayExprSyntax.self) {
            var names = Set<String>()
            for element in array.elements {
                guard let n = valueName(element.expression) else { return nil }
                names.insert(n)
            }
            note(names.intersection(all), array)
            return names
        }
        if let call = e.as(FunctionCallExprSyntax.self) {
            var callee = call.calledExpression.trimmedText
            if callee.hasSuffix(".init") { callee.removeLast(5) }
            guard SymbolIndex.bareTypeName(callee) == "Set" || callee == "Set" else { return nil }
            if call.arguments.count == 1, let only = call.arguments.first { return collection(only.expression) }
            if call.arguments.first?.label?.text == "arrayLiteral" {
                var names = Set<String>()
                for a in call.arguments {
                    guard let n = valueName(a.expression) else { return nil }
                    names.insert(n)
                }
                return names
            }
            return nil
        }
        if depth < 8, let value = resolveValue(e) {
            depth += 1
            defer { depth -= 1 }
            return collection(value)
        }
        return nil
    }

    // MARK: Expressions

    /// The values for which a Boolean expression holds.
    func eval(_ raw: ExprSyntax) -> Verdict {
        if origin == nil, index.file(of: raw) != nil { origin = Syntax(raw) }
        let e = SyntaxHelpers.unwrapFolded(raw)
        if let infix = e.as(InfixOperatorExprSyntax.self) {
            let op = infix.operator.trimmedText
            switch op {
            case "||": return eval(infix.leftOperand).or(eval(infix.rightOperand))
            case "&&": return eval(infix.leftOperand).and(eval(infix.rightOperand))
            case "==", "===", "!=", "!==", "~=":
                var other: ExprSyntax?
                if isSubject(infix.rightOperand) { other = infix.leftOperand } else if isSubject(infix.leftOperand) { other = infix.rightOperand }
                if let other, let v = valueName(other) {
                    // (`state == .page(1)`: some `page` values only)
                    let verdict = !all.contains(v) ? Verdict() : SyntaxHelpers.withPayload(other) ? Verdict(maybe: [v]) : Verdict(yes: [v])
                    note(verdict.possible, other)
                    return op.hasPrefix("!") ? verdict.not(all) : verdict
                }
                // `state.uploading != nil`, `state[case: \.uploading] == nil` of a `@CasePathable` enum
                for (side, other) in [(infix.leftOperand, infix.rightOperand), (infix.rightOperand, infix.leftOperand)]
                where SyntaxHelpers.unwrap(other).is(NilLiteralExprSyntax.self) {
                    guard let (base, name) = SyntaxHelpers.casePath(side, test: false), isSubject(base), all.contains(name) else { continue }
                    note([name], side)
                    return op.hasPrefix("!") ? .all([name]) : Verdict.all([name]).not(all)
                }
                return unknown(e)
            default:
                return unknown(e)
            }
        }
        if let prefix = e.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return eval(prefix.expression).not(all)
        }
        if let b = e.as(BooleanLiteralExprSyntax.self) {
            return b.literal.text == "true" ? .all(all) : Verdict()
        }
        if let ternary = e.as(TernaryExprSyntax.self) {
            let c = eval(ternary.condition)
            let yes = eval(ternary.thenExpression), no = eval(ternary.elseExpression)
            return c.and(yes).or(c.not(all).and(no))
        }
        if let isExpr = e.as(IsExprSyntax.self), isSubject(isExpr.expression), let names = typeTest?(isExpr.type.trimmedText) {
            note(names, isExpr)
            return .all(names.intersection(all))
        }
        if let sw = e.as(SwitchExprSyntax.self) { return switchExpr(sw, all).result }
        if let i = e.as(IfExprSyntax.self) { return ifExpr(i, all).result }
        if let call = e.as(FunctionCallExprSyntax.self) {
            if let answer = special?(call) { return answer }
            // `state.is(\.uploading)` of a `@CasePathable` enum
            if let (base, name) = SyntaxHelpers.casePath(ExprSyntax(call), test: true), isSubject(base), all.contains(name) {
                note([name], call)
                return .all([name])
            }
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "contains",
               let base = member.base, let elements = collection(base) {
                let arguments = call.arguments.map(\.expression) + [call.trailingClosure.map(ExprSyntax.init)].compactMap { $0 }
                // `[a, b].contains(state)`
                if arguments.count == 1, isSubject(arguments[0]) { return .all(elements.intersection(all)) }
                // `[A.self, B.self].contains { $0 == c }` / `.contains(where:)` / `.contains(ObjectIdentifier(c))`
                if arguments.contains(where: { mentionsSubject($0) }) { return .all(elements.intersection(all)) }
            }
            // `isDark(state)`, `Self.isDark(state)`: a predicate applied to the subject
            if call.arguments.count == 1, isSubject(call.arguments.first!.expression), call.trailingClosure == nil,
               let verdict = predicate(call.calledExpression) {
                return verdict
            }
            // `state.isDark()`: a method of the subject's type with no arguments
            if call.arguments.isEmpty, let member = call.calledExpression.as(MemberAccessExprSyntax.self),
               let base = member.base, isSubject(base), let verdict = property?(member.declName.baseName.text) {
                return verdict
            }
        }
        // `state.isActive`: a computed property of the subject's type
        if let member = e.as(MemberAccessExprSyntax.self), let base = member.base, isSubject(base),
           let verdict = property?(member.declName.baseName.text) {
            return verdict
        }
        // `isBusy`, `self.isBusy`, `canSave()`: one of the owner's
        if let ownProperty {
            let reference = e.as(FunctionCallExprSyntax.self).flatMap { $0.arguments.isEmpty && $0.trailingClosure == nil ? $0.calledExpression : nil } ?? e
            let bare = ownerPath == nil ? reference.as(DeclReferenceExprSyntax.self)?.baseName.text : nil
            let name = bare ?? reference.as(MemberAccessExprSyntax.self).flatMap { $0.base?.trimmedText == ownerPath ?? "self" ? $0.declName.baseName.text : nil }
            if let name, !subjects.contains(name), let verdict = ownProperty(name) { return verdict }
        }
        return unknown(e)
    }

    func mentionsSubject(_ e: some SyntaxProtocol) -> Bool {
        let finder = NameFinder()
        finder.walk(e)
        return subjects.contains { finder.names.contains(String($0.split(separator: ".").first ?? "")) }
    }

    final class NameFinder: SyntaxVisitor {
        var names = Set<String>()
        init() { super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            names.insert(node.baseName.text)
            return .skipChildren
        }
    }

    // MARK: Predicates as values

    /// The values a function-valued expression (`(State) -> Bool`) accepts: `[.a, .b].contains`,
    /// `Set(…).contains`, a closure, a function, a variable or static property holding one. Nil when
    /// the expression is none of those.
    func predicate(_ raw: ExprSyntax) -> Verdict? {
        guard depth < 8 else { return nil }
        let e = SyntaxHelpers.unwrap(raw)
        if let member = e.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "contains", let base = member.base {
            guard let elements = collection(base) else { return nil }
            return .all(elements.intersection(all))
        }
        if let closure = e.as(ClosureExprSyntax.self) {
            let param = SyntaxHelpers.closureParameterNames(closure).first ?? "$0"
            let inner = nested(subject: param)
            let verdict = inner.block(closure.statements, all).result
            absorb(inner)
            return verdict
        }
        if let (param, body) = resolveFunction(e) {
            let inner = nested(subject: param)
            let verdict = inner.block(body, all).result
            absorb(inner)
            return verdict
        }
        if let value = resolveValue(e) {
            depth += 1
            defer { depth -= 1 }
            return predicate(value)
        }
        return nil
    }

    private func absorb(_ inner: PredicateEvaluator) {
        unknownTexts += inner.unknownTexts
        for (k, v) in inner.mentions where mentions[k] == nil { mentions[k] = v }
    }

    /// The initializer of what a name refers to: a local variable of an enclosing block, else the
    /// variable or property the index resolves it to (`isDark`, `Self.isDark`, `Lamp.isDark`,
    /// `self.isDark`); a value's member (`lamp.isDark`) is not followed.
    func resolveValue(_ e: ExprSyntax) -> ExprSyntax? {
        let at = index.anchor(e, else: origin) ?? Syntax(e)
        if let ref = e.as(DeclReferenceExprSyntax.self) {
            guard !subjects.contains(ref.baseName.text) else { return nil }
            return DSLSupport.value(of: ref.baseName.text, around: at, index: index)
        }
        guard e.is(MemberAccessExprSyntax.self) else { return nil }
        return index.binding(referencedBy: e, at: at, where: { $0.initializer != nil })?.initializer
    }

    /// The one-parameter function a name refers to, resolved where it is written, with its parameter's
    /// name and its body. Overloads with one parameter each: not read.
    func resolveFunction(_ e: ExprSyntax) -> (String, CodeBlockItemListSyntax)? {
        if let ref = e.as(DeclReferenceExprSyntax.self), subjects.contains(ref.baseName.text) { return nil }
        let candidates = index.functions(referencedBy: e, at: index.anchor(e, else: origin)).filter { $0.signature.parameterClause.parameters.count == 1 }
        guard candidates.count == 1, let function = candidates.first, let body = function.body,
              let p = function.signature.parameterClause.parameters.first else { return nil }
        return ((p.secondName ?? p.firstName).text, body.statements)
    }

    // MARK: Bodies returning Bool

    /// What a body returns `true` for, over the values still undecided when it starts (`rest`: values
    /// for which it falls through without returning).
    func block(_ items: CodeBlockItemListSyntax, _ start: Set<String>) -> (result: Verdict, rest: Set<String>) {
        depth += 1
        defer { depth -= 1 }
        var current = start
        var result = Verdict()
        guard depth < 32 else { return (unknown(items), []) }
        for (i, item) in items.enumerated() {
            if current.isEmpty { break }
            switch item.item {
            case .stmt(let stmt):
                if let r = stmt.as(ReturnStmtSyntax.self) {
                    if let value = r.expression { result = result.or(eval(value).restricted(current)) }
                    current = []
                } else if let g = stmt.as(GuardStmtSyntax.self) {
                    let c = conditions(g.conditions)
                    let elseSet = current.subtracting(c.yes)
                    let (r, _) = block(g.body.statements, elseSet)
                    result = result.or(r.demoted(c.maybe))
                    current = current.intersection(c.possible)
                } else if let e = stmt.as(ExpressionStmtSyntax.self) {
                    (result, current) = expression(e.expression, current, result, last: i == items.count - 1 && items.count == 1)
                }
            case .expr(let e):
                (result, current) = expression(e, current, result, last: i == items.count - 1 && items.count == 1)
            case .decl:
                continue
            }
        }
        return (result, current)
    }

    private func expression(_ raw: ExprSyntax, _ current: Set<String>, _ result: Verdict, last: Bool) -> (Verdict, Set<String>) {
        let e = SyntaxHelpers.unwrap(raw)
        if let i = e.as(IfExprSyntax.self) {
            let (r, rest) = ifExpr(i, current)
            return (result.or(r), last ? [] : rest)
        }
        if let sw = e.as(SwitchExprSyntax.self) {
            let (r, rest) = switchExpr(sw, current)
            return (result.or(r), last ? [] : rest)
        }
        // a single-expression body: an implicit return
        if last { return (result.or(eval(e).restricted(current)), []) }
        return (result, current)
    }

    /// The conditions of an `if`/`guard`: expressions, `case` patterns over the subject, `let x = s as? T`.
    func conditions(_ list: ConditionElementListSyntax) -> Verdict {
        var v = Verdict.all(all)
        for element in list {
            switch element.condition {
            case .expression(let e):
                v = v.and(eval(e))
            case .matchingPattern(let m) where isSubject(m.initializer.value):
                v = v.and(patternVerdict(m.pattern) ?? unknown(element))
            case .optionalBinding(let b):
                if let value = b.initializer?.value, let asExpr = SyntaxHelpers.unwrap(SyntaxHelpers.fold(value)).as(AsExprSyntax.self),
                   isSubject(asExpr.expression), let names = typeTest?(asExpr.type.trimmedText) {
                    v = v.and(.all(names.intersection(all)))
                } else {
                    v = v.and(unknown(element))
                }
            default:
                v = v.and(unknown(element))
            }
        }
        return v
    }

    /// The values a `case` pattern over the subject matches; nil when it cannot tell.
    func patternVerdict(_ pattern: PatternSyntax) -> Verdict? {
        if let isPattern = pattern.as(IsTypePatternSyntax.self) {
            guard let names = typeTest?(isPattern.type.trimmedText) else { return nil }
            note(names, isPattern)
            return .all(names.intersection(all))
        }
        if let e = pattern.as(ExpressionPatternSyntax.self), let hook = literal, let v = hook(e.expression) {
            note([v], e)
            return .all(all.intersection([v]))
        }
        // `case let s as T`
        if let b = pattern.as(ValueBindingPatternSyntax.self), b.compactText.contains(" as "), let hook = typeTest,
           let names = hook(b.compactText.components(separatedBy: " as ").last ?? "") {
            note(names, b)
            return .all(names.intersection(all))
        }
        switch PatternAtom(pattern, index) {
        case .any: return .all(all)
        case .cases(let names, let refutable, _):
            let known = names.intersection(all)
            note(known, pattern)
            return refutable ? Verdict(maybe: known) : .all(known)
        default: return nil
        }
    }

    func ifExpr(_ node: IfExprSyntax, _ current: Set<String>) -> (result: Verdict, rest: Set<String>) {
        let c = conditions(node.conditions)
        let thenSet = current.intersection(c.possible)
        let (r1, f1) = block(node.body.statements, thenSet)
        let elseSet = current.subtracting(c.yes)
        var r2 = Verdict()
        var f2 = elseSet
        switch node.elseBody {
        case .ifExpr(let e): (r2, f2) = ifExpr(e, elseSet)
        case .codeBlock(let b): (r2, f2) = block(b.statements, elseSet)
        case nil: break
        }
        return (r1.demoted(c.maybe).or(r2.demoted(c.maybe)), f1.union(f2))
    }

    func switchExpr(_ sw: SwitchExprSyntax, _ current: Set<String>) -> (result: Verdict, rest: Set<String>) {
        guard isSubject(sw.subject) else { return (unknown(sw.subject).restricted(current), []) }
        var remaining = current
        var result = Verdict()
        var rest = Set<String>()
        for sc in SyntaxHelpers.cases(of: sw) {
            var matched = Set<String>()
            var uncertain = Set<String>()
            switch sc.label {
            case .default:
                matched = remaining
            case .case(let label):
                for item in label.caseItems {
                    guard var v = patternVerdict(item.pattern) else {
                        _ = unknown(item)
                        matched.formUnion(remaining)
                        uncertain.formUnion(remaining)
                        continue
                    }
                    if item.whereClause != nil { v = Verdict(maybe: v.possible) }
                    matched.formUnion(v.possible)
                    uncertain.formUnion(v.maybe)
                }
            }
            matched.formIntersection(remaining)
            remaining.subtract(matched.subtracting(uncertain))
            let (r, f) = block(sc.statements, matched)
            result = result.or(r.demoted(uncertain))
            rest.formUnion(f)
        }
        return (result, rest.union(remaining))
    }
}
