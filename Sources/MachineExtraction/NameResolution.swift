import MachineModel
import SwiftSyntax

/// Whether a name written in an expression is a type or a value, decided as Swift decides it: by
/// looking the name up where it is written (locals and parameters, the enclosing types' members,
/// the module and the modules it imports), never by how the name is spelt.
enum NameMeaning: Equatable {
    /// A nominal type, typealias, generic parameter, `Self`, or a module name used as a qualifier.
    case type
    /// A local, parameter, property, enum case, function or method.
    case value
    /// Nothing the inputs declare: a name from a dependency.
    case unknown
}

/// What a called expression builds: an initializer call (`Lamp(…)`, `Outer.Inner(…)`, `.init(…)`)
/// or a call of a function, method or enum case.
enum CalleeMeaning: Equatable {
    case initializer
    case function
    case unknown
}

extension SymbolIndex {
    /// What a simple name means where `anchor` is written. `anchor` nil (a node rebuilt outside the
    /// input trees) knows no scope: only `Self`/`self` are decided.
    func meaning(ofName rawName: String, at anchor: Syntax?) -> NameMeaning {
        let name = rawName.withoutBackticks
        if name == "Self" { return .type }
        if name == "self" || name == "super" { return .value }
        guard let anchor = anchor.flatMap(inputNode), let scope = scope(of: anchor) else { return .unknown }
        if Self.declaresLocalValue(name, around: anchor) { return .value }
        for level in scope.levels {
            switch level {
            case .local(let decls):
                if let d = decls[name], !d.isEmpty { return .type }
            case .generic(let names):
                if names.contains(name) { return .type }
            case .type(let t):
                if t.genericParameters.contains(name) || !members(named: name, of: t, from: scope.file).isEmpty { return .type }
                if !properties(named: name, of: t).isEmpty || !methods(named: name, of: t).isEmpty
                    || caseNames(of: t).contains(name) { return .value }
            }
        }
        if !lookup(name, in: scope).found.isEmpty { return .type }
        if binding(named: name, in: scope) != nil || !functions(named: name, at: anchor).isEmpty { return .value }
        if modules.contains(name) { return .type }
        if writtenTypeNames.contains(name) || Self.standardLibraryTypes.contains(name) { return .type }
        return .unknown
    }

    /// Types of the Swift standard library, which every file imports: a name no declaration of the
    /// inputs shadows is that type (`Result { try await fetch() }` builds a value).
    static let standardLibraryTypes: Set<String> = [
        "Result", "Optional", "Array", "ContiguousArray", "Dictionary", "Set", "String", "Substring", "Character",
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
        "Bool", "Task", "TaskGroup", "AsyncStream", "AsyncThrowingStream", "Duration", "ClosedRange", "Range",
        "KeyValuePairs", "ObjectIdentifier", "AnyHashable", "Error", "Never", "Void",
    ]

    /// What an expression used as the base of a member access (`base.x`) means.
    func meaning(ofBase raw: ExprSyntax, at anchor: Syntax?) -> NameMeaning {
        let base = SyntaxHelpers.unwrap(raw)
        let at = self.anchor(base, else: anchor)
        if base.is(GenericSpecializationExprSyntax.self) || base.is(TypeExprSyntax.self) { return .type }
        if let ref = base.as(DeclReferenceExprSyntax.self) { return meaning(ofName: ref.baseName.text, at: at) }
        guard let member = base.as(MemberAccessExprSyntax.self), let inner = member.base else { return .value }
        let name = member.declName.baseName.text.withoutBackticks
        switch meaning(ofBase: inner, at: at) {
        case .value: return .value
        case .unknown: return writtenTypeNames.contains(name) ? .type : .unknown
        case .type:
            guard let at, let scope = scope(of: at) else { return writtenTypeNames.contains(name) ? .type : .unknown }
            switch resolveType(base.trimmedText, in: scope) {
            case .declared, .ambiguous: return .type
            default: break
            }
            if let t = typeExpression(inner, at: at) {
                if !properties(named: name, of: t).isEmpty || !methods(named: name, of: t).isEmpty || caseNames(of: t).contains(name) {
                    return .value
                }
                // (what Swift makes for an enum: `CancelID.allCases`)
                if name == "allCases", t.enumInfo != nil { return .value }
            }
            return writtenTypeNames.contains(name) ? .type : .unknown
        }
    }

