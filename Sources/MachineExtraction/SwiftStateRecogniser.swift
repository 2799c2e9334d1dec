import MachineModel
import SwiftSyntax

/// D6: SwiftState (ReactKit/SwiftState) route DSL.
///
/// A machine is a `StateMachine<S, E>(state:) { machine in … }` (or `Machine<S, E>`) construction, with
/// the registration calls made in its configuration closure or later on the variable that holds it
/// (`machine.addRoute(…)` in any given file). Registration calls on a variable whose construction is
/// not visible, or made inside a `StateMachine` subclass, become a machine of their own with no initial state.
///
/// Triggers. SwiftState has two:
/// - events (`machine <-! .e`): routes registered with `addRoutes(event:…)`; their edges carry the event.
///   An event of `.any` is a catch-all over every event; a target of `.any` keeps the state.
/// - event-less state requests (`machine <- .s`): routes registered with `addRoute(.a => .b)`,
///   `addRouteChain`, `addStateRouteMapping`, or a route mapping called with a nil event. They have no
///   input, so each is modelled with the pseudo-input `<- .s` named after the state it asks for (also the
///   rule's `trigger`). That keeps two event-less routes from one state to different states apart (they
///   are different requests, not an overlap), and the diagram labels them as the code writes them.
///   A target of `.any` on an event-less route means "whatever state the caller asks for".
///
/// SwiftState's `<-` also accepts event routes (`hasRoute` looks at every route); those transitions are
/// drawn under their events only, and a note says so when the code uses `<-` on a machine with events.
/// Conditions become rule guards, handlers become effects on the edges they apply to, and routes whose
/// returned `Disposable` is disposed somewhere carry the guard `until x.dispose()`.
struct SwiftStateRecogniser: Recogniser {
    static let routeCalls: Set<String> = [
        "addRoute", "addRoutes", "addRouteChain", "addRouteEvent", "addEventRoute", "addRouteMapping", "addStateRouteMapping",
    ]
    static let handlerCalls: Set<String> = ["addHandler", "addAnyHandler", "addChainHandler", "addEventHandler"]
    static let ignoredCalls: Set<String> = ["addErrorHandler", "addChainErrorHandler", "removeRoute", "removeHandler"]

    struct Registration {
        var call: FunctionCallExprSyntax
        var file: ParsedFile
        var name: String
        var receiver: String?
        var ownerType: String?
    }

    struct Construction {
        var call: FunctionCallExprSyntax
        var file: ParsedFile
        var name: String?
        var typeText: String?
        var closureParameter: String?
        var closure: ClosureExprSyntax?
    }

    func finder(for file: ParsedFile) -> SyntaxVisitor? { Finder(file: file) }

