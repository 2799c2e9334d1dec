import MachineModel
import SwiftSyntax

/// The object-oriented state pattern: a property typed by a protocol (`var state: VendingState =
/// NoCoin()`) or a base class whose conforming types (subclasses) are the states, each implementing the
/// protocol's requirements (the base class's methods), which are the inputs. A method moves the machine
/// by setting the holder's property to another state (`machine.state = HasCoin()`, `context?.state = …`,
/// `machine.transition(to: HasCoin())` through a holder's method that sets it to its argument) or, when it
/// returns the protocol, by returning one the holder assigns (`state = state.coin()`); one that does
/// neither stays. The property's initializer (or what the holder's initializers all set it to) names
/// the initial state. A value the reader cannot name
/// (`makeState()`) is a run-time target. Without one such move, the property is no machine.
struct StatePattern {
    let holder: TypeInfo
    let property: Binding
    let context: ExtractionContext

    /// The protocol the property's written type names, with the declared types conforming to it: nil
    /// unless there are two at least.
    func states() -> (protocol: TypeInfo, states: [TypeInfo])? {
        guard let text = property.typeText.map(Self.named) else { return nil }
        let caches = context.caches
        caches.lock.lock()
        defer { caches.lock.unlock() }
        if caches.inheritorsByName == nil {
            var byName: [String: [TypeInfo]] = [:]
            for t in context.index.typeOrder where t.kind == "struct" || t.kind == "class" || t.kind == "enum" {
                for name in Set(t.inherited.compactMap({ SymbolIndex.bareTypeName($0).split(separator: ".").last.map(String.init) })) {
                    byName[name, default: []].append(t)
                }
            }
            caches.inheritorsByName = byName
        }
        // (by name first: most properties are typed by nothing two declared types conform to)
        let last = SymbolIndex.bareTypeName(text).split(separator: ".").last.map(String.init) ?? text
        guard (caches.inheritorsByName![last]?.count ?? 0) >= 2, let scope = context.index.scope(of: property.node),
              let p = context.index.type(text, in: scope), p.kind == "protocol" || p.kind == "class" else { return nil }
        if let known = caches.patternStates[p.key] { return known.isEmpty ? nil : (p, known) }
        let conforming = caches.inheritorsByName![last]!.filter { t in context.index.supertypes(of: t).contains { $0 === p } }
        // the states construct one another (`gate.state = Unlocked()`, `return Dim()`)
        let names = Set(conforming.map(\.name))
        let constructs = conforming.count >= 2 && conforming.contains { t in
            t.methods.contains { method, _ in
                method.body?.tokens(viewMode: .sourceAccurate).contains { token in
                    if case .identifier(let name) = token.tokenKind, name != t.name, names.contains(name) { return true }
                    return false
                } ?? false
            }
        }
        caches.patternStates[p.key] = constructs ? conforming : []
        return constructs ? (p, conforming) : nil
    }

