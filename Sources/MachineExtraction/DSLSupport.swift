import Foundation
import MachineModel
import SwiftSyntax

/// Small syntax helpers shared by the DSL recognisers (SwiftState, Tinder, dictionary tables, GameplayKit).
enum DSLSupport {
    /// The initializer of a local variable (in an enclosing block), else of a variable or property of the project.
    static func value(of name: String, around node: Syntax, index: SymbolIndex?) -> ExprSyntax? {
        if let local = localBinding(named: name, around: node) { return local.initializer?.value }
        return index?.binding(named: name, at: node, where: { $0.initializer != nil })?.initializer
    }

    /// The local variable a name written at `node` refers to: declared before it in an enclosing block.
    static func localBinding(named name: String, around node: Syntax) -> PatternBindingSyntax? {
        var current = node.parent
        while let c = current {
            if let block = c.as(CodeBlockItemListSyntax.self) {
                for item in block where item.position < node.position {
                    guard let decl = item.item.as(VariableDeclSyntax.self) else { continue }
                    for b in decl.bindings {
                        if let id = b.pattern.as(IdentifierPatternSyntax.self), id.identifier.text == name { return b }
                    }
                }
            }
            if c.is(MemberBlockSyntax.self) { break }
            current = c.parent
        }
        return nil
    }

    /// The variable an expression names and its initializer: a local variable, else what the index
    /// resolves it to (`x`, `self.x`, `Self.x`, `T.x`). Nil for a value's member or a parameter.
    static func variable(_ expr: ExprSyntax, index: SymbolIndex) -> (node: Syntax, initializer: ExprSyntax?, computed: Bool)? {
        let e = SyntaxHelpers.unwrap(expr)
        if let ref = e.as(DeclReferenceExprSyntax.self), let local = localBinding(named: ref.baseName.text, around: Syntax(ref)) {
            return (Syntax(local), local.initializer?.value, local.accessorBlock != nil)
        }
        guard let b = index.binding(referencedBy: e) else { return nil }
        return (b.node, b.initializer, b.isComputed)
    }

    /// The value a variable holds as written: its initializer; a computed variable's getter's one value
    /// (`static var table: [S: [E: S]] { [...] }`); or, initialized by a call of no arguments to a
    /// function returning one value (`static let table = makeTable()`), that value.
    static func heldValue(_ expr: ExprSyntax, index: SymbolIndex) -> ExprSyntax? {
        guard let v = variable(expr, index: index) else { return nil }
        if v.computed {
            switch v.node.as(PatternBindingSyntax.self)?.accessorBlock?.accessors {
            case .getter(let items)?: return SyntaxHelpers.onlyValue(items)
            case .accessors(let list)?:
                return list.first { $0.accessorSpecifier.text == "get" }?.body.flatMap { SyntaxHelpers.onlyValue($0.statements) }
            case nil: return nil
            }
        }
        guard let initializer = v.initializer else { return nil }
        return returnedValue(of: initializer, index: index) ?? initializer
    }

    /// The one value returned by the function a call of no arguments names (`makeTable()`).
    static func returnedValue(of expr: ExprSyntax, index: SymbolIndex) -> ExprSyntax? {
        guard let call = SyntaxHelpers.unwrap(expr).as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
              case let functions = index.functions(referencedBy: call.calledExpression, at: Syntax(call)), functions.count == 1,
              let body = functions[0].body else { return nil }
        return SyntaxHelpers.onlyValue(body.statements)
    }