    func recognise(in context: ExtractionContext, found: [SyntaxVisitor?]) {
        var constructions: [Construction] = []
        var registrations: [Registration] = []
        var arrowUses: [(receiver: String, file: ParsedFile)] = []
        var disposed = Set<String>()
        let finders = self.found(found, in: context, as: Finder.self)
        // the calls with a `state:` argument, judged by their types on `jobs` threads (the index only reads)
        let constructed = Parallel.map(finders.map(\.finder), jobs: context.jobs) { $0.constructions(index: context.index) }
        for ((file, finder), built) in zip(finders, constructed) {
            disposed.formUnion(finder.disposedNames)
            constructions += built
            registrations += finder.registrations.map { r in
                Registration(call: r.call, file: file, name: r.name, receiver: r.receiver, ownerType: r.ownerType)
            }
            arrowUses += finder.arrowReceivers.map { ($0, file) }
        }
        guard !registrations.isEmpty else { return }
        // Each registration belongs to one construction: the one whose configuration closure holds it
        // (called on the closure's parameter), else one stored under the receiver's name — in the same
        // file first, else anywhere when that name is unambiguous.
        var owner: [SyntaxIdentifier: Int] = [:]
        for r in registrations {
            for (k, c) in constructions.enumerated() {
                guard let closure = c.closure, r.file === c.file, r.call.position >= closure.position,
                      r.call.endPosition <= closure.endPosition else { continue }
                if r.receiver == (c.closureParameter ?? "$0") { owner[r.call.id] = k }
            }
        }
        for r in registrations where owner[r.call.id] == nil {
            guard let receiver = r.receiver?.split(separator: ".").last.map(String.init), receiver != "self" else { continue }
            // inside some configuration closure, on something else: not for a construction elsewhere
            let named = constructions.indices.filter { constructions[$0].name == receiver }
            if let k = named.first(where: { constructions[$0].file === r.file }) {
                owner[r.call.id] = k
            } else if named.count == 1 {
                owner[r.call.id] = named[0]
            }
        }
        var used = Set<SyntaxIdentifier>()
        for (k, construction) in constructions.enumerated() {
            let mine = registrations.filter { owner[$0.call.id] == k }
            guard mine.contains(where: { Self.routeCalls.contains($0.name) }) else { continue }
            for r in mine { used.insert(r.call.id) }
            build(name: construction.name ?? "stateMachine@\(construction.file.location(of: construction.call).line)",
                  location: construction.file.location(of: construction.call), typeText: construction.typeText, typeNode: Syntax(construction.call),
                  initial: SyntaxHelpers.argument(construction.call, "state"), registrations: mine,
                  arrowUses: arrowUses.filter { $0.receiver == construction.name }.count, disposed: disposed, context: context)
        }
        // Registrations whose machine is built elsewhere (or is `self`, in a subclass).
        var groups: [String: [Registration]] = [:]
        var order: [String] = []
        for r in registrations where !used.contains(r.call.id) {
            let key: String
            if let receiver = r.receiver, receiver != "self" {
                key = String(receiver.split(separator: ".").last!)
            } else if let owner = r.ownerType {
                key = "self:" + owner
            } else {
                continue
            }
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(r)
        }
        for key in order {
            let group = groups[key]!
            let routes = group.filter { Self.routeCalls.contains($0.name) }
            // Only calls that look like SwiftState: a `=>` route or a route mapping closure.
            guard routes.contains(where: { $0.call.arguments.compactText.contains("=>") || ["addRouteMapping", "addStateRouteMapping"].contains($0.name) }) else { continue }
            var typeText: String?
            var typeNode: Syntax?
            var initial: ExprSyntax?
            var name = key
            if key.hasPrefix("self:") {
                let owner = String(key.dropFirst(5))
                name = owner
                // the class the registrations are made in (`self.addRoute` in a StateMachine subclass)
                let first = group[0]
                if let type = context.index.scope(of: first.call)?.innermostType {
                    typeText = type.inherited.first { ["StateMachine", "Machine"].contains(DSLSupport.genericType($0, at: type.node, index: context.index).name) }
                    typeNode = type.node
                    initial = superInitState(type: type)
                }
            } else if let binding = context.index.binding(named: key, at: group[0].call) {
                typeText = binding.typeText
                typeNode = binding.node
            }
            let first = routes.first ?? group[0]
            build(name: name, location: first.file.location(of: first.call), typeText: typeText, typeNode: typeNode ?? Syntax(first.call), initial: initial,
                  registrations: group, arrowUses: arrowUses.filter { $0.receiver == key }.count, disposed: disposed, context: context)
        }
    }

    /// `super.init(state: .x)` / `self.init(state: .x)` in a subclass.
    func superInitState(type: TypeInfo) -> ExprSyntax? {
        for call in DSLSupport.calls(in: type.node) {
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init",
               ["super", "self"].contains(member.base?.trimmedText ?? ""), let s = SyntaxHelpers.argument(call, "state") {
                return s
            }
        }
        return nil
    }

    // MARK: Finding constructions and calls

    final class Finder: SyntaxVisitor {
        let file: ParsedFile
        /// Calls with a `state:` argument, in walk order: the constructions among them are those whose
        /// type resolves to a SwiftState machine (`constructions(index:)`).
        var stateCalls: [FunctionCallExprSyntax] = []
        var registrations: [(call: FunctionCallExprSyntax, name: String, receiver: String?, ownerType: String?)] = []
        var arrowReceivers: [String] = []
        /// The last name of what `dispose()` is called on (`d.dispose()`, `self.d.dispose()`): `d`.
        var disposedNames: [String] = []

        init(file: ParsedFile) {
            self.file = file
            super.init(viewMode: .sourceAccurate)
        }

        func constructions(index: SymbolIndex) -> [Construction] {
            stateCalls.compactMap { node in
                guard let typeText = DSLSupport.constructedType(node, index: index) else { return nil }
                let generic = DSLSupport.genericType(typeText, at: node, index: index)
                guard ["StateMachine", "Machine"].contains(generic.name), generic.arguments.count != 3 else { return nil }
                let closure = SyntaxHelpers.closures(of: node).first
                let param = closure.map { SyntaxHelpers.closureParameterNames($0).first ?? "$0" }
                return Construction(call: node, file: file, name: DSLSupport.storageName(node),
                                    typeText: typeText, closureParameter: param, closure: closure)
            }
        }