    /// Whether `base` in `base.x` names a type (so `base.x` is a case or static member of it). A simple
    /// name the inputs do not declare is a type when no value of that name is in scope (a local,
    /// parameter or property would shadow it): that is Swift's rule, and it decides unless an enclosing
    /// class inherits from a class the inputs do not declare, whose members could be that value. A
    /// member of an undeclared type (`Framework.x`) may be a nested type or a static member. Where the
    /// rules leave it open, the spelling decides (types are UpperCamelCase by Swift's API guidelines)
    /// and a note says so.
    func isTypeReference(_ base: ExprSyntax, at anchor: Syntax?) -> Bool {
        switch meaning(ofBase: base, at: anchor) {
        case .type: return true
        case .value: return false
        case .unknown:
            let unwrapped = SyntaxHelpers.unwrap(base)
            let at = self.anchor(unwrapped, else: anchor)
            let simple = unwrapped.is(DeclReferenceExprSyntax.self)
            guard let at, !simple || inheritsUndeclaredClass(at) else { return true }
            let text = unwrapped.trimmedText
            let guess = Self.spelledAsType(text)
            let why = simple ? "an enclosing class inherits members the inputs do not declare"
                : "a member of a type the inputs do not declare may be a nested type or a static member"
            undecided("`\(text)` is declared neither in the inputs nor as a type they write, and \(why); it is read as \(guess ? "a type" : "a value") by its spelling", at: at)
            return guess
        }
    }

    /// What a called expression builds. A name the inputs neither declare nor write as a type (a
    /// function or type of a dependency: `compute(…)` or `Builder(…)`) gives `.unknown`.
    func meaning(ofCallee raw: ExprSyntax, at anchor: Syntax?) -> CalleeMeaning {
        let callee = SyntaxHelpers.unwrap(raw)
        let at = self.anchor(callee, else: anchor)
        if callee.is(GenericSpecializationExprSyntax.self) || callee.is(TypeExprSyntax.self) { return .initializer }
        if let ref = callee.as(DeclReferenceExprSyntax.self) {
            switch meaning(ofName: ref.baseName.text, at: at) {
            case .type: return .initializer
            case .value: return .function
            case .unknown: return .unknown
            }
        }
        guard let member = callee.as(MemberAccessExprSyntax.self) else { return .function }
        let name = member.declName.baseName.text.withoutBackticks
        if name == "init" { return .initializer }
        // `.x(…)`: an implicit member is a case or static member, never a type
        guard let base = member.base else { return .function }
        switch meaning(ofBase: ExprSyntax(member), at: at) {
        case .type: return .initializer
        case .value: return .function
        case .unknown:
            // `value.method(…)` has an unknown member only when the base is known to be a value
            return meaning(ofBase: base, at: at) == .value ? .function : .unknown
        }
    }

    /// The naming convention (Swift's API guidelines: types are UpperCamelCase, everything else
    /// lowerCamelCase), for the last component of a name. Used only where resolution leaves a name
    /// undecided, and then a note says so (`undecided`), or for the text of an effect label.
    static func spelledAsType(_ text: String) -> Bool {
        text.split(separator: ".").last?.first?.isUppercase == true
    }

    /// A note for a name Swift's rules leave undecided here; the extractor reports them (sorted).
    func undecided(_ message: String, at node: Syntax) {
        let note = Diagnostic(severity: .note, message: message, location: file(of: node)?.location(of: node))
        undecidedLock.lock()
        if undecidedSaid.insert(note).inserted { undecidedNotes.append(note) }
        undecidedLock.unlock()
    }