    /// The properties a literal is kept in when a function returns it as its one value: those initialized by
    /// calling the function (`static let table = makeTable()`, `private let edges = petTransitions()`).
    static func keptIn(_ literal: some SyntaxProtocol, index: SymbolIndex) -> [Binding] {
        guard let function = SyntaxHelpers.nearest(literal, { $0.as(FunctionDeclSyntax.self) }),
              let body = function.body, SyntaxHelpers.onlyValue(body.statements).map(SyntaxHelpers.unwrap)?.id == Syntax(literal).id else { return [] }
        let name = function.name.text
        return index.typeOrder.flatMap { type in
            type.properties.filter { property in
                property.initializer.flatMap { SyntaxHelpers.unwrap($0).as(FunctionCallExprSyntax.self) }.map { call in
                    call.arguments.isEmpty && call.trailingClosure == nil && SyntaxHelpers.lastName(call.calledExpression) == name
                } == true
            }
        }
    }

    /// The last name of a call's callee: `machine.addRoute(…)` → `addRoute`, `on(…)` → `on`.
    static func calleeName(_ call: FunctionCallExprSyntax) -> String? {
        let callee = call.calledExpression
        if let member = callee.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        if let ref = callee.as(DeclReferenceExprSyntax.self) { return ref.baseName.text }
        if let spec = callee.as(GenericSpecializationExprSyntax.self) { return spec.expression.trimmedText }
        return nil
    }

    /// The receiver of a member call, as a path (`self.machine.addRoute` → `machine`).
    static func receiverPath(_ call: FunctionCallExprSyntax) -> String? {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { return nil }
        return SyntaxHelpers.path(base)
    }

    /// `Foo<A, B>` → ("Foo", [A, B]) with typealiases followed and every name resolved where `node` is.
    static func genericType(_ text: String, at node: some SyntaxProtocol, index: SymbolIndex) -> (name: String, arguments: [ResolvedType]) {
        guard let scope = index.scope(of: node) else { return (SymbolIndex.bareTypeName(text), []) }
        let resolved = index.resolveType(text, in: scope)
        return (resolved.shortName ?? SymbolIndex.bareTypeName(text), resolved.arguments)
    }

    /// The type text a call constructs: `StateMachine<S, E>(…)` → `StateMachine<S, E>`, `Alias(…)` → `Alias`,
    /// `.init(…)` → the annotated type of the binding it initialises, when written. A callee that
    /// resolves to a function or variable of the project constructs nothing.
    static func constructedType(_ call: FunctionCallExprSyntax, index: SymbolIndex) -> String? {
        let callee = call.calledExpression
        if let spec = callee.as(GenericSpecializationExprSyntax.self) { return spec.trimmedText }
        let isCallable = !index.functions(referencedBy: callee).isEmpty || index.binding(referencedBy: callee) != nil
        if let ref = callee.as(DeclReferenceExprSyntax.self), !isCallable { return ref.baseName.text }
        if let member = callee.as(MemberAccessExprSyntax.self) {
            if member.declName.baseName.text == "init" {
                if let base = member.base { return base.trimmedText }
                return annotatedType(of: call)
            }
            if let base = member.base, !isCallable, index.typeExpression(base, at: call) != nil || index.typeExpression(callee, at: call) != nil {
                return member.trimmedText
            }
        }
        return nil
    }

    /// The written type of the binding a value initialises (`let m: Machine = .init { … }` → `Machine`).
    static func annotatedType(of node: some SyntaxProtocol) -> String? {
        var current: Syntax? = Syntax(node)
        var steps = 0
        while let c = current, steps < 6 {
            steps += 1
            if let b = c.as(PatternBindingSyntax.self) { return b.typeAnnotation?.type.trimmedText }
            current = c.parent
        }
        return nil
    }