        /// `machine.configure { $0.addRoute(…) }`: the closure's parameter is `machine`.
        static func configured(_ receiver: String?, around node: FunctionCallExprSyntax) -> String? {
            guard let receiver else { return nil }
            var current = node.parent
            while let c = current {
                if let closure = c.as(ClosureExprSyntax.self) {
                    let params = SyntaxHelpers.closureParameterNames(closure)
                    guard receiver == (params.first ?? "$0"),
                          let call = closure.parent?.as(FunctionCallExprSyntax.self) ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self),
                          let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "configure",
                          let base = member.base.flatMap(SyntaxHelpers.path) else { return receiver }
                    return base
                }
                current = c.parent
            }
            return receiver
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            if let name = DSLSupport.calleeName(node) {
                if SwiftStateRecogniser.routeCalls.contains(name) || SwiftStateRecogniser.handlerCalls.contains(name) {
                    let receiver = Self.configured(DSLSupport.receiverPath(node), around: node)
                    let owner = receiver == nil || receiver == "self" ? SyntaxHelpers.enclosingTypeNames(node).last : nil
                    registrations.append((node, name, receiver, owner))
                }
                if name == "dispose", let last = DSLSupport.receiverPath(node)?.split(separator: ".").last { disposedNames.append(String(last)) }
            }
            if SyntaxHelpers.argument(node, "state") != nil { stateCalls.append(node) }
            return .visitChildren
        }

