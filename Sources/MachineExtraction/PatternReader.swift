import MachineModel
import SwiftSyntax

/// Reads `case` patterns and case-path values into `InputPattern` trees.
enum PatternReader {
    /// A pattern tree and, for each name it binds (`let action`), the argument positions that lead to it.
    struct Read {
        var tree: InputPattern
        var bindings: [String: [Int]] = [:]
    }

    /// `binding`: inside `let`/`var` (`case let .done(value)`), where a bare name binds the value.
    static func read(_ pattern: PatternSyntax, _ index: SymbolIndex, binding: Bool = false) -> Read {
        if pattern.is(WildcardPatternSyntax.self) { return Read(tree: .any) }
        if let id = pattern.as(IdentifierPatternSyntax.self) { return Read(tree: .any, bindings: [id.identifier.text: []]) }
        if let b = pattern.as(ValueBindingPatternSyntax.self) { return read(b.pattern, index, binding: true) }
        if let e = pattern.as(ExpressionPatternSyntax.self) { return read(expr: e.expression, index, binding: binding) }
        if let t = pattern.as(TuplePatternSyntax.self), t.elements.count == 1 { return read(t.elements.first!.pattern, index, binding: binding) }
        return Read(tree: .literal(pattern.compactText))
    }

    static func read(expr: ExprSyntax, _ index: SymbolIndex, binding: Bool = false) -> Read {
        if expr.is(DiscardAssignmentExprSyntax.self) { return Read(tree: .any) }
        // a bare name: under `let`/`var` it binds the value (`case let .done(value)`); elsewhere it is
        // a value the input is compared with (`case .done(expected)`), which depends on data
        if let ref = expr.as(DeclReferenceExprSyntax.self) {
            return Read(tree: .any, bindings: binding ? [ref.baseName.text: []] : [:])
        }
        if let p = expr.as(PatternExprSyntax.self) { return read(p.pattern, index, binding: binding) }
        if let t = expr.as(TupleExprSyntax.self), t.elements.count == 1, t.elements.first!.label == nil {
            return read(expr: t.elements.first!.expression, index, binding: binding)
        }
        if let o = expr.as(OptionalChainingExprSyntax.self) {
            // `let x?`: `.some(x)`
            let inner = read(expr: o.expression, index, binding: binding)
            return Read(tree: .member("some", [.init(inner.tree)]), bindings: inner.bindings.mapValues { [0] + $0 })
        }
        if let call = expr.as(FunctionCallExprSyntax.self), let ref = SyntaxHelpers.caseReference(call.calledExpression, index) {
            var arguments: [InputPattern.Argument] = []
            var bindings: [String: [Int]] = [:]
            for (i, argument) in call.arguments.enumerated() {
                let inner = read(expr: argument.expression, index, binding: binding)
                arguments.append(.init(label: argument.label?.text, inner.tree))
                for (name, path) in inner.bindings { bindings[name] = [i] + path }
            }
            return Read(tree: .member(ref.name, arguments), bindings: bindings)
        }
        if let ref = SyntaxHelpers.caseReference(expr, index) { return Read(tree: .member(ref.name)) }
        return Read(tree: .literal(expr.compactText))
    }

    /// `tree` with the argument at `path` replaced by `part`: `.response(let r)` with `.success` for `r`
    /// is `.response(.success)`.
    static func substitute(_ part: InputPattern, into tree: InputPattern, at path: [Int]) -> InputPattern {
        guard let i = path.first else { return part }
        guard case .member(let name, var arguments) = tree, i < arguments.count else { return tree }
        arguments[i].value = substitute(part, into: arguments[i].value, at: Array(path.dropFirst()))
        return .member(name, arguments)
    }

    /// What a value written in code is, as the state of an optional field: a named value (`nil`, a case
    /// or static member with the literal arguments and nested names kept, run-time arguments dropped:
    /// `.alert(.confirmDelete)`, `.editor(Editor.State())` → `editor`), a fresh value with no name
    /// (`AlertState { … }`, `Editor.State()`, `.init(…)`), or a run-time value (a variable, a call).
    enum Value: Equatable {
        case named(InputPattern)
        case unnamed
        case runtime
    }

    /// Whether a value is a case or static member, an initializer call or a run-time value is decided
    /// by what its names mean where it is written (`index`, at `anchor` for rebuilt nodes): `Lamp(…)`,
    /// `Outer.Inner(…)` and `.init(…)` build a value; `.x`, `T.x`, `T.x(…)` name one, unless `T.x` is
    /// itself a type. A name the inputs neither declare nor write as a type is decided by its spelling,
    /// with a note.
    static func value(_ raw: ExprSyntax, _ index: SymbolIndex, at anchor: Syntax? = nil) -> Value {
        let expr = SyntaxHelpers.unwrap(raw)
        if expr.is(NilLiteralExprSyntax.self) { return .named(.literal("nil")) }
        if let literal = literalText(expr) { return .named(.literal(literal)) }
        if expr.is(MacroExpansionExprSyntax.self) { return .unnamed }
        let callee = expr.as(FunctionCallExprSyntax.self)?.calledExpression
        // `AlertState { … }`, `Editor.State(…)`, `Self(…)`, `.init(…)`: an initializer
        if let callee {
            switch index.meaning(ofCallee: callee, at: anchor) {
            case .initializer: return .unnamed
            case .function: break
            case .unknown:
                let at = index.anchor(callee, else: anchor)
                let text = SyntaxHelpers.unwrap(callee).trimmedText
                let isType = SymbolIndex.spelledAsType(text)
                if let at {
                    index.undecided("`\(text)` is declared neither in the inputs nor as a type they write; the call is read as \(isType ? "an initializer (a value with no name)" : "a function (a run-time value)") by its spelling", at: at)
                }
                if isType { return .unnamed }
            }
        }
        guard let ref = SyntaxHelpers.caseReference(callee ?? expr, index, at: anchor) else { return .runtime }
        // `T.x` that is a type (`Editor.State` without a call) is no value of the field
        if ref.name == "init" || callee == nil && ref.type != nil && index.meaning(ofBase: expr, at: anchor) == .type { return .unnamed }
        if ref.name == "none", ref.type.map({ $0 == "Optional" || $0.hasPrefix("Optional<") }) ?? true { return .named(.literal("nil")) }
        guard let call = expr.as(FunctionCallExprSyntax.self) else { return .named(.member(ref.name)) }
        if ref.name == "some", call.arguments.count == 1 { return value(call.arguments.first!.expression, index, at: anchor) }
        let arguments = call.arguments.map { argument -> InputPattern.Argument in
            if case .named(let inner) = value(argument.expression, index, at: anchor) { return .init(label: argument.label?.text, inner) }
            return .init(label: argument.label?.text, .any)
        }
        return .named(.member(ref.name, arguments))
    }

    /// A literal an argument keeps: numbers, booleans, strings without interpolation.
    static func literalText(_ expr: ExprSyntax) -> String? {
        if let b = expr.as(BooleanLiteralExprSyntax.self) { return b.literal.text }
        if let i = expr.as(IntegerLiteralExprSyntax.self) { return i.literal.text }
        if let f = expr.as(FloatLiteralExprSyntax.self) { return f.literal.text }
        if let s = expr.as(StringLiteralExprSyntax.self),
           s.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) }) { return s.trimmedText }
        if let p = expr.as(PrefixOperatorExprSyntax.self), p.operator.text == "-", let inner = literalText(p.expression) { return "-" + inner }
        return nil
    }
}