    func build() -> Bool {
        guard let (proto, stateTypes) = states() else { return false }
        let names = stateTypes.map(\.name)
        guard Set(names).count == names.count else { return false }
        // a protocol's requirements, a base class's methods
        let inputs = proto.methods.filter { m, _ in
            (proto.kind == "protocol") == (m.body == nil) && !m.modifiers.contains { ["static", "class", "private"].contains($0.name.text) }
        }.map(\.0.name.text).uniqued()
        guard !inputs.isEmpty else { return false }
        let protocolNames: Set<String> = [proto.name, proto.qualifiedName]
        func returnsState(_ m: FunctionDeclSyntax) -> Bool {
            m.signature.returnClause.map { protocolNames.contains(Self.named($0.type.trimmedText)) } ?? false
        }
        // the holder's methods that set the property to their one argument (`func transition(to s: State) { state = s }`)
        let setters = Set(holder.methods.compactMap { method, _ -> String? in
            let parameters = method.signature.parameterClause.parameters
            guard parameters.count == 1, let p = parameters.first, let body = method.body else { return nil }
            let name = (p.secondName ?? p.firstName).text
            return SwitchFinder.scan(body).assignments.contains { writesProperty($0.lhs, own: true) && $0.rhs.trimmedText == name } ? method.name.text : nil
        })
        // methods returning a state count only where the holder assigns what they return: a method of its
        // calls one on the property and assigns the property (`mode = mode.press()`)
        var forwarded = Set<String>()
        for (method, _) in holder.methods {
            guard let body = method.body else { continue }
            let scan = SwitchFinder.scan(body)
            guard scan.assignments.contains(where: { writesProperty($0.lhs, own: true) }) else { continue }
            for call in scan.calls {
                if let name = SyntaxHelpers.member(of: call.calledExpression, on: [property.name, "self." + property.name]) { forwarded.insert(name) }
            }
        }
        var rules: [Rule] = []
        var moved = false
        for state in stateTypes {
            for input in inputs {
                // the state's own method, else the protocol extension's
                guard let (method, file) = state.methods.first(where: { $0.0.name.text == input && $0.0.body != nil })
                        ?? proto.methods.first(where: { $0.0.name.text == input && $0.0.body != nil }),
                      let body = method.body else { continue }
                var targets: [(Target, SourceLocation)] = []
                // a write under a condition (or in a closure) may not happen: the state may stay
                var conditional = false
                let scan = SwitchFinder.scan(body)
                for (lhs, rhs) in scan.assignments where writesProperty(lhs) {
                    targets += self.targets(rhs, names: names, from: state.name).map { ($0, file.location(of: lhs)) }
                    conditional = conditional || Self.conditional(lhs, in: body)
                }
                // `gate.transition(to: Unlocked())`: a method of the holder that sets the property to its argument
                for call in scan.calls {
                    guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil,
                          setters.contains(member.declName.baseName.text), let argument = call.arguments.first?.expression else { continue }
                    targets += self.targets(argument, names: names, from: state.name).map { ($0, file.location(of: call)) }
                    conditional = conditional || Self.conditional(call, in: body)
                }
                if returnsState(method), forwarded.contains(input) {
                    // `return X()`, or the one expression of the body
                    var returned = body.tokens(viewMode: .sourceAccurate).compactMap { $0.parent?.as(ReturnStmtSyntax.self)?.expression }
                    if returned.isEmpty, let only = SyntaxHelpers.onlyValue(body.statements) { returned = [only] }
                    for value in returned where SyntaxHelpers.unwrap(value).as(NilLiteralExprSyntax.self) == nil {
                        targets += self.targets(value, names: names, from: state.name).map { ($0, file.location(of: value)) }
                    }
                }
                let pair = Pair(from: state.name, input: input)
                if targets.isEmpty {
                    rules.append(Rule(location: file.location(of: method), outcomes: [Outcome(pairs: [pair], target: .stay)]))
                } else {
                    moved = moved || targets.contains { if case .state = $0.0 { true } else { false } }
                    var distinct = targets.map(\.0).uniqued()
                    if conditional, !distinct.contains(.stay) { distinct.append(.stay) }
                    rules.append(Rule(location: targets[0].1, outcomes: distinct.map {
                        Outcome(pairs: [pair], target: $0, guardText: distinct.count > 1 ? "chosen at run time" : nil)
                    }))
                }
            }
        }
        guard moved else { return false }
        // the holder's own methods that set a state outright (`func reset() { state = NoCoin() }`): from every state
        var ownInputs: [String] = []
        for (method, file) in holder.methods {
            guard let body = method.body else { continue }
            let set = SwitchFinder.scan(body).assignments.filter { writesProperty($0.lhs, own: true) }
            let named = set.map { constructed($0.rhs, names: names) }
            guard !set.isEmpty, named.allSatisfy({ $0 != nil }) else { continue }
            let input = method.name.text
            ownInputs.append(input)
            let targets = named.compactMap { $0 }.uniqued()
            rules.append(Rule(location: file.location(of: set[0].lhs), outcomes: targets.map {
                Outcome(pairs: names.map { Pair(from: $0, input: input) }, target: .state($0), guardText: targets.count > 1 ? "chosen at run time" : nil)
            }))
        }
        let initial = (property.initializer ?? SwitchMethodRecogniser.initializerValue(of: property.name, in: holder))
            .flatMap { constructed($0, names: names) }
        var locations: [String: SourceLocation] = [:]
        for t in stateTypes { locations[t.name] = t.location }
        let machine = Machine(name: "\(holder.name).\(property.name)", dialect: .switchMethod, location: property.location,
                              states: names, inputs: (inputs + ownInputs).uniqued(), initial: initial, rules: rules, order: .resolved,
                              stateLocations: locations)
        context.add(machine, stateEnum: nil, key: "\(holder.key).\(property.name)")
        return true
    }

