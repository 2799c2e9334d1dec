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
    func states() -> (protocol: TypeInfo, states: [TypeInfo], byHolder: Bool)? {
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
        // (by name first: most properties are typed by nothing two declared types conform to; the types naming
        // it, and their subclasses, GoF's `class CuttingStage: BaseStage` with `class BaseStage: Stage`)
        let last = SymbolIndex.bareTypeName(text).split(separator: ".").last.map(String.init) ?? text
        var candidates = caches.inheritorsByName![last] ?? []
        var seen = Set(candidates.map { ObjectIdentifier($0) })
        var k = 0
        while k < candidates.count, candidates.count < 200 {
            if candidates[k].kind == "class" {
                for sub in caches.inheritorsByName![candidates[k].name] ?? [] where seen.insert(ObjectIdentifier(sub)).inserted { candidates.append(sub) }
            }
            k += 1
        }
        guard candidates.count >= 2, let scope = context.index.scope(of: property.node),
              let p = context.index.type(text, in: scope), p.kind == "protocol" || p.kind == "class" else { return nil }
        // the states construct one another (`gate.state = Unlocked()`, `return Dim()`), which is cached by the
        // protocol, or name the holder's properties keeping one each (`m.state = m.soldOutState`)
        if let known = caches.patternStates[p.key], !known.isEmpty { return (p, known, false) }
        func ancestors(_ t: TypeInfo) -> [TypeInfo] {
            var result: [TypeInfo] = []
            var pending = [t]
            while let next = pending.popLast(), result.count < 64 {
                for s in context.index.supertypes(of: next) where !result.contains(where: { $0 === s }) {
                    result.append(s)
                    pending.append(s)
                }
            }
            return result
        }
        // (a base class others subclass is abstract: no state)
        let inheriting = candidates.filter { t in ancestors(t).contains { $0 === p } }
        let bases = Set(inheriting.flatMap { t in context.index.supertypes(of: t).filter { $0.kind == "class" && $0 !== p }.map { ObjectIdentifier($0) } })
        let conforming = inheriting.filter { !bases.contains(ObjectIdentifier($0)) }
        let names = Set(conforming.map(\.name))
        if caches.patternStates[p.key] == nil {
            let constructs = conforming.count >= 2 && Self.naming(conforming) { names.contains($0) ? $0 : nil }
            caches.patternStates[p.key] = constructs ? conforming : []
            if constructs { return (p, conforming, false) }
        }
        let kept = Dictionary(holder.properties.compactMap { b -> (String, String)? in
            guard !b.isStatic, b.name != property.name, let value = b.initializer ?? SwitchMethodRecogniser.initializerValue(of: b.name, in: holder),
                  let call = SyntaxHelpers.unwrap(value).as(FunctionCallExprSyntax.self),
                  let made = SymbolIndex.bareTypeName(call.calledExpression.trimmedText).split(separator: ".").last.map(String.init),
                  names.contains(made) else { return nil }
            return (b.name, made)
        }, uniquingKeysWith: { a, _ in a })
        if !kept.isEmpty && conforming.count >= 2 && Self.naming(conforming, { kept[$0] }) { return (p, conforming, false) }
        // the holder tells them apart itself (`if state is Locked { state = Unlocked() }`, `case is Broken:`)
        return conforming.count >= 2 && testsType(names) ? (p, conforming, true) : nil
    }

    /// Whether a method of the holder tests the property's type against one of `names` (`state is Locked`,
    /// `case is Broken:` of a `switch state`, `let s = state as? Locked`).
    func testsType(_ names: Set<String>) -> Bool {
        holder.methods.contains { method, _ in
            method.body?.tokens(viewMode: .sourceAccurate).contains { token in
                guard token.tokenKind == .keyword(.is) || token.tokenKind == .keyword(.as),
                      let before = token.previousToken(viewMode: .sourceAccurate),
                      before.text == property.name || before.tokenKind == .keyword(.case) || before.tokenKind == .comma,
                      var next = token.nextToken(viewMode: .sourceAccurate) else { return false }
                if next.tokenKind == .postfixQuestionMark || next.tokenKind == .exclamationMark, let after = next.nextToken(viewMode: .sourceAccurate) { next = after }
                return names.contains(next.text)
            } ?? false
        }
    }

    /// Whether a method of one of the types names another of them (`named` gives the type a name stands for).
    static func naming(_ types: [TypeInfo], _ named: (String) -> String?) -> Bool {
        types.contains { t in
            t.methods.contains { method, _ in
                method.body?.tokens(viewMode: .sourceAccurate).contains { token in
                    if case .identifier(let name) = token.tokenKind, let type = named(name), type != t.name { return true }
                    return false
                } ?? false
            }
        }
    }

    func build() -> Bool {
        guard let (proto, stateTypes, byHolder) = states() else { return false }
        let names = stateTypes.map(\.name)
        guard Set(names).count == names.count else { return false }
        // a protocol's requirements, a base class's methods
        let inputs = proto.methods.filter { m, _ in
            (proto.kind == "protocol") == (m.body == nil) && !m.modifiers.contains { ["static", "class", "private"].contains($0.name.text) }
        }.map(\.0.name.text).uniqued()
        guard !inputs.isEmpty || byHolder else { return false }
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
        // a requirement taking an event (`func handle(_ event: PlayerEvent, in player: Player)`): each
        // case of the event is an input, as each state's `switch event` tells them apart
        var events: [String: (position: Int, cases: [String])] = [:]
        for input in inputs {
            if let requirement = proto.methods.first(where: { $0.0.name.text == input })?.0, let e = eventParameter(of: requirement, in: proto) {
                events[input] = e
            }
        }
        for state in stateTypes {
            for input in inputs {
                // the state's own method, else its superclasses' (GoF's base class), else the protocol extension's
                guard let (method, file) = ([state] + context.index.supertypes(of: state).filter { $0.kind == "class" } + [proto]).lazy
                        .compactMap({ t in t.methods.first(where: { $0.0.name.text == input && $0.0.body != nil }) }).first,
                      let body = method.body else { continue }
                // (what the holder does with what the method returns is the same for every event)
                let returned = returnsState(method) && forwarded.contains(input)
                // the method whole for its input, or its regions for the event's cases
                var parts: [(inputs: [String], region: Region?)] = [([input], nil)]
                let parameters = Array(method.signature.parameterClause.parameters)
                var parameter: String?
                if let event = events[input], event.position < parameters.count {
                    let name = (parameters[event.position].secondName ?? parameters[event.position].firstName).text
                    parameter = name
                    let regions = self.regions(of: body, parameter: name, cases: event.cases)
                    // (a ternary on the event, `event == .go ? Running() : self`, gives each event its side)
                    let chooses = body.tokens(viewMode: .sourceAccurate).contains { token in
                        guard token.tokenKind == .infixQuestionMark, let sequence = token.parent?.parent?.parent?.as(SequenceExprSyntax.self) else { return false }
                        // (`m.state = event == .go ? A() : B()`: the assigned value)
                        let folded = SyntaxHelpers.fold(ExprSyntax(sequence))
                        let value = folded.as(InfixOperatorExprSyntax.self).flatMap { $0.operator.is(AssignmentExprSyntax.self) ? $0.rightOperand : nil } ?? folded
                        return value.as(TernaryExprSyntax.self).map { self.test(of: $0.condition, parameter: name) != nil } ?? false
                    }
                    parts = !regions.isEmpty ? regions.map { ($0.events, $0.region) } : chooses ? event.cases.map { ([$0], nil) } : [(event.cases, nil)]
                }
                for (cases, region) in parts {
                    let rule = self.rule(in: body, region: region, returned: returned, from: state.name,
                                         pairs: cases.map { Pair(from: state.name, input: $0) }, at: file.location(of: method),
                                         names: names, setters: setters, file: file,
                                         event: parameter.flatMap { p in cases.count == 1 ? (p, cases[0]) : nil })
                    moved = moved || rule.moves
                    rules.append(rule.rule)
                }
            }
        }
        guard moved || byHolder else { return false }
        // the holder's own methods that set a state outright (`func reset() { state = NoCoin() }`): from every
        // state, or from those the tests of the property's type around the write allow (`if state is Locked {
        // state = Unlocked() }`); a state no write is surely made from stays
        var ownInputs: [String] = []
        let isProperty: (ExprSyntax) -> Bool = { [property] in SyntaxHelpers.path($0) == property.name }
        for (method, file) in holder.methods {
            guard let body = method.body else { continue }
            let set = SwitchFinder.scan(body).assignments.filter { writesProperty($0.lhs, own: true) }
            // (each side of `fast ? Quick() : Idle()`)
            let named = set.map { write in SyntaxHelpers.branches(write.rhs).map { constructed($0, names: names) } }
            guard !set.isEmpty, named.allSatisfy({ $0.allSatisfy { $0 != nil } }) else { continue }
            let input = method.name.text
            ownInputs.append(input)
            var targets: [String: [Target]] = [:]
            var made: Set<String> = []
            let writes = set.map { Syntax($0.lhs) }
            for (write, constructed) in zip(set, named) {
                let (from, sure, anchor) = SyntaxHelpers.typeTestedSources(of: Syntax(write.lhs), states: Set(names), subject: isProperty)
                // (without a test of the type, the write is from every state, as it always was; with one,
                // from the states it allows, surely when every way through what the test decides writes)
                let surely = from == nil || sure && anchor.map { a in
                    // (a collection's own `filter` makes a new tree: the items are taken from the file's)
                    Self.ends(Array(a.items).filter { $0.position >= a.after }, writes: writes) == [.wrote]
                } ?? false
                for state in names where from?.contains(state) ?? true {
                    targets[state, default: []] += constructed.compactMap { $0 }.map { $0 == state && from != nil ? .stay : .state($0) }
                    if surely { made.insert(state) }
                }
            }
            var outcomes: [Outcome] = []
            for state in names {
                var these = (targets[state] ?? []).uniqued()
                if !made.contains(state) { these.append(.stay) }
                for target in these {
                    let guardText = these.count > 1 ? "chosen at run time" : nil
                    if let k = outcomes.firstIndex(where: { $0.target == target && $0.guardText == guardText }) {
                        outcomes[k].pairs.append(Pair(from: state, input: input))
                    } else {
                        outcomes.append(Outcome(pairs: [Pair(from: state, input: input)], target: target, guardText: guardText))
                    }
                }
            }
            rules.append(Rule(location: file.location(of: set[0].lhs), outcomes: outcomes))
        }
        guard moved || rules.contains(where: { $0.outcomes.contains { if case .state = $0.target { true } else { false } } }) else { return false }
        let initial = (property.initializer ?? SwitchMethodRecogniser.initializerValue(of: property.name, in: holder))
            .flatMap { constructed($0, names: names) }
        if initial == nil, let given = SwitchMethodRecogniser.startGiven(of: property.name, in: holder) {
            SwitchMethodRecogniser.noteStartGiven(given, of: "\(holder.name).\(property.name)", at: property.location, context: context)
        }
        var locations: [String: SourceLocation] = [:]
        for t in stateTypes { locations[t.name] = t.location }
        let machine = Machine(name: "\(holder.name).\(property.name)", dialect: .switchMethod, location: property.location,
                              states: names, inputs: (inputs.flatMap { events[$0]?.cases ?? [$0] } + ownInputs).uniqued(), initial: initial,
                              rules: rules, order: .resolved, stateLocations: locations)
        context.add(machine, stateEnum: nil, key: "\(holder.key).\(property.name)")
        return true
    }

    /// The part of a state's method that runs for some events: a case of its `switch` over the event, or
    /// the bodies of its `if event == .x` (each for its event); the rest of the method runs for every event.
    struct Region {
        /// Whether a node runs for these events.
        var counts: (Syntax) -> Bool
        /// Where a node's conditions begin to count (a write under `case .play:` or `if event == .play`
        /// happens for `play`).
        var top: (Syntax) -> Syntax?
        /// A `guard` of the body that tells the events apart (`guard event == .play else { … }`): no
        /// condition on the paths after it.
        var decided: SyntaxIdentifier? = nil
    }

    /// The rule of a state's method for `pairs` (in `region`: all of it by default): where its writes of
    /// the holder's property lead (`g.state = X()`), through a holder method setting it to its argument
    /// (`g.move(to: X())`), or what it returns when the holder assigns it (`returned`); a write under a
    /// condition may not happen. `moves`: some write leads to a state.
    func rule(in body: CodeBlockSyntax, region: Region? = nil, returned: Bool, from state: String, pairs: [Pair],
              at location: SourceLocation, names: [String], setters: Set<String>, file: ParsedFile,
              event: (parameter: String, name: String)? = nil) -> (rule: Rule, moves: Bool) {
        func counts(_ node: some SyntaxProtocol) -> Bool { region?.counts(Syntax(node)) ?? true }
        func conditional(_ node: some SyntaxProtocol) -> Bool {
            Self.conditional(node, in: body, case: region?.top(Syntax(node)), except: region?.decided)
        }
        var targets: [(Target, SourceLocation)] = []
        // a write under a condition (or in a closure) may not happen: the state may stay
        var maybe = false
        let scan = SwitchFinder.scan(body)
        for (lhs, rhs) in scan.assignments where writesProperty(lhs) && counts(lhs) {
            targets += self.targets(rhs, names: names, from: state, event: event).map { ($0, file.location(of: lhs)) }
            maybe = maybe || conditional(lhs)
        }
        // `gate.transition(to: Unlocked())`: a method of the holder that sets the property to its argument
        for call in scan.calls where counts(call) {
            guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil,
                  setters.contains(member.declName.baseName.text), let argument = call.arguments.first?.expression else { continue }
            targets += self.targets(argument, names: names, from: state, event: event).map { ($0, file.location(of: call)) }
            maybe = maybe || conditional(call)
        }
        if returned {
            // `return X()`, or the one expression of the body
            var values = body.tokens(viewMode: .sourceAccurate).compactMap { $0.parent?.as(ReturnStmtSyntax.self)?.expression }.filter(counts)
            if values.isEmpty, let only = SyntaxHelpers.onlyValue(body.statements) { values = [only] }
            for value in values where SyntaxHelpers.unwrap(value).as(NilLiteralExprSyntax.self) == nil {
                targets += self.targets(value, names: names, from: state, event: event).map { ($0, file.location(of: value)) }
            }
        }
        guard !targets.isEmpty else { return (Rule(location: location, outcomes: [Outcome(pairs: pairs, target: .stay)]), false) }
        // (every way through the method writes: `if … { g.state = Open() } else { g.state = Broken() }`)
        if maybe, region == nil, !returned {
            let writes = scan.assignments.filter { writesProperty($0.lhs) }.map { Syntax($0.lhs) }
                + scan.calls.filter { call in
                    (call.calledExpression.as(MemberAccessExprSyntax.self)).map { $0.base != nil && setters.contains($0.declName.baseName.text) } ?? false
                }.map(Syntax.init)
            maybe = Self.ends(body.statements, writes: writes) != [.wrote]
        }
        var distinct = targets.map(\.0).uniqued()
        if maybe, !distinct.contains(.stay) { distinct.append(.stay) }
        let moves = targets.contains { if case .state = $0.0 { true } else { false } }
        return (Rule(location: targets[0].1, outcomes: distinct.map {
            Outcome(pairs: pairs, target: $0, guardText: distinct.count > 1 ? "chosen at run time" : nil)
        }), moves)
    }

    /// The regions of a state's method for the cases of its event `parameter`, with the events each is
    /// for: the cases of a `switch` over it (`default` taking the others), else the bodies of `if parameter
    /// == .x` (an event none names runs the rest). Empty when the method tells no event apart.
    func regions(of body: CodeBlockSyntax, parameter: String, cases: [String]) -> [(events: [String], region: Region)] {
        func within(_ node: Syntax, _ id: SyntaxIdentifier) -> Bool { sequence(first: node, next: { $0.parent }).contains { $0.id == id } }
        if let split = SwitchFinder.scan(body).switches.first(where: { SyntaxHelpers.path($0.subject) == parameter }) {
            var result: [(events: [String], region: Region)] = []
            var rest = cases
            for case .switchCase(let sc) in split.cases {
                var named: [String] = []
                if case .case(let label) = sc.label {
                    for item in label.caseItems {
                        guard let e = item.pattern.as(ExpressionPatternSyntax.self)?.expression,
                              let name = SyntaxHelpers.caseReference(e, context.index)?.name, rest.contains(name) else { continue }
                        named.append(name)
                    }
                } else {
                    named = rest
                }
                rest.removeAll { named.contains($0) }
                guard !named.isEmpty else { continue }
                result.append((named, Region(counts: { within($0, sc.id) || !within($0, split.id) }, top: { _ in Syntax(sc) })))
            }
            if !rest.isEmpty { result.append((rest, Region(counts: { !within($0, split.id) }, top: { _ in nil }))) }
            return result
        }
        // `guard event == .play else { return self }`: the rest runs for `play`, the `else` for the others
        for item in body.statements {
            guard let g = item.item.as(GuardStmtSyntax.self), g.conditions.count == 1, case .expression(let test) = g.conditions.first!.condition,
                  let (name, equal) = self.test(of: test, parameter: parameter), equal, cases.contains(name) else { continue }
            let others = cases.filter { $0 != name }
            let after = g.endPosition
            return [([name], Region(counts: { !within($0, g.body.id) }, top: { _ in nil }, decided: g.id))]
                + (others.isEmpty ? [] : [(others, Region(counts: { within($0, g.body.id) || $0.position < after },
                                                         top: { within($0, g.body.id) ? Syntax(g.body) : nil }, decided: g.id))])
        }
        // `if event == .play { … } else if event == .stop { … }`: the `if` bodies, by the case each tests
        var bodies: [(name: String, block: CodeBlockSyntax)] = []
        for node in body.tokens(viewMode: .sourceAccurate).compactMap({ $0.parent?.as(IfExprSyntax.self) }) {
            guard node.conditions.count == 1, case .expression(let test) = node.conditions.first!.condition,
                  let (name, equal) = self.test(of: test, parameter: parameter), equal,
                  cases.contains(name), !bodies.contains(where: { $0.block.id == node.body.id }) else { continue }
            bodies.append((name, node.body))
        }
        guard !bodies.isEmpty else { return [] }
        // the innermost of those bodies around a node
        func tested(_ node: Syntax) -> (name: String, block: CodeBlockSyntax)? {
            bodies.filter { within(node, $0.block.id) }.max { $0.block.position < $1.block.position }
        }
        // (a body that returns, `if event == .go { return Running() }`, leaves the rest to the other events)
        let returning = bodies.filter { b in
            b.block.statements.last?.item.is(ReturnStmtSyntax.self) == true
                && b.block.parent.flatMap { SyntaxHelpers.nearest($0, { $0.as(CodeBlockItemSyntax.self) }) }?.parent?.id == body.statements.id
        }
        return cases.map { event in
            let leaves = returning.filter { $0.name == event }.map { $0.block.endPosition }.min()
            return ([event], Region(counts: { node in
                if let t = tested(node) { return t.name == event }
                return leaves.map { node.position < $0 } ?? true
            }, top: { tested($0).map { Syntax($0.block) } }))
        }
    }

    /// A comparison of the event parameter with a case (`event == .play`, `.stop != event`): the case, and
    /// whether it is `==`.
    func test(of condition: ExprSyntax, parameter: String) -> (name: String, equal: Bool)? {
        guard let infix = SyntaxHelpers.fold(condition).as(InfixOperatorExprSyntax.self),
              case let op = infix.operator.trimmedText, op == "==" || op == "!=" else { return nil }
        let sides = [infix.leftOperand, infix.rightOperand]
        guard sides.contains(where: { SyntaxHelpers.path($0) == parameter }),
              let name = sides.lazy.compactMap({ SyntaxHelpers.caseReference($0, self.context.index)?.name }).first else { return nil }
        return (name, op == "==")
    }

    /// The parameter of a requirement whose type is an enum of the protocol's module other than the
    /// holder (`_ event: PlayerEvent`): its position and the enum's cases.
    func eventParameter(of requirement: FunctionDeclSyntax, in proto: TypeInfo) -> (position: Int, cases: [String])? {
        let scope = context.index.scope(of: proto.node)
        for (k, p) in requirement.signature.parameterClause.parameters.enumerated() {
            if let e = context.index.enumInfo(Self.named(p.type.trimmedText), in: scope), !e.cases.isEmpty { return (k, e.caseNames) }
        }
        return nil
    }

    /// The type a written type names, without `?` or `any` (`any LampMode?` → `LampMode`).
    static func named(_ text: String) -> String {
        let t = SyntaxHelpers.optionalWrapped(text) ?? text
        return t.hasPrefix("any ") ? String(t.dropFirst(4)) : t
    }

    /// How a way through statements can end, as to `writes` (nodes writing the state): having written
    /// (`wrote`), left the function without writing (`left`: a `return`, a `throw`), or gone on past them
    /// without writing (`on`). A write in a closure or a loop may not happen.
    struct Ends: OptionSet {
        let rawValue: Int
        static let wrote = Ends(rawValue: 1), left = Ends(rawValue: 2), on = Ends(rawValue: 4)
    }

    static func ends(_ items: some Sequence<CodeBlockItemSyntax>, writes: [Syntax]) -> Ends {
        var result: Ends = []
        for item in items {
            let e = ends(Syntax(item.item), writes: writes)
            result.formUnion(e.subtracting(.on))
            if !e.contains(.on) { return result }
        }
        return result.union(.on)
    }

    static func ends(_ node: Syntax, writes: [Syntax]) -> Ends {
        let inside = writes.filter { ExtractionContext.contains(node, $0) }
        let exits = node.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.return) || $0.tokenKind == .keyword(.throw) }
        if node.is(ReturnStmtSyntax.self) || node.is(ThrowStmtSyntax.self) { return .left }
        if let e = node.as(ExpressionStmtSyntax.self) { return ends(Syntax(e.expression), writes: writes) }
        if let choice = node.as(IfExprSyntax.self) {
            var result = ends(choice.body.statements, writes: writes)
            switch choice.elseBody {
            case .ifExpr(let inner)?: result.formUnion(ends(Syntax(inner), writes: writes))
            case .codeBlock(let block)?: result.formUnion(ends(block.statements, writes: writes))
            case nil: result.insert(.on)
            }
            return result
        }
        if let g = node.as(GuardStmtSyntax.self) { return ends(g.body.statements, writes: writes).subtracting(.on).union(.on) }
        if let sw = node.as(SwitchExprSyntax.self) {
            return SyntaxHelpers.cases(of: sw).reduce(into: Ends()) { $0.formUnion(ends($1.statements, writes: writes)) }
        }
        if node.is(BreakStmtSyntax.self) || node.is(FallThroughStmtSyntax.self) || node.is(ContinueStmtSyntax.self) { return .on }
        // a write of its own, not in a closure (which may run later, or never)
        let sure = inside.contains { w in
            !sequence(first: w, next: { $0.parent }).prefix { $0.id != node.id }.contains { $0.is(ClosureExprSyntax.self) }
        }
        let plain = node.is(SequenceExprSyntax.self) || node.is(InfixOperatorExprSyntax.self) || node.is(FunctionCallExprSyntax.self)
            || node.is(TryExprSyntax.self) || node.is(AwaitExprSyntax.self)
        if sure, plain { return .wrote }
        var result: Ends = .on
        if !inside.isEmpty { result.insert(.wrote) }
        if exits, !plain { result.insert(.left) }
        return result
    }

    /// Whether `node` runs only on some paths through `body` (or through the `switch` case `within` of
    /// it): under an `if`, `guard`, `switch` case or loop, in a closure, or after a `guard` of the body.
    static func conditional(_ node: some SyntaxProtocol, in body: CodeBlockSyntax, case within: Syntax? = nil,
                            except decided: SyntaxIdentifier? = nil) -> Bool {
        var current = node.parent
        while let c = current, c.id != body.id, c.id != within?.id {
            if c.is(IfExprSyntax.self) || c.is(SwitchCaseSyntax.self) || c.is(GuardStmtSyntax.self) || c.is(ClosureExprSyntax.self)
                || c.is(ForStmtSyntax.self) || c.is(WhileStmtSyntax.self) || c.is(TernaryExprSyntax.self) { return true }
            current = c.parent
        }
        return body.statements.contains { $0.item.is(GuardStmtSyntax.self) && $0.item.id != decided && $0.position < node.position }
    }

    /// `machine.state = …`, `context?.state = …`, `self.machine.state = …`: a path of two names or more
    /// ending in the property's name (a state's own property of that name is not the holder's).
    func writesProperty(_ lhs: ExprSyntax, own: Bool = false) -> Bool {
        let parts = lhs.trimmedText.replacingOccurrences(of: "?", with: "").replacingOccurrences(of: "!", with: "")
            .split(separator: ".").map(String.init)
        guard parts.last == property.name else { return false }
        return parts.dropLast().drop { $0 == "self" }.isEmpty == own
    }

    /// The state a construction names (`HasCoin()`, `HasCoin.init(…)`, `HasCoin(count: 1)`), or an instance
    /// kept in a state type's static property (`HasCoin.shared`) or in one of the holder's properties made
    /// as one (`machine.hasCoinState` with `lazy var hasCoinState: State = HasCoin(machine: self)`, the
    /// gumball machine's).
    func constructed(_ expr: ExprSyntax, names: [String], depth: Int = 0) -> String? {
        let e = SyntaxHelpers.unwrap(expr)
        if let member = e.as(MemberAccessExprSyntax.self), let base = member.base,
           let type = SymbolIndex.bareTypeName(base.trimmedText).split(separator: ".").last.map(String.init), names.contains(type) {
            return member.declName.baseName.text == "init" ? nil : type
        }
        if depth < 2, let name = e.as(DeclReferenceExprSyntax.self)?.baseName.text ?? e.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
           let kept = holder.properties.first(where: { $0.name == name && !$0.isStatic && $0.name != property.name }),
           let value = kept.initializer ?? SwitchMethodRecogniser.initializerValue(of: name, in: holder) {
            return constructed(value, names: names, depth: depth + 1)
        }
        guard let call = e.as(FunctionCallExprSyntax.self) else { return nil }
        var callee = call.calledExpression
        if let m = callee.as(MemberAccessExprSyntax.self), m.declName.baseName.text == "init", let base = m.base { callee = base }
        let name = SymbolIndex.bareTypeName(callee.trimmedText).split(separator: ".").last.map(String.init) ?? ""
        return names.contains(name) ? name : nil
    }

    /// What an assigned or returned value leads to: a construction of a state, `self` (stay), each side
    /// of `c ? A() : B()`, else a value known only at run time.
    func targets(_ expr: ExprSyntax, names: [String], from: String, event: (parameter: String, name: String)? = nil) -> [Target] {
        let e = SyntaxHelpers.fold(expr)
        if let t = e.as(TernaryExprSyntax.self) {
            // (`event == .go ? Running() : self`, for one event: its side)
            if let event, let (name, equal) = test(of: t.condition, parameter: event.parameter) {
                return targets((name == event.name) == equal ? t.thenExpression : t.elseExpression, names: names, from: from, event: event)
            }
            return targets(t.thenExpression, names: names, from: from, event: event) + targets(t.elseExpression, names: names, from: from, event: event)
        }
        if e.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" { return [.stay] }
        if let name = constructed(e, names: names) { return [name == from ? .stay : .state(name)] }
        return [.unknown(e.trimmedText)]
    }
}
