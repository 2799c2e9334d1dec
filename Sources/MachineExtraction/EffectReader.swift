import MachineModel
import SwiftSyntax

/// Reads what an effect expression starts, sends back and cancels, across dialects:
/// Harvest `Effect(p, queue:)`, Actomaton `Effect(id:queue:) { .x }`, TCA `.run { send in … }`,
/// `.send`, `.merge`, `.cancellable(id:cancelInFlight:)`, `.cancel(id:)`, publishers bound to names.
struct EffectReader {
    let index: SymbolIndex
    /// Input case names, and the declaration of the input type (to accept `Action.x` when `Action`
    /// resolves to it where it is written).
    let inputs: Set<String>
    let inputKey: String?
    /// Where the machine is written: names in expressions the reader rebuilt (operators folded) are
    /// looked up from here.
    var origin: Syntax? = nil
    /// The Harvest effect queue type of the mapping (`EffectMapping<World, Queue, EffectID>`): what an
    /// implicit `queue: .request` names.
    var queueType: TypeInfo? = nil

    func scope(of node: some SyntaxProtocol) -> LookupScope? {
        index.scope(of: node) ?? origin.flatMap { index.scope(of: $0) }
    }

    struct Result {
        var effect: Effect?
        var cancels: [String] = []

        mutating func add(_ other: Result) {
            if let e = other.effect { effect = effect.map { $0.merged(with: e) } ?? e }
            cancels = cancels.appendingUnique(other.cancels)
        }
    }

    /// Cases that start nothing: the libraries' (`.none`, `.empty`, `.never`) and the ones action enums of
    /// hand-written machines name for it (`.nothing`, `.doNothing`, `.noop`, `.noAction`).
    static let emptyNames: Set<String> = ["none", "empty", "nil", "never", "nothing", "doNothing", "noop", "noAction"]

    func read(_ expression: ExprSyntax) -> Result {
        // (a row's effect in parentheses, `(.cancel(.quote) + Effect(pub, id: .quote))`: its operators folded too)
        read(SyntaxHelpers.fold(SyntaxHelpers.unwrap(expression)), depth: 0)
    }

    private func read(_ raw: ExprSyntax, depth: Int) -> Result {
        let expr = SyntaxHelpers.unwrap(raw)
        guard depth < 24 else { return Result() }
        // (`nil`, and the `true`, `false`, number or text a method returns: `return false` after a guard)
        if expr.is(NilLiteralExprSyntax.self) || expr.is(BooleanLiteralExprSyntax.self) || expr.is(IntegerLiteralExprSyntax.self)
            || expr.is(FloatLiteralExprSyntax.self) || expr.is(StringLiteralExprSyntax.self) { return Result() }
        // (no commands: `default: return []`)
        if expr.as(ArrayExprSyntax.self)?.elements.isEmpty == true || expr.as(DictionaryExprSyntax.self)?.content.is(TokenSyntax.self) == true {
            return Result()
        }
        if let member = expr.as(MemberAccessExprSyntax.self), Self.emptyNames.contains(member.declName.baseName.text) {
            return Result()
        }
        // (RxSwift's `.empty()`, `Observable.empty()`: nothing sent, no effect)
        if let call = expr.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
           let member = call.calledExpression.as(MemberAccessExprSyntax.self), ["empty", "never"].contains(member.declName.baseName.text) {
            return Result()
        }
        // a + b (Actomaton)
        if let infix = expr.as(InfixOperatorExprSyntax.self), infix.operator.trimmedText == "+" {
            var r = read(infix.leftOperand, depth: depth + 1)
            r.add(read(infix.rightOperand, depth: depth + 1))
            return r
        }
        if let call = expr.as(FunctionCallExprSyntax.self) {
            return readCall(call, depth: depth)
        }
        if let ref = expr.as(DeclReferenceExprSyntax.self) {
            // an effect a local constant holds (`let updates: Effect<Action> = .run { … }; return updates.cancellable(id: …)`)
            if let local = SymbolIndex.localDeclaration(of: ref.baseName.text, around: Syntax(ref))?.as(PatternBindingSyntax.self),
               local.parent?.parent?.as(VariableDeclSyntax.self)?.bindingSpecifier.tokenKind == .keyword(.let),
               let value = local.initializer?.value {
                var r = read(SyntaxHelpers.fold(value), depth: depth + 1)
                r.effect?.label = ref.baseName.text
                return r
            }
            // a publisher or effect bound to a name elsewhere
            var r = Result(effect: Effect(label: ref.baseName.text))
            r.effect!.emits = emits(inBinding: ref.baseName.text, at: Syntax(ref), depth: depth)
            if let at = index.anchor(ref, else: origin), let initializer = DSLSupport.value(of: ref.baseName.text, around: at, index: index),
               isStream(Syntax(initializer)) {
                r.effect!.kind = .stream
            }
            return r
        }
        if expr.is(ClosureExprSyntax.self) {
            return Result(effect: Effect(label: "closure", emits: emits(in: Syntax(expr), depth: depth), kind: kind(of: Syntax(expr))))
        }
        let e = emits(in: Syntax(expr), depth: depth)
        return Result(effect: Effect(label: shortLabel(expr), emits: e, kind: kind(of: Syntax(expr))))
    }