    /// The type a written type names, without `?` or `any` (`any LampMode?` → `LampMode`).
    static func named(_ text: String) -> String {
        let t = SyntaxHelpers.optionalWrapped(text) ?? text
        return t.hasPrefix("any ") ? String(t.dropFirst(4)) : t
    }

    /// Whether `node` runs only on some paths through `body`: under an `if`, `guard`, `switch` case or
    /// loop, in a closure, or after a `guard` of the body.
    static func conditional(_ node: some SyntaxProtocol, in body: CodeBlockSyntax) -> Bool {
        var current = node.parent
        while let c = current, c.id != body.id {
            if c.is(IfExprSyntax.self) || c.is(SwitchCaseSyntax.self) || c.is(GuardStmtSyntax.self) || c.is(ClosureExprSyntax.self)
                || c.is(ForStmtSyntax.self) || c.is(WhileStmtSyntax.self) || c.is(TernaryExprSyntax.self) { return true }
            current = c.parent
        }
        return body.statements.contains { $0.item.is(GuardStmtSyntax.self) && $0.position < node.position }
    }

    /// `machine.state = …`, `context?.state = …`, `self.machine.state = …`: a path of two names or more
    /// ending in the property's name (a state's own property of that name is not the holder's).
    func writesProperty(_ lhs: ExprSyntax, own: Bool = false) -> Bool {
        let parts = lhs.trimmedText.replacingOccurrences(of: "?", with: "").replacingOccurrences(of: "!", with: "")
            .split(separator: ".").map(String.init)
        guard parts.last == property.name else { return false }
        return parts.dropLast().drop { $0 == "self" }.isEmpty == own
    }

    /// The state a construction names (`HasCoin()`, `HasCoin.init(…)`, `HasCoin(count: 1)`).
    func constructed(_ expr: ExprSyntax, names: [String]) -> String? {
        guard let call = SyntaxHelpers.unwrap(expr).as(FunctionCallExprSyntax.self) else { return nil }
        var callee = call.calledExpression
        if let m = callee.as(MemberAccessExprSyntax.self), m.declName.baseName.text == "init", let base = m.base { callee = base }
        let name = SymbolIndex.bareTypeName(callee.trimmedText).split(separator: ".").last.map(String.init) ?? ""
        return names.contains(name) ? name : nil
    }

    /// What an assigned or returned value leads to: a construction of a state, `self` (stay), each side
    /// of `c ? A() : B()`, else a value known only at run time.
    func targets(_ expr: ExprSyntax, names: [String], from: String) -> [Target] {
        let e = SyntaxHelpers.fold(expr)
        if let t = e.as(TernaryExprSyntax.self) {
            return targets(t.thenExpression, names: names, from: from) + targets(t.elseExpression, names: names, from: from)
        }
        if e.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" { return [.stay] }
        if let name = constructed(e, names: names) { return [name == from ? .stay : .state(name)] }
        return [.unknown(e.trimmedText)]
    }
}
