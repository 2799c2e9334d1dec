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
    static func read(_ pattern: PatternSyntax, binding: Bool = false) -> Read {
        if pattern.is(WildcardPatternSyntax.self) { return Read(tree: .any) }
        if let id = pattern.as(IdentifierPatternSyntax.self) { return Read(tree: .any, bindings: [id.identifier.text: []]) }
        if let b = pattern.as(ValueBindingPatternSyntax.self) { return read(b.pattern, binding: true) }
        if let e = pattern.as(ExpressionPatternSyntax.self) { return read(expr: e.expression, binding: binding) }
        if let t = pattern.as(TuplePatternSyntax.self), t.elements.count == 1 { return read(t.elements.first!.pattern, binding: binding) }
        return Read(tree: .literal(pattern.compactText))
    }

    static func read(expr: ExprSyntax, binding: Bool = false) -> Read {
        if expr.is(DiscardAssignmentExprSyntax.self) { return Read(tree: .any) }
        // a bare name: under `let`/`var` it binds the value (`case let .done(value)`); elsewhere it is
        // a value the input is compared with (`case .done(expected)`), which depends on data
        if let ref = expr.as(DeclReferenceExprSyntax.self) {
            return Read(tree: .any, bindings: binding ? [ref.baseName.text: []] : [:])
        }
        if let p = expr.as(PatternExprSyntax.self) { return read(p.pattern, binding: binding) }
        if let t = expr.as(TupleExprSyntax.self), t.elements.count == 1, t.elements.first!.label == nil {
            return read(expr: t.elements.first!.expression, binding: binding)
        }
        if let o = expr.as(OptionalChainingExprSyntax.self) {
            // `let x?`: `.some(x)`
            let inner = read(expr: o.expression, binding: binding)
            return Read(tree: .member("some", [.init(inner.tree)]), bindings: inner.bindings.mapValues { [0] + $0 })
        }
        if let call = expr.as(FunctionCallExprSyntax.self), let ref = SyntaxHelpers.caseReference(call.calledExpression) {
            var arguments: [InputPattern.Argument] = []
            var bindings: [String: [Int]] = [:]
            for (i, argument) in call.arguments.enumerated() {
                let inner = read(expr: argument.expression, binding: binding)
                arguments.append(.init(label: argument.label?.text, inner.tree))
                for (name, path) in inner.bindings { bindings[name] = [i] + path }
            }
            return Read(tree: .member(ref.name, arguments), bindings: bindings)
        }
        if let ref = SyntaxHelpers.caseReference(expr) { return Read(tree: .member(ref.name)) }
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

    static func value(_ raw: ExprSyntax) -> Value {
        let expr = SyntaxHelpers.unwrap(raw)
        if expr.is(NilLiteralExprSyntax.self) { return .named(.literal("nil")) }
        if let literal = literalText(expr) { return .named(.literal(literal)) }
        let callee = expr.as(FunctionCallExprSyntax.self)?.calledExpression
        guard let ref = SyntaxHelpers.caseReference(callee ?? expr) else {
            // `AlertState { … }`, `Editor.State(…)`, `Self(…)`: an initializer
            if let callee, let first = SyntaxHelpers.unwrap(callee).trimmedDescription.split(separator: ".").last?.first,
               first.isUppercase {
                return .unnamed
            }
            if expr.is(MacroExpansionExprSyntax.self) { return .unnamed }
            return .runtime
        }
        guard let first = ref.name.first, first.isLowercase || first == "_", ref.name != "init" else { return .unnamed }
        if ref.name == "none", ref.type == nil || callee == nil { return .named(.literal("nil")) }
        guard let call = expr.as(FunctionCallExprSyntax.self) else { return .named(.member(ref.name)) }
        if ref.name == "some", call.arguments.count == 1 { return value(call.arguments.first!.expression) }
        let arguments = call.arguments.map { argument -> InputPattern.Argument in
            if case .named(let inner) = value(argument.expression) { return .init(label: argument.label?.text, inner) }
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
           s.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) }) { return s.trimmedDescription }
        if let p = expr.as(PrefixOperatorExprSyntax.self), p.operator.text == "-", let inner = literalText(p.expression) { return "-" + inner }
        return nil
    }
}