    private func readCall(_ call: FunctionCallExprSyntax, depth: Int) -> Result {
        let callee = call.calledExpression
        let name = (callee.as(MemberAccessExprSyntax.self)?.declName.baseName.text)
            ?? (callee.as(DeclReferenceExprSyntax.self)?.baseName.text) ?? ""
        let base = callee.as(MemberAccessExprSyntax.self)?.base
        // `CancelID.allCases.map { .cancel(id: $0) }` (or `{ id in Effect.cancel(id: id) }`, `(Effect.cancel(id:))`):
        // each case of the id enum cancelled (`allCases` is the enum's own, no value to look up)
        if name == "map", let all = base?.as(MemberAccessExprSyntax.self), all.declName.baseName.text == "allCases",
           let type = all.base, let anchor = index.anchor(call, else: origin),
           let cases = index.enumInfo(type.trimmedText, in: index.scope(of: anchor))?.caseNames {
            let ids = cases.map { cancelID(ExprSyntax(MemberAccessExprSyntax(base: type, name: .identifier($0)))) }
            if let reference = call.arguments.first?.expression.as(MemberAccessExprSyntax.self), call.arguments.count == 1,
               reference.declName.baseName.text == "cancel" {
                return Result(cancels: ids)
            }
            if let closure = SyntaxHelpers.closures(of: call).first, closure.statements.count == 1,
               let body = closure.statements.first?.item.as(ExprSyntax.self) ?? closure.statements.first?.item.as(ReturnStmtSyntax.self)?.expression {
                let each = read(body, depth: depth + 1)
                let parameter = SyntaxHelpers.closureParameterNames(closure).first ?? "$0"
                if each.effect == nil, each.cancels == ["\(parameter) (runtime value)"] { return Result(cancels: ids) }
            }
        }
        // `.cancel(…)`, `Effect.cancel(…)`, `EffectTask<Action>.cancel(…)`: a static member, not a value's
        // method (`task.cancel()`): the base names a type where it is written
        let baseIsType = base.map { index.isTypeReference($0, at: origin) } ?? true

        // Cancellation: .cancel(id:), Effect.cancel(id:), .cancel(ids:), Harvest .cancel(x)
        // (an action enum's own `.cancel(requestContinuation:…)` is none: only `id:` / `ids:` or no label)
        if name == "cancel", baseIsType, call.arguments.allSatisfy({ $0.label.map { ["id", "ids"].contains($0.text) } ?? true }) {
            var r = Result()
            // (`.cancel(ids: [PollID.self, UploadID.self])`: each of them)
            // (`.cancel(ids: { $0 is A || $0 is B })`: each type tested; `{ _ in true }`: every id)
            var ids = call.arguments.flatMap { argument in
                SyntaxHelpers.unwrap(argument.expression).as(ArrayExprSyntax.self).map { $0.elements.map { cancelID($0.expression) } }
                    ?? SyntaxHelpers.unwrap(argument.expression).as(ClosureExprSyntax.self).flatMap(Self.testedIDs)
                    ?? [cancelID(argument.expression)]
            }
            // (ReactiveAutomaton's `.cancel { $0 == .route }`: the ids its predicate compares with)
            if ids.isEmpty, let predicate = call.trailingClosure, let tested = Self.testedIDs(predicate) { ids = tested }
            r.cancels = ids.isEmpty ? ["*"] : ids
            return r
        }
        // x.cancellable(id:cancelInFlight:)
        if name == "cancellable", let base {
            var r = read(base, depth: depth + 1)
            if let idExpr = SyntaxHelpers.argument(call, "id") ?? call.arguments.first?.expression {
                let id = cancelID(idExpr)
                if r.effect == nil { r.effect = Effect(label: shortLabel(base)) }
                r.effect!.assign(id: id)
                if SyntaxHelpers.argument(call, "cancelInFlight")?.trimmedText == "true" { r.cancels.append(id) }
            }
            return r
        }
        // .merge(a, b), .concatenate(a, b), .merge([a, b]), Effect.combine
        if ["merge", "concatenate", "concat", "combine", "merged"].contains(name) {
            var r = Result()
            if let base, !baseIsType { r.add(read(base, depth: depth + 1)) }
            for arg in call.arguments {
                if let array = SyntaxHelpers.unwrap(arg.expression).as(ArrayExprSyntax.self) {
                    for element in array.elements { r.add(read(element.expression, depth: depth + 1)) }
                } else {
                    r.add(read(arg.expression, depth: depth + 1))
                }
            }
            // TCA's `.concatenate(a, b)`: one after the other, as one effect sending what each sends (unless a
            // part has an id or a queue of its own, which the parts keep); a publisher's `concat` delivers
            // every part's value, each part once
            if name == "concatenate", let e = r.effect, e.parts.count > 1,
               e.parts.allSatisfy({ $0.id == nil && $0.queue == nil }) {
                r.effect!.parts = []
            }
            return r
        }
        // a method of a value whose type is written that builds the effect, declared to return one
        // (`env.priceEffect()` with `func priceEffect() -> Effect<Action>`, the environment a reducer is given)
        if let base, !baseIsType, !SyntaxHelpers.isSelf(base), let type = index.valueType(base),
           case let methods = index.methods(named: name, of: type).filter({ $0.signature.parameterClause.parameters.count == call.arguments.count }),
           methods.count == 1, let returns = methods[0].signature.returnClause?.type.trimmedText, ReducerSpec.isEffectType(returns),
           case let built = readHelper(methods[0], call: call, otherwise: Result(), depth: depth),
           built.effect != nil || !built.cancels.isEmpty {
            return built
        }
        // Chained operators on an effect value: .map, .eraseToEffect, .catchToEffect, .delay, .receive ...
        if let base, !baseIsType, base.is(FunctionCallExprSyntax.self) || base.is(DeclReferenceExprSyntax.self) || base.is(MemberAccessExprSyntax.self) {
            var r = read(base, depth: depth + 1)
            // (a value sent at once no longer is after an operator that waits: `Effect(value: .done).delay(for: 1,
            // scheduler: …)`, `.receive(on:)`)
            if r.effect?.isSend == true, !["eraseToEffect", "eraseToAnyPublisher", "map"].contains(name) {
                r.effect!.label = shortLabel(base)
            }
            // `producer.toEffect(queue: .request, id: .download)`
            if let q = SyntaxHelpers.argument(call, "queue"), !q.is(NilLiteralExprSyntax.self) {
                if r.effect == nil { r.effect = Effect(label: shortLabel(base)) }
                let queue = queueName(q)
                r.effect!.assign(queue: queue, policy: policy(ofQueue: queue, written: q))
                if let policy = r.effect!.policy, Self.policyCancelsPrevious(policy) { r.cancels.append(queue) }
            }
            if let id = SyntaxHelpers.argument(call, "id") {
                if r.effect == nil { r.effect = Effect(label: shortLabel(base)) }
                r.effect!.assign(id: cancelID(id))
                // TCA's `.debounce(id:for:scheduler:)` is `cancellable(id:cancelInFlight: true)` inside
                if name == "debounce" { r.cancels.append(cancelID(id)) }
            }
            let extra = call.arguments.flatMap { emits(in: Syntax($0.expression), depth: depth) }
                + SyntaxHelpers.closures(of: call).flatMap { emits(in: Syntax($0), depth: depth) }
            if !extra.isEmpty {
                if r.effect == nil { r.effect = Effect(label: shortLabel(base)) }
                if Self.sequenceOperators.contains(name), r.effect!.kind == .once, !r.effect!.emits.isEmpty {
                    // `producer.prefix(value: .a)`, `.append(b)`: a value delivered besides the producer's, each
                    // once (a `once` effect delivers one value and ends)
                    r.effect = r.effect!.merged(with: Effect(label: name, emits: extra))
                } else {
                    r.effect!.emits = r.effect!.emits.appendingUnique(extra)
                }
            }
            // `publisher.autoconnect()`, `.flatMap { for await … }`: this call makes it a stream
            if r.effect != nil, Self.streamCallNames.contains(name)
                || call.arguments.contains(where: { isStream(Syntax($0.expression)) })
                || SyntaxHelpers.closures(of: call).contains(where: { isStream(Syntax($0)) }) {
                r.effect!.kind = .stream
            }
            return r
        }
        var effect = Effect(label: shortLabel(call))
        // legacy TCA's `Effect(value: .opened)` (`.init(value:)`, `EffectTask(value:)`): a `Just` the store
        // handles at once, as `.send(.opened)`
        if call.arguments.count == 1, call.arguments.first?.label?.text == "value", call.trailingClosure == nil,
           name == "init" || ReducerSpec.effectTypes.contains(SymbolIndex.bareTypeName(SyntaxHelpers.unwrap(callee).trimmedText)) {
            effect.label = "send"
        }
        // `Effect(loginPublisher, queue: .request)`: the publisher names the effect better than the type
        if let first = call.arguments.first, first.label == nil, let ref = first.expression.as(DeclReferenceExprSyntax.self),
           isInitializer(callee) {
            effect.label = ref.baseName.text
            if let at = index.anchor(ref, else: origin), let initializer = DSLSupport.value(of: ref.baseName.text, around: at, index: index),
               isStream(Syntax(initializer)) {
                effect.kind = .stream
            }
        }
        effect.emits = emits(in: Syntax(call), depth: depth)
        // the calls its closure makes (`.run { … }`): whether it dismisses the feature, the id it runs under
        let closures = SyntaxHelpers.closures(of: call)
        let inner = closures.first.map { DSLSupport.calls(in: $0) } ?? []
        effect.dismisses = dismisses(among: inner)
        if isStream(Syntax(call)) { effect.kind = .stream }
        effect.outputs = outputs(ofStream: call)
        // (`queue: nil`: the default queue, which merges)
        if let q = SyntaxHelpers.argument(call, "queue"), !q.is(NilLiteralExprSyntax.self) {
            let queue = queueName(q)
            effect.queue = queue
            effect.policy = policy(ofQueue: queue, written: q)
        }
        if let id = SyntaxHelpers.argument(call, "id") { effect.id = cancelID(id) }
        // `.run { send in await withTaskCancellation(id: CancelID.x, cancelInFlight: true) { … } }`: the id
        // of the work inside (and, with `cancelInFlight`, it cancels the one before)
        var inFlight: String?
        // (the operation: `.run { … } catch: { … }` has its handler too)
        if effect.id == nil, let cancellation = Self.taskCancellation(among: inner) {
            effect.id = cancelID(cancellation.id)
            if cancellation.inFlight { inFlight = effect.id }
        }
        var r = Result(effect: effect)
        if let inFlight { r.cancels.append(inFlight) }
        // TCA's Effect.timer(id:every:on:) is cancellable(id:cancelInFlight: true) inside
        if name == "timer", let id = effect.id { r.cancels.append(id) }
        if let policy = effect.policy, let queue = effect.queue, Self.policyCancelsPrevious(policy) {
            r.cancels.append(queue)
        }
        // A function of the project that builds the effect (`startTimer()`): read what it returns.
        let helpers = index.functions(referencedBy: callee, at: index.anchor(callee, else: origin)).filter { $0.signature.parameterClause.parameters.count == call.arguments.count }
        if helpers.count == 1 { return readHelper(helpers[0], call: call, otherwise: r, depth: depth) }
        return r
    }

