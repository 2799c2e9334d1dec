import Foundation
import SwiftOperators
import SwiftSyntax

extension SyntaxHelpers {
    /// A parameter declared `inout` (the specifier, not the text).
    static func isInout(_ parameter: FunctionParameterSyntax) -> Bool {
        guard let attributed = parameter.type.as(AttributedTypeSyntax.self) else { return false }
        return attributed.specifiers.contains { $0.trimmedText == "inout" }   // the keyword
    }

    /// A function with an `inout` parameter.
    static func takesInout(_ f: FunctionDeclSyntax) -> Bool {
        f.signature.parameterClause.parameters.contains(where: isInout)
    }
}

extension SyntaxProtocol {
    /// `trimmedDescription` without its cost: swift-syntax builds two rewritten copies of the node to
    /// drop the leading trivia of its first token and the trailing trivia of its last (missing tokens
    /// included); this cuts the same bytes out of the node's text.
    var trimmedText: String {
        let bytes = syntaxTextBytes
        let start = firstToken(viewMode: .all)?.leadingTriviaLength.utf8Length ?? 0
        let end = bytes.count - (lastToken(viewMode: .all)?.trailingTriviaLength.utf8Length ?? 0)
        guard start < end else { return "" }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Source text without surrounding trivia, whitespace runs folded to one space.
    var compactText: String {
        var out = String.UnicodeScalarView()
        var lastSpace = false
        for scalar in trimmedText.unicodeScalars {
            if scalar.isASCII ? (scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r" || scalar.value == 0x0B || scalar.value == 0x0C)
                : scalar.properties.isWhitespace {
                if !lastSpace { out.append(" ") }
                lastSpace = true
            } else {
                out.append(scalar)
                lastSpace = false
            }
        }
        return String(out)
    }
}

enum SyntaxHelpers {
    /// The cases of a switch, with `#if` blocks read as their first clause (the configuration the
    /// code is usually built with); nested `#if` blocks likewise.
    static func cases(of sw: SwitchExprSyntax) -> [SwitchCaseSyntax] {
        func flatten(_ list: SwitchCaseListSyntax) -> [SwitchCaseSyntax] {
            list.flatMap { element -> [SwitchCaseSyntax] in
                switch element {
                case .switchCase(let sc): return [sc]
                case .ifConfigDecl(let d):
                    if case .switchCases(let inner)? = d.clauses.first?.elements { return flatten(inner) }
                    return []
                }
            }
        }
        return flatten(sw.cases)
    }

    /// A case of a switch with the build condition it is compiled under (nil outside `#if`): `#if DEBUG`
    /// → `#if DEBUG`, its `#else` → `#if !(DEBUG)`, nested blocks joined with `&&`. `clause`: for a case
    /// directly in a clause of an `#if` block that has an `#else` (one of whose clauses every build has),
    /// the block and the clause's place in it.
    struct ConfiguredCase {
        var switchCase: SwitchCaseSyntax
        var condition: String?
        var clause: (block: SyntaxIdentifier, index: Int)?
    }

    /// Every clause's cases of a switch, in order (ConfiguredCase).
    static func configuredCases(of sw: SwitchExprSyntax) -> [ConfiguredCase] {
        func flatten(_ list: SwitchCaseListSyntax, _ outer: [String]) -> [ConfiguredCase] {
            list.flatMap { element -> [ConfiguredCase] in
                switch element {
                case .switchCase(let sc):
                    return [ConfiguredCase(switchCase: sc, condition: outer.isEmpty ? nil : "#if " + outer.joined(separator: " && "))]
                case .ifConfigDecl(let d):
                    var earlier: [String] = []
                    let complete = d.clauses.contains { $0.poundKeyword.tokenKind == .poundElse }
                    return d.clauses.enumerated().flatMap { i, clause -> [ConfiguredCase] in
                        let negated = earlier.isEmpty ? [] : ["!(" + earlier.joined(separator: " || ") + ")"]
                        let own = clause.condition.map { [$0.trimmedDescription] } ?? []
                        earlier += own
                        guard case .switchCases(let inner)? = clause.elements else { return [] }
                        var cases = flatten(inner, outer + negated + own)
                        if complete, outer.isEmpty {
                            for k in cases.indices where inner.contains(where: { $0.id == cases[k].switchCase.id }) { cases[k].clause = (d.id, i) }
                        }
                        return cases
                    }
                }
            }
        }
        return flatten(sw.cases, [])
    }

    /// Operators folded with the standard precedence table; custom operators stay unfolded. The folded
    /// tree is a new tree: `Rebuilt` remembers where it was written, so names in it are looked up there.
    static func fold(_ expr: ExprSyntax) -> ExprSyntax {
        guard expr.is(SequenceExprSyntax.self) || expr.syntaxTextBytes.contains(UInt8(ascii: "?")) else { return expr }
        let folded = OperatorTable.standardOperators.foldAll(expr) { _ in }
        guard let result = folded.as(ExprSyntax.self) else { return expr }
        if result.root.id != expr.root.id { Rebuilt.shared.record(Syntax(result), from: Syntax(expr)) }
        return result
    }

    /// Functions that call the closure they are given before they return (`withAnimation { state = .open }`,
    /// `lock.withLock { … }`, `queue.sync { … }`; and `MainActor.run`): code in it is the caller's own.
    static let immediateCallees: Set<String> = [
        "withAnimation", "withTransaction", "withLock", "withLockedValue", "sync", "autoreleasepool", "performAndWait",
        "withMutation", "assumeIsolated", "performWithoutAnimation", "animate", "withExtendedLifetime", "synchronized",
        // (its operation; its `onCancel:` handler runs only when the task is cancelled)
        "withTaskCancellationHandler",
    ]
    /// Streams whose initializer runs its build closure (not an `unfolding:` one) before it returns.
    static let streams: Set<String> = ["AsyncStream", "AsyncThrowingStream"]

    /// The standard library's methods of sequences and collections, whose closures run before they return.
    static let sequenceCallees: Set<String> = [
        "forEach", "map", "compactMap", "flatMap", "filter", "reduce", "contains", "first", "firstIndex", "last", "lastIndex",
        "allSatisfy", "sorted", "sort", "min", "max", "removeAll", "drop", "prefix", "partition", "split", "mapValues",
        "compactMapValues", "merge", "merging",
    ]

    /// Functions that run the closure they are given, then wait until it resumes the continuation it is handed.
    static let continuations: Set<String> = [
        "withCheckedContinuation", "withCheckedThrowingContinuation", "withUnsafeContinuation", "withUnsafeThrowingContinuation",
    ]

    /// The closures a call of one of `immediateCallees` runs before it returns: its first trailing closure
    /// and its closure arguments, but a `completion:` one (`withAnimation { … } completion: { … }`).
    /// With the index, also the closures given to a parameter of a non-escaping function type in every
    /// declaration the callee may name (`func inspect(_ look: (Glaze) -> Void)`).
    static func immediateClosures(of call: FunctionCallExprSyntax, index: SymbolIndex? = nil) -> [ClosureExprSyntax] {
        // (the callee's last name first: this is asked of every call a walk runs)
        guard let callee = DSLSupport.calleeName(call),
              immediateCallees.contains(callee) || continuations.contains(callee) || streams.contains(callee) || callee == "run" && call.calledExpression.trimmedText == "MainActor.run" else {
            guard let index, call.trailingClosure != nil || call.arguments.contains(where: { $0.expression.is(ClosureExprSyntax.self) }) else { return [] }
            let closures = (call.trailingClosure.map { [$0] } ?? []) + call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
            return closures.filter { escapes($0, from: call, index: index) == false }
        }
        // (a stream's build closure runs in its initializer; an `unfolding:` one for each element, later)
        if streams.contains(callee) {
            return call.arguments.contains { $0.label?.text == "unfolding" } ? []
                : call.arguments.compactMap { $0.label == nil ? $0.expression.as(ClosureExprSyntax.self) : nil } + (call.trailingClosure.map { [$0] } ?? [])
        }
        // (`compactMap`, not `filter`: a syntax collection's `filter` builds a new, detached collection, whose
        // closures are not the ones in the tree: `withTaskCancellationHandler(operation: { … }, onCancel: …)`)
        let arguments = call.arguments.compactMap { ["completion", "onCancel"].contains($0.label?.text) ? nil : $0.expression.as(ClosureExprSyntax.self) }
        // (a trailing closure after a closure argument is the completion: `UIView.animate(withDuration: 0.2,
        // animations: { … }) { _ in … }`)
        let closures = arguments + (arguments.isEmpty ? call.trailingClosure.map { [$0] } ?? [] : [])
        // (a method of the code's own named like the platform's, `engine.sync { … }` declaring its closure
        // `@escaping`, runs it when its declaration says, not by the name)
        guard let index else { return closures }
        return closures.filter { escapes($0, from: call, index: index) != true }
    }

    /// Whether a closure is one a call of the platform's runs before it returns (`lock.withLock { … }`,
    /// `queue.sync { … }`, `withAnimation { … }`), by the callee's name alone.
    static func runsAtOnce(_ closure: ClosureExprSyntax) -> Bool {
        guard let call = call(taking: closure) else { return false }
        return immediateClosures(of: call).contains { $0.id == closure.id }
    }

    /// The completion of a call of one of `immediateCallees`: its `completion:` closure, or its trailing
    /// closure after a closure argument. It runs when the work is done, later.
    static func completionClosure(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        guard let callee = DSLSupport.calleeName(call), immediateCallees.contains(callee) else { return nil }
        if let labelled = call.arguments.first(where: { $0.label?.text == "completion" })?.expression.as(ClosureExprSyntax.self) { return labelled }
        if let trailing = call.additionalTrailingClosures.first(where: { $0.label.text == "completion" })?.closure { return trailing }
        return call.arguments.contains(where: { $0.expression.is(ClosureExprSyntax.self) }) ? call.trailingClosure : nil
    }

    /// Calls of the platform's libraries whose closures run later, when the platform calls back
    /// (`URLSession.shared.dataTask(with: url) { data, response, error in … }`, `Timer.scheduledTimer(…) {
    /// _ in … }`, `NotificationCenter.default.addObserver(forName: …) { _ in … }`). Work sent to another queue
    /// (`DispatchQueue.global().async { … }`) is none: it runs beside the type's methods, not after them.
    static let platformCallbacks: Set<String> = [
        "dataTask", "downloadTask", "uploadTask", "scheduledTimer", "addObserver", "requestAuthorization",
        "requestAccess", "getNotificationSettings", "addPeriodicTimeObserver", "addBoundaryTimeObserver",
    ]

    /// Work a call starts to run later, and what starts it: a `Task { … }` or dispatch (`task`), a
    /// Combine subscription's `sink` (`sink`: its `receiveValue` closure runs for each value; `sink
    /// completion`: its `receiveCompletion` closure, once at the end), or closures holding `self` weakly
    /// (`service.fetch { [weak self] result in … }`: completion handlers, `callback`, or their argument's
    /// label: `onSuccess`) or handing work back to the main queue (`api.load { r in DispatchQueue.main.async
    /// { … } }`), or, with the index, passed to a parameter the callee's declaration marks `@escaping` (or an
    /// optional closure: `completion: ((Result) -> Void)?`) and using `self` (`api.load { r in self.state =
    /// … }`, as an escaping closure in a class must say it).
    static func laterClosures(of call: FunctionCallExprSyntax, index: SymbolIndex? = nil) -> [(closure: ClosureExprSyntax, kind: String)] {
        // (every call the interpreter walks asks: most take no closure)
        guard call.trailingClosure != nil || call.arguments.contains(where: { $0.expression.is(ClosureExprSyntax.self) }) else { return [] }
        let closures = (call.trailingClosure.map { [$0] } ?? []) + call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
            + call.additionalTrailingClosures.map(\.closure)
        if call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "sink" {
            // `sink(receiveCompletion:receiveValue:)`, its closures labelled or trailing, or `sink { value in … }`
            func argument(_ label: String) -> ClosureExprSyntax? {
                call.arguments.first { $0.label?.text == label }?.expression.as(ClosureExprSyntax.self)
                    ?? call.additionalTrailingClosures.first { $0.label.text == label }?.closure
            }
            let completionArgument = call.arguments.contains { $0.label?.text == "receiveCompletion" }
            let value = argument("receiveValue") ?? (call.additionalTrailingClosures.isEmpty && (call.arguments.isEmpty || completionArgument)
                                                     ? call.trailingClosure : nil)
            let completion = argument("receiveCompletion") ?? (argument("receiveValue") != nil && !completionArgument ? call.trailingClosure : nil)
            return (value.map { [($0, "sink")] } ?? []) + (completion.map { [($0, "sink completion")] } ?? [])
        }
        if let callee = DSLSupport.calleeName(call), ["Task", "detached", "async", "asyncAfter", "addOperation"].contains(callee),
           ["Task", "Task.detached"].contains(call.calledExpression.trimmedText) || mainHops.contains(call.calledExpression.trimmedText)
            || index.map({ ownQueue(call, index: $0) }) == true {
            return [(closures[0], "task")]
        }
        // the completion of an animation (`UIView.animate(…, animations: { … }) { _ in … }`)
        if let completion = completionClosure(of: call) { return [(completion, "completion")] }
        // (a task's cancellation handler, `withTaskCancellationHandler { … } onCancel: { … }`, runs when it is cancelled)
        if DSLSupport.calleeName(call) == "withTaskCancellationHandler",
           let onCancel = call.arguments.first(where: { $0.label?.text == "onCancel" })?.expression.as(ClosureExprSyntax.self)
            ?? call.additionalTrailingClosures.first(where: { $0.label.text == "onCancel" })?.closure {
            return [(onCancel, "onCancel")]
        }
        let platform = DSLSupport.calleeName(call).map(platformCallbacks.contains) == true
            && call.calledExpression.is(MemberAccessExprSyntax.self)
        // completion handlers: closures holding `self` weakly, or handing their work back to the main queue
        // (`api.fetch { r in DispatchQueue.main.async { … } }`), which run off the caller's path, or given to
        // the platform's callbacks or a declared escaping parameter; named by their argument's label where
        // they have one (`subscribe(onSuccess: { … }, onFailure: { … })`)
        // (a closure the callee runs before it returns is the caller's own, whatever it captures:
        // `queue.sync { [unowned self] in … }`)
        let now = DSLSupport.calleeName(call).map { immediateCallees.contains($0) || continuations.contains($0) } == true
            ? Set(immediateClosures(of: call, index: index).map(\.id)) : []
        return closures.filter { c in
            if now.contains(c.id) { return false }
            if holdsSelfWeakly(c) || hopsToMain(c) { return true }
            // (an escaping closure in a class says `self`; in a SwiftUI view, a struct, it need not)
            guard platform || index != nil else { return false }
            let saysSelf = c.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .keyword(.self) })
            if platform { return saysSelf || inView(c) }
            // (the declaration first: most closures are given to calls the code does not declare)
            return escapes(c, from: call, index: index!) == true && (saysSelf || inView(c))
        }.map { closure in
            let label = closure.parent?.as(LabeledExprSyntax.self)?.label?.text ?? closure.parent?.as(MultipleTrailingClosureElementSyntax.self)?.label.text
            return (closure, label ?? "callback")
        }
    }