    /// The name a constructed value is stored in: `let x = …`, `x = …`, `self.x = …`, or the enclosing
    /// function (`func makeX() -> M { M { … } }`).
    static func storageName(_ node: some SyntaxProtocol, orFunction: Bool = true) -> String? {
        var current: Syntax? = Syntax(node).parent
        var steps = 0
        while let c = current, steps < 8 {
            steps += 1
            if let b = c.as(PatternBindingSyntax.self), let id = b.pattern.as(IdentifierPatternSyntax.self) { return id.identifier.text }
            if let infix = c.as(InfixOperatorExprSyntax.self), infix.operator.is(AssignmentExprSyntax.self) {
                return SyntaxHelpers.lastName(infix.leftOperand)
            }
            if let seq = c.as(SequenceExprSyntax.self) {
                let elements = Array(seq.elements)
                if elements.count == 3, elements[1].is(AssignmentExprSyntax.self) {
                    return SyntaxHelpers.lastName(elements[0])
                }
            }
            if c.is(CodeBlockItemSyntax.self) || c.is(MemberBlockItemSyntax.self) { break }
            current = c.parent
        }
        return orFunction ? SyntaxHelpers.enclosingBindingName(node) : nil
    }

    /// The innermost function, initializer or accessor a node sits in, as `name()`.
    static func enclosingFunctionName(_ node: some SyntaxProtocol) -> String? {
        var current = node.parent
        while let c = current {
            if let f = c.as(FunctionDeclSyntax.self) { return f.name.text + "()" }
            if c.is(InitializerDeclSyntax.self) { return "init()" }
            if c.is(DeinitializerDeclSyntax.self) { return "deinit" }
            if let b = c.as(PatternBindingSyntax.self), let id = b.pattern.as(IdentifierPatternSyntax.self) { return id.identifier.text }
            current = c.parent
        }
        return nil
    }

    /// Names of functions a closure or block calls, in order, each once (for effect labels).
    /// Initializer calls are left out (`Lamp(…)`, `Outer.Inner(…)`, a type the inputs write): the index
    /// says which callees are types. A callee nobody declares or writes as a type (`String(…)`, `log(…)`
    /// from a dependency) is told by its spelling, without a note: the names only label an effect.
    static func calledNames(in node: some SyntaxProtocol, index: SymbolIndex, limit: Int = 3) -> [String] {
        let finder = CallNameFinder(index: index)
        finder.walk(node)
        return Array(finder.names.uniqued().prefix(limit))
    }

    final class CallNameFinder: SyntaxVisitor {
        let index: SymbolIndex
        var names: [String] = []
        init(index: SymbolIndex) {
            self.index = index
            super.init(viewMode: .sourceAccurate)
        }
        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            guard let name = DSLSupport.calleeName(node), !name.isEmpty else { return .visitChildren }
            switch index.meaning(ofCallee: node.calledExpression, at: nil) {
            case .function: names.append(name)
            case .initializer: break
            case .unknown: if !SymbolIndex.spelledAsType(name) { names.append(name) }
            }
            return .visitChildren
        }
    }

    /// A state-like literal: `.x`, `T.x`, `.x(…)`, `"x"`, `3`.
    static func literalName(_ expr: ExprSyntax, _ index: SymbolIndex) -> String? {
        let e = SyntaxHelpers.unwrap(expr)
        if let ref = SyntaxHelpers.caseReference(e, index) { return ref.name }
        if let s = e.as(StringLiteralExprSyntax.self), s.segments.count == 1,
           let seg = s.segments.first?.as(StringSegmentSyntax.self) { return seg.content.text }
        if let i = e.as(IntegerLiteralExprSyntax.self) { return i.literal.text }
        return nil
    }

    /// Calls anywhere under a node, not entering nested type or function declarations.
    static func calls(in node: some SyntaxProtocol, enteringClosures: Bool = true) -> [FunctionCallExprSyntax] {
        let finder = CallFinder(enteringClosures: enteringClosures)
        finder.walk(node)
        return finder.calls
    }

    final class CallFinder: SyntaxVisitor {
        var calls: [FunctionCallExprSyntax] = []
        let enteringClosures: Bool
        init(enteringClosures: Bool) {
            self.enteringClosures = enteringClosures
            super.init(viewMode: .sourceAccurate)
        }
        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            calls.append(node)
            return .visitChildren
        }
        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
            enteringClosures ? .visitChildren : .skipChildren
        }
    }
}