    /// What a function of the project that builds an effect returns (`startTimer()`, `env.priceEffect()`),
    /// the ids it is given put in; `otherwise` where it returns none.
    func readHelper(_ helper: FunctionDeclSyntax, call: FunctionCallExprSyntax, otherwise r: Result, depth: Int) -> Result {
        let effect = r.effect ?? Effect()
        if let returned = returnedExpressions(of: helper), !returned.isEmpty, depth < 6 {
            let helperName = helper.name.text
            var inner = Result()
            for e in returned { inner.add(read(e, depth: depth + 2)) }
            // an id the helper is given (`tickEffect(id: .tick)`, its body `Effect(…, id: id)`): the argument's
            let given = Dictionary(zip(helper.signature.parameterClause.parameters, call.arguments).map { p, a in
                ("\((p.secondName ?? p.firstName).text) (runtime value)", cancelID(a.expression))
            }, uniquingKeysWith: { a, _ in a })
            inner.cancels = inner.cancels.map { given[$0] ?? $0 }
            if var e = inner.effect {
                e.label = helperName
                if e.emits.isEmpty { e.emits = effect.emits }
                if let id = e.id, let argument = given[id] {
                    e.id = argument
                    for i in e.parts.indices where e.parts[i].id == id { e.parts[i].id = argument }
                }
                inner.effect = e
            }
            return inner.effect == nil && inner.cancels.isEmpty ? r : inner
        }
        return r
    }