    /// Case names of a declared enum (cases are not properties in the index).
    func caseNames(of t: TypeInfo) -> [String] {
        guard let e = t.node.as(EnumDeclSyntax.self) else { return [] }
        return e.memberBlock.members.compactMap { $0.decl.as(EnumCaseDeclSyntax.self) }
            .flatMap { $0.elements.map { $0.name.text.withoutBackticks } }
    }

    /// Whether a class around `node` inherits from a class the inputs do not declare (a framework class
    /// such as a view controller), whose members the index cannot list.
    func inheritsUndeclaredClass(_ node: Syntax) -> Bool {
        guard let scope = scope(of: node) else { return false }
        for case .type(let t) in scope.levels where t.kind == "class" {
            guard let first = t.inherited.first else { continue }
            if case .external = resolveType(first, in: self.scope(inside: t.parent ?? t)) { return true }
        }
        return false
    }

    /// Whether `name` is a local value visible at `node`: a parameter of an enclosing function,
    /// initializer, subscript or closure, a `let`/`var`/`func` declared earlier in an enclosing body, a
    /// name bound by an enclosing `if`/`guard`/`while` condition, `for` loop, `case` pattern or `catch`.
    static func declaresLocalValue(_ name: String, around node: Syntax) -> Bool {
        localDeclaration(of: name, around: node) != nil
    }

    /// Whether an expression is a bare name a local declaration around it gives (`state` in a method
    /// declaring `var state = …`, or taking a parameter `state`), not a member of that name.
    static func isLocalName(_ expr: ExprSyntax) -> Bool {
        guard let ref = SyntaxHelpers.unwrap(expr).as(DeclReferenceExprSyntax.self) else { return false }
        return declaresLocalValue(ref.baseName.text, around: Syntax(ref))
    }

    /// The declaration of the local value `name` visible at `node`, as Swift looks it up (the innermost
    /// wins): the pattern binding of a `let`/`var` declared earlier in an enclosing body, a `func` there,
    /// the condition of an enclosing `if`/`guard`/`while` binding it, a parameter of an enclosing function,
    /// initializer or subscript (the accessor for `newValue`/`oldValue`), a closure's parameter or capture
    /// (the closure for `$0`), a `for` loop's pattern, a `case` label, a `catch`. Nil for a name no local
    /// declaration gives (a member, a global). A node of a rebuilt tree is looked up where it was written.
    static func localDeclaration(of name: String, around node: Syntax) -> Syntax? {
        func binding(in conditions: ConditionElementListSyntax) -> Syntax? {
            conditions.first { binds(name, $0) }.map(Syntax.init)
        }
        func parameter(_ clause: FunctionParameterClauseSyntax?) -> Syntax? {
            clause?.parameters.first { ($0.secondName ?? $0.firstName).text.withoutBackticks == name }.map(Syntax.init)
        }
        var child = node
        while let c = child.parent ?? Rebuilt.shared.original(of: child)?.parent {
            defer { child = c }
            // one kind per node: a switch instead of a cast per kind on every node of the way up
            switch c.kind {
            case .memberBlock, .sourceFile:
                return nil
            case .codeBlockItemList:
                // (the nearest before it: `guard let x = x` declares `x` again)
                for item in c.cast(CodeBlockItemListSyntax.self).reversed() where item.position < child.position {
                    if let v = item.item.as(VariableDeclSyntax.self), let b = v.bindings.first(where: { binds(name, $0.pattern) }) { return Syntax(b) }
                    if let f = item.item.as(FunctionDeclSyntax.self), f.name.text.withoutBackticks == name { return Syntax(f) }
                    if let g = item.item.as(GuardStmtSyntax.self), let found = binding(in: g.conditions) { return found }
                }
            case .functionDecl:
                if let p = parameter(c.cast(FunctionDeclSyntax.self).signature.parameterClause) { return p }
            case .initializerDecl:
                if let p = parameter(c.cast(InitializerDeclSyntax.self).signature.parameterClause) { return p }
            case .subscriptDecl:
                if let p = parameter(c.cast(SubscriptDeclSyntax.self).parameterClause) { return p }
            case .accessorDecl:
                let a = c.cast(AccessorDeclSyntax.self)
                let implicit = a.accessorSpecifier.text == "set" ? "newValue" : a.accessorSpecifier.text == "didSet" ? "oldValue"
                    : a.accessorSpecifier.text == "willSet" ? "newValue" : nil
                if (a.parameters?.name.text ?? implicit) == name { return c }
            case .closureExpr:
                let closure = c.cast(ClosureExprSyntax.self)
                if SyntaxHelpers.closureParameterNames(closure).contains(name) || closure.signature == nil && name.hasPrefix("$") { return c }
                // (`[weak owner = self]`, read by its tokens: the capture's nodes differ between swift-syntax versions)
                for capture in closure.signature?.capture?.items ?? [] {
                    let tokens = capture.tokens(viewMode: .sourceAccurate).map(\.text)
                    if let equal = tokens.firstIndex(of: "="), equal > 0, tokens[equal - 1] == name { return Syntax(capture) }
                }
            case .conditionElementList:
                // (an earlier condition's binding: `if let e = error as? URLError, e.code == .cancelled`)
                for element in c.cast(ConditionElementListSyntax.self) where element.position < child.position && binds(name, element) {
                    return Syntax(element)
                }
            case .ifExpr:
                let i = c.cast(IfExprSyntax.self)
                if child.id != i.conditions.id, let found = binding(in: i.conditions) { return found }
            case .whileStmt:
                let w = c.cast(WhileStmtSyntax.self)
                if child.id != w.conditions.id, let found = binding(in: w.conditions) { return found }
            case .forStmt:
                let f = c.cast(ForStmtSyntax.self)
                if child.id != f.sequence.id, binds(name, f.pattern) { return Syntax(f.pattern) }
            case .switchCase:
                if case .case(let label) = c.cast(SwitchCaseSyntax.self).label, binds(name, label) { return Syntax(label) }
            case .catchClause:
                let k = c.cast(CatchClauseSyntax.self)
                if k.catchItems.isEmpty ? name == "error" : binds(name, k.catchItems) { return c }
            default:
                break
            }
        }
        return nil
    }