    /// Whether a closure in a class or actor says `self.x` where the function around it says `x` alone
    /// (`phase = .searching`, then `backend.find(q) { hits in self.phase = … }`): Swift asks for `self`
    /// in an escaping closure only, so its author writes it there because the closure escapes, to a
    /// callee the code does not declare. Where the function names `x` only in the closure, which sets it
    /// (`self.recState = …`) with no capture list, the type's other methods say how its author writes it:
    /// `recState = .recording` bare, and never `self.recState` where no closure requires it.
    static func saysSelfWhereRequired(_ closure: ClosureExprSyntax) -> Bool {
        let ancestors = sequence(first: Syntax(closure), next: { $0.parent })
        guard let group = ancestors.first(where: { $0.isProtocol(DeclGroupSyntax.self) }), group.is(ClassDeclSyntax.self) || group.is(ActorDeclSyntax.self),
              let function = ancestors.first(where: { $0.is(FunctionDeclSyntax.self) || $0.is(InitializerDeclSyntax.self) || $0.is(AccessorDeclSyntax.self) })
        else { return false }
        final class Names: SyntaxVisitor {
            var selfMembers: Set<String> = []
            /// The members set through `self` (written, or rebuilt with its operators folded).
            var setThroughSelf: Set<String> = []
            var bare: Set<String> = []
            var declared: Set<String> = []
            var inClosures = false
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { inClosures ? .visitChildren : .skipChildren }
            func assigned(_ lhs: ExprSyntax?) {
                if let member = lhs?.as(MemberAccessExprSyntax.self), member.base?.trimmedText == "self" { setThroughSelf.insert(member.declName.baseName.text) }
            }
            override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
                assigned(SyntaxHelpers.assignment(node)?.lhs)
                return .visitChildren
            }
            override func visit(_ node: InfixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
                if node.operator.is(AssignmentExprSyntax.self) { assigned(node.leftOperand) }
                return .visitChildren
            }
            override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
                if let base = node.base?.as(DeclReferenceExprSyntax.self), base.baseName.tokenKind == .keyword(.self) {
                    selfMembers.insert(node.declName.baseName.text)
                }
                // (the member's name is no bare name)
                if let base = node.base { walk(base) }
                return .skipChildren
            }
            override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
                bare.insert(node.baseName.text)
                return .skipChildren
            }
            override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
                declared.insert(node.identifier.text)
                return .skipChildren
            }
            override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
                declared.insert((node.secondName ?? node.firstName).text)
                return .skipChildren
            }
        }
        let inside = Names(viewMode: .sourceAccurate)
        inside.inClosures = true
        inside.walk(closure.statements)
        guard !inside.selfMembers.isEmpty else { return false }
        let around = Names(viewMode: .sourceAccurate)
        around.walk(function)
        if !inside.selfMembers.intersection(around.bare).subtracting(around.declared).isEmpty { return true }
        let set = inside.setThroughSelf
        guard closure.signature?.capture == nil, !set.isEmpty, inside.selfMembers.isDisjoint(with: around.declared) else { return false }
        let type = Names(viewMode: .sourceAccurate)
        for member in group.asProtocol(DeclGroupSyntax.self)?.memberBlock.members ?? [] {
            if let body = member.decl.as(FunctionDeclSyntax.self)?.body ?? member.decl.as(InitializerDeclSyntax.self)?.body { type.walk(body) }
        }
        let bareOnly = set.intersection(type.bare).subtracting(type.declared)
        return !bareOnly.isEmpty && bareOnly.isDisjoint(with: type.selfMembers)
    }

    /// Whether a node is written in the declaration of a struct that is a SwiftUI view (`struct …: View`).
    static func inView(_ node: some SyntaxProtocol) -> Bool {
        let group = sequence(first: Syntax(node), next: { $0.parent }).first { $0.isProtocol(DeclGroupSyntax.self) }
        return group?.as(StructDeclSyntax.self)?.inheritanceClause?.inheritedTypes.contains { $0.type.trimmedText.hasSuffix("View") } == true
    }

    /// Whether a closure is given to a parameter that every declaration the callee may name (by Swift's
    /// lookup, `SymbolIndex.functions(referencedBy:)`, or a property's type) marks as escaping (`@escaping`,
    /// an optional function type: true) or not (a plain function type: false). Where the code does not
    /// declare the callee, true when the closure says `self` as only an escaping closure must
    /// (`saysSelfWhereRequired`); nil when the declarations differ, or nothing says (`items.map { … }`).
    static func escapes(_ closure: ClosureExprSyntax, from call: FunctionCallExprSyntax, index: SymbolIndex) -> Bool? {
        index.escapeAnswer(closure) {
            declaredEscape(closure, from: call, index: index)
                // (a callee the code does not declare, but not one of the standard library's that run it now)
                ?? (!immediateClosures(of: call).contains { $0.id == closure.id } && !sequenceCallees.contains(DSLSupport.calleeName(call) ?? "")
                    && saysSelfWhereRequired(closure) ? true : nil)
        }
    }

    static func declaredEscape(_ closure: ClosureExprSyntax, from call: FunctionCallExprSyntax, index: SymbolIndex) -> Bool? {
        var functions = index.functions(referencedBy: call.calledExpression)
        if functions.isEmpty, let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
           let type = index.valueType(base) {
            functions = index.methods(named: member.declName.baseName.text, of: type)
        }
        guard !functions.isEmpty else { return nil }
        let label = closure.parent?.as(LabeledExprSyntax.self)?.label?.text ?? closure.parent?.as(MultipleTrailingClosureElementSyntax.self)?.label.text
        let position = call.arguments.firstIndex { $0.expression.id == closure.id }.map { call.arguments.distance(from: call.arguments.startIndex, to: $0) }
        let answers = Set(functions.map { function -> Bool? in
            let parameters = Array(function.signature.parameterClause.parameters)
            let parameter: FunctionParameterSyntax?
            if let label {
                parameter = parameters.first { $0.firstName.text == label }
            } else if let position {
                parameter = position < parameters.count ? parameters[position] : nil
            } else {
                // the trailing closure: the first parameter of a function type after the arguments written
                parameter = parameters.dropFirst(call.arguments.count).first { escapingType($0.type) != nil }
            }
            return parameter.flatMap { escapingType($0.type) }
        })
        return answers.count == 1 ? answers.first! : nil
    }

    /// For a function type: whether it escapes (`@escaping (T) -> Void`, `((T) -> Void)?`); nil for any other type.
    static func escapingType(_ type: TypeSyntax) -> Bool? {
        if let attributed = type.as(AttributedTypeSyntax.self) {
            // (only a function type can be `@escaping`, written or through a typealias)
            if attributed.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedText == "escaping" }) { return true }
            return escapingType(attributed.baseType)
        }
        // (a closure handed a value to change, `(inout State) -> R`, changes what the callee gives it: no
        // closure to walk in the caller's place)
        if let function = type.as(FunctionTypeSyntax.self) {
            return function.parameters.contains { $0.type.as(AttributedTypeSyntax.self)?.specifiers.isEmpty == false } ? nil : false
        }
        let wrapped = type.as(OptionalTypeSyntax.self)?.wrappedType ?? type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self)?.wrappedType
        if let wrapped {
            let inner = wrapped.as(TupleTypeSyntax.self).flatMap { $0.elements.count == 1 ? $0.elements.first?.type : nil } ?? wrapped
            return escapingType(inner).map { _ in true }
        }
        if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first?.type { return escapingType(only) }
        return nil
    }

    /// Calls that hand a closure to the main queue, to run there later.
    static let mainHops: Set<String> = ["DispatchQueue.main.async", "DispatchQueue.main.asyncAfter", "OperationQueue.main.addOperation"]

    /// Whether a call hands work to a dispatch queue the code keeps (`queue.async { … }`, `self.queue.async(flags:
    /// .barrier) { … }` with `private let queue = DispatchQueue(label: "…")`): it runs later, in order.
    static func ownQueue(_ call: FunctionCallExprSyntax, index: SymbolIndex) -> Bool {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), ["async", "asyncAfter"].contains(member.declName.baseName.text),
              let base = member.base, let binding = index.binding(referencedBy: base) else { return false }
        if let text = binding.typeText { return ["DispatchQueue", "DispatchQueue?", "DispatchQueue!"].contains(text) }
        return binding.initializer.flatMap { unwrap($0).as(FunctionCallExprSyntax.self) }?.calledExpression.trimmedText == "DispatchQueue"
    }

    /// The closure a call hands to the main queue (`DispatchQueue.main.async { … }`), if it is such a call.
    static func mainHop(_ call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        guard let callee = DSLSupport.calleeName(call), ["async", "asyncAfter", "addOperation"].contains(callee),
              mainHops.contains(call.calledExpression.trimmedText) else { return nil }
        return call.trailingClosure ?? call.arguments.lazy.compactMap { $0.expression.as(ClosureExprSyntax.self) }.first
    }

    /// Whether a closure's own code (not a closure inside it) hands work to the main queue.
    static func hopsToMain(_ closure: ClosureExprSyntax) -> Bool {
        final class Finder: SyntaxVisitor {
            var found = false
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if SyntaxHelpers.mainHop(node) != nil { found = true }
                return found ? .skipChildren : .visitChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(closure.statements)
        return finder.found
    }

    /// The values an expression may be: each branch of a ternary apart (`ok ? .done : .failed`), else itself.
    static func branches(_ e: ExprSyntax) -> [ExprSyntax] {
        let folded = unwrapFolded(e)
        if let t = folded.as(TernaryExprSyntax.self) { return branches(t.thenExpression) + branches(t.elseExpression) }
        // (a `switch` or `if` expression: each branch's value, `switch (s, e) { case (.idle, .go): .running … }`)
        if ReducerInterpreter.isValueChoice(folded) { return choiceValues(folded).flatMap(branches) }
        return [folded]
    }

    /// The values of a `switch` or `if` expression's branches (`isValueChoice`), a branch that throws giving none.
    static func choiceValues(_ e: ExprSyntax) -> [ExprSyntax] {
        func value(_ items: CodeBlockItemListSyntax) -> [ExprSyntax] {
            guard let item = items.first?.item else { return [] }
            return (item.as(ExprSyntax.self) ?? item.as(ExpressionStmtSyntax.self)?.expression).map { [$0] } ?? []
        }
        if let sw = e.as(SwitchExprSyntax.self) { return configuredCases(of: sw).flatMap { value($0.switchCase.statements) } }
        guard let choice = e.as(IfExprSyntax.self) else { return [] }
        switch choice.elseBody {
        case .codeBlock(let block)?: return value(choice.body.statements) + value(block.statements)
        case .ifExpr(let next)?: return value(choice.body.statements) + choiceValues(ExprSyntax(next))
        case nil: return value(choice.body.statements)
        }
    }

    /// The values a closure may give: its one expression or what its `return`s give (outside nested
    /// closures), each ternary's two branches apart (`$0.isEmpty ? .idle : .searching`).
    static func returnedValues(of closure: ClosureExprSyntax) -> [ExprSyntax] {
        if closure.statements.count == 1, let item = closure.statements.first?.item,
           let e = item.as(ExpressionStmtSyntax.self)?.expression ?? item.as(ExprSyntax.self) {
            return branches(e)
        }
        return SwitchFinder.scan(closure.statements).returns.compactMap(\.expression).flatMap(branches)
    }

    /// Whether a body holds a closure at all (work it may start): most initializers hold none.
    static func mayStartWork(_ body: CodeBlockSyntax) -> Bool {
        body.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .leftBrace && $0.parent?.is(ClosureExprSyntax.self) == true }
    }

    /// A subscription a closure is given to: its method, and the start of its chain by its last name (the
    /// notification of `center.publisher(for: .didEnterBackgroundNotification).sink { … }` and
    /// `addObserver(forName: …)`; the value the operators apply to, `$query` of `$query.debounce(…).sink { … }`,
    /// `loginTap` of `input.loginTap.subscribe(onNext: { … })`, `Timer` of `Timer.publish(…)…`).
    struct Subscription {
        var method: String
        var source: String?
        /// The source delivers again and again: a notification, a `@Published` projection, a timer.
        var repeating: Bool
    }

    static func subscription(of closure: ClosureExprSyntax) -> Subscription? {
        guard let call = call(taking: closure), let method = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
              subscriptionMethods.contains(method) else { return nil }
        func lastName(_ e: ExprSyntax) -> String? {
            path(e).map { String($0.split(separator: ".").last!) } ?? unwrap(e).as(MemberAccessExprSyntax.self)?.declName.baseName.text
        }
        if method == "addObserver" { return Subscription(method: method, source: argument(call, "forName").flatMap(lastName), repeating: true) }
        var base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base
        while let b = base.map(unwrap) {
            guard let c = b.as(FunctionCallExprSyntax.self) else {
                guard b.is(MemberAccessExprSyntax.self) || b.is(DeclReferenceExprSyntax.self), let name = lastName(b) else { break }
                return Subscription(method: method, source: name, repeating: name.hasPrefix("$") || b.trimmedText.hasPrefix("Timer"))
            }
            let member = c.calledExpression.as(MemberAccessExprSyntax.self)
            if ["publisher", "notifications"].contains(member?.declName.baseName.text ?? ""), let name = c.arguments.first?.expression {
                return Subscription(method: method, source: lastName(name), repeating: true)
            }
            base = member?.base
        }
        return Subscription(method: method, source: nil, repeating: false)
    }

    /// Whether a subscription delivers again and again, in whatever state the machine is by then: KVO
    /// (`observe(\.status)`), notifications, RxSwift's `onNext` and RxCocoa's `bind`/`drive`, a `@Published`
    /// projection (`$query.sink`), a timer (`Timer.publish(…)`); not a request's one answer
    /// (`api.load().sink`, `single.subscribe(onSuccess:)`).
    /// So does a handler kept to be called on each change or event (`connection.stateUpdateHandler = { … }`,
    /// `monitor.pathUpdateHandler`, `onChange`, `socket.onMessage`; not one named as an operation's answer,
    /// `completionHandler`, `onFinish`, or its one end, `task.expirationHandler`), a timer that repeats (`Timer.scheduledTimer(withTimeInterval:
    /// 1, repeats: true) { … }`), and a control's `UIAction`.
    static func deliversRepeatedly(_ closure: ClosureExprSyntax, kind: String) -> Bool {
        // (a handler kept in another value is called on each of its events, `socket.onMessage = { … }`,
        // `client.onEvent`, unless it is named as an operation's one answer, `task.completionHandler`)
        if let handler = handlerProperty(of: closure)?.lowercased() {
            return handler.contains("update") || handler.contains("change")
                || !["complet", "finish", "done", "success", "failure", "result", "response", "reply", "expir", "cancel", "timeout"]
                    .contains(where: handler.contains)
        }
        if let call = call(taking: closure) {
            if argument(call, "repeats")?.trimmedText == "true" { return true }
            // (a control's action, run on each tap: `button.addAction(UIAction(title: "Write") { _ in … }, for: .touchUpInside)`)
            if call.calledExpression.trimmedText == "UIAction" { return true }
        }
        guard let s = subscription(of: closure) else { return false }
        return ["observe", "addObserver", "bind", "drive"].contains(s.method) || kind == "onNext" || s.repeating
    }

    /// Whether a method is a delegate's callback, an event of the world the framework calls: named after
    /// the object calling it, which it takes first, unlabelled, then the event in labels or in `Did`,
    /// `Will`, `Should` (`centralManager(_ central: CBCentralManager, didConnect peripheral: …)`,
    /// `audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, …)`, `urlSession(_ session: URLSession,
    /// …)`; the type's prefix, `CB`, `AV`, may be left out). (`dataRowReceived(_ row: DataRow)` is none.)
    static func isDelegateCallback(_ method: FunctionDeclSyntax) -> Bool {
        let parameters = method.signature.parameterClause.parameters
        guard let first = parameters.first, first.firstName.tokenKind == .wildcard else { return false }
        let name = method.name.text
        var type = Substring(first.type.trimmedText.trimmingCharacters(in: CharacterSet(charactersIn: "!?")))
        while type.count >= 4 {
            if name.lowercased().hasPrefix(type.lowercased()) {
                let rest = name.dropFirst(type.count)
                return rest.isEmpty ? parameters.count > 1 : ["Did", "Will", "Should"].contains { rest.hasPrefix($0) }
            }
            guard type.first?.isUppercase == true, type.dropFirst().first?.isUppercase == true else { return false }
            type = type.dropFirst()
        }
        return false
    }

    /// A method's full name, `centralManager(_:didConnect:)`.
    static func fullName(_ method: FunctionDeclSyntax) -> String {
        method.name.text + "(" + method.signature.parameterClause.parameters.map { $0.firstName.text + ":" }.joined() + ")"
    }

    /// Methods that subscribe a closure to values delivered again and again (Combine, RxSwift, KVO,
    /// notifications).
    static let subscriptionMethods: Set<String> = ["sink", "subscribe", "bind", "drive", "observe", "addObserver"]

    /// The call a closure is given to: as its trailing closure, an argument or an additional trailing closure.
    static func call(taking closure: ClosureExprSyntax) -> FunctionCallExprSyntax? {
        var node = closure.parent
        if node?.is(LabeledExprSyntax.self) == true || node?.is(MultipleTrailingClosureElementSyntax.self) == true { node = node?.parent?.parent }
        return node?.as(FunctionCallExprSyntax.self)
    }

    /// The property of another value a closure is stored in, to be called back later
    /// (`monitor.pathUpdateHandler = { [weak self] path in … }`, `player.onFinish = { … }`): its name. Nil
    /// for a closure stored in the type's own property or a local, whose calls the walk sees.
    static func handlerProperty(of closure: ClosureExprSyntax) -> String? {
        guard let sequence = closure.parent?.parent?.as(SequenceExprSyntax.self), let (lhs, rhs) = assignment(sequence),
              rhs.count == 1, rhs[0].id == closure.id,
              let member = lhs.as(MemberAccessExprSyntax.self), let base = member.base, !isSelf(base) else { return nil }
        return member.declName.baseName.text
    }

    /// For a call of one of a lock's `accessors` (`state.withLock { state in … }`, paths as written), the
    /// closure it runs with the value it holds, and the name the closure gives that value (`state`, `$0`).
    static func accessorClosure(of call: FunctionCallExprSyntax, among accessors: Set<String>) -> (closure: ClosureExprSyntax, value: String)? {
        guard !accessors.isEmpty, let path = path(call.calledExpression), accessors.contains(path),
              let closure = call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self) else { return nil }
        return (closure, closureParameterNames(closure).first ?? "$0")
    }

    /// Whether a statement calls another initializer of the type (`self.init(…)`, `try self.init(…)`).
    static func delegatesToSelfInit(_ item: CodeBlockItemSyntax.Item) -> Bool {
        guard let expr = item.as(ExprSyntax.self) ?? item.as(ExpressionStmtSyntax.self)?.expression,
              let call = unwrap(expr).as(FunctionCallExprSyntax.self) else { return false }
        return call.calledExpression.trimmedText == "self.init"
    }

    /// `self`, `self?` or `self!`: a member call on it is the type's own (`self?.handle(result)`).
    static func isSelf(_ expr: ExprSyntax) -> Bool {
        if ["self", "self?", "self!"].contains(expr.trimmedText) { return true }
        let e = expr.as(OptionalChainingExprSyntax.self)?.expression ?? expr.as(ForceUnwrapExprSyntax.self)?.expression ?? expr
        return e.as(DeclReferenceExprSyntax.self).map(aliasesSelf) ?? false
    }

    /// Whether a name is a local holding `self`, as the closures of older code name it (`guard let
    /// strongSelf = self else { return }`, `if let me = self`, `[weak weakSelf = self]`, `let this =
    /// self`): the binding of that name visible where it is written is looked up, as Swift does. (Only
    /// names saying `self`, and `me` and `this`, are looked up: every member path asks.)
    static func aliasesSelf(_ ref: DeclReferenceExprSyntax) -> Bool {
        let name = ref.baseName.text
        guard name != "self", name == "me" || name == "this" || name.lowercased().contains("self") else { return false }
        func isSelfValue(_ value: ExprSyntax?) -> Bool {
            guard let value else { return false }
            let e = value.as(ForceUnwrapExprSyntax.self)?.expression ?? value.as(OptionalChainingExprSyntax.self)?.expression ?? value
            return e.as(DeclReferenceExprSyntax.self)?.baseName.text == "self"
        }
        let declaration = SymbolIndex.localDeclaration(of: name, around: Syntax(ref))
        if let b = declaration?.as(PatternBindingSyntax.self) { return isSelfValue(b.initializer?.value) }
        if case .optionalBinding(let b)? = declaration?.as(ConditionElementSyntax.self)?.condition { return isSelfValue(b.initializer?.value) }
        if let capture = declaration?.as(ClosureCaptureSyntax.self) {
            let tokens = capture.tokens(viewMode: .sourceAccurate).map(\.text)
            return tokens.firstIndex(of: "=").map { tokens[($0 + 1)...] == ["self"] } ?? false
        }
        return false
    }

    /// The nearest node from `node` up, itself first, that `transform` maps to a value (swift-syntax's own
    /// `ancestorOrSelf` is not public in every version this package supports).
    static func nearest<T>(_ node: some SyntaxProtocol, _ transform: (Syntax) -> T?) -> T? {
        var current: Syntax? = Syntax(node)
        while let c = current {
            if let found = transform(c) { return found }
            current = c.parent
        }
        return nil
    }

    /// The innermost closure a node is in.
    static func enclosingClosure(of node: Syntax) -> ClosureExprSyntax? {
        sequence(first: node, next: { $0.parent }).lazy.compactMap { $0.as(ClosureExprSyntax.self) }.first
    }

    /// Whether a closure's capture list holds `self` weakly or unowned (`[weak self]`).
    static func holdsSelfWeakly(_ closure: ClosureExprSyntax) -> Bool {
        // (by its text: the capture's syntax differs between swift-syntax versions)
        closure.signature?.capture?.items.contains { item in
            ["weak self", "unowned self", "unowned(safe) self", "unowned(unsafe) self"].contains(item.trimmedText)
        } ?? false
    }

    /// The member of a value named by `paths` an expression reads, or the method taking nothing it calls
    /// (`light.next` → `next`, `step.advanced()` → `advanced()`): the names `successors(of:)` keeps.
    static func successorName(_ expr: ExprSyntax, on paths: Set<String>) -> String? {
        if let step = rawStep(expr), paths.contains(path(step.base) ?? "") { return step.name }
        // (an optional one before its fallback: `step.next ?? .done`)
        let e = withoutFallback(expr).value
        if let call = e.as(FunctionCallExprSyntax.self) {
            guard call.arguments.isEmpty, call.trailingClosure == nil else { return nil }
            return member(of: call.calledExpression, on: paths).map { $0 + "()" }
        }
        return member(of: e, on: paths)
    }

    /// `Step(rawValue: step.rawValue + 1)` (or `- 1`), alone or before `?? fallback`: the step's name as
    /// `successors(of:)` keeps it (`rawValue+1`), the value stepped (`step`), and the fallback.
    static func rawStep(_ expr: ExprSyntax) -> (name: String, base: ExprSyntax, fallback: ExprSyntax?)? {
        guard let offset = rawOffset(expr), offset.clamp == nil, offset.amount.as(IntegerLiteralExprSyntax.self)?.literal.text == "1" else { return nil }
        return ("rawValue" + (offset.sign > 0 ? "+" : "-") + "1", offset.base, offset.fallback)
    }

    /// `Phase(rawValue: phase.rawValue + delta)` with any amount (`delta`, `2`): the value stepped, the
    /// sign, the amount, the fallback (`?? .first`) and a clamp (`min(step.rawValue + 1, 3)`: the bound,
    /// and whether it is an upper one). Inside the enum, `Self(rawValue: rawValue + 1)` steps `self`.
    static func rawOffset(_ expr: ExprSyntax) -> (base: ExprSyntax, sign: Int, amount: ExprSyntax, fallback: ExprSyntax?,
                                                   clamp: (upper: Bool, bound: ExprSyntax)?)? {
        guard let (given, fallback) = rawValueArgument(expr) else { return nil }
        var argument = given
        var clamp: (upper: Bool, bound: ExprSyntax)?
        if let call = unwrap(argument).as(FunctionCallExprSyntax.self), let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
           callee == "min" || callee == "max", call.arguments.count == 2, call.arguments.allSatisfy({ $0.label == nil }) {
            let parts = call.arguments.map(\.expression)
            let stepped = parts.firstIndex { unwrapFolded($0).is(InfixOperatorExprSyntax.self) } ?? 0
            argument = parts[stepped]
            clamp = (callee == "min", parts[1 - stepped])
        }
        guard let sum = unwrapFolded(argument).as(InfixOperatorExprSyntax.self),
              case let op = sum.operator.trimmedText, op == "+" || op == "-" else { return nil }
        let raw = unwrap(sum.leftOperand)
        if let member = raw.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "rawValue", let base = member.base {
            return (base, op == "+" ? 1 : -1, sum.rightOperand, fallback, clamp)
        }
        guard raw.as(DeclReferenceExprSyntax.self)?.baseName.text == "rawValue" else { return nil }
        return (ExprSyntax(DeclReferenceExprSyntax(baseName: .keyword(.self))), op == "+" ? 1 : -1, sum.rightOperand, fallback, clamp)
    }

    /// The raw value an expression builds a case from, when it is an integer literal: `.init(rawValue: 0)!`,
    /// `Step(rawValue: 1) ?? .first` (with the fallback).
    static func literalRawValue(_ expr: ExprSyntax) -> (raw: String, fallback: ExprSyntax?)? {
        guard let (argument, fallback) = rawValueArgument(expr) else { return nil }
        // (an integer, or a string without interpolation: `Tier(rawValue: "trial")`)
        if let raw = Int(unwrap(argument).trimmedText) { return ("\(raw)", fallback) }
        guard let text = unwrap(argument).as(StringLiteralExprSyntax.self).flatMap(stringContent) else { return nil }
        return (text, fallback)
    }

    /// The position in an enum's `allCases` (of `count` cases) an expression takes: `Lap.allCases[0]`,
    /// `Self.allCases.first!`, `allCases.last`; nil for another expression or a position out of range.
    /// `isAllCases` tells an expression for `allCases` (by default, one named so).
    static func allCasesPosition(_ expr: ExprSyntax, count: Int, isAllCases: (ExprSyntax) -> Bool = namedAllCases) -> Int? {
        let value = unwrap(expr)
        var position: Int?
        if let sub = value.as(SubscriptCallExprSyntax.self), isAllCases(sub.calledExpression), sub.arguments.count == 1 {
            position = Int(sub.arguments.first!.expression.trimmedText)
        } else if let member = value.as(MemberAccessExprSyntax.self), let base = member.base, isAllCases(base) {
            position = ["first": 0, "last": count - 1][member.declName.baseName.text]
        }
        guard let position, position >= 0, position < count else { return nil }
        return position
    }

    /// `Stage.allCases`, `Self.allCases`, `allCases`.
    static func namedAllCases(_ e: ExprSyntax) -> Bool {
        let e = unwrap(e)
        return e.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "allCases" || e.as(DeclReferenceExprSyntax.self)?.baseName.text == "allCases"
    }

    /// The text of a string literal without interpolation (`"trial"` → `trial`).
    static func stringContent(_ literal: StringLiteralExprSyntax) -> String? {
        let parts = literal.segments.map { $0.as(StringSegmentSyntax.self)?.content.text }
        return parts.contains(nil) ? nil : parts.map { $0! }.joined()
    }

    /// The argument of a case built from its raw value (`Step(rawValue: x)`, `.init(rawValue: x)!`), and
    /// the fallback after `??`.
    static func rawValueArgument(_ expr: ExprSyntax) -> (argument: ExprSyntax, fallback: ExprSyntax?)? {
        let (value, fallback) = withoutFallback(expr)
        guard let call = value.as(FunctionCallExprSyntax.self), call.arguments.count == 1, let argument = call.arguments.first,
              argument.label?.text == "rawValue" else { return nil }
        return (argument.expression, fallback)
    }

    /// An expression before `?? fallback`, and the fallback (`step.next ?? .done`); the expression alone
    /// without one. Folded and unwrapped.
    static func withoutFallback(_ expr: ExprSyntax) -> (value: ExprSyntax, fallback: ExprSyntax?) {
        let e = unwrapFolded(expr)
        guard let infix = e.as(InfixOperatorExprSyntax.self), infix.operator.trimmedText == "??" else { return (e, nil) }
        return (unwrap(infix.leftOperand), infix.rightOperand)
    }

    /// The member an expression names on a value at one of `paths` (`light.next` on `light` gives `next`).
    static func member(of expr: ExprSyntax, on paths: Set<String>) -> String? {
        guard let member = unwrap(expr).as(MemberAccessExprSyntax.self), let base = member.base,
              paths.contains(path(base) ?? "") else { return nil }
        return member.declName.baseName.text
    }

    /// When the code of a closure runs: at once, as part of the call that takes it (`withAnimation { … }`),
    /// as work started to run later (`Task { … }`), or some other time (stored, escaping, a callback).
    enum ClosureRun { case now, started, other }

    static func run(of closure: ClosureExprSyntax, index: SymbolIndex? = nil) -> ClosureRun {
        guard let call = call(taking: closure) else { return handlerProperty(of: closure) != nil ? .started : .other }
        if immediateClosures(of: call, index: index).contains(where: { $0.id == closure.id }) { return .now }
        if laterClosures(of: call, index: index).contains(where: { $0.closure.id == closure.id }) { return .started }
        // (given to a declared parameter of a plain function type: at once)
        return index.map { escapes(closure, from: call, index: $0) == false } == true ? .now : .other
    }

    /// The wrapped type of an optional's written type (`Phase?`, `Phase!`, `Optional<Phase>`); nil for any other type.
    static func optionalWrapped(_ typeText: String) -> String? {
        let t = typeText.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("?") || t.hasSuffix("!") { return String(t.dropLast()) }
        if t.hasPrefix("Optional<"), t.hasSuffix(">") { return String(t.dropFirst("Optional<".count).dropLast()) }
        return nil
    }

    /// The expression with its operators folded, `try`, `await`, `!` and parentheses stripped around it
    /// and around what it folds to (`(state == .idle)` is a comparison).
    static func unwrapFolded(_ expr: ExprSyntax) -> ExprSyntax { unwrap(fold(unwrap(expr))) }

    /// Strips `try`, `await`, parentheses around one element, `!` force unwraps, `consume` and `copy`.
    static func unwrap(_ expr: ExprSyntax) -> ExprSyntax {
        var e = expr
        while true {
            if let t = e.as(TryExprSyntax.self) { e = t.expression; continue }
            if let a = e.as(AwaitExprSyntax.self) { e = a.expression; continue }
            if let t = e.as(TupleExprSyntax.self), t.elements.count == 1, t.elements.first!.label == nil {
                e = t.elements.first!.expression; continue
            }
            if let f = e.as(ForceUnwrapExprSyntax.self) { e = f.expression; continue }
            // `switch consume self.state`: the value itself (moved or copied)
            if let c = e.as(ConsumeExprSyntax.self) { e = c.expression; continue }
            if let c = e.as(CopyExprSyntax.self) { e = c.expression; continue }
            return e
        }
    }

    /// `.x`, `T.x`, `.x(...)`, `T.x(...)`: the case name and the written type prefix. `T.x` counts only
    /// when `T` names a type where it is written (`index.isTypeReference`), not a value (`state.x`).
    /// `anchor`: where the expression is written when it is a rebuilt node outside the input trees.
    /// `accepting`: the names the caller looks for; another name gives nil before anything is looked up.
    /// The case an expression names by its spelling alone (`.emitIdle`, `.close(channel)`, `OnClose.none`,
    /// `true`), for matching a `switch`'s patterns by name; nothing is looked up.
    static func spelledCase(_ expr: ExprSyntax) -> String? {
        var e = unwrap(expr)
        if let call = e.as(FunctionCallExprSyntax.self) { e = call.calledExpression }
        if let literal = e.as(BooleanLiteralExprSyntax.self) { return literal.literal.text }
        guard let member = e.as(MemberAccessExprSyntax.self) else { return nil }
        if let base = member.base, base.as(DeclReferenceExprSyntax.self)?.baseName.text.first?.isUppercase != true { return nil }
        return member.declName.baseName.text.withoutBackticks
    }

    static func caseReference(_ expr: ExprSyntax, _ index: SymbolIndex, at anchor: Syntax? = nil,
                              accepting: (String) -> Bool = { _ in true }) -> (name: String, type: String?)? {
        let e = unwrap(expr)
        if let call = e.as(FunctionCallExprSyntax.self) { return caseReference(call.calledExpression, index, at: anchor, accepting: accepting) }
        if let member = e.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text.withoutBackticks
            guard accepting(name) else { return nil }
            if let base = member.base {
                // `T.self` is `T` itself whether `T` is a type or a value: only a value known as one is left out
                if name == "self" {
                    return index.meaning(ofBase: base, at: anchor) == .value ? nil : (name, base.trimmedText)
                }
                guard index.isTypeReference(base, at: anchor) else { return nil }
                return (name, base.trimmedText)
            }
            return (name, nil)
        }
        return nil
    }

    /// Whether a case is written with its payload (`.page(1)`, `Step.sending(count)`): a comparison with it
    /// holds for some values of the case only.
    static func withPayload(_ expr: ExprSyntax) -> Bool {
        guard let call = unwrap(expr).as(FunctionCallExprSyntax.self) else { return false }
        return !call.arguments.isEmpty || call.trailingClosure != nil
    }

    /// A test of an enum value's case through CasePaths (`phase.is(\.uploading)`, `test: true`), or its
    /// case's payload read as an optional (`phase.uploading`, `phase[case: \.uploading]`, as `@CasePathable`
    /// enums allow, `test: false`): the value and the case's name.
    static func casePath(_ raw: ExprSyntax, test: Bool) -> (base: ExprSyntax, name: String)? {
        let e = unwrap(raw)
        func keyPathName(_ arguments: LabeledExprListSyntax, label: String?) -> String? {
            guard arguments.count == 1, arguments.first?.label?.text == label,
                  let path = arguments.first?.expression.as(KeyPathExprSyntax.self) else { return nil }
            return path.components.last?.component.as(KeyPathPropertyComponentSyntax.self)?.declName.baseName.text
        }
        if test {
            guard let call = e.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                  member.declName.baseName.text == "is", let base = member.base, let name = keyPathName(call.arguments, label: nil) else { return nil }
            return (base, name)
        }
        if let subscriptCall = e.as(SubscriptCallExprSyntax.self), let name = keyPathName(subscriptCall.arguments, label: "case") {
            return (subscriptCall.calledExpression, name)
        }
        guard let member = e.as(MemberAccessExprSyntax.self), let base = member.base else { return nil }
        return (base, member.declName.baseName.text)
    }

    /// The first name of an expression's path: `self.state.mode` → `state`.
    /// Whether statements are one call that stops the program (`fatalError(…)`, `preconditionFailure(…)`):
    /// a case written for what must not happen.
    static func onlyTraps(_ statements: CodeBlockItemListSyntax) -> Bool {
        guard statements.count == 1, let item = statements.first?.item else { return false }
        let expr = item.as(ExpressionStmtSyntax.self)?.expression ?? item.as(ExprSyntax.self)
        guard let call = expr.flatMap({ unwrap($0).as(FunctionCallExprSyntax.self) }) else { return false }
        return ["fatalError", "preconditionFailure"].contains(call.calledExpression.trimmedText)
    }

    static func root(_ expr: ExprSyntax) -> String? {
        path(expr).map { String($0.prefix { $0 != "." }) }
    }

    /// The left side of an unfolded compound assignment (`score += 1`, `lives -= 1`).
    static func compoundAssignment(_ node: SequenceExprSyntax) -> ExprSyntax? {
        let parts = Array(node.elements)
        guard parts.count >= 3, let op = parts[1].as(BinaryOperatorExprSyntax.self), isCompoundAssignment(op) else { return nil }
        return parts[0]
    }

    /// Whether an operator assigns what it computes (`+=`, `-=`, `&&=`), not a comparison (`==`, `<=`).
    static func isCompoundAssignment(_ op: BinaryOperatorExprSyntax) -> Bool {
        let text = op.operator.text
        return text.count >= 2 && text.hasSuffix("=") && !["==", "!=", "<=", ">=", "===", "!=="].contains(text)
    }

    /// An unfolded assignment `lhs = …` (a sequence whose second element is `=`): its left side and the
    /// elements after `=` (one for `x = .a`, more for `x = a ?? b`).
    static func assignment(_ node: some SyntaxProtocol) -> (lhs: ExprSyntax, rhs: [ExprSyntax])? {
        guard let elements = Syntax(node).as(SequenceExprSyntax.self)?.elements, elements.count >= 3 else { return nil }
        let parts = Array(elements)
        return parts[1].is(AssignmentExprSyntax.self) ? (parts[0], Array(parts[2...])) : nil
    }

    /// `x as T`, `x as? T` or `x as! T` as written (folded or not): `x`, `T` and the mark after `as`.
    static func cast(_ value: ExprSyntax) -> (value: ExprSyntax, type: String, mark: TokenKind?)? {
        let e = unwrap(value)
        if let cast = e.as(AsExprSyntax.self) { return (cast.expression, cast.type.trimmedText, cast.questionOrExclamationMark?.tokenKind) }
        guard let sequence = e.as(SequenceExprSyntax.self), sequence.elements.count == 3 else { return nil }
        let parts = Array(sequence.elements)
        guard let op = parts[1].as(UnresolvedAsExprSyntax.self), let type = parts[2].as(TypeExprSyntax.self) else { return nil }
        return (parts[0], type.type.trimmedText, op.questionOrExclamationMark?.tokenKind)
    }

    /// `x as? T`: the path of `x` and `T`.
    static func conditionalCast(_ value: ExprSyntax) -> (base: String, type: String)? {
        guard let (x, type, mark) = cast(value), mark == .postfixQuestionMark, let base = path(x) else { return nil }
        return (base, type)
    }

    /// The type a `case` pattern matches by a cast, as written: `is Reset`, `_ as Undo`, `let a as AddTodo`.
    static func typeCase(_ pattern: PatternSyntax) -> String? {
        if let t = pattern.as(IsTypePatternSyntax.self) { return t.type.trimmedText }
        if let b = pattern.as(ValueBindingPatternSyntax.self) { return typeCase(b.pattern) }
        guard let e = pattern.as(ExpressionPatternSyntax.self)?.expression, let (_, type, mark) = cast(e), mark == nil else { return nil }
        return type
    }

    /// Mobius's `Next<Model, Effect>` written as a return type (`MobiusCore.Next` too): the model's type
    /// as written.
    static func nextModelType(_ type: TypeSyntax) -> String? {
        let (name, clause) = if let id = type.as(IdentifierTypeSyntax.self) { (id.name.text, id.genericArgumentClause) }
            else if let member = type.as(MemberTypeSyntax.self), member.baseType.trimmedText == "MobiusCore" { (member.name.text, member.genericArgumentClause) }
            else { ("", nil) }
        guard name == "Next", let arguments = clause?.arguments, arguments.count == 2 else { return nil }
        return arguments.first!.argument.trimmedText
    }

    /// A value of Mobius's `Next` (`Next.` written or not): `.next(m)` and `.next(m, effects: e)` give the
    /// next model, `.dispatchEffects(e)` keeps it and runs effects, `.noChange` neither (both parts nil).
    static func nextValue(_ value: ExprSyntax) -> (model: ExprSyntax?, effects: ExprSyntax?)? {
        func named(_ member: MemberAccessExprSyntax) -> String? {
            guard member.base.map({ ["Next", "MobiusCore.Next"].contains(genericBase($0.trimmedText)) }) ?? true else { return nil }
            return member.declName.baseName.text
        }
        let e = unwrap(value)
        if let member = e.as(MemberAccessExprSyntax.self) { return named(member) == "noChange" ? (nil, nil) : nil }
        guard let call = e.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self) else { return nil }
        let arguments = Array(call.arguments)
        switch named(member) {
        case "next" where !arguments.isEmpty && arguments[0].label == nil:
            return (arguments[0].expression, arguments.first { $0.label?.text == "effects" }?.expression)
        case "dispatchEffects" where arguments.count == 1:
            return (nil, arguments[0].expression)
        default:
            return nil
        }
    }

    /// A value built by a call of a type's initializer as written: `Model(…)` gives `Model`, `.init(…)`
    /// gives nil (the type is the context's); nil for anything else.
    static func construction(_ value: ExprSyntax) -> String?? {
        guard let built = unwrap(value).as(FunctionCallExprSyntax.self)?.calledExpression else { return nil }
        if let type = built.as(DeclReferenceExprSyntax.self) { return .some(type.baseName.text) }
        return built.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "init" ? .some(nil) : nil
    }

    /// `Next` of `Next<M, E>`.
    private static func genericBase(_ text: String) -> String { String(text.prefix { $0 != "<" }) }

    /// The one value a body gives: `return x`, or its one expression (`{ .init(phase: .shut) }`).
    static func onlyValue(_ items: CodeBlockItemListSyntax) -> ExprSyntax? {
        guard items.count == 1, let item = items.first?.item else { return nil }
        if let r = item.as(ReturnStmtSyntax.self) { return r.expression }
        return item.as(ExprSyntax.self) ?? item.as(ExpressionStmtSyntax.self)?.expression
    }

    /// The array literal of `[…]`, `Set([…])` or `Set<T>([…])`.
    static func arrayLiteral(_ expr: ExprSyntax) -> ArrayExprSyntax? {
        let e = unwrap(expr)
        if let call = e.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
           SymbolIndex.bareTypeName(call.calledExpression.trimmedText) == "Set" {
            return unwrap(call.arguments.first!.expression).as(ArrayExprSyntax.self)
        }
        return e.as(ArrayExprSyntax.self)
    }

    /// The value a local constant is given where it is declared (`let i = …`, `guard let i = …`, `if let i =
    /// …`), for a reference to it; nil for a variable, a parameter or anything else.
    static func localValue(_ ref: DeclReferenceExprSyntax) -> ExprSyntax? {
        guard let declaration = SymbolIndex.localDeclaration(of: ref.baseName.text, around: Syntax(ref)) else { return nil }
        if let b = declaration.as(PatternBindingSyntax.self) {
            return b.parent?.parent?.as(VariableDeclSyntax.self)?.bindingSpecifier.tokenKind == .keyword(.let) ? b.initializer?.value : nil
        }
        guard case .optionalBinding(let o)? = declaration.as(ConditionElementSyntax.self)?.condition,
              o.bindingSpecifier.tokenKind == .keyword(.let), o.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == ref.baseName.text else { return nil }
        return o.initializer?.value
    }

    /// The last name of an expression's path: `self.machine.route` → `route`.
    static func lastName(_ expr: ExprSyntax) -> String? {
        path(expr).flatMap { $0.split(separator: ".").last.map(String.init) }
    }

    /// The states a subject (`machine.currentState`, a holder's `state`) can be in where `node` runs, by the
    /// tests of its type around it: `if subject is X` (the `else` side: not `X`), `guard subject is X else
    /// { … }` before it, `if let s = subject as? X`, `case is X:` and `case let s as X:` of a `switch` over
    /// it (`default`: the types no case before names); `!`, `&&`, `||` combine them. `states` is nil when
    /// nothing around it says. `anchor`: the statements the innermost test decides (those after a `guard`),
    /// whose conditions of data the caller weighs; `sure`: every condition above them is such a test.
    static func typeTestedSources(of node: Syntax, states: Set<String>, subject: (ExprSyntax) -> Bool)
        -> (states: Set<String>?, sure: Bool, anchor: (items: CodeBlockItemListSyntax, after: AbsolutePosition)?) {
        func type(_ text: String) -> Set<String>? {
            let name = SymbolIndex.bareTypeName(text)
            return states.contains(name) ? [name] : nil
        }
        func test(_ raw: ExprSyntax) -> Set<String>? {
            let e = unwrap(fold(unwrap(raw)))
            if let isExpr = e.as(IsExprSyntax.self), subject(isExpr.expression) { return type(isExpr.type.trimmedText) }
            if let not = e.as(PrefixOperatorExprSyntax.self), not.operator.text == "!" { return test(not.expression).map { states.subtracting($0) } }
            if let infix = e.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text,
               op == "||" || op == "&&" {
                guard let a = test(infix.leftOperand), let b = test(infix.rightOperand) else { return nil }
                return op == "||" ? a.union(b) : a.intersection(b)
            }
            return nil
        }
        // the states the conditions of an `if` or `guard` allow, and whether each is such a test
        func tests(_ conditions: ConditionElementListSyntax) -> (Set<String>?, all: Bool) {
            var result: Set<String>?
            var all = true
            for element in conditions {
                var t: Set<String>?
                switch element.condition {
                case .expression(let e): t = test(e)
                case .optionalBinding(let b):
                    if let value = b.initializer?.value, let cast = unwrap(fold(value)).as(AsExprSyntax.self), subject(cast.expression) {
                        t = type(cast.type.trimmedText)
                    }
                default: break
                }
                if let t { result = (result ?? states).intersection(t) } else { all = false }
            }
            return (result, all)
        }
        var result: Set<String>?
        var anchor: (items: CodeBlockItemListSyntax, after: AbsolutePosition)?
        var sure = true
        // a test narrows what runs in `items` (after `after`); `all`: every condition of it is a test
        func narrow(_ t: Set<String>?, all: Bool, _ items: CodeBlockItemListSyntax, after: AbsolutePosition) {
            if let t {
                result = (result ?? states).intersection(t)
                if anchor == nil { anchor = (items, after); sure = true }
            }
            if !all { sure = false }
        }
        var child = node
        while let parent = child.parent {
            defer { child = parent }
            if let i = parent.as(IfExprSyntax.self) {
                let (t, all) = tests(i.conditions)
                if child.id == i.body.id {
                    narrow(t, all: all, i.body.statements, after: i.body.position)
                } else if child.id == i.elseBody?.id {
                    // (the `else` side of one test: the other states)
                    if i.conditions.count == 1, let t, case .codeBlock(let block)? = i.elseBody {
                        narrow(states.subtracting(t), all: true, block.statements, after: block.position)
                    } else if i.conditions.count == 1, let t {
                        result = (result ?? states).subtracting(t)
                    } else {
                        sure = false
                    }
                }
            } else if let c = parent.as(SwitchCaseSyntax.self), let sw = c.parent?.parent?.as(SwitchExprSyntax.self) {
                guard subject(sw.subject) else { sure = false; continue }
                // (`default`: what no `case is X` before it took)
                var earlier = Set<String>()
                for other in cases(of: sw) {
                    var these = Set<String>()
                    var read = true
                    // (`case is X where …`: from `X`, when the clause holds)
                    var guarded = false
                    if case .case(let label) = other.label {
                        for item in label.caseItems {
                            // (`case is X`, `case let x as X`)
                            let typeText = item.pattern.as(IsTypePatternSyntax.self)?.type.trimmedText
                                ?? item.pattern.as(ValueBindingPatternSyntax.self).flatMap { b in
                                    b.compactText.contains(" as ") ? b.compactText.components(separatedBy: " as ").last : nil
                                }
                            if let typeText, let t = type(typeText) {
                                these.formUnion(t)
                                guarded = guarded || item.whereClause != nil
                            } else {
                                read = false
                            }
                        }
                    } else {
                        these = states.subtracting(earlier)
                    }
                    if other.id == c.id {
                        narrow(read ? these : nil, all: read && !guarded, c.statements, after: c.position)
                        break
                    }
                    if read, !guarded { earlier.formUnion(these) }
                }
            } else if let list = parent.as(CodeBlockItemListSyntax.self) {
                for item in list where item.position < child.position {
                    if let g = item.item.as(GuardStmtSyntax.self) {
                        let (t, all) = tests(g.conditions)
                        narrow(t, all: all, list, after: g.endPosition)
                    }
                }
            } else if parent.is(FunctionDeclSyntax.self) || parent.is(ClosureExprSyntax.self) || parent.is(AccessorBlockSyntax.self) {
                if parent.is(ClosureExprSyntax.self) { sure = false }
                break
            } else if parent.is(ForStmtSyntax.self) || parent.is(WhileStmtSyntax.self) || parent.is(RepeatStmtSyntax.self)
                        || parent.is(TernaryExprSyntax.self) || parent.is(DoStmtSyntax.self) && child.is(CatchClauseListSyntax.self) {
                sure = false
            }
        }
        return (result, sure, anchor)
    }

    /// Text of an expression as a path, with `self.` removed: `self.state.mode` → `state.mode`.
    static func path(_ expr: ExprSyntax) -> String? {
        let e = unwrap(expr)
        // a name the parser found missing (`a.`, `::`) has no text: no path, so every path is names
        // joined by dots, none of them empty
        if let ref = e.as(DeclReferenceExprSyntax.self) { return ref.baseName.text.nilIfEmpty }
        if let member = e.as(MemberAccessExprSyntax.self), let base = member.base {
            let name = member.declName.baseName.text
            guard !name.isEmpty else { return nil }
            // (`self?.state` in a closure holding `self` weakly is `self.state`)
            let owner = base.as(OptionalChainingExprSyntax.self)?.expression ?? base
            if let r = owner.as(DeclReferenceExprSyntax.self), r.argumentNames == nil, r.baseName.text == "self" || aliasesSelf(r) { return name }
            guard let b = path(base) else { return nil }
            return b + "." + name
        }
        if let opt = e.as(OptionalChainingExprSyntax.self) { return path(opt.expression) }
        // an element of a keyed collection, whatever the key: `state.downloads[id]` → `state.downloads[]`
        if let sub = e.as(SubscriptCallExprSyntax.self), let b = path(sub.calledExpression) { return b + "[]" }
        return nil
    }

    static func closureParameterNames(_ closure: ClosureExprSyntax) -> [String] {
        guard let clause = closure.signature?.parameterClause else { return [] }
        switch clause {
        case .simpleInput(let list): return list.map { $0.name.text }
        case .parameterClause(let p): return p.parameters.map { ($0.secondName ?? $0.firstName).text }
        }
    }

    static func closureParameterTypes(_ closure: ClosureExprSyntax) -> [String?] {
        guard let clause = closure.signature?.parameterClause else { return [] }
        switch clause {
        case .simpleInput(let list): return list.map { _ in nil }
        case .parameterClause(let p): return p.parameters.map { $0.type?.trimmedText }
        }
    }

    /// The trailing or last closure argument of a call, if any.
    static func closures(of call: FunctionCallExprSyntax) -> [ClosureExprSyntax] {
        var result = call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
        if let t = call.trailingClosure { result.append(t) }
        result += call.additionalTrailingClosures.map(\.closure)
        return result
    }

    /// Whether `inner` is `outer` or inside it (both of one tree): by position, and for a node of no
    /// width on `outer`'s edge, by its parents.
    static func isWithin(_ inner: some SyntaxProtocol, _ outer: some SyntaxProtocol) -> Bool {
        guard inner.position >= outer.position, inner.endPosition <= outer.endPosition else { return false }
        if inner.position > outer.position && inner.endPosition < outer.endPosition { return true }
        var current: Syntax? = Syntax(inner)
        while let c = current {
            if c.id == outer.id { return true }
            current = c.parent
        }
        return false
    }

    /// The nodes of `found` (in walk order) that `accept` keeps, leaving out those inside one it kept:
    /// a finder's `.skipChildren` for a node it can only judge once the index is built.
    static func outermost<T>(_ found: [T], node: (T) -> Syntax, where accept: (T) -> Bool) -> [T] {
        var kept: [T] = []
        for item in found {
            // in walk order, what is inside a kept node comes right after it, before any other kept one
            if let last = kept.last, isWithin(node(item), node(last)) { continue }
            if accept(item) { kept.append(item) }
        }
        return kept
    }

    static func argument(_ call: FunctionCallExprSyntax, _ label: String) -> ExprSyntax? {
        call.arguments.first { $0.label?.text == label }?.expression
    }

    /// The name a value is bound to (`let x = <node>` / `var x: T { <node> }`), walking up.
    static func enclosingBindingName(_ node: some SyntaxProtocol) -> String? {
        var current: Syntax? = Syntax(node)
        while let c = current {
            if let b = c.as(PatternBindingSyntax.self), let id = b.pattern.as(IdentifierPatternSyntax.self) { return id.identifier.text }
            if let f = c.as(FunctionDeclSyntax.self) { return f.name.text }
            if c.is(CodeBlockItemSyntax.self), c.parent?.parent?.is(SourceFileSyntax.self) == true { return nil }
            current = c.parent
        }
        return nil
    }

    /// The name an expression's value is given: the variable it initializes or the property it is assigned
    /// to (`light = events.scan(…) { … }`, `self.light = …`, `let light = …`), through the calls chained
    /// after it (`.eraseToAnyPublisher()`); none when a subscription takes the values (`bag = events.scan(…)
    /// { … }.sink { … }` names the subscription).
    static func assignedName(_ expr: some SyntaxProtocol) -> String? {
        var node = Syntax(expr)
        while let parent = node.parent, parent.is(MemberAccessExprSyntax.self) || parent.is(FunctionCallExprSyntax.self) && parent.as(FunctionCallExprSyntax.self)?.calledExpression.id == node.id {
            // (Combine's `.assign(to: &$screen)`, `.assign(to: \.screen, on: self)`: the property it feeds)
            if let member = parent.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "assign",
               let call = member.parent?.as(FunctionCallExprSyntax.self), let to = argument(call, "to") {
                let text = to.trimmedText.filter { !"&$\\".contains($0) }
                return text.split(separator: ".").last.map(String.init)
            }
            if let member = parent.as(MemberAccessExprSyntax.self), subscriptionMethods.contains(member.declName.baseName.text) { return nil }
            node = parent
        }
        if let binding = node.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self) {
            return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        }
        guard let sequence = node.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self),
              let (lhs, rhs) = assignment(sequence), rhs.count == 1, rhs[0].id == node.id else { return nil }
        return path(lhs).map { String($0.split(separator: ".").last!) }
    }

    /// Names of the types the node is nested in, outermost first.
    static func enclosingTypeNames(_ node: some SyntaxProtocol) -> [String] {
        declarationPath(node, functions: false)
    }

    /// Where a node is declared, as types and functions: `Outer.Inner`, `Suite.test_login()` (closures
    /// and property bodies add nothing). Part of machine ids; never a line number.
    static func declarationPath(_ node: some SyntaxProtocol, functions: Bool = true) -> [String] {
        var parts: [String] = []
        var current = node.parent
        while let c = current {
            if let s = c.as(StructDeclSyntax.self) { parts.append(s.name.text) }
            else if let s = c.as(ClassDeclSyntax.self) { parts.append(s.name.text) }
            else if let s = c.as(EnumDeclSyntax.self) { parts.append(s.name.text) }
            else if let s = c.as(ActorDeclSyntax.self) { parts.append(s.name.text) }
            else if let e = c.as(ExtensionDeclSyntax.self) { parts.append(SymbolIndex.bareTypeName(e.extendedType.trimmedText)) }
            else if functions, let f = c.as(FunctionDeclSyntax.self) { parts.append(f.name.text + "()") }
            else if functions, c.is(InitializerDeclSyntax.self) { parts.append("init()") }
            current = c.parent
        }
        return parts.reversed()
    }

    /// Every identifier-like type name written in a type or generic argument list text.
    static func typeNames(in text: String) -> [String] {
        text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }).map(String.init)
    }
}