    /// Whether one of an effect's calls is TCA's `dismiss()` (`.run { _ in await self.dismiss() }`): the
    /// property of that name is `@Dependency(\.dismiss)`.
    func dismisses(among calls: [FunctionCallExprSyntax]) -> Bool {
        calls.contains { call in
            guard call.arguments.isEmpty, ["dismiss", "self.dismiss"].contains(call.calledExpression.trimmedText),
                  let at = index.anchor(call, else: origin),
                  let variable = index.binding(named: "dismiss", at: at)?.node.parent?.parent?.as(VariableDeclSyntax.self) else { return false }
            return variable.attributes.contains { $0.trimmedText.replacingOccurrences(of: " ", with: "") == "@Dependency(\\.dismiss)" }
        }
    }

    /// The `withTaskCancellation(id:cancelInFlight:)` call among an effect's calls, if one: its id and whether
    /// it cancels the one in flight.
    static func taskCancellation(among calls: [FunctionCallExprSyntax]) -> (id: ExprSyntax, inFlight: Bool)? {
        guard let found = calls.first(where: { $0.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "withTaskCancellation" }),
              let id = SyntaxHelpers.argument(found, "id") else { return nil }
        return (id, SyntaxHelpers.argument(found, "cancelInFlight")?.trimmedText == "true")
    }

    /// Operators that add values to what a producer sends, before or after it (ReactiveSwift, Combine, Rx).
    static let sequenceOperators: Set<String> = ["prefix", "prepend", "startWith", "append", "concat"]

    // MARK: Streams

    /// Calls that make an effect deliver again and again: timers, notification and subject publishers,
    /// async streams, Rx intervals.
    static let streamCallNames: Set<String> = [
        "timer", "publisher", "AsyncStream", "AsyncThrowingStream", "interval", "autoconnect", "PassthroughSubject",
        "CurrentValueSubject", "notifications", "repeatForever",
    ]

    func kind(of node: Syntax) -> Effect.Kind { isStream(node) ? .stream : .once }

    /// Whether the effect written in `node` can send more than once: a `for await` or `while` loop
    /// that sends, a timer or another long-lived publisher, `Effect(sequence:)`.
    func isStream(_ node: Syntax) -> Bool {
        let finder = StreamFinder(reader: self)
        finder.walk(node)
        return finder.found
    }

    final class StreamFinder: SyntaxVisitor {
        let reader: EffectReader
        let depth: Int
        var found = false

        init(reader: EffectReader, depth: Int = 0) {
            self.reader = reader
            self.depth = depth
            super.init(viewMode: .sourceAccurate)
        }

        func sends(_ body: CodeBlockSyntax) -> Bool {
            let finder = InputReferenceFinder(reader: reader)
            finder.walk(body)
            return !finder.found.isEmpty
        }

        override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
            // `for await x in stream { await send(.x) }`; a plain `for` over a collection is finite
            if node.awaitKeyword != nil, sends(node.body) { found = true }
            return found ? .skipChildren : .visitChildren
        }

        override func visit(_ node: WhileStmtSyntax) -> SyntaxVisitorContinueKind {
            if sends(node.body) { found = true }
            return found ? .skipChildren : .visitChildren
        }