        override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
            let elements = Array(node.elements)
            for (i, e) in elements.enumerated() where i > 0 {
                if let op = e.as(BinaryOperatorExprSyntax.self), op.operator.text == "<-", let name = SyntaxHelpers.lastName(elements[i - 1]) {
                    arrowReceivers.append(name)
                }
            }
            return .visitChildren
        }
    }

    // MARK: Routes

    enum Side {
        case any
        case states([String])
    }

    /// `.a => .b`, `[.a, .b] => .c`, `.a => .b => .c`, `Transition(fromState:toState:)`.
    static func chain(_ raw: ExprSyntax, _ index: SymbolIndex) -> [Side]? {
        let expr = SyntaxHelpers.unwrap(raw)
        if let call = expr.as(FunctionCallExprSyntax.self), DSLSupport.calleeName(call) == "Transition",
           let f = SyntaxHelpers.argument(call, "fromState") ?? call.arguments.first?.expression,
           let t = SyntaxHelpers.argument(call, "toState") ?? call.arguments.dropFirst().first?.expression,
           let a = side(f, index), let b = side(t, index) {
            return [a, b]
        }
        guard let seq = expr.as(SequenceExprSyntax.self) else { return nil }
        var parts: [[ExprSyntax]] = [[]]
        for e in seq.elements {
            if let op = e.as(BinaryOperatorExprSyntax.self), op.operator.text == "=>" {
                parts.append([])
            } else {
                parts[parts.count - 1].append(e)
            }
        }
        guard parts.count >= 2, parts.allSatisfy({ $0.count == 1 }) else { return nil }
        var sides: [Side] = []
        for p in parts {
            guard let s = side(p[0], index) else { return nil }
            sides.append(s)
        }
        return sides
    }

    static func side(_ raw: ExprSyntax, _ index: SymbolIndex) -> Side? {
        let expr = SyntaxHelpers.unwrap(raw)
        if let array = expr.as(ArrayExprSyntax.self) {
            var names: [String] = []
            for element in array.elements {
                guard let n = DSLSupport.literalName(element.expression, index), n != "any" else { return nil }
                names.append(n)
            }
            return .states(names)
        }
        guard let name = DSLSupport.literalName(expr, index) else { return nil }
        return name == "any" ? .any : .states([name])
    }

    struct Route {
        var event: String?        // nil: event-less; "any": every event
        var from: Side
        var to: Side
        var guardText: String?
        var location: SourceLocation
        var handler: Effect?
    }

    struct Handler {
        enum Kind {
            case event(String)
            case transition(Side, Side, anyTrigger: Bool)
        }
        var kind: Kind
        var effect: Effect
    }

    /// Pseudo-input of an event-less request for `state`.
    static func request(_ state: String) -> String { "<- .\(state)" }

    func build(name: String, location: SourceLocation, typeText: String?, typeNode: Syntax, initial: ExprSyntax?, registrations: [Registration],
               arrowUses: Int, disposed: Set<String>, context: ExtractionContext) {
        let generic = typeText.map { DSLSupport.genericType($0, at: typeNode, index: context.index) }
        let stateType = generic?.arguments.first
        let eventType = generic.flatMap { $0.arguments.count > 1 ? $0.arguments[1] : nil }
        let noEvents = eventType?.shortName == "NoEvent"

        // Names used, for type inference when the generic arguments are not written.
        var stateNames: [String] = []
        var eventNames: [String] = []
        for r in registrations {
            if Self.routeCalls.contains(r.name) {
                for expr in routeExpressions(r, index: context.index) {
                    var e = SyntaxHelpers.unwrap(expr)
                    if let c = e.as(FunctionCallExprSyntax.self), DSLSupport.calleeName(c) == "Route",
                       let t = SyntaxHelpers.argument(c, "transition") ?? c.arguments.first?.expression { e = t }
                    for side in Self.chain(e, context.index) ?? [] { if case .states(let names) = side { stateNames += names } }
                }
            }
            let legacy = (r.name == "addRouteEvent" || r.name == "addEventRoute") ? r.call.arguments.first?.expression : nil
            if let e = SyntaxHelpers.argument(r.call, "event") ?? legacy, let n = DSLSupport.literalName(e, context.index) { eventNames.append(n) }
        }
        stateNames = stateNames.filter { $0 != "any" }
        eventNames = eventNames.filter { $0 != "any" }
        // StateMachine<State, Event>: the type arguments say which enum is which
        let stateEnum = stateType?.enumInfo
        let eventEnum = noEvents ? nil : eventType?.enumInfo
        let states = context.caseList(stateEnum, used: stateNames).filter { $0 != "any" }
        let events = noEvents ? [] : context.caseList(eventEnum, used: eventNames).filter { $0 != "any" }
        guard !states.isEmpty else { return }

        var rules: [Rule] = []
        var handlers: [Handler] = []
        let reader = context.effectReader(inputs: events, inputType: eventEnum, at: typeNode)
        for r in registrations {
            let loc = r.file.location(of: r.call)
            if Self.handlerCalls.contains(r.name) {
                if let h = handler(r, events: events, reader: reader, context: context) { handlers.append(h) }
                continue
            }
            if r.name == "addRouteMapping" || r.name == "addStateRouteMapping" {
                rules += mappingRules(r, states: states, events: events, context: context)
                continue
            }
            for route in routes(r, disposed: disposed, context: context) {
                rules.append(rule(for: route, states: states, events: events))
            }
            _ = loc
        }
        // SwiftState tries the routes of the event itself before those registered for `.any`: a pair an
        // unconditional route of its own event takes never reaches an `.any` route.
        let specific = Set(rules.filter { !$0.catchAll && $0.guardText == nil }.flatMap(\.pairs).filter { events.contains($0.input) })
        rules = rules.map { rule in
            guard rule.catchAll else { return rule }
            var r = rule
            r.outcomes = rule.outcomes.map { o in
                var n = o
                n.pairs = o.pairs.filter { !specific.contains($0) }
                return n
            }.filter { !$0.pairs.isEmpty }
            return r
        }
        rules = rules.filter { !$0.outcomes.isEmpty || !$0.catchAll }
        guard !rules.isEmpty else { return }
        rules = apply(handlers, to: rules, events: Set(events))
        if arrowUses > 0, !events.isEmpty, rules.contains(where: { $0.inputs.contains(where: { events.contains($0) }) }) {
            context.warn("`\(name) <- .state` also takes event routes (SwiftState's `hasRoute` looks at every route); those transitions are drawn under their events only",
                         at: location, severity: .note)
        }
        let initialState = context.initialState(initial, states: states)
            ?? initial.flatMap { DSLSupport.literalName($0, context.index) }.flatMap { states.contains($0) ? $0 : nil }
        let machine = Machine(name: name, dialect: .swiftstate, location: location, states: states, inputs: events,
                              initial: initialState, rules: rules, order: .allMatch,
                              stateLocations: context.locations(stateEnum), inputLocations: context.locations(eventEnum))
        context.add(machine, stateEnum: stateEnum, at: typeNode)
    }

    /// The routes one registration call adds.
    func routes(_ r: Registration, disposed: Set<String>, context: ExtractionContext) -> [Route] {
        let call = r.call
        let location = r.file.location(of: call)
        var event: String?
        // SwiftState 3: `addRouteEvent(.e, transitions: […])` names the event first, unlabelled
        let legacyEvent = r.name == "addRouteEvent" || r.name == "addEventRoute"
        if let e = SyntaxHelpers.argument(call, "event") ?? (legacyEvent ? call.arguments.first?.expression : nil) {
            guard let n = DSLSupport.literalName(e, context.index) else {
                context.warn("cannot tell which event `\(e.compactText)` is; routes of `\(r.name)` left out", at: location)
                return []
            }
            event = n
        }
        var guardText = SyntaxHelpers.argument(call, "condition").map(conditionText)
        // `let d = machine.addRoute(…)` with `d.dispose()` in any given file: the route holds until then
        if let disposer = DSLSupport.storageName(call, orFunction: false), disposer != "_", disposed.contains(disposer) {
            guardText = [guardText, "until \(disposer).dispose()"].compactMap { $0 }.joined(separator: " && ")
        }
        let handlerEffect = (SyntaxHelpers.argument(call, "handler") ?? call.trailingClosure.map(ExprSyntax.init))
            .map { effect(of: $0, context: context, events: []) }
        var result: [Route] = []
        for raw in routeExpressions(r, index: context.index) {
            var expr = SyntaxHelpers.unwrap(raw)
            var routeGuard = guardText
            // Route(transition: .a => .b, condition: …)
            if let c = expr.as(FunctionCallExprSyntax.self), DSLSupport.calleeName(c) == "Route",
               let t = SyntaxHelpers.argument(c, "transition") ?? c.arguments.first?.expression {
                expr = t
                if let cond = SyntaxHelpers.argument(c, "condition") {
                    routeGuard = [routeGuard, conditionText(cond)].compactMap { $0 }.joined(separator: " && ")
                }
            }
            guard let sides = Self.chain(expr, context.index) else {
                context.warn("cannot read the route `\(expr.compactText.prefix(60))`; it is left out of the machine", at: r.file.location(of: raw))
                continue
            }
            let loc = r.file.location(of: raw)
            if r.name == "addRouteChain" || sides.count > 2 {
                for i in 0..<(sides.count - 1) {
                    result.append(Route(event: event, from: sides[i], to: sides[i + 1], guardText: routeGuard, location: loc,
                                        handler: i == sides.count - 2 ? handlerEffect : nil))
                }
            } else {
                result.append(Route(event: event, from: sides[0], to: sides[1], guardText: routeGuard, location: loc, handler: handlerEffect))
            }
        }
        return result
    }

    /// The route expressions of a registration call, array literals flattened.
    func routeExpressions(_ r: Registration, index: SymbolIndex) -> [ExprSyntax] {
        let legacyEvent = r.name == "addRouteEvent" || r.name == "addEventRoute"
        var expressions: [ExprSyntax] = []
        for (i, arg) in r.call.arguments.enumerated() where ["transitions", "transition", "routes", "route", nil].contains(arg.label?.text) {
            if arg.expression.is(ClosureExprSyntax.self) || (legacyEvent && i == 0) { continue }
            if let array = SyntaxHelpers.unwrap(arg.expression).as(ArrayExprSyntax.self), Self.side(arg.expression, index) == nil {
                expressions += array.elements.map(\.expression)
            } else {
                expressions.append(arg.expression)
            }
        }
        return expressions
    }

    func rule(for route: Route, states: [String], events: [String]) -> Rule {
        let from: [String] = if case .states(let s) = route.from { s } else { states }
        var outcomes: [Outcome] = []
        var trigger: String?
        if let event = route.event {
            let inputs = event == "any" ? events : [event]
            let pairs = from.flatMap { s in inputs.map { Pair(from: s, input: $0) } }
            switch route.to {
            case .any:
                outcomes.append(Outcome(pairs: pairs, target: .stay, effect: route.handler))
            case .states(let targets):
                for t in targets { outcomes.append(Outcome(pairs: pairs, target: .state(t), effect: route.handler)) }
            }
        } else {
            let targets: [String] = if case .states(let t) = route.to { t } else { states }
            for t in targets {
                outcomes.append(Outcome(pairs: from.map { Pair(from: $0, input: Self.request(t)) }, target: .state(t), effect: route.handler))
            }
            trigger = targets.count == 1 ? Self.request(targets[0]) : "<- (requested state)"
        }
        return Rule(location: route.location, outcomes: outcomes, guardText: route.guardText,
                    catchAll: route.event == "any", trigger: trigger)
    }

    func conditionText(_ expr: ExprSyntax) -> String {
        if let closure = SyntaxHelpers.unwrap(expr).as(ClosureExprSyntax.self) {
            let body = closure.statements.compactText
            return body.hasPrefix("return ") ? String(body.dropFirst(7)) : body
        }
        return expr.compactText
    }

    // MARK: Handlers

    func handler(_ r: Registration, events: [String], reader: EffectReader, context: ExtractionContext) -> Handler? {
        let call = r.call
        guard let body = SyntaxHelpers.argument(call, "handler") ?? call.trailingClosure.map(ExprSyntax.init)
                ?? call.arguments.last(where: { $0.label == nil && Self.chain($0.expression, context.index) == nil })?.expression else { return nil }
        let effect = effect(of: body, context: context, events: events)
        if let e = SyntaxHelpers.argument(call, "event") {
            guard let n = DSLSupport.literalName(e, context.index) else {
                context.warn("cannot tell which event `\(e.compactText)` this handler is for; it is left out", at: r.file.location(of: call))
                return nil
            }
            return Handler(kind: .event(n), effect: effect)
        }
        guard let first = call.arguments.first?.expression, let sides = Self.chain(first, context.index) else {
            if r.name == "addAnyHandler" || call.arguments.first?.label?.text == "any" {
                return Handler(kind: .transition(.any, .any, anyTrigger: true), effect: effect)
            }
            context.warn("cannot read which transitions this handler is for; it is left out", at: r.file.location(of: call))
            return nil
        }
        return Handler(kind: .transition(sides[sides.count - 2], sides[sides.count - 1], anyTrigger: r.name == "addAnyHandler"), effect: effect)
    }

    func effect(of expr: ExprSyntax, context: ExtractionContext, events: [String]) -> Effect {
        let e = SyntaxHelpers.unwrap(expr)
        var emits: [String] = []
        var label = "handler"
        if let closure = e.as(ClosureExprSyntax.self) {
            let names = DSLSupport.calledNames(in: closure.statements, index: context.index).filter { $0 != "tryEvent" && $0 != "tryState" }
            if !names.isEmpty { label = names.joined(separator: ", ") }
            emits = sentEvents(in: Syntax(closure), events: Set(events), index: context.index)
        } else if let p = SyntaxHelpers.path(e) {
            label = p
        }
        return Effect(label: label, emits: emits)
    }

    /// Events a handler sends back: `machine <-! .e`, `machine.tryEvent(.e)`.
    func sentEvents(in node: Syntax, events: Set<String>, index: SymbolIndex) -> [String] {
        var result: [String] = []
        final class V: SyntaxVisitor {
            var found: [ExprSyntax] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
                let elements = Array(node.elements)
                for (i, e) in elements.enumerated() where i + 1 < elements.count {
                    if let op = e.as(BinaryOperatorExprSyntax.self), op.operator.text == "<-!" { found.append(elements[i + 1]) }
                }
                return .visitChildren
            }
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if DSLSupport.calleeName(node) == "tryEvent", let a = node.arguments.first?.expression { found.append(a) }
                return .visitChildren
            }
        }
        let v = V()
        v.walk(node)
        for e in v.found {
            var x = SyntaxHelpers.unwrap(e)
            if let t = x.as(TupleExprSyntax.self), let first = t.elements.first { x = first.expression }
            if let n = DSLSupport.literalName(x, index), events.contains(n) { result.append(n) }
        }
        return result.uniqued()
    }

    func apply(_ handlers: [Handler], to rules: [Rule], events: Set<String>) -> [Rule] {
        guard !handlers.isEmpty else { return rules }
        return rules.map { rule in
            var r = rule
            var outcomes: [Outcome] = []
            for outcome in rule.outcomes {
                // Split the outcome's pairs by the set of handlers that apply to them.
                var groups: [[Int]: [Pair]] = [:]
                var order: [[Int]] = []
                for pair in outcome.pairs {
                    let target: String? = switch outcome.target {
                    case .state(let s): s
                    case .stay: pair.from
                    default: nil
                    }
                    let applying = handlers.indices.filter { matches(handlers[$0], pair: pair, target: target, events: events) }
                    if groups[applying] == nil { order.append(applying) }
                    groups[applying, default: []].append(pair)
                }
                for key in order {
                    var o = outcome
                    o.pairs = groups[key]!
                    for i in key { o.effect = o.effect.map { $0.merged(with: handlers[i].effect) } ?? handlers[i].effect }
                    outcomes.append(o)
                }
            }
            r.outcomes = outcomes
            return r
        }
    }

    func matches(_ h: Handler, pair: Pair, target: String?, events: Set<String>) -> Bool {
        let isEvent = events.contains(pair.input)
        switch h.kind {
        case .event(let e):
            return isEvent && (e == "any" || e == pair.input)
        case .transition(let from, let to, let anyTrigger):
            guard anyTrigger || !isEvent else { return false }
            let fromOK: Bool = if case .states(let s) = from { s.contains(pair.from) } else { true }
            let toOK: Bool = if case .states(let s) = to { target.map { s.contains($0) } ?? false } else { true }
            return fromOK && toOK
        }
    }

    // MARK: Route mappings

    /// `addRouteMapping { event, from, userInfo -> S? in … }` and `addStateRouteMapping { from, userInfo -> [S]? in … }`:
    /// the body is interpreted over (state, event) pairs; a nil event is the event-less `<-`.
    func mappingRules(_ r: Registration, states: [String], events: [String], context: ExtractionContext) -> [Rule] {
        let location = r.file.location(of: r.call)
        let stateMapping = r.name == "addStateRouteMapping"
        var closure = SyntaxHelpers.closures(of: r.call).first
        var body: CodeBlockItemListSyntax?
        var params: [String] = []
        var file = r.file
        if closure == nil, let arg = r.call.arguments.first?.expression, let ref = SyntaxHelpers.unwrap(arg).as(DeclReferenceExprSyntax.self) {
            // a named function or closure variable
            let functions = context.index.functions(named: ref.baseName.text, at: ref)
            if functions.count > 1 {
                context.warn("`\(ref.baseName.text)` names \(functions.count) overloaded functions here; the route mapping is not read",
                             at: location)
            }
            if functions.count == 1, let f = functions.first {
                body = f.body?.statements
                params = f.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text }
                if let owner = context.index.file(of: f) { file = owner }
            } else if let b = context.index.binding(named: ref.baseName.text, at: ref), let c = b.initializer.flatMap({ SyntaxHelpers.unwrap($0).as(ClosureExprSyntax.self) }) {
                closure = c
                file = b.file
            }
        }
        if let c = closure {
            context.claimed.insert(c.id)
            // Rewrite `.x?` patterns to `.x ` (same length, so locations stay) so payload cases of the
            // optional event match by case.
            if let (reparsed, found) = Self.withoutOptionalPatterns(c, in: file) {
                file = reparsed
                closure = found
            }
            body = closure!.statements
            params = SyntaxHelpers.closureParameterNames(closure!)
            if params.isEmpty { params = stateMapping ? ["$0", "$1"] : ["$0", "$1", "$2"] }
        }
        guard let body else {
            context.warn("cannot find the body of this route mapping; its routes are left out", at: location)
            return []
        }
        let eventParam = stateMapping ? nil : params.first
        let fromParam = stateMapping ? params.first : (params.count > 1 ? params[1] : nil)
        guard let fromParam else { return [] }
        let inputs = stateMapping ? [] : events + ["nil"]
        let domain = Domain(states: states, inputs: inputs)
        let spec = ReducerSpec(domain: domain, statePaths: [fromParam], inputPaths: eventParam.map { [$0] } ?? [],
                               returnsState: true, nilIsFailure: true)
        let interpreter = ReducerInterpreter(spec: spec, file: file, effects: context.effectReader(inputs: events, inputType: nil), readings: context.readings)
        var raw: [Rule]
        if body.count == 1, let only = body.first, let expr = Self.implicitReturn(only) {
            // a single-expression closure returns its value
            interpreter.slots = [ReducerInterpreter.Slot(location: location, catchAll: false, shadowed: false)]
            interpreter.finalize(ReducerInterpreter.Ctx(pairs: domain.all, slot: 0), returning: expr)
            raw = interpreter.rules()
        } else {
            raw = interpreter.run(body, at: location)
            if let at = interpreter.leftOut {
                context.warn(ReducerInterpreter.leftOutMessage("this route mapping") + ", and so are its routes on them", at: at, severity: .note)
            }
        }
        // Arrays a state route mapping returns, by their text.
        var arrays: [String: [String]] = [:]
        final class ArrayFinder: SyntaxVisitor {
            var arrays: [ArrayExprSyntax] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: ArrayExprSyntax) -> SyntaxVisitorContinueKind { arrays.append(node); return .visitChildren }
        }
        let af = ArrayFinder()
        af.walk(body)
        for a in af.arrays {
            let names = a.elements.compactMap { DSLSupport.literalName($0.expression, context.index) }
            if names.count == a.elements.count { arrays[a.compactText] = names }
        }
        var rules: [Rule] = []
        var warned = false
        for rule in raw {
            var r = rule
            var outcomes: [Outcome] = []
            for o in rule.outcomes {
                var expanded: [(Target, [Pair])] = []
                switch o.target {
                case .unknown(let text) where text == "nil" || text == "[]":
                    continue
                case .unknown(let text):
                    if let names = arrays[text] {
                        for n in names where states.contains(n) { expanded.append((.state(n), o.pairs)) }
                    } else {
                        if !warned {
                            context.warn("this route mapping computes its target (`\(text.prefix(50))`); the states it leads to cannot be drawn",
                                         at: location, severity: .note)
                            warned = true
                        }
                        expanded.append((o.target, o.pairs.filter { $0.input != "nil" && $0.input != "*" }))
                    }
                case .failure:
                    continue
                case .stay:
                    expanded.append((.stay, o.pairs))
                case .state(let s):
                    expanded.append((.state(s), o.pairs))
                }
                for (target, pairs) in expanded {
                    let mapped: [Pair] = pairs.compactMap { p in
                        guard p.input == "nil" || p.input == "*" else { return p }
                        switch target {
                        case .state(let s): return Pair(from: p.from, input: Self.request(s))
                        case .stay: return Pair(from: p.from, input: Self.request(p.from))
                        default: return nil
                        }
                    }
                    guard !mapped.isEmpty else { continue }
                    var n = o
                    n.pairs = mapped
                    n.target = target
                    outcomes.append(n)
                }
            }
            guard !outcomes.isEmpty else { continue }
            r.outcomes = outcomes
            r.location = rule.location
            if rules.isEmpty && r.location == location { r.trigger = stateMapping ? "<- (requested state)" : nil }
            rules.append(r)
        }
        return rules
    }

    /// The value of a single-expression body (not an `if`/`switch` statement).
    static func implicitReturn(_ item: CodeBlockItemSyntax) -> ExprSyntax? {
        var e: ExprSyntax?
        if let x = item.item.as(ExprSyntax.self) { e = x }
        if let s = item.item.as(ExpressionStmtSyntax.self) { e = s.expression }
        guard let e, !e.is(IfExprSyntax.self), !e.is(SwitchExprSyntax.self) else { return nil }
        return e
    }

    /// The file re-parsed with `?` of optional patterns (`case .code(let n)? = event`) blanked, and the
    /// same closure in it; nil when there is nothing to rewrite.
    static func withoutOptionalPatterns(_ closure: ClosureExprSyntax, in file: ParsedFile) -> (ParsedFile, ClosureExprSyntax)? {
        final class V: SyntaxVisitor {
            var offsets: [Int] = []
            init() { super.init(viewMode: .sourceAccurate) }
            override func visit(_ node: OptionalChainingExprSyntax) -> SyntaxVisitorContinueKind {
                var p = node.parent
                var inPattern = false
                while let c = p, !c.is(CodeBlockItemSyntax.self) {
                    if c.is(ExpressionPatternSyntax.self) || c.is(MatchingPatternConditionSyntax.self) || c.is(SwitchCaseItemSyntax.self) {
                        inPattern = true
                        break
                    }
                    p = c.parent
                }
                if inPattern { offsets.append(node.questionMark.positionAfterSkippingLeadingTrivia.utf8Offset) }
                return .visitChildren
            }
        }
        let v = V()
        v.walk(closure)
        guard !v.offsets.isEmpty else { return nil }
        var bytes = Array(file.tree.description.utf8)
        for o in v.offsets where o < bytes.count && bytes[o] == UInt8(ascii: "?") { bytes[o] = UInt8(ascii: " ") }
        let reparsed = ParsedFile(path: file.path, text: String(decoding: bytes, as: UTF8.self))
        Rebuilt.shared.reparsed(Syntax(reparsed.tree), from: Syntax(file.tree))
        final class Locate: SyntaxVisitor {
            let position: AbsolutePosition
            var found: ClosureExprSyntax?
            init(_ p: AbsolutePosition) {
                position = p
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
                if node.position == position { found = node; return .skipChildren }
                return node.position <= position && position < node.endPosition ? .visitChildren : .skipChildren
            }
        }
        let l = Locate(closure.position)
        l.walk(reparsed.tree)
        guard let found = l.found else { return nil }
        return (reparsed, found)
    }
}