extension String {
    /// The name with its backticks removed (`` `default` `` is `default`); most names have none, and
    /// are returned as they are without Foundation's search.
    var withoutBackticks: String { utf8.contains(UInt8(ascii: "`")) ? replacingOccurrences(of: "`", with: "") : self }
}

/// Trees rebuilt from input nodes (operators folded), each with the node it was rebuilt from: a node of
/// a rebuilt tree has the same text at the same offset as its original, which the index resolves names at.
/// Read and written from several threads: behind a lock. The rebuilt trees are kept while their run
/// lasts, so their ids stay theirs; a long-lived process (tests, the fuzz target, a library user) must
/// not keep every tree it ever folded, so `Extractor.extract` begins and ends a run with its files:
/// the trees rebuilt from them (also through a file re-parsed from their text, `reparsed`) are let go
/// at its end, and when no run is left, nothing is kept at all.
final class Rebuilt: @unchecked Sendable {
    static let shared = Rebuilt()
    private let lock = NSLock()
    /// rebuilt root → the tree, the node it was rebuilt from, and the input file's root under both
    private var byRoot: [SyntaxIdentifier: (rebuilt: Syntax, original: Syntax, file: SyntaxIdentifier)] = [:]
    /// root of a file parsed again from an input file's text (`?` of patterns blanked) → that tree (kept
    /// while the run lasts, so its id is not reused) and the input file's root
    private var reparses: [SyntaxIdentifier: (tree: Syntax, file: SyntaxIdentifier)] = [:]
    /// input file roots of the runs in progress, with how many runs read each
    private var running: [SyntaxIdentifier: Int] = [:]