    /// The type a local declaration (`localDeclaration`) gives its value (`let spy: Spy`, `func check(_
    /// spy: Spy)`), else the callee of the call it starts as (`let spy = Spy()`) or the type it is cast to
    /// (`… as! Spy`), as written; nil for one declared otherwise.
    static func declaredType(ofLocal declaration: Syntax) -> String? {
        if let p = declaration.as(FunctionParameterSyntax.self) { return p.type.trimmedText }
        guard let b = declaration.as(PatternBindingSyntax.self) else { return nil }
        // (or the type it is cast to: `let cell = table.dequeueReusableCell(…) as! EpisodeCell`)
        return b.typeAnnotation?.type.trimmedText
            ?? b.initializer.flatMap { SyntaxHelpers.unwrap($0.value).as(FunctionCallExprSyntax.self)?.calledExpression.trimmedText }
            ?? b.initializer.flatMap { SyntaxHelpers.unwrapFolded($0.value).as(AsExprSyntax.self)?.type.trimmedText }
    }

    private static func hasParameter(_ name: String, _ clause: FunctionParameterClauseSyntax) -> Bool {
        clause.parameters.contains { ($0.secondName ?? $0.firstName).text.withoutBackticks == name }
    }

    private static func hasParameter(_ name: String, _ clause: FunctionParameterClauseSyntax?) -> Bool {
        clause.map { hasParameter(name, $0) } ?? false
    }

    /// Whether a pattern or condition binds `name` (`let name`, `case .x(let name)`, `if let name`).
    private static func binds(_ name: String, _ node: some SyntaxProtocol) -> Bool {
        let finder = BoundNameFinder()
        finder.walk(node)
        return finder.names.contains(name)
    }

    final class BoundNameFinder: SyntaxVisitor {
        var names = Set<String>()
        init() { super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
            names.insert(node.identifier.text.withoutBackticks)
            return .skipChildren
        }
        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: InitializerClauseSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    }
}