        override func visit(_ node: RepeatStmtSyntax) -> SyntaxVisitorContinueKind {
            if sends(node.body) { found = true }
            return found ? .skipChildren : .visitChildren
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            let callee = node.calledExpression
            let name = (callee.as(MemberAccessExprSyntax.self)?.declName.baseName.text)
                ?? (callee.as(DeclReferenceExprSyntax.self)?.baseName.text) ?? ""
            let labels = node.arguments.compactMap { $0.label?.text }
            // `Timer.publish(every:)`, `Effect(sequence:)`, `EffectTask.run(…)` is not by itself
            if EffectReader.streamCallNames.contains(name) || (name == "publish" && labels.contains("every"))
                || labels.contains("sequence") {
                found = true
            }
            // (legacy TCA's `Effect.run { subscriber in … }` sending from a callback it installs, `motion.startUpdates
            // { data, _ in subscriber.send(.sample(data)) }`: every time the callback runs)
            if !found, name == "run", let closure = node.trailingClosure, let subscriber = SyntaxHelpers.closureParameterNames(closure).first,
               DSLSupport.calls(in: closure).contains(where: { call in
                   call.calledExpression.as(MemberAccessExprSyntax.self).map { $0.declName.baseName.text == "send" && $0.base?.trimmedText == subscriber } == true
                       && SyntaxHelpers.nearest(call, { $0.as(ClosureExprSyntax.self) })?.id != closure.id
               }) {
                found = true
            }
            // (a function given the effect's `send` that loops: `await observe(send: send)`)
            if !found, depth < 3, let body = reader.sendingHelper(node) {
                let inner = StreamFinder(reader: reader, depth: depth + 1)
                inner.walk(body)
                found = inner.found
            }
            return found ? .skipChildren : .visitChildren
        }
    }

    /// The values a stream written as `call` sends, and which of them end it: those sent from a
    /// `catch:` closure (TCA's `.run { … } catch: { error, send in … }`: the operation has thrown, the
    /// run is over), and those sent after the operation's `for await` loop (at the top level of the
    /// closure, or after a `do` block holding the loop, or from that block's `catch` clauses).
    func outputs(ofStream call: FunctionCallExprSyntax) -> [Effect.Output] {
        var result: [Effect.Output] = []
        func add(_ node: Syntax, last: Bool) {
            let finder = InputReferenceFinder(reader: self)
            finder.walk(node)
            for value in finder.values {
                let output = Effect.Output(value: value, last: last)
                if !result.contains(output) { result.append(output) }
            }
        }
        var operations = call.arguments.compactMap { $0.label?.text != "catch" ? $0.expression.as(ClosureExprSyntax.self) : nil }
        var catches = call.arguments.compactMap { $0.label?.text == "catch" ? $0.expression.as(ClosureExprSyntax.self) : nil }
        if let t = call.trailingClosure { operations.append(t) }
        for t in call.additionalTrailingClosures {
            if t.label.text == "catch" { catches.append(t.closure) } else { operations.append(t.closure) }
        }
        for closure in operations { addOperation(closure.statements, into: add) }
        for closure in catches { add(Syntax(closure), last: true) }
        return result
    }

    /// The statements of an operation: what is sent after the loop that streams is sent last.
    private func addOperation(_ statements: CodeBlockItemListSyntax, into add: (Syntax, Bool) -> Void) {
        var afterLoop = false
        for item in statements {
            if afterLoop { add(Syntax(item), true); continue }
            // (`AsyncStream { c in c.yield(.progress); c.yield(.complete); c.finish() }`: a builder yielding in
            // turn, no loop, and finishing: what it yields last before `finish()` ends the stream)
            if let builder = Self.finiteStreamBuilder(item) {
                let steps = Array(builder.statements)
                let finish = steps.firstIndex { $0.tokens(viewMode: .sourceAccurate).contains { $0.text == "finish" } } ?? steps.count
                for (i, step) in steps.prefix(finish).enumerated() { add(Syntax(step), i == finish - 1 && finish < steps.count) }
                continue
            }
            if let doStatement = item.item.as(DoStmtSyntax.self), isStream(Syntax(doStatement.body)) {
                addOperation(doStatement.body.statements, into: add)
                for clause in doStatement.catchClauses { add(Syntax(clause), true) }
                afterLoop = true
            } else {
                add(Syntax(item), false)
                let loop = (item.item.as(ForStmtSyntax.self).map { $0.awaitKeyword != nil } ?? false)
                    || item.item.is(WhileStmtSyntax.self) || item.item.is(RepeatStmtSyntax.self)
                if loop, isStream(Syntax(item)) { afterLoop = true }
            }
        }
    }

    /// The builder closure of an `AsyncStream`/`AsyncThrowingStream` a statement makes (returned or alone),
    /// when it has no loop and calls `finish()`: a stream of a few values, then done.
    static func finiteStreamBuilder(_ item: CodeBlockItemSyntax) -> ClosureExprSyntax? {
        let expr = item.item.as(ExprSyntax.self) ?? item.item.as(ExpressionStmtSyntax.self)?.expression ?? item.item.as(ReturnStmtSyntax.self)?.expression
        guard let call = expr.map(SyntaxHelpers.unwrap)?.as(FunctionCallExprSyntax.self),
              ["AsyncStream", "AsyncThrowingStream"].contains(SymbolIndex.bareTypeName(call.calledExpression.trimmedText)),
              call.arguments.isEmpty, let builder = call.trailingClosure else { return nil }
        let words = Set(builder.statements.tokens(viewMode: .sourceAccurate).map(\.text))
        return words.contains("finish") && words.isDisjoint(with: ["for", "while", "repeat"]) ? builder : nil
    }

    static func policyCancelsPrevious(_ policy: String) -> Bool {
        policy == "latest" || policy.hasPrefix("runNewest") || policy == "switchToLatest"
    }

    /// `CancelID.timer` stays; `UploadID()` → `UploadID`; `SocketID.self` → `SocketID`; `.timer` → `timer`.
    func cancelID(_ expr: ExprSyntax) -> String { Self.idText(expr, index, at: origin) }

    /// The ids an Actomaton id predicate takes, when it is one expression: each type it tests (`$0 is A ||
    /// $0 is B`), or every id (`{ _ in true }`, "*"); nil for another predicate.
    static func testedIDs(_ closure: ClosureExprSyntax) -> [String]? {
        guard closure.statements.count == 1, let only = closure.statements.first else { return nil }
        let text = only.compactText
        if text == "true" { return ["*"] }
        let tested = text.matches(of: /\bis\s+([A-Za-z_][A-Za-z0-9_.]*)/).map { String($0.output.1) }
        if tested.count > 1 { return tested.uniqued() }
        // (ReactiveAutomaton's `.cancel { $0 == .route }`, `{ $0 == .a || $0 == .b }`: the ids compared with)
        let compared = text.matches(of: /\$0\s*==\s*\.?([A-Za-z_][A-Za-z0-9_.]*)/).map { String($0.output.1) }
        let parts = text.split(separator: "||").count
        return !compared.isEmpty && compared.count == parts ? compared.uniqued() : nil
    }

    static func idText(_ expr: ExprSyntax, _ index: SymbolIndex, at anchor: Syntax? = nil) -> String {
        var e = SyntaxHelpers.unwrap(expr)
        // `.cancel(ids: { $0 is PingID })`: every id of that type
        if let closure = e.as(ClosureExprSyntax.self), let only = closure.statements.first, closure.statements.count == 1 {
            let text = only.compactText
            if let r = text.range(of: #"\bis\s+([A-Za-z_][A-Za-z0-9_.]*)"#, options: .regularExpression) {
                return String(text[r].dropFirst(2).trimmingCharacters(in: .whitespaces))
            }
            return text
        }
        // runtime values (`state.id`, `id`: a path that is no case or static member) are not stable names: say so
        if SyntaxHelpers.caseReference(e, index, at: anchor) == nil, let path = SyntaxHelpers.path(e) {
            return "\(path) (runtime value)"
        }
        if let call = e.as(FunctionCallExprSyntax.self) {
            // `DownloadID(id)`: an id built from a run-time value
            if !call.arguments.isEmpty { return "\(call.compactText) (runtime value)" }
            e = call.calledExpression
        }
        var text = e.compactText
        if text.hasSuffix(".self") { text.removeLast(5) }
        if text.hasPrefix(".") { text.removeFirst() }
        return text
    }

    func queueName(_ expr: ExprSyntax) -> String { cancelID(expr) }

    /// Whether a callee builds a value (`Effect(…)`, `Outer.Effect(…)`) rather than calling a function
    /// (`send(…)`, `Send(…)` declared as a function): by the index; a name the inputs neither declare
    /// nor write as a type is read by its spelling, with a note.
    func isInitializer(_ callee: ExprSyntax) -> Bool {
        switch index.meaning(ofCallee: callee, at: origin) {
        case .initializer: return true
        case .function: return false
        case .unknown:
            let text = SyntaxHelpers.unwrap(callee).trimmedText
            let guess = SymbolIndex.spelledAsType(text)
            // (the effect type of the library the machine is written with, `Effect(producer, queue: .request)`: no doubt)
            if ReducerSpec.isEffectType(text) { return true }
            if let at = index.anchor(callee, else: origin) {
                index.undecided("`\(text)` is declared neither in the inputs nor as a type they write; the call is read as \(guess ? "an initializer" : "a function") by its spelling", at: at)
            }
            return guess
        }
    }

    /// The policy of a queue: a Harvest queue enum's `flattenStrategy`, or an Actomaton queue type's protocol.
    func policy(ofQueue queue: String, written: ExprSyntax) -> String? {
        if let scope = scope(of: written), let type = index.type(queue, in: scope) {
            for inherited in type.inherited {
                switch SymbolIndex.bareTypeName(inherited) {
                case "Newest1EffectQueueProtocol", "Newest1EffectQueue": return "runNewest(1)"
                case "Oldest1DiscardNewEffectQueueProtocol", "Oldest1DiscardNewEffectQueue": return "runOldest(1, discardNew)"
                case "Oldest1SuspendNewEffectQueueProtocol", "Oldest1SuspendNewEffectQueue": return "runOldest(1, suspendNew)"
                default: continue
                }
            }
            if let policy = type.properties.first(where: { $0.name == "effectQueuePolicy" }), let run = Self.runPolicy(policy.node.compactText) {
                return run
            }
        }
        // A Harvest queue enum case (`LockQueue.motor`, or `.motor` of the mapping's queue type, the
        // `Queue` argument of its written `EffectMapping` type): the queue enum's `flattenStrategy` for
        // this case. An implicit `.motor` whose queue type is not written: no policy.
        guard let scope = scope(of: written) else { return nil }
        var caseName = queue
        var type = queueType
        if let dot = queue.lastIndex(of: ".") {
            caseName = String(queue[queue.index(after: dot)...])
            type = index.type(String(queue[..<dot]), in: scope)
        }
        guard let type, type.enumInfo?.caseNames.contains(caseName) == true else { return nil }
        // (an Actomaton queue enum's case: `Effect(queue: SearchQueue.search)`, its `effectQueuePolicy` for it)
        if let policy = index.properties(named: "effectQueuePolicy", of: type).first {
            let finder = CaseReturnFinder(caseName: caseName, index: index)
            finder.walk(policy.node)
            return Self.runPolicy((finder.returned ?? ExtractionContext.getter(of: policy).flatMap(SyntaxHelpers.onlyValue))?.compactText ?? "")
        }
        guard let strategy = index.properties(named: "flattenStrategy", of: type).first else { return nil }
        let finder = CaseReturnFinder(caseName: caseName, index: index)
        finder.walk(strategy.node)
        if let result = finder.result { return result }
        // no `switch`: `.merge`, `self == .heater ? .latest : .merge`, `if self == .heater { return .latest }; return .merge`
        return ExtractionContext.getter(of: strategy).flatMap { Self.caseValue($0, for: caseName, index: index) }
    }

    /// The case statements give for the enum case `caseName` standing for `self`: their one value, the
    /// branch of a ternary over `self == .x` (`!=`) it takes, or the first `if self == .x { return … }`
    /// that holds, else the `return` after them.
    static func caseValue(_ items: CodeBlockItemListSyntax, for caseName: String, index: SymbolIndex) -> String? {
        func holds(_ condition: ExprSyntax) -> Bool? {
            guard let test = SyntaxHelpers.unwrapFolded(condition).as(InfixOperatorExprSyntax.self),
                  case let op = test.operator.trimmedText, op == "==" || op == "!=",
                  [test.leftOperand, test.rightOperand].contains(where: { $0.trimmedText == "self" }),
                  let tested = [test.leftOperand, test.rightOperand].first(where: { $0.trimmedText != "self" })
                      .flatMap({ SyntaxHelpers.caseReference($0, index)?.name }) else { return nil }
            return (tested == caseName) == (op == "==")
        }
        func value(_ expr: ExprSyntax) -> String? {
            let e = SyntaxHelpers.unwrapFolded(expr)
            guard let choice = e.as(TernaryExprSyntax.self) else { return SyntaxHelpers.caseReference(e, index)?.name }
            return holds(choice.condition).flatMap { value($0 ? choice.thenExpression : choice.elseExpression) }
        }
        if let only = SyntaxHelpers.onlyValue(items) { return value(only) }
        for item in items {
            if let ret = item.item.as(ReturnStmtSyntax.self) { return ret.expression.flatMap(value) }
            guard let choice = item.item.as(ExpressionStmtSyntax.self)?.expression.as(IfExprSyntax.self) ?? item.item.as(IfExprSyntax.self),
                  choice.elseBody == nil, choice.conditions.count == 1, case .expression(let condition) = choice.conditions.first!.condition,
                  let taken = holds(condition) else { return nil }
            if taken { return caseValue(choice.body.statements, for: caseName, index: index) }
        }
        return nil
    }

    // MARK: Emitted inputs

    /// Input cases referenced in an expression, outermost only (`.login(.twoFactor)` → `login`).
    func emits(in node: Syntax, depth: Int) -> [String] {
        let finder = InputReferenceFinder(reader: self)
        finder.walk(node)
        var found = finder.found
        if depth < 3, found.isEmpty {
            // nothing written inline: follow names to the publishers they are bound to, and the functions
            // given the effect's `send`
            for name in finder.references.uniqued() {
                found = found.appendingUnique(emits(inBinding: name, at: node, depth: depth + 1))
            }
            for body in sendingHelpers(in: node) { found = found.appendingUnique(emits(in: Syntax(body), depth: depth + 1)) }
        }
        return found
    }

    /// The bodies of the project's functions that a call in `node` hands the effect's `send` to (`.run {
    /// send in await observe(send: send) }` with `func observe(send: Send<Action>) async { for await … }`):
    /// what they send, the effect sends.
    func sendingHelpers(in node: Syntax) -> [CodeBlockSyntax] {
        DSLSupport.calls(in: node).compactMap(sendingHelper)
    }

    /// The body of the project's function a call hands a `Send` to, given by name (`observe(send: send)`).
    func sendingHelper(_ call: FunctionCallExprSyntax) -> CodeBlockSyntax? {
        guard call.arguments.contains(where: { $0.expression.is(DeclReferenceExprSyntax.self) }) else { return nil }
        let functions = index.functions(referencedBy: call.calledExpression, at: index.anchor(call.calledExpression, else: origin))
        guard functions.count == 1, let function = functions.first, let body = function.body,
              function.signature.parameterClause.parameters.contains(where: { SymbolIndex.bareTypeName($0.type.trimmedText) == "Send" })
        else { return nil }
        return body
    }

    func emits(inBinding name: String, at node: Syntax, depth: Int) -> [String] {
        // (a local first: `let ticks = Timer.publish(…).map { _ in .tick }; return Effect(ticks, queue: .timer)`)
        guard depth < 4, let initializer = DSLSupport.localBinding(named: name, around: node)?.initializer?.value
                ?? index.binding(named: name, in: scope(of: node), where: { $0.initializer != nil })?.initializer else { return [] }
        return emits(in: Syntax(initializer), depth: depth + 1)
    }

    /// What a function of the project returns: its `return` expressions, or its single expression.
    func returnedExpressions(of f: FunctionDeclSyntax) -> [ExprSyntax]? {
        guard let body = f.body else { return nil }
        if let only = SyntaxHelpers.onlyValue(body.statements) { return [only] }
        return SwitchFinder.scan(body).returns.compactMap(\.expression)
    }

    func isInputReference(_ expr: ExprSyntax) -> String? {
        guard let (name, type) = SyntaxHelpers.caseReference(expr, index, at: origin, accepting: inputs.contains), inputs.contains(name) else { return nil }
        if let type {
            guard let scope = scope(of: expr) else { return nil }
            let resolved = index.resolveType(type, in: scope)
            if let inputKey {
                guard resolved.declared?.key == inputKey else { return nil }
            } else if resolved.declared != nil {
                return nil
            }
        }
        return name
    }

    func shortLabel(_ expr: some SyntaxProtocol) -> String {
        var node = Syntax(expr)
        if let call = node.as(FunctionCallExprSyntax.self) { node = Syntax(call.calledExpression) }
        var text = node.compactText
        if text.hasPrefix(".") { text.removeFirst() }
        if text.count > 40 { text = String(text.prefix(37)) + "..." }
        return text
    }

    final class InputReferenceFinder: SyntaxVisitor {
        let reader: EffectReader
        var found: [String] = []
        /// Each value sent, as a pattern (run-time parts `_`): `.response(.failure(error))` → `response(.failure)`.
        var values: [InputPattern] = []
        var references: [String] = []

        func record(_ name: String, _ node: some ExprSyntaxProtocol) {
            if !found.contains(name) { found.append(name) }
            let value: InputPattern
            if case .named(let pattern) = PatternReader.value(ExprSyntax(node), reader.index, at: reader.origin), pattern.name == name { value = pattern } else { value = .member(name) }
            if !values.contains(value) { values.append(value) }
        }

        init(reader: EffectReader) {
            self.reader = reader
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            let callee = node.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            if callee == "cancellable" || callee == "cancel" {
                // look only at the effect the id is attached to, not at the id
                if let base = node.calledExpression.as(MemberAccessExprSyntax.self)?.base { walk(base) }
                return .skipChildren
            }
            if let name = reader.isInputReference(ExprSyntax(node)) {
                record(name, node)
                return .skipChildren
            }
            return .visitChildren
        }

        override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
            if let name = reader.isInputReference(ExprSyntax(node)) {
                record(name, node)
                return .skipChildren
            }
            return .visitChildren
        }

        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            references.append(node.baseName.text)
            return .skipChildren
        }

        override func visit(_ node: LabeledExprSyntax) -> SyntaxVisitorContinueKind {
            node.label?.text == "id" ? .skipChildren : .visitChildren
        }
    }

    /// Finds, in a `switch self`, what the case named `caseName` returns (`.latest` → `latest`).
    /// Actomaton's policy written in `text` (`.runNewest(maxCount: 1)`, `.runOldest(maxCount: 2, .suspendNew)`).
    static func runPolicy(_ text: String) -> String? {
        guard let r = text.range(of: #"run(Newest|Oldest)\(maxCount: *([0-9]+)(, *\.?(\w+))?"#, options: .regularExpression) else { return nil }
        let m = String(text[r])
        let n = m.filter(\.isNumber)
        if m.contains("Newest") { return "runNewest(\(n))" }
        let mode = m.contains("discardNew") ? ", discardNew" : m.contains("suspendNew") ? ", suspendNew" : ""
        return "runOldest(\(n)\(mode))"
    }

    final class CaseReturnFinder: SyntaxVisitor {
        let caseName: String
        let index: SymbolIndex
        var result: String?
        /// The value the case gives, as written.
        var returned: ExprSyntax?

        init(caseName: String, index: SymbolIndex) {
            self.caseName = caseName
            self.index = index
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: SwitchCaseSyntax) -> SyntaxVisitorContinueKind {
            guard result == nil else { return .skipChildren }
            let matches: Bool
            switch node.label {
            case .case(let label):
                matches = label.caseItems.contains { item in
                    item.pattern.as(ExpressionPatternSyntax.self).flatMap { SyntaxHelpers.caseReference($0.expression, index) }?.name == caseName
                }
            case .default:
                matches = true
            }
            guard matches else { return .skipChildren }
            for item in node.statements {
                var expr: ExprSyntax?
                if let ret = item.item.as(ReturnStmtSyntax.self) { expr = ret.expression }
                else if let e = item.item.as(ExprSyntax.self) { expr = e }
                if let e = expr, let (name, _) = SyntaxHelpers.caseReference(e, index) { result = name; returned = e; break }
            }
            return .skipChildren
        }
    }
}