    /// The input file a tree comes from: its own root, unless it was rebuilt or re-parsed from one.
    private func file(of tree: Syntax) -> SyntaxIdentifier {
        let root = tree.root.id
        return byRoot[root]?.file ?? reparses[root]?.file ?? root
    }

    func record(_ rebuilt: Syntax, from original: Syntax) {
        lock.lock()
        // a tree folded from a rebuilt or re-parsed tree belongs to the same input file
        byRoot[rebuilt.root.id] = (rebuilt, original, file(of: original))
        lock.unlock()
    }

    /// A tree parsed from the text of `file`'s tree, rewritten: what is folded from it is forgotten with
    /// `file`. (Before, such trees counted as input files of their own, and no run ever let them go.)
    func reparsed(_ tree: Syntax, from file: Syntax) {
        lock.lock()
        reparses[tree.root.id] = (tree, self.file(of: file))
        lock.unlock()
    }

    /// A run over the files with these roots begins.
    func begin(files roots: Set<SyntaxIdentifier>) {
        lock.lock()
        for root in roots { running[root, default: 0] += 1 }
        lock.unlock()
    }

    /// A run over the files with these roots ends: drops the trees rebuilt and re-parsed from those no
    /// other run reads, and everything once no run is in progress (a tree of unknown origin is not
    /// kept for ever either).
    func end(files roots: Set<SyntaxIdentifier>) {
        lock.lock()
        var done = Set<SyntaxIdentifier>()
        for root in roots {
            let left = (running[root] ?? 1) - 1
            running[root] = left > 0 ? left : nil
            if left <= 0 { done.insert(root) }
        }
        ProcessTuning.keepUntilExit((byRoot, reparses))
        if running.isEmpty {
            byRoot.removeAll()
            reparses.removeAll()
        } else {
            byRoot = byRoot.filter { !done.contains($0.value.file) }
            reparses = reparses.filter { !done.contains($0.value.file) }
        }
        lock.unlock()
    }

    /// How many rebuilt and re-parsed trees are kept (tests).
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return byRoot.count + reparses.count
    }

    /// The root of the input file a node comes from: its tree's own, unless the tree was rebuilt or
    /// re-parsed from an input file.
    func inputRoot(of node: Syntax) -> SyntaxIdentifier {
        lock.lock()
        defer { lock.unlock() }
        return file(of: node)
    }

    /// The input node a node of a rebuilt tree was copied from (same kind, text and offset); nil for
    /// nodes of other trees.
    func original(of node: Syntax) -> Syntax? {
        lock.lock()
        let entry = byRoot[node.root.id]
        lock.unlock()
        guard let entry else { return nil }
        let offset = node.position.utf8Offset - entry.rebuilt.position.utf8Offset
        let target = AbsolutePosition(utf8Offset: entry.original.position.utf8Offset + offset)
        guard offset >= 0, let token = entry.original.token(at: target) else { return nil }
        var current: Syntax? = Syntax(token)
        while let c = current, c.position >= entry.original.position {
            if c.kind == node.kind, c.position == target, c.totalLength == node.totalLength { return c }
            current = c.parent
        }
        return nil
    }
}
