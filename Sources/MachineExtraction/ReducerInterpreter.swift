import MachineModel
import SwiftSyntax

/// What kind of value the machine's state is.
enum StateKind {
    case enumeration
    case bool
    case optional
}

/// How an enum builds a value from data (`ExtractionContext.factories(of:)`).
struct EnumFactories {
    /// The enum's name, as a call of its initializer writes it (`Status(receipt: r)`).
    var name: String
    var functions: [String: [FunctionDeclSyntax]]
    var initializers: [InitializerDeclSyntax]
}

/// How a reducer body refers to its state and input, and what its `return` means.
struct ReducerSpec {
    var domain: Domain
    var stateKind: StateKind = .enumeration
    /// Expression paths that denote the state (`state`, `state.mode`, `light`), `self.` removed.
    var statePaths: Set<String>
    /// Expression paths that denote the input (`action`, `event`).
    var inputPaths: Set<String>
    /// `return .x` names the next state (mapping functions); otherwise `return` gives the effect.
    var returnsState: Bool = false
    /// `return nil` means the transition fails (Harvest mappings), rather than "no effect".
    var nilIsFailure: Bool = false
    /// Mutating helpers of the state's type that may assign it, by name, with the paths that denote
    /// the state inside their bodies.
    var helpers: [String: FunctionDeclSyntax] = [:]
    var helperStatePaths: Set<String> = []
    /// Target when the whole owner is replaced (`state = State()`): the field's default value.
    var resetTarget: Target = .unknown("reset")
    /// Setter inputs whose payload is the next state (`.setStatus(.done)` sent elsewhere): input → states.
    var payloadTargets: [String: [String]] = [:]
    /// Mutating methods of the state's own enum (`state.mode.advance()`), by name.
    var enumMethods: [String: FunctionDeclSyntax] = [:]
    /// The state's enum's static functions returning a value and its initializers (`status = .from(receipt)`,
    /// `Status(receipt: r)`).
    var enumFactories: EnumFactories?
    /// Computed `Bool` properties of the state's enum (`var canPause: Bool { … }`), by name, with the
    /// states for which each is surely true and those for which it depends on data.
    var enumPredicates: [String: (yes: Set<String>, maybe: Set<String>)] = [:]
    /// `Bool` properties and methods of the state's owner that test it (`var isBusy: Bool { state == .saving }`).
    var ownerPredicates: [String: (yes: Set<String>, maybe: Set<String>)] = [:]
    /// The value the owner is read through (`state` for a TCA State's `var canSubmit: Bool { status ==
    /// .draft }`, read `state.canSubmit`); nil for the walked type itself (`isBusy`, `self.isBusy`).
    var ownerPath: String?
    /// The state enum's relations over two values, by method (`canMove(to:)`: the moves it allows).
    var enumRelations: [String: Set<AllowedMoves.Move>] = [:]
    /// Computed properties of the state's enum that give the next case (`state.light.next`), by name:
    /// each state's next state.
    var enumSuccessors: [String: [String: String]] = [:]
    /// Placeholders the code never lets anyone see (copy-on-write's `.modifying`: every `switch` over the
    /// state traps in it, and every write of it is overwritten): a value read from a variable is none of them.
    var unobservable: Set<String> = []
    /// An optional whose states are named values (`nil`, `editor`, `alert(confirmDelete)`): each state's
    /// value as a tree, run-time parts as `.any`. Empty for a plain `nil`/`some` optional.
    var valueStates: [String: InputPattern] = [:]
    /// Inputs that only arrive in some states (TCA `.ifLet`, `.ifCaseLet`, `@Reducer enum` cases).
    var arrivals: [String: Arrival] = [:]
    /// How `self = …` rebuilds the type holding the state (a struct): `self = .open(o)`, `self = .init(phase: .shut)`.
    var rebuild: SelfRebuild?
    /// An `async` method's suspension points, by each statement holding one (`let items = try await
    /// fetch()`, and a `do` around it): see `Suspension`.
    var suspensions: [SyntaxIdentifier: Suspension] = [:]
    /// The inputs are types conforming to an action protocol, matched by casts (ReSwift's `case _ as
    /// Undo`): the set is open, other actions reach a `default`.
    var openInputs = false
    /// The body returns Mobius's `Next<Model, Effect>` (`SyntaxHelpers.nextValue`): `.next(m, effects:
    /// e)` is `m` returned with the effects, `.dispatchEffects(e)` keeps the state, `.noChange` is no
    /// transition.
    var returnsNext = false
    /// The state is a stored property of the type whose methods are walked (`phase`, `self.phase`): a
    /// local or parameter of its name declared around a use hides it there, as Swift's innermost
    /// declaration does (`var phase = State.closed; phase = .open` changes no state).
    var stateIsMember = false
    /// The state's declared enum (its key), where the machine is a property's: a value of that type read
    /// from other data (`status = reply.status`) may be any of its cases.
    var stateEnumKey: String?
    /// Walking a completion handler: its hand-over to the main queue (`DispatchQueue.main.async { … }`)
    /// is the rest of it, walked at once.
    var mainHopsNow = false
    /// Calls that set the state to their argument (`phase.accept(.loading)` for a state held in a box).
    var setters: Set<String> = []
    /// Calls that run their closure at once with the state held in a lock for it to change
    /// (`state.withLock { state in … }`, `lifecycle.withLockedValue { $0 = .stopped }`).
    var accessors: Set<String> = []
    /// The observers of the owner's other stored properties, by property: setting one runs its body
    /// (`email = text` runs `email`'s `didSet`, which validates it).
    var observers: [String: CodeBlockSyntax] = [:]
    /// The state property's own `didSet`, run after each write of it (a write in it runs it no more):
    /// `didSet { if state == .snoozed && muted { state = .armed } }`.
    var ownObserver: CodeBlockSyntax?
}

/// An `await` of an `async` method walked as an input (`func load() async { state = .loading; let items =
/// try await fetch(); state = .loaded(items) }`). A path that changed the state before it ends there: the
/// state is seen while the method waits. The method's rest runs later, as the input `load() after
/// fetch()` (`watch() on updates` for each value of a `for await` loop), arriving in the state the method
/// waits in, like the work a method starts (`load() task`): what other inputs do meanwhile is not followed.
struct Suspension {
    /// The `await` (or `for await` loop) where the method waits.
    var node: Syntax
    var input: String
    /// The closure the awaited call runs before it waits (`await withCheckedContinuation { c in state =
    /// .waiting; … }`): what it does happens at once.
    var before: ClosureExprSyntax? = nil

    /// The suspension points of an `async` method's body (or an async closure's statements), walked as
    /// `input`, by the statements that hold them. An `await` in a closure (`Task { … }`) or a nested
    /// function is not the method's own. A call of a method in `own` (the type's methods that change the
    /// state) is walked in line: what it does before it waits happens at once, and its own `await`s are
    /// the method's.
    static func points(in body: some SyntaxProtocol, input: String, own: [String: FunctionDeclSyntax]) -> [SyntaxIdentifier: Suspension] {
        var result: [SyntaxIdentifier: Suspension] = [:]
        var names: Set<String> = []
        var seen: Set<SyntaxIdentifier> = []
        func read(_ body: Syntax) {
            guard seen.insert(body.id).inserted else { return }
            let finder = AwaitFinder(viewMode: .sourceAccurate)
            finder.walk(body)
            var byAwait: [SyntaxIdentifier: Suspension] = [:]
            for node in finder.awaits {
                let (what, callee) = describe(node)
                if let callee, let called = own[callee] {
                    if let calledBody = called.body { read(Syntax(calledBody)) }
                    continue
                }
                let base = input + (node.is(ForStmtSyntax.self) ? " on " : " after ") + what
                var name = base
                var k = 1
                while names.contains(name) { k += 1; name = base + " \(k)" }
                names.insert(name)
                let call = node.as(AwaitExprSyntax.self).flatMap { SyntaxHelpers.unwrap($0.expression).as(FunctionCallExprSyntax.self) }
                let before = call.flatMap { c in DSLSupport.calleeName(c).map(SyntaxHelpers.continuations.contains) == true ? c.trailingClosure : nil }
                byAwait[node.id] = Suspension(node: node, input: name, before: before)
            }
            for (item, awaits) in finder.within {
                if let first = awaits.lazy.compactMap({ byAwait[$0] }).first { result[item] = first }
            }
        }
        read(Syntax(body))
        return result
    }

    /// What a method waits for: the function it calls (`fetch()`; `callee` its name when written on
    /// `self` or alone), or the sequence a loop takes values from (`updates`).
    static func describe(_ node: Syntax) -> (what: String, callee: String?) {
        if let loop = node.as(ForStmtSyntax.self) {
            var sequence = SyntaxHelpers.unwrap(loop.sequence)
            var call = ""
            if let c = sequence.as(FunctionCallExprSyntax.self) { sequence = c.calledExpression; call = "()" }
            let name = sequence.as(MemberAccessExprSyntax.self)?.declName.baseName.text
                ?? sequence.as(DeclReferenceExprSyntax.self)?.baseName.text
            return (name.map { $0 + call } ?? "a sequence", nil)
        }
        var value = node.as(AwaitExprSyntax.self).map { SyntaxHelpers.unwrap($0.expression) }
        if let t = value?.as(TryExprSyntax.self) { value = SyntaxHelpers.unwrap(t.expression) }
        let callee = value?.as(FunctionCallExprSyntax.self)?.calledExpression
        let member = callee?.as(MemberAccessExprSyntax.self)
        let name = member?.declName.baseName.text ?? callee?.as(DeclReferenceExprSyntax.self)?.baseName.text
        let onSelf = member == nil || member?.base.map(SyntaxHelpers.isSelf) == true
        // (a value awaited, `try await task.value`, is named by what it reads)
        if name == nil, let read = value.flatMap({ SyntaxHelpers.path($0) }) { return (read, nil) }
        return (name.map { $0 + "()" } ?? "a wait", onSelf ? name : nil)
    }
}

/// The `await`s and `for await` loops of a body outside its closures and nested functions, in the order
/// written, and for each innermost statement holding some (and each loop holding some), those.
final class AwaitFinder: SyntaxVisitor {
    var awaits: [Syntax] = []
    var within: [SyntaxIdentifier: [SyntaxIdentifier]] = [:]
    private var open: [(id: SyntaxIdentifier, loop: Bool)] = []

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
        var statement = node.item.as(StmtSyntax.self)
        while let labelled = statement?.as(LabeledStmtSyntax.self) { statement = labelled.statement }
        open.append((node.id, statement.map { $0.is(WhileStmtSyntax.self) || $0.is(RepeatStmtSyntax.self) || $0.is(ForStmtSyntax.self) } ?? false))
        return .visitChildren
    }
    override func visitPost(_ node: CodeBlockItemSyntax) { open.removeLast() }
    override func visit(_ node: AwaitExprSyntax) -> SyntaxVisitorContinueKind {
        found(Syntax(node))
        return .visitChildren
    }
    override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
        if node.awaitKeyword != nil { found(Syntax(node)) }
        return .visitChildren
    }

    private func found(_ node: Syntax) {
        awaits.append(node)
        // (the innermost: a path waits where it reaches the wait, `do { try validate(); try await send() }`
        // runs `validate()` first; and a loop holding it, whose turns are walked from after the wait)
        for (i, item) in open.enumerated() where item.loop || i == open.count - 1 { within[item.id, default: []].append(node.id) }
    }
}

/// Whether a statement may throw out of the body walked at that statement itself: a `try` (not `try?`,
/// `try!`) outside the blocks, `case` bodies, closures and nested functions in it, which are walked as
/// statements of their own or not at once (`try validate(frame)`, `if try ready()`, `let x = try load()`).
final class ThrowFinder: SyntaxVisitor {
    private(set) var found = false

    static func throwsHere(_ item: CodeBlockItemSyntax) -> Bool {
        // (most statements say no `try` at all)
        guard item.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .keyword(.try) }) else { return false }
        let finder = ThrowFinder(viewMode: .sourceAccurate)
        finder.walk(item)
        return finder.found
    }

    override func visit(_ node: TryExprSyntax) -> SyntaxVisitorContinueKind {
        if node.questionOrExclamationMark == nil { found = true }
        return found ? .skipChildren : .visitChildren
    }
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: SwitchCaseSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}

/// A struct that changes its state by rebuilding itself (SwiftNIO's `~Copyable` machines): `self =
/// .init(phase: .shut)`, or `self = .open(o)` through a static member that does (`static func open(_ o:
/// Phase.Open) -> Self { .init(phase: .open(o)) }`).
struct SelfRebuild {
    /// The state property, as its initializers label it.
    var property: String
    /// The type's name, as its initializers may be called.
    var typeName: String
    /// The static members that rebuild it, by name, with the value they give the property.
    var builders: [String: ExprSyntax] = [:]

    /// The value a rebuild gives the property, when `value` is one.
    func state(in value: ExprSyntax) -> ExprSyntax? {
        let e = SyntaxHelpers.unwrap(value)
        let callee = e.as(FunctionCallExprSyntax.self)?.calledExpression ?? e
        let named: String?
        if let member = callee.as(MemberAccessExprSyntax.self) {
            guard member.base.map({ isType($0.trimmedText) }) ?? true else { return nil }
            named = member.declName.baseName.text
        } else {
            named = callee.as(DeclReferenceExprSyntax.self).flatMap { isType($0.baseName.text) ? "init" : nil }
        }
        guard let named else { return nil }
        if named == "init", let call = e.as(FunctionCallExprSyntax.self) {
            return call.arguments.first { $0.label?.text == property }?.expression
        }
        return builders[named]
    }

    private func isType(_ text: String) -> Bool { text == "Self" || text == typeName }
}

/// Where a scoped input can arrive: in `states`, and, for an action of a presented child, only in the
/// states whose value is that child's case (`presented` by case name).
struct Arrival {
    var states: Set<String>
    var presented: [String: Set<String>]?
}

extension ReducerSpec {
    /// TCA's effect types (the API): a function returning one returns a reducer's effect.
    static let effectTypes: Set<String> = ["Effect", "EffectTask", "EffectOf", "EffectPublisher"]

    /// Whether a written type is one of `effectTypes`, qualified or generic (`Effect<Action>`,
    /// `ComposableArchitecture.EffectTask<Action>`).
    static func isEffectType(_ text: String) -> Bool {
        effectTypes.contains(String(SymbolIndex.bareTypeName(text).split(separator: ".").last ?? ""))
    }

    /// Helpers by full name (`start(bytes:newState:)`), and by plain name when only one method has it:
    /// overloads (`start()` and `start(bytes:newState:)`) are told apart by the call's labels.
    /// A `private` or `fileprivate` method is also kept under its file's keys (`fileKey`): Swift lets only
    /// that file's code call it, so two files may each declare their own (`private func settle()` in two
    /// extensions of one type).
    static func helperTable(_ methods: [FunctionDeclSyntax]) -> [String: FunctionDeclSyntax] {
        var table: [String: FunctionDeclSyntax] = [:]
        var counts: [String: Int] = [:]
        for m in methods {
            counts[m.name.text, default: 0] += 1
            if SymbolIndex.isPrivate(m) { counts[fileKey(m) + m.name.text, default: 0] += 1 }
        }
        for m in methods {
            let full = SyntaxHelpers.fullName(m)
            table[full] = table[full] ?? m
            if counts[m.name.text] == 1 { table[m.name.text] = m }
            if SymbolIndex.isPrivate(m) {
                let file = fileKey(m)
                table[file + full] = table[file + full] ?? m
                if counts[file + m.name.text] == 1 { table[file + m.name.text] = m }
            }
        }
        return table
    }

    /// The prefix of a file's keys in a helper table: its tree's root (a node of a tree rebuilt from the
    /// file is mapped back to the file's own first).
    static func fileKey(_ node: some SyntaxProtocol) -> String {
        "\(Rebuilt.shared.inputRoot(of: Syntax(node)).hashValue)\u{0}"
    }

    /// The full name a call uses: `start(bytes:newState:)`, `advance()`, `feed(_:)`.
    static func key(_ name: String, _ call: FunctionCallExprSyntax) -> String {
        "\(name)(\(call.arguments.map { "\($0.label?.text ?? "_"):" }.joined()))"
    }
}

/// Walks a reducer body symbolically: every path through `switch`, `if`, `guard`, `return` becomes a
/// branch that applies to a set of (state, input) pairs and leads to a target. Cases of a `switch`
/// over the state or input are the rules; first match is resolved here, so later catch-alls only get
/// the pairs earlier cases leave.
final class ReducerInterpreter {
    struct Ctx {
        var pairs: PairSet
        var guards: [String] = []
        var target: Target?
        var effect: Effect?
        var cancels: [String] = []
        var slot: Int
        /// The path wrote the state: a field, a payload, or through a mutating helper.
        var writes = false
        /// Case patterns narrower than their input, each with the pairs it was matched on.
        var patterns: [Narrowing] = []
        /// Names bound to a part of the input by a case pattern (`case let .response(result)`), with the
        /// pattern and the argument positions that lead to them: a `switch result` narrows the input.
        var bound: [String: Bound] = [:]
        /// Local variables holding a state (`let next: State; … next = .closed`), by name.
        var values: [String: String] = [:]
        /// The case the function last walked for a call returned (`return .emitIdle`, or a local holding
        /// it), which a `switch` over the call's value matches.
        var returned: String?
        /// Locals holding a case of another enum (`onClosed = .emitIdle` in a helper, `let action =
        /// self.state.close()`), by name.
        var caseLocals: [String: String] = [:]

        /// Joined with a path alike: the pairs of both, and only the cases both know the same (paths
        /// are not kept apart for them: what they disagree on is unknown).
        mutating func join(_ other: Ctx) {
            pairs = pairs.union(other.pairs)
            if returned != other.returned { returned = nil }
            if caseLocals != other.caseLocals { caseLocals = caseLocals.filter { other.caseLocals[$0.key] == $0.value } }
        }
    }

    struct Narrowing: Hashable {
        var pattern: InputPattern
        var pairs: PairSet
    }

    struct Bound: Hashable {
        var pattern: InputPattern
        var path: [Int]
        var pairs: PairSet
    }

    struct Flow {
        var next: [Ctx] = []
        var breaks: [Ctx] = []
        /// Paths at a `continue`: they go on at the enclosing loop, past any `switch` around them.
        var continues: [Ctx] = []
        var fallthroughs: [Ctx] = []
        /// Paths at a labelled `break` / `continue` (`break scan`), by label: they go on after (or at the
        /// next turn of) the statement with that label, past everything between.
        var exits: [String: [Ctx]] = [:]
        var repeats: [String: [Ctx]] = [:]

        mutating func absorb(_ f: Flow) {
            next += f.next
            breaks += f.breaks
            continues += f.continues
            fallthroughs += f.fallthroughs
            carry(f)
        }

        /// Takes on the labelled exits of `f`, a flow inside this one.
        mutating func carry(_ f: Flow) {
            exits.merge(f.exits) { $0 + $1 }
            repeats.merge(f.repeats) { $0 + $1 }
        }
    }

    struct Slot {
        var location: SourceLocation
        var catchAll: Bool
        var shadowed: Bool
    }

    let spec: ReducerSpec
    let file: ParsedFile
    let effects: EffectReader
    var slots: [Slot] = []
    var slotByPosition: [AbsolutePosition: Int] = [:]
    var branches: [(slot: Int, outcome: Outcome)] = []
    var helperDepth = 0
    var work = 0
    /// Bound on the statements walked, so hostile input ends in bounded time.
    static let workLimit = 200_000
    /// Bound on the paths followed at once: paths with equal conditions are joined, and those beyond it
    /// are left out.
    static let contextLimit = 1024
    /// The first statement where paths were left out (more than `contextLimit` reached it, or the walk
    /// reached `workLimit`): the rules read are then only part of the body's.
    var leftOut: SourceLocation?
    /// What is said where paths were left out, of `what` (a machine, a mapping).
    static func leftOutMessage(_ what: String) -> String {
        "\(what): more paths reach this statement than the tool follows (\(contextLimit) at once, \(workLimit) statements "
            + "in all); the others are left out"
    }

    /// For each `do` with a `catch` being walked in a method that waits, the paths at the statements with
    /// a `try` in its body.
    var tryPaths: [[Ctx]] = []
    /// For each `do` with a `catch` being walked, the paths at the `throw`s in its body (its helpers' too):
    /// its `catch` goes on from there. A `try` in such a body does not leave the body walked.
    var throwPaths: [[Ctx]] = []
    /// Whether the walk is in the state property's own `didSet` (`ReducerSpec.ownObserver`).
    var inOwnObserver = false

    /// Whether a `try` is written in `node`.
    static func tries(_ node: some SyntaxProtocol) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.try) }
    }

    /// `merged` left paths out since the enclosing statement began.
    private var dropped = false

    var d: Domain { spec.domain }

    /// What nodes mean apart from the paths reaching them, shared by the interpreters of one thread.
    let readings: NodeReadings

    init(spec: ReducerSpec, file: ParsedFile, effects: EffectReader, readings: NodeReadings = NodeReadings()) {
        self.spec = spec
        self.file = file
        self.effects = effects
        self.readings = readings
    }

    /// Interprets a body and returns its rules (ids are assigned by the caller).
    func run(_ body: CodeBlockItemListSyntax, at location: SourceLocation) -> [Rule] {
        slots = [Slot(location: location, catchAll: false, shadowed: false)]
        // (what a suspension sends back only arrives after it)
        let resumed = d.set(inputs: Set(spec.suspensions.values.map(\.input)))
        let start = Ctx(pairs: d.all.intersection(arrivals(nil)).subtracting(resumed), slot: 0)
        let flow = execBlock(body, [start])
        // (a label no statement around has: the paths end there)
        let unlabelled = (flow.exits.sorted { $0.key < $1.key } + flow.repeats.sorted { $0.key < $1.key }).flatMap(\.value)
        for ctx in flow.next + flow.breaks + flow.continues + unlabelled { finalize(ctx, returning: nil) }
        return rules()
    }

    func rules() -> [Rule] {
        var result: [Rule] = []
        for (i, slot) in slots.enumerated() {
            var outcomes: [Outcome] = []
            for (s, o) in branches where s == i {
                if let k = outcomes.firstIndex(where: { $0.target == o.target && $0.effect == o.effect && $0.cancels == o.cancels && $0.guardText == o.guardText && $0.pattern == o.pattern && $0.writes == o.writes }) {
                    outcomes[k].pairs = outcomes[k].pairs.appendingUnique(o.pairs)
                } else {
                    outcomes.append(o)
                }
            }
            guard !outcomes.isEmpty || slot.shadowed else { continue }
            result.append(Rule(location: slot.location, outcomes: outcomes, shadowed: slot.shadowed, catchAll: slot.catchAll))
        }
        return result
    }

    // MARK: Statements

    func execBlock(_ items: CodeBlockItemListSyntax, _ start: [Ctx]) -> Flow {
        if let choice = Self.returnedChoice(items) {
            valueTargets[choice.id] = .returned
        }
        // names a block declares are its own
        let outerLocals = locals
        defer { locals = outerLocals }
        // a block with `defer`s runs them on every path that leaves it
        let defers = items.contains { $0.item.is(DeferStmtSyntax.self) }
        if defers { deferFrames.append(DeferFrame(level: sinkLevel)) }
        var flow = Flow()
        var current = start
        for item in items {
            if current.isEmpty { break }
            if let d = item.item.as(DeferStmtSyntax.self) {
                deferFrames[deferFrames.count - 1].bodies.append(d.body)
                continue
            }
            let f = execItem(item, current)
            flow.breaks += f.breaks
            flow.continues += f.continues
            flow.fallthroughs += f.fallthroughs
            flow.carry(f)
            current = merged(f.next)
            if dropped, leftOut == nil { leftOut = location(of: item) }
            dropped = false
        }
        flow.next = current
        if defers {
            let frame = deferFrames.removeLast()
            flow.next = frame.run(current, in: self)
            flow.breaks = frame.run(flow.breaks, in: self)
            flow.continues = frame.run(flow.continues, in: self)
            flow.exits = flow.exits.mapValues { frame.run($0, in: self) }
            flow.repeats = flow.repeats.mapValues { frame.run($0, in: self) }
        }
        return flow
    }

    /// The `defer` bodies of a block being walked, in the order written, and the helper level it is at.
    struct DeferFrame {
        var level: [Int]
        var bodies: [CodeBlockSyntax] = []

        /// The paths after the bodies ran, last written first.
        func run(_ ctxs: [Ctx], in interpreter: ReducerInterpreter) -> [Ctx] {
            bodies.reversed().reduce(ctxs) { paths, body in paths.isEmpty ? paths : interpreter.execBlock(body.statements, paths).next }
        }
    }

    /// Work started to run later (`Task { … }`): its closure, the states the paths that start it are in
    /// and their inputs.
    struct Launch {
        var closure: ClosureExprSyntax
        /// The file it is written in (a helper the walk followed may be in another).
        var file: ParsedFile?
        /// What starts it, naming its input: `task`, `sink`, `sink completion`, or a completion handler's
        /// `callback` or argument label (`SyntaxHelpers.laterClosures`).
        var kind = "task"
        var isCallback: Bool { kind != "task" && kind != "sink" && kind != "sink completion" }
        var states: Set<String> = []
        var inputs: Set<String> = []
    }

    /// The work the walk started, by closure.
    var launched: [SyntaxIdentifier: Launch] = [:]
    /// Closures of awaited calls run before the wait (`Suspension.before`), not again in the call.
    var ranBeforeWaiting: Set<SyntaxIdentifier> = []
    /// The same in the order written.
    var launches: [Launch] {
        launched.values.sorted { ($0.file?.path ?? "", $0.closure.position) < ($1.file?.path ?? "", $1.closure.position) }
    }

    /// The `defer`s of the blocks being walked, innermost last.
    var deferFrames: [DeferFrame] = []
    /// The depth of helpers walked for a call or a value: a `return` leaves the blocks of this level only.
    var sinkLevel: [Int] { [returnSinks.count, valueSinks.count] }

    /// The paths after the `defer`s of the blocks a `return` (`all`: a `throw`, which leaves the
    /// callers' blocks too) leaves ran.
    func leaving(_ ctxs: [Ctx], all: Bool = false) -> [Ctx] {
        guard !deferFrames.isEmpty, !ctxs.isEmpty else { return ctxs }
        let saved = deferFrames
        defer { deferFrames = saved }
        var paths = ctxs
        let level = sinkLevel
        while let frame = deferFrames.popLast(), all || frame.level == level { paths = frame.run(paths, in: self) }
        return paths
    }

    /// Everything of a path but its pairs: paths with equal conditions are joined.
    struct Condition: Hashable {
        // compared in this order: the cheap parts first
        var slot: Int
        var writes: Bool
        var target: Target?
        var guards: [String]
        var cancels: [String]
        var effect: Effect?
        var patterns: [Narrowing]
        var bound: [String: Bound]
        var values: [String: String]
        /// (in a predicate walked for what it returns, its paths returning `true` and those returning
        /// `false` stay apart)
        var answer: String?

        init(_ c: Ctx, answering: Bool = false) {
            (slot, writes, target, guards, cancels, effect, patterns, bound) = (c.slot, c.writes, c.target, c.guards, c.cancels, c.effect, c.patterns, c.bound)
            values = c.values
            if answering, ReducerInterpreter.literalBool(c.returned) != nil { answer = c.returned }
        }

        /// A few cheap parts (equal conditions still hash alike; `==` compares all of them).
        func hash(into hasher: inout Hasher) {
            hasher.combine(target)
            hasher.combine(slot)
            hasher.combine(writes)
            hasher.combine(guards.count)
            hasher.combine(guards.last)
            hasher.combine(patterns.count)
            hasher.combine(bound.count)
        }
    }

    /// A path's condition, its answer kept apart in a predicate walked for what it returns.
    func condition(_ c: Ctx) -> Condition { Condition(c, answering: decidingDepth != nil) }

    /// Paths that ended in the same condition are joined, bounding the number of paths. (Looked up by
    /// hash: a body reached by many paths would otherwise compare each with all the others.)
    func merged(_ ctxs: [Ctx]) -> [Ctx] {
        guard ctxs.count > 1 else { return ctxs }
        var out: [Ctx] = []
        var index: [Condition: Int] = [:]
        index.reserveCapacity(ctxs.count)
        for c in ctxs where !c.pairs.isEmpty {
            let key = condition(c)
            if let i = index[key] {
                out[i].join(c)
            } else {
                index[key] = out.count
                out.append(c)
            }
        }
        if out.count > Self.guardedLimit { out = unguarded(out) }
        if out.count > Self.contextLimit {
            out.removeLast(out.count - Self.contextLimit)
            dropped = true
        }
        return out
    }

    /// Paths beyond which paths alike but for their guards are joined (`unguarded`).
    static let guardedLimit = 64

    /// The paths with those alike but for their guards joined, each keeping the guards they share from
    /// the start: so many data conditions in a row tell apart more paths than the walk can follow.
    func unguarded(_ ctxs: [Ctx]) -> [Ctx] {
        var out: [Ctx] = []
        var index: [Condition: Int] = [:]
        for c in ctxs {
            var key = c
            key.guards = []
            if let i = index[Condition(key)] {
                out[i].join(c)
                let shared = zip(out[i].guards, c.guards).prefix { $0 == $1 }.count
                out[i].guards.removeLast(out[i].guards.count - shared)
            } else {
                index[Condition(key)] = out.count
                out.append(c)
            }
        }
        return out
    }

    /// Each statement is walked once for all the paths reaching it (a helper called after a `switch` is
    /// walked once, not once per case); only a `switch` forks per path.
    func execItem(_ item: CodeBlockItemSyntax, _ ctxs: [Ctx]) -> Flow {
        work += ctxs.count
        guard work < Self.workLimit else {
            if leftOut == nil { leftOut = location(of: item) }
            return Flow()
        }
        var ctxs = ctxs
        if let s = spec.suspensions[item.id] {
            // (only where the statement is the wait itself, not a `switch` holding it in a case)
            if let before = s.before, Self.enclosingItem(of: s.node)?.id == item.id {
                ranBeforeWaiting.remove(before.id)
                ctxs = runAtOnce([before], ctxs)
                ranBeforeWaiting.insert(before.id)
            }
            ctxs = suspend(ctxs, at: s)
        }
        if !tryPaths.isEmpty, Self.tries(item) { tryPaths[tryPaths.count - 1] += ctxs }
        // a `try` no `catch` around it catches leaves the body where it throws, with the state as it is
        // (`state = .running; try step(); state = .done` may end in `running`)
        // (not where it calls a helper of the owner, walked with the `throw`s it makes: `try move(to: .paid)`)
        if throwPaths.isEmpty, returnSinks.isEmpty, valueSinks.isEmpty, !spec.returnsState, !spec.returnsNext, ThrowFinder.throwsHere(item),
           !triesHelper(item) {
            _ = execReturn(nil, ctxs, implicit: true)
        }
        switch item.item {
        case .decl(let decl):
            // `#if DEBUG … #else … #endif`: each clause is a way the body may be built, walked from here
            // (with no `#else`, none of them is one too)
            if let config = decl.as(IfConfigDeclSyntax.self) {
                var flow = Flow()
                var otherwise = true
                for clause in config.clauses {
                    if clause.poundKeyword.tokenKind == .poundElse { otherwise = false }
                    // (an empty clause lets the paths through)
                    guard case .statements(let items)? = clause.elements else { flow.next += ctxs; continue }
                    flow.absorb(execBlock(items, ctxs))
                }
                if otherwise { flow.next += ctxs }
                return flow
            }
            // a local named like the state hides it (`let (state, result) = self.step()`), but a copy of a
            // state given as a parameter, which the function returns (`var state = state ?? .home`)
            if let v = decl.as(VariableDeclSyntax.self) {
                for binding in v.bindings where spec.stateIsMember || !Self.copiesItself(binding) {
                    for token in binding.pattern.tokens(viewMode: .sourceAccurate) {
                        if case .identifier(let name) = token.tokenKind, isState(name) { locals.insert(name) }
                    }
                }
            }
            // `let next: State = .idle`, `var next: State`: a local holding a state, or not yet
            var ctxs = ctxs
            if let v = decl.as(VariableDeclSyntax.self) {
                for binding in v.bindings {
                    guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                    // (`let next: Phase = switch … { … }`: each branch's value, on its paths)
                    if let value = binding.initializer?.value, v.bindings.count == 1, Self.isValueChoice(value) {
                        return give(value, to: .held(name), ctxs)
                    }
                    ctxs = held(name, binding.initializer?.value, ctxs)
                    // (`var effect: Effect<Action> = .empty`, set on some paths and returned at the end: what it
                    // is given on a path is that path's effect)
                    if let value = binding.initializer?.value, Self.effectLocal(binding) { ctxs = ctxs.map { withEffect(effects.read(value), $0) } }
                }
            }
            // `let action = self.state.advance()`: the call may change the state, and the local holds the case
            // it returned
            if let v = decl.as(VariableDeclSyntax.self), v.bindings.count == 1,
               let call = v.bindings.first?.initializer.map({ SyntaxHelpers.unwrap($0.value) })?.as(FunctionCallExprSyntax.self) {
                return Flow(next: holding(v.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, call, spelled: nil, ctxs))
            }
            return Flow(next: ctxs)
        case .stmt(let stmt):
            if let value = stmt.as(ExpressionStmtSyntax.self)?.expression, let target = valueAssigned(by: item) {
                return give(value, to: target, ctxs)
            }
            return execStmt(stmt, ctxs)
        case .expr(let expr):
            if let target = valueAssigned(by: item) { return give(expr, to: target, ctxs) }
            if Self.returnsImplicitly(item), helper(called: expr) != nil || decidingDepth == returnSinks.count {
                return execReturn(expr, ctxs, implicit: true)
            }
            // a body giving the next state as its one expression gives it (`var opponent: Side { self == .white ?
            // .black : .white }`)
            if spec.returnsState, returnSinks.isEmpty, Self.returnsImplicitly(item, getters: true) { return execReturn(expr, ctxs) }
            return execExpr(expr, ctxs)
        }
    }

    /// The paths after a property observer's body (a `didSet`, a setter) run, as a helper's would, from
    /// the paths after the write that runs it.
    func observe(_ body: CodeBlockSyntax, after next: [Ctx]) -> [Ctx] {
        helperDepth += 1
        defer { helperDepth -= 1 }
        returnSinks.append([])
        let observed = withHelperPaths { execBlock(body.statements, Self.localsCleared(next)).next }
        return rejoined(Self.localsCleared(observed + returnSinks.removeLast()))
    }

    /// A branch's value given where its `switch` or `if` expression's goes.
    func give(_ value: ExprSyntax, to target: ValueTarget, _ ctxs: [Ctx]) -> Flow {
        // (a choice in a branch gives its own branches' values there)
        if Self.isValueChoice(value) {
            valueTargets[value.id] = target
            defer { valueTargets[value.id] = nil }
            return execExpr(value, ctxs)
        }
        // (a branch that traps, `default: fatalError()`, gives no value: its path does not go on)
        if let callee = SyntaxHelpers.unwrap(value).as(FunctionCallExprSyntax.self)?.calledExpression.as(DeclReferenceExprSyntax.self),
           Self.neverReturning.contains(callee.baseName.text) {
            return Flow()
        }
        switch target {
        case .held(let name): return Flow(next: held(name, value, ctxs))
        case .assigned(let lhs): return Flow(next: assign(lhs, value, written(ctxs, if: writesState(lhs))))
        // (a call of the owner's helper there is walked as a statement was: what it returns is its own)
        case .returned: return helper(called: value) != nil ? execExpr(value, ctxs) : execReturn(value, ctxs)
        }
    }

    /// Whether an expression is a `switch` or `if` whose every branch is one value (a choice in its turn,
    /// `fatalError()`): an expression giving a value, not a statement (a branch that returns or assigns).
    static func isValueChoice(_ expr: ExprSyntax) -> Bool {
        func oneValue(_ items: CodeBlockItemListSyntax) -> Bool {
            guard items.count == 1, let item = items.first?.item else { return false }
            // (a branch may throw instead: `default: throw BadMove()`)
            if item.is(ThrowStmtSyntax.self) { return true }
            guard let value = item.as(ExprSyntax.self) ?? item.as(ExpressionStmtSyntax.self)?.expression else { return false }
            if value.is(SwitchExprSyntax.self) || value.is(IfExprSyntax.self) { return isValueChoice(value) }
            // (an assignment is a statement there)
            return !(value.as(SequenceExprSyntax.self)?.elements.contains { $0.is(AssignmentExprSyntax.self) } ?? false)
        }
        if let sw = expr.as(SwitchExprSyntax.self) {
            return !sw.cases.isEmpty && SyntaxHelpers.configuredCases(of: sw).allSatisfy { oneValue($0.switchCase.statements) }
        }
        guard let choice = expr.as(IfExprSyntax.self), oneValue(choice.body.statements) else { return false }
        switch choice.elseBody {
        case .codeBlock(let block)?: return oneValue(block.statements)
        case .ifExpr(let next)?: return isValueChoice(ExprSyntax(next))
        case nil: return false
        }
    }

    /// A function's one expression that is its value (`func alert() -> Action { fail() }`); not a `switch`
    /// or `if` (`returnedChoice` gives their branches' values) nor an assignment. Walked as a `return` when
    /// it calls a helper of the owner, whose returned case it then returns.
    static func returnsImplicitly(_ item: CodeBlockItemSyntax, getters: Bool = false) -> Bool {
        guard let list = item.parent?.as(CodeBlockItemListSyntax.self), list.count == 1 else { return false }
        // (a getter's one expression: `var opponent: Side { self == .white ? .black : .white }`)
        let getter = getters && (list.parent?.is(AccessorBlockSyntax.self) == true
                                 || list.parent?.parent?.as(AccessorDeclSyntax.self)?.accessorSpecifier.tokenKind == .keyword(.get))
        guard getter || list.parent?.parent?.as(FunctionDeclSyntax.self)?.signature.returnClause
                .map({ !["Void", "()", "Never"].contains($0.type.trimmedText) }) == true,
              let value = item.item.as(ExprSyntax.self), !value.is(SwitchExprSyntax.self), !value.is(IfExprSyntax.self) else { return false }
        return !(value.as(SequenceExprSyntax.self)?.elements.contains { $0.is(AssignmentExprSyntax.self) } ?? false)
    }

    /// The `switch` or `if` expression a body is, when the body gives a value (a function returning one, a
    /// getter): its branches' values are what it returns.
    static func returnedChoice(_ items: CodeBlockItemListSyntax) -> ExprSyntax? {
        guard items.count == 1, let item = items.first?.item else { return nil }
        let value = item.as(ExprSyntax.self) ?? item.as(ExpressionStmtSyntax.self)?.expression
        guard let value, Self.isValueChoice(value) else { return nil }
        let owner = items.parent?.parent
        if let function = owner?.as(FunctionDeclSyntax.self) {
            let returned = function.signature.returnClause?.type.trimmedText
            return returned == nil || ["Void", "()", "Never"].contains(returned!) ? nil : value
        }
        if let accessor = owner?.as(AccessorDeclSyntax.self) { return accessor.accessorSpecifier.tokenKind == .keyword(.get) ? value : nil }
        // (a getter written without `get`)
        return items.parent?.is(AccessorBlockSyntax.self) == true ? value : nil
    }

    /// Where the value of a `switch` or `if` expression goes, by the expression: assigned (`light = switch
    /// light { case .red: .green … }`), or returned (`var next: Light { switch self { case .red: .green … } }`).
    /// Or held in a local (`let next: Phase = if ok { .done } else { .failed }`).
    enum ValueTarget { case assigned(ExprSyntax), returned, held(String) }
    var valueTargets: [SyntaxIdentifier: ValueTarget] = [:]

    /// What a branch's last statement gives its value to, when it ends a branch of a `switch` or `if`
    /// expression whose value goes somewhere (`valueTargets`).
    func valueAssigned(by item: CodeBlockItemSyntax) -> ValueTarget? {
        guard !valueTargets.isEmpty, let list = item.parent?.as(CodeBlockItemListSyntax.self), list.last?.id == item.id else { return nil }
        var owner = list.parent?.as(SwitchCaseSyntax.self)?.parent?.parent ?? list.parent?.parent
        // (a branch of an `else if` gives the value of the `if` it ends)
        while let o = owner, valueTargets[o.id] == nil, o.is(IfExprSyntax.self), let up = o.parent, up.is(IfExprSyntax.self) { owner = up }
        return owner.flatMap { valueTargets[$0.id] }
    }

    /// `return value` (or a `switch` or `if` expression's value where it is a body's one expression).
    /// `implicit`: the one expression of a function's body, which returns no effect of its own when the
    /// helper it calls returns no case (`func activate() -> Callback { self.moveState(event: .activate) }`).
    func execReturn(_ expression: ExprSyntax?, _ ctxs: [Ctx], implicit: Bool = false) -> Flow {
        // inside a function walked for a call used as a statement, `return` goes back to the caller
        let returnedCall = expression.map(SyntaxHelpers.unwrap)?.as(FunctionCallExprSyntax.self)
        // inside a helper walked for the value it returns (`state = next(state, event)`): the value is a target
        if let frame = valueSinks.last, frame.depth == returnSinks.count, let value = expression {
            let element = SyntaxHelpers.unwrap(value).as(TupleExprSyntax.self).flatMap { $0.elements.count == 2 ? $0.elements.first!.expression : nil }
            for ctx in ctxs { valueSinks[valueSinks.count - 1].results += targets(of: element ?? value, ctx) }
            return Flow()
        }
        if !returnSinks.isEmpty {
            // `return body(&self.state)`: the call runs before the function returns; the case returned
            // (`return .close(channel)`, `return onClosed`, what the call returned) is kept for the caller
            var after = returnedCall.map { execCall($0, Self.unreturned(ctxs)) } ?? ctxs
            let value = expression.map(SyntaxHelpers.unwrap)
            let named = value.flatMap(SyntaxHelpers.spelledCase)
            // (a predicate's `return state == .new`: `true` where it holds, `false` where it fails)
            if decidingDepth == returnSinks.count, returnedCall.flatMap(helper(called:)) == nil, named == nil, let value {
                after = after.flatMap { ctx -> [Ctx] in
                    let pred = eval(value, ctx)
                    guard !ctx.pairs.subtracting(pred.maybe).isEmpty else { return [ctx] }
                    let text = self.text(value)
                    return [(restrict(ctx, pred, text: text), "true"), (restrict(ctx, pred.negated(d), text: "!(\(text))"), "false")]
                        .compactMap { c, returned in
                            guard !c.pairs.isEmpty else { return nil }
                            var c = c
                            c.returned = returned
                            return c
                        }
                }
                returnSinks[returnSinks.count - 1] += leaving(after)
                return Flow()
            }
            returnSinks[returnSinks.count - 1] += leaving(after.map { ctx in
                var c = ctx
                if let named {
                    c.returned = named
                } else if let ref = value?.as(DeclReferenceExprSyntax.self) {
                    c.returned = c.caseLocals[ref.baseName.text]
                } else if returnedCall == nil {
                    c.returned = nil
                }
                return c
            })
            return Flow()
        }
        // `return reduceView(into: &state, action: a)`: the callee's returns are this reducer's
        if let call = returnedCall, let (callee, paths, inputs) = inoutCallee(call),
           let body = callee.body, helperDepth < 4 {
            helperDepth += 1
            defer { helperDepth -= 1 }
            return Flow(next: walkInout(call, callee, paths: paths, inputs: inputs, ctxs) { execBlock(body.statements, $0).next })
        }
        // `return state.start()`: a helper of the state returning TCA's effect type; its returns are this reducer's
        if let call = returnedCall, let helper = helper(called: call), let body = helper.body, helperDepth < 4,
           let returned = helper.signature.returnClause?.type.trimmedText,
           ReducerSpec.effectTypes.contains(SymbolIndex.bareTypeName(returned)) {
            helperDepth += 1
            defer { helperDepth -= 1 }
            substitutions.append(arguments(of: call, boundTo: helper))
            defer { substitutions.removeLast() }
            return Flow(next: withHelperPaths { execBlock(body.statements, ctxs).next })
        }
        // `return self.transition(to: .idle)`: the helper runs before the method returns; what it returns
        // (`return self.fail()` with `return .close` in `fail`) is what this method returns
        let walkedHelper = !spec.returnsState && !spec.returnsNext && returnedCall.flatMap(helper(called:)) != nil
        for ctx in leaving(returnedCall.map({ execCall($0, ctxs) }) ?? ctxs) {
            if walkedHelper, let name = ctx.returned {
                finalize(Self.unreturned([ctx])[0], returning: ["true", "false"].contains(name) ? nil : ExprSyntax(MemberAccessExprSyntax(name: .identifier(name))))
            } else if implicit {
                finalize(ctx, returning: nil)
            } else {
                finalize(ctx, returning: expression)
            }
        }
        return Flow()
    }

    /// `label`: the statement's own label (`scan:`), which a `continue` in a loop's body may name.
    func execStmt(_ stmt: StmtSyntax, _ ctxs: [Ctx], label: String? = nil) -> Flow {
        if let ret = stmt.as(ReturnStmtSyntax.self) {
            // (`return switch (s, e) { case (.idle, .go): .running … }`: each branch's value is returned)
            if let value = ret.expression, Self.isValueChoice(value) { return give(value, to: .returned, ctxs) }
            return execReturn(ret.expression, ctxs)
        }
        if stmt.is(ThrowStmtSyntax.self) {
            // (in a `do` with a `catch`, the caller's too when a helper throws, the `catch` goes on)
            if !throwPaths.isEmpty {
                throwPaths[throwPaths.count - 1] += ctxs
            } else {
                thrown(ctxs)
            }
            return Flow()
        }
        if let g = stmt.as(GuardStmtSyntax.self) {
            let (conts, elses) = split(ctxs, on: g.conditions)
            if !elses.isEmpty {
                let f = execBlock(g.body.statements, elses)
                // a guard's else must leave; a path that falls off (can't compile) ends here
                for c in f.next { finalize(c, returning: nil) }
                // one that leaves by `break` or `continue` goes on at the enclosing switch or loop
                var flow = Flow(next: conts, breaks: f.breaks, continues: f.continues, fallthroughs: f.fallthroughs)
                flow.carry(f)
                return flow
            }
            return Flow(next: conts)
        }
        if let e = stmt.as(ExpressionStmtSyntax.self) { return execExpr(e.expression, ctxs) }
        if stmt.is(FallThroughStmtSyntax.self) { return Flow(fallthroughs: ctxs) }
        if let b = stmt.as(BreakStmtSyntax.self) {
            return b.label.map { Flow(exits: [$0.text: ctxs]) } ?? Flow(breaks: ctxs)
        }
        if let c = stmt.as(ContinueStmtSyntax.self) {
            return c.label.map { Flow(repeats: [$0.text: ctxs]) } ?? Flow(continues: ctxs)
        }
        // `scan: for b in bytes { … break scan … }`: the statement, then the paths that left it by its label
        if let labelled = stmt.as(LabeledStmtSyntax.self) {
            let label = labelled.label.text
            var flow = execStmt(labelled.statement, ctxs, label: label)
            flow.next = merged(flow.next + (flow.exits.removeValue(forKey: label) ?? []))
            flow.repeats[label] = nil
            return flow
        }
        if let d = stmt.as(DoStmtSyntax.self) {
            let catches = !d.catchClauses.isEmpty && Self.tries(d.body)
            // (in a method that waits, each `try` is where the `catch` may start: a path may have
            // waited, and gone on as another input, before it)
            let collecting = catches && !spec.suspensions.isEmpty
            if collecting { tryPaths.append([]) }
            if !d.catchClauses.isEmpty { throwPaths.append([]) }
            let f = execBlock(d.body.statements, ctxs)
            let thrownHere = d.catchClauses.isEmpty ? [] : throwPaths.removeLast()
            var flow = Flow(next: f.next, breaks: f.breaks, continues: f.continues, fallthroughs: f.fallthroughs)
            flow.carry(f)
            // a `catch` runs when a `try` of the body throws: from the state the body began in, as the
            // write a `try` guards comes after it (`let x = try load(); state = .loaded(x)`)
            if catches || !thrownHere.isEmpty {
                // (and where a `throw` in the body, or in a helper it calls, throws)
                let starts = merged((collecting ? tryPaths.removeLast() : catches ? ctxs : []) + thrownHere)
                for clause in d.catchClauses { flow.absorb(execBlock(clause.body.statements, starts)) }
            }
            return flow
        }
        if let loop = stmt.as(ForStmtSyntax.self) {
            // (`for await line in lines`: the method waits again before each value)
            let waits = loop.awaitKeyword == nil ? nil : Self.enclosingItem(of: Syntax(loop))
                .flatMap { spec.suspensions[$0.id] }.flatMap { $0.node.id == loop.id ? $0 : nil }
            return execLoop(loop.body, ctxs, once: loop.whereClause == nil && Self.nonEmpty(loop.sequence), label: label, waits: waits)
        }
        if let loop = stmt.as(WhileStmtSyntax.self) {
            return execLoop(loop.body, ctxs, endless: loop.conditions.count == 1 && loop.conditions.first!.condition.trimmedText == "true",
                            once: Self.countsUp(loop), label: label)
        }
        if let loop = stmt.as(RepeatStmtSyntax.self) {
            return execLoop(loop.body, ctxs, endless: loop.condition.trimmedText == "true", once: true, label: label)
        }
        return Flow(next: ctxs)
    }

    /// Whether a `while` surely runs its body once: its one condition compares a counter the block
    /// declares just before with an integer literal above its start (`var attempt = 0; while attempt < 3`).
    static func countsUp(_ loop: WhileStmtSyntax) -> Bool {
        guard loop.conditions.count == 1, case .expression(let condition) = loop.conditions.first!.condition,
              let test = SyntaxHelpers.unwrapFolded(condition).as(InfixOperatorExprSyntax.self),
              case let op = test.operator.trimmedText, op == "<" || op == "<=",
              let counter = SyntaxHelpers.unwrap(test.leftOperand).as(DeclReferenceExprSyntax.self)?.baseName.text,
              let bound = SyntaxHelpers.unwrap(test.rightOperand).as(IntegerLiteralExprSyntax.self).flatMap({ Int($0.literal.text) }),
              let item = Self.enclosingItem(of: Syntax(loop))?.as(CodeBlockItemSyntax.self),
              let list = item.parent?.as(CodeBlockItemListSyntax.self), let at = list.firstIndex(where: { $0.id == item.id }),
              at != list.startIndex else { return false }
        // (the statement before the loop declares it)
        guard let declaration = list[list.index(before: at)].item.as(VariableDeclSyntax.self), declaration.bindings.count == 1,
              let binding = declaration.bindings.first, binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == counter,
              let start = binding.initializer.flatMap({ SyntaxHelpers.unwrap($0.value).as(IntegerLiteralExprSyntax.self) }).flatMap({ Int($0.literal.text) })
        else { return false }
        return op == "<" ? start < bound : start <= bound
    }

    /// Whether a loop's sequence surely has an element: a range of integer literals that is not empty
    /// (`1...3`, `0..<n` is not known), or an array literal with elements.
    static func nonEmpty(_ sequence: ExprSyntax) -> Bool {
        let e = SyntaxHelpers.unwrapFolded(sequence)
        if let array = e.as(ArrayExprSyntax.self) { return !array.elements.isEmpty }
        guard let range = e.as(InfixOperatorExprSyntax.self), case let op = range.operator.trimmedText, op == "..." || op == "..<",
              let low = SyntaxHelpers.unwrap(range.leftOperand).as(IntegerLiteralExprSyntax.self).flatMap({ Int($0.literal.text) }),
              let high = SyntaxHelpers.unwrap(range.rightOperand).as(IntegerLiteralExprSyntax.self).flatMap({ Int($0.literal.text) })
        else { return false }
        return op == "..." ? low <= high : low < high
    }

    /// A loop runs its body zero or more times: both the state before and after the body go on. The paths
    /// on which the body wrote another state run it again (twice at most: `self.state = .drained;
    /// continue` in a `while true { switch self.state { … } }` goes on in the `.drained` case). An
    /// `endless` loop (`while true`) is left only by `break` (or `return`).
    /// `once`: the body runs at least once (`repeat`, `for _ in 1...3`), so no path skips it.
    func execLoop(_ body: CodeBlockSyntax, _ ctxs: [Ctx], endless: Bool = false, once: Bool = false, label: String? = nil,
                  waits: Suspension? = nil) -> Flow {
        var out = endless || once ? [] : ctxs
        var fallthroughs: [Ctx] = []
        var outer = Flow()
        var entering = ctxs
        // an endless loop whose body tries something is left by the error it throws
        // (unless a `do` around it catches the error)
        let throwing = endless && Self.tries(body)
            && !Self.caught(Syntax(body))
        for pass in 0..<3 where !entering.isEmpty {
            if throwing { thrown(entering) }
            var f = execBlock(body.statements, entering)
            var again = f.next + f.continues + (label.flatMap { f.repeats.removeValue(forKey: $0) } ?? [])
            // a path that changed the state ends where the loop waits for the next value, and goes on from there
            if let waits { again = suspend(again, at: waits) }
            out += f.breaks + (endless ? [] : again)
            fallthroughs += f.fallthroughs
            outer.carry(f)
            let before = Set(entering.map(\.target))
            let walked = entering.reduce(d.none) { $0.union($1.pairs) }
            // a path whose state did not change would walk the body as it just did (unless it is the rest
            // of a method after an `await` in the body: other pairs)
            entering = merged(again.filter { !before.contains($0.target) || !$0.pairs.subtracting(walked).isEmpty })
            if endless, pass == 2 { out += entering }
        }
        outer.next = merged(out)
        outer.fallthroughs = fallthroughs
        return outer
    }

    /// Whether a `do` with `catch` clauses around `node`, in its function or closure, catches what it throws.
    static func caught(_ node: Syntax) -> Bool {
        var child = node
        while let parent = child.parent {
            if parent.is(FunctionDeclSyntax.self) || parent.is(ClosureExprSyntax.self) || parent.is(AccessorDeclSyntax.self) { return false }
            if let d = parent.as(DoStmtSyntax.self), d.body.id == child.id, !d.catchClauses.isEmpty { return true }
            child = parent
        }
        return false
    }

    /// Paths that leave by throwing: the `defer`s on the way run, and a state written before stays
    /// written (a property, an `inout` state); a function returning the next state gives none.
    func thrown(_ ctxs: [Ctx]) {
        for ctx in leaving(ctxs, all: true) {
            let target: Target = spec.returnsState ? .failure : (ctx.target ?? .failure)
            var c = ctx
            c.target = target
            record(c, target: target)
        }
    }

    func execExpr(_ raw: ExprSyntax, _ ctxs: [Ctx]) -> Flow {
        let expr = SyntaxHelpers.unwrap(raw)
        if let sw = expr.as(SwitchExprSyntax.self) {
            // `switch self.process(count)`: the call runs first (and may write the state)
            let entering = SyntaxHelpers.unwrap(sw.subject).as(FunctionCallExprSyntax.self).map { execCall($0, Self.unreturned(ctxs)) } ?? ctxs
            var flow = Flow()
            for ctx in entering { flow.absorb(execSwitch(sw, ctx)) }
            return flow
        }
        if let i = expr.as(IfExprSyntax.self) { return execIf(i, ctxs) }
        // `monitor.pathUpdateHandler = { … }`: a handler called back later, from the states it is set in
        if let (_, rhs) = SyntaxHelpers.assignment(expr), rhs.count == 1, let closure = rhs[0].as(ClosureExprSyntax.self),
           let handler = SyntaxHelpers.handlerProperty(of: closure) {
            launch(closure, kind: handler, ctxs)
            return Flow(next: ctxs)
        }
        let folded = fold(expr)
        // `light = switch light { case .red: .green … }`, `mode = if … { .a } else { .b }`: each branch's
        // value assigned where the branch ends
        if let infix = folded.as(InfixOperatorExprSyntax.self), infix.operator.is(AssignmentExprSyntax.self),
           case let value = SyntaxHelpers.unwrap(infix.rightOperand), Self.isValueChoice(value) {
            valueTargets[value.id] = .assigned(infix.leftOperand)
            defer { valueTargets[value.id] = nil }
            return execExpr(value, ctxs)
        }
        if let infix = folded.as(InfixOperatorExprSyntax.self), infix.operator.is(AssignmentExprSyntax.self) {
            let writes = writesState(infix.leftOperand) || rebuilt(infix.leftOperand, infix.rightOperand) != nil
            if !writes, effectLocal(infix.leftOperand) != nil {
                return Flow(next: ctxs.map { withEffect(effects.read(infix.rightOperand), $0) })
            }
            let next = assign(infix.leftOperand, infix.rightOperand, written(ctxs, if: writes))
            if writes, let own = spec.ownObserver, !inOwnObserver, helperDepth < 4 {
                inOwnObserver = true
                defer { inOwnObserver = false }
                return Flow(next: observe(own, after: next))
            }
            // a property observed with `didSet`: its observer runs, as a helper would
            guard !writes, let path = SyntaxHelpers.path(infix.leftOperand), let observer = spec.observers[path], helperDepth < 4 else {
                return Flow(next: next)
            }
            // (a computed property's setter: `newValue`, or the name it gives it, is the value assigned)
            let setter = observer.parent?.as(AccessorDeclSyntax.self).flatMap { $0.accessorSpecifier.tokenKind == .keyword(.set) ? $0 : nil }
            if let setter { substitutions.append([setter.parameters?.name.text ?? "newValue": infix.rightOperand]) }
            defer { if setter != nil { substitutions.removeLast() } }
            return Flow(next: observe(observer, after: next))
        }
        // `state.count += 1`; `score += 1` runs the `didSet` of `score` as `score = score + 1` does
        if let infix = folded.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self),
           SyntaxHelpers.isCompoundAssignment(op) {
            if writesState(infix.leftOperand) { return Flow(next: written(ctxs, if: true)) }
            if let path = SyntaxHelpers.path(infix.leftOperand), let observer = spec.observers[path], helperDepth < 4,
               observer.parent?.as(AccessorDeclSyntax.self)?.accessorSpecifier.tokenKind != .keyword(.set) {
                return Flow(next: observe(observer, after: ctxs))
            }
        }
        // `precondition(state == .idle)`, `assert(…)`: the paths where it fails trap, like a `guard`'s
        // `fatalError()` (an `assert` in a debug build only, but its author says the state is never other)
        if let call = folded.as(FunctionCallExprSyntax.self), let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
           Self.assertions.contains(callee.baseName.text), let condition = call.arguments.first, condition.label == nil {
            // (`precondition(canTransition(to: next))`: the paths where the predicate returned `true` go on)
            if let (predicate, negated) = decidingCall(condition.expression) {
                let held = Self.returning(!negated, execDeciding(predicate, ctxs))
                return Flow(next: held.isEmpty && callee.baseName.text == "assert" ? ctxs : held)
            }
            // (what it cannot decide is no guard: `assert(check())`; nor is an `assert` that fails on every path,
            // which a release build does not check: the walk missed the write that makes it hold, `assert(!isAppending)`
            // after a closure it does not follow)
            let held = ctxs.compactMap { ctx -> Ctx? in
                var c = ctx
                c.pairs = ctx.pairs.intersection(eval(condition.expression, ctx).possible)
                return c.pairs.isEmpty ? nil : c
            }
            return Flow(next: held.isEmpty && callee.baseName.text == "assert" ? ctxs : held)
        }
        if let call = folded.as(FunctionCallExprSyntax.self) {
            let next = execCall(call, ctxs)
            // `state.items.append(x)`, `state.reset()`, `mutate(&state)`: a call on the state as a statement
            let onState = (call.calledExpression.as(MemberAccessExprSyntax.self)?.base.map(writesState) ?? false)
                || call.arguments.contains { $0.expression.as(InOutExprSyntax.self).map { writesState($0.expression) } ?? false }
            return Flow(next: written(next, if: onState))
        }
        return Flow(next: ctxs)
    }

    /// A local `var` of an effect type (`var effect: Effect<Action> = .empty`, `var effect = Effect<Action>.none`)
    /// that an expression names.
    func effectLocal(_ expr: ExprSyntax) -> PatternBindingSyntax? {
        guard let ref = SyntaxHelpers.unwrap(expr).as(DeclReferenceExprSyntax.self),
              let binding = SymbolIndex.localDeclaration(of: ref.baseName.text, around: Syntax(ref))?.as(PatternBindingSyntax.self),
              Self.effectLocal(binding) else { return nil }
        return binding
    }

    static func effectLocal(_ binding: PatternBindingSyntax) -> Bool {
        // (a stored one: a computed `var ping: Effect<Action> { … }` is read as the effect it builds)
        guard binding.accessorBlock == nil,
              binding.parent?.parent?.as(VariableDeclSyntax.self)?.bindingSpecifier.tokenKind == .keyword(.var) else { return false }
        if let type = binding.typeAnnotation?.type.trimmedText { return ReducerSpec.isEffectType(type) }
        // (`= Effect<Action>.none`, `= Effect.empty`)
        guard let value = binding.initializer?.value.as(MemberAccessExprSyntax.self), let base = value.base else { return false }
        return ReducerSpec.isEffectType(base.trimmedText)
    }

    /// The paths marked as writing the state, when `writes`.
    func written(_ ctxs: [Ctx], if writes: Bool) -> [Ctx] {
        guard writes else { return ctxs }
        return ctxs.map { ctx in
            var c = ctx
            c.writes = true
            return c
        }
    }

    /// Records work started to run later, from the states of `ctxs`.
    func launch(_ closure: ClosureExprSyntax, kind: String, _ ctxs: [Ctx]) {
        var launch = launched[closure.id] ?? Launch(closure: closure, file: effects.index.file(of: closure), kind: kind)
        // a subscription delivering again and again (`player.observe(\.status) { … }`, `$query.sink { … }`)
        // arrives in whatever state the machine is by then
        let repeated = SyntaxHelpers.deliversRepeatedly(closure, kind: kind)
        if repeated { launch.states.formUnion(d.states) }
        // (a case the method sets after starting it, before it returns, is the state the work finds:
        // `let task = session.dataTask(with: url) { … }; state = .loading; task.resume()`)
        // (a completion handler's: not work running while the call does, a task or a cancellation handler)
        let after = repeated || ["task", "onCancel", "sink", "sink completion"].contains(kind) ? nil : writtenAfter(closure)
        for ctx in ctxs {
            let pairs = d.pairs(ctx.pairs)
            switch ctx.target {
            case _ where after != nil && !pairs.isEmpty: launch.states.insert(after!)
            case .state(let s)?: launch.states.insert(s)
            case nil, .stay?: launch.states.formUnion(pairs.map(\.from))
            default: break
            }
            launch.inputs.formUnion(pairs.map(\.input))
        }
        launched[closure.id] = launch
    }

    /// The case the statements after the one starting a closure surely set the state to last, in the
    /// blocks around it up to the closure or function they are in: statements that set it to a case
    /// (`state = .loading`). Nil where one of them sets it otherwise, in a branch or to a value, or none does.
    func writtenAfter(_ closure: ClosureExprSyntax) -> String? {
        var found: String?
        var item = Self.enclosingItem(of: Syntax(closure))
        // (handed to a call the method awaits, `try await transport.transfer { fraction in … }`, a progress
        // handler: it runs while the method waits, before what comes after)
        if let call = SyntaxHelpers.call(taking: closure), let statement = item,
           sequence(first: Syntax(call), next: { $0.parent }).prefix(while: { $0.id != statement.id }).contains(where: { $0.is(AwaitExprSyntax.self) }) {
            return nil
        }
        while let current = item?.as(CodeBlockItemSyntax.self), let list = current.parent?.as(CodeBlockItemListSyntax.self) {
            var levelFound: String?
            for later in list where later.position > current.position {
                if later.item.is(ReturnStmtSyntax.self) || later.item.is(ThrowStmtSyntax.self) { return levelFound ?? found }
                if let (lhs, rhs) = SyntaxHelpers.assignment(later.item), rhs.count == 1, writesState(lhs) {
                    guard let name = SyntaxHelpers.caseReference(rhs[0], effects.index)?.name, d.stateIndex[name] != nil else { return nil }
                    levelFound = name
                } else if SwitchFinder.scanAll(later).assignments.contains(where: { writesState($0.lhs) }) {
                    return nil
                }
            }
            if let levelFound { found = levelFound }
            // (up to the body of the function or closure it is in)
            let owner = list.parent
            if owner?.is(ClosureExprSyntax.self) == true || owner?.parent?.is(FunctionDeclSyntax.self) == true
                || owner?.parent?.is(InitializerDeclSyntax.self) == true || owner?.parent?.is(AccessorDeclSyntax.self) == true { break }
            item = owner.flatMap(Self.enclosingItem)
        }
        return found
    }

    /// Standard library functions that return `Never`: the path they are on does not happen.
    static let neverReturning: Set<String> = ["fatalError", "preconditionFailure"]
    /// The statement a node is in (or is).
    static func enclosingItem(of node: Syntax) -> Syntax? {
        sequence(first: node, next: { $0.parent }).first { $0.is(CodeBlockItemSyntax.self) }
    }

    /// Standard library functions that trap unless their condition holds.
    static let assertions: Set<String> = ["precondition", "assert"]

    /// The paths after closures that run at once, one after the other; a `return` in one leaves only it.
    func runAtOnce(_ closures: [ClosureExprSyntax], _ ctxs: [Ctx]) -> [Ctx] {
        closures.reduce(ctxs) { paths, closure in
            // (a continuation's closure ran before the method waited)
            if ranBeforeWaiting.contains(closure.id) { return paths }
            returnSinks.append([])
            let next = execBlock(closure.statements, paths).next
            return merged(next + returnSinks.removeLast())
        }
    }

    /// The paths after work a case's payload starts (`state = .running(Task { await self.work() })`, or a
    /// helper of the owner that schedules it: `state = .closing(self.scheduleTimeout())`), which runs later
    /// from the state set.
    func startedInPayload(_ value: ExprSyntax, _ ctxs: [Ctx]) -> [Ctx] {
        guard let call = SyntaxHelpers.unwrap(value).as(FunctionCallExprSyntax.self) else { return ctxs }
        return argumentWork(of: call, ctxs, helpers: true)
    }

    /// The paths after the calls among a call's arguments that start work (`center.addObserver(forName: n, …)
    /// { … }` in `observers.append(…)`), and, with `helpers`, that call the owner's helpers: Swift evaluates
    /// arguments before the call.
    func argumentWork(of call: FunctionCallExprSyntax, _ ctxs: [Ctx], helpers: Bool = false) -> [Ctx] {
        call.arguments.reduce(ctxs) { paths, argument in work(in: argument.expression, paths, helpers: helpers) }
    }

    /// The paths after the work an argument starts: a call given a closure to run later, or one found in
    /// an array it is given, or in the arguments of a call taking none itself (`run(.sequence([.wait(forDuration:
    /// 1), .run { … }]))`).
    private func work(in expr: ExprSyntax, _ paths: [Ctx], helpers: Bool) -> [Ctx] {
        let e = SyntaxHelpers.unwrap(expr)
        if let array = e.as(ArrayExprSyntax.self) { return array.elements.reduce(paths) { work(in: $1.expression, $0, helpers: helpers) } }
        guard let inner = e.as(FunctionCallExprSyntax.self) else { return paths }
        if !SyntaxHelpers.laterClosures(of: inner, index: effects.index).isEmpty || helpers && helper(called: inner) != nil {
            return execCall(inner, paths)
        }
        // (a mutating method of the state's enum, whose result is handed on: `perform(state.start())`)
        if !spec.enumMethods.isEmpty, let member = inner.calledExpression.as(MemberAccessExprSyntax.self),
           spec.enumMethods[member.declName.baseName.text] != nil, isState(member.base.flatMap(SyntaxHelpers.path)) {
            return execCall(inner, paths)
        }
        // (deeper only where a closure is written)
        let writesClosure = inner.arguments.contains { $0.expression.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .leftBrace } }
        return writesClosure ? argumentWork(of: inner, paths) : paths
    }

    func execCall(_ call: FunctionCallExprSyntax, _ raw: [Ctx]) -> [Ctx] {
        let callee = call.calledExpression
        if let ref = callee.as(DeclReferenceExprSyntax.self), Self.neverReturning.contains(ref.baseName.text) { return [] }
        let ctxs = argumentWork(of: call, raw)
        if !spec.setters.isEmpty, call.arguments.count == 1, let path = SyntaxHelpers.path(callee), spec.setters.contains(path) {
            return setting(call.arguments.first!.expression, ctxs)
        }
        // (a delay is no hand-over: `asyncAfter(deadline: .now() + 2) { … }` runs later, as work of its own; nor
        // is one after the callback's own write, which is seen before the hop runs)
        if spec.mainHopsNow, DSLSupport.calleeName(call) != "asyncAfter", let hop = SyntaxHelpers.mainHop(call) {
            let written = ctxs.filter { $0.target != nil }
            if !written.isEmpty { launch(hop, kind: "task", written) }
            let rest = ctxs.filter { $0.target == nil }
            return written + (rest.isEmpty ? [] : runAtOnce([hop], rest))
        }
        // `state.withLock { state in state = .ready }`: the closure runs now, its parameter the state
        if let (closure, value) = SyntaxHelpers.accessorClosure(of: call, among: spec.accessors) {
            return withPaths([value], inputs: []) { runAtOnce([closure], ctxs) }
        }
        // `Task { … }`: its work runs later, from the states the paths reaching it are in
        let later = SyntaxHelpers.laterClosures(of: call, index: effects.index)
        if !later.isEmpty {
            // (an animation's own closure runs now, its completion later, from where the animation leaves it)
            let now = runAtOnce(SyntaxHelpers.immediateClosures(of: call, index: effects.index), ctxs)
            for (closure, kind) in later { launch(closure, kind: kind, now) }
            return now
        }
        // `publisher.sink { … }.store(in: &bag)`: a subscription at the start of a chain
        var base = callee.as(MemberAccessExprSyntax.self)?.base
        while let b = base.map(SyntaxHelpers.unwrap) {
            let inner = b.as(FunctionCallExprSyntax.self)
            if let inner, case let later = SyntaxHelpers.laterClosures(of: inner, index: effects.index), !later.isEmpty {
                for (closure, kind) in later { launch(closure, kind: kind, ctxs) }
                break
            }
            base = (inner?.calledExpression ?? b).as(MemberAccessExprSyntax.self)?.base
        }
        // `withAnimation { state = .open }`, `lock.withLock { … }`: the closure runs now, and its `return`
        // leaves the closure
        let immediate = SyntaxHelpers.immediateClosures(of: call, index: effects.index)
        if !immediate.isEmpty { return runAtOnce(immediate, ctxs) }
        // `mutate(&state)`: walk the function with its parameter standing for the state
        if let (function, paths, inputs) = inoutCallee(call), let body = function.body, helperDepth < 4 {
            helperDepth += 1
            defer { helperDepth -= 1 }
            // a parameter given a value written there stands for it (`step(&state, .switchOn)`); one given a
            // name is passed what the name is bound to (`passedBindings`)
            substitutions.append(passedOn(arguments(of: call, boundTo: function)).filter { name, argument in
                !paths.contains(name) && !inputs.contains(name) && !argument.is(InOutExprSyntax.self) && !argument.is(DeclReferenceExprSyntax.self)
            })
            defer { substitutions.removeLast() }
            return rejoined(Self.localsCleared(walkInout(call, function, paths: paths, inputs: inputs, Self.localsCleared(ctxs)) { entering in
                returnSinks.append([])
                let next = execBlock(body.statements, entering).next
                return next + returnSinks.removeLast()
            }))
        }
        // `state.mode.advance()`: a mutating method of the state's enum assigns `self`
        if let member = callee.as(MemberAccessExprSyntax.self), let base = member.base, isState(SyntaxHelpers.path(base)),
           let method = spec.enumMethods[member.declName.baseName.text], let body = method.body, helperDepth < 4 {
            helperDepth += 1
            defer { helperDepth -= 1 }
            // its parameters stand for the arguments (`state.handle(.switchOn)` takes `switchOn`'s rows)
            substitutions.append(passedOn(arguments(of: call, boundTo: method)))
            defer { substitutions.removeLast() }
            // its `return` goes back to the caller
            returnSinks.append([])
            let next = withPaths(["self"], inputs: []) { execBlock(body.statements, Self.localsCleared(ctxs)).next }
            return rejoined(Self.localsCleared(next + returnSinks.removeLast()))
        }
        if let member = callee.as(MemberAccessExprSyntax.self), let base = member.base, isState(SyntaxHelpers.path(base)),
           member.declName.baseName.text == "toggle", spec.stateKind == .bool {
            return ctxs.flatMap(toggle)
        }
        // `body(&self.state)` in a helper, `body` its closure parameter: the closure's body runs with its
        // parameter standing for the state (`self.withState { state in state = .idle }`)
        if let (closure, paths) = stateClosure(call), helperDepth < 4, let frame = substitutions.popLast() {
            helperDepth += 1
            defer { helperDepth -= 1; substitutions.append(frame) }
            returnSinks.append([])
            let next = withPaths(paths, inputs: []) { execBlock(closure.statements, ctxs).next }
            return rejoined(next + returnSinks.removeLast())
        }
        // a mutating helper of the state's owner: `reset()`, `self.reset()`, `state.reset()`
        if let helper = helper(called: call), let body = helper.body, helperDepth < 4 {
            // (an argument naming a parameter of the caller is passed what that stands for: `canTransition(to:
            // next)` in `transition(to next:)` called with `.approved`)
            return walk(helper, body, passing: passedOn(arguments(of: call, boundTo: helper)), ctxs)
        }
        return ctxs
    }

    /// The paths after a helper of the owner walked with its parameters standing for `bound`; an argument
    /// choosing between values (`send(ok ? .accepted : .declined)`) is each of them, on the paths where its
    /// condition picks it.
    func walk(_ helper: FunctionDeclSyntax, _ body: CodeBlockSyntax, passing bound: [String: ExprSyntax], _ ctxs: [Ctx]) -> [Ctx] {
        if let (name, choice) = bound.sorted(by: { $0.key < $1.key }).lazy
            .compactMap({ name, e in SyntaxHelpers.unwrapFolded(e).as(TernaryExprSyntax.self).map { (name, $0) } }).first {
            let text = self.text(choice.condition)
            var next: [Ctx] = []
            for ctx in ctxs {
                let pred = eval(choice.condition, ctx)
                let yes = restrict(ctx, pred, text: text), no = restrict(ctx, pred.negated(d), text: "!(\(text))")
                var then = bound, otherwise = bound
                then[name] = choice.thenExpression
                otherwise[name] = choice.elseExpression
                if !yes.pairs.isEmpty { next += walk(helper, body, passing: then, [yes]) }
                if !no.pairs.isEmpty { next += walk(helper, body, passing: otherwise, [no]) }
            }
            return next
        }
        helperDepth += 1
        defer { helperDepth -= 1 }
        substitutions.append(bound)
        defer { substitutions.removeLast() }
        returnSinks.append([])
        let next = withHelperPaths { execBlock(body.statements, Self.localsCleared(ctxs)).next }
        return rejoined(Self.localsCleared(next + returnSinks.removeLast()))
    }

    /// The paths without the cases their locals hold, on entering or leaving a function walked for a call
    /// (its locals are its own; the caller's are forgotten, not matched wrongly).
    static func localsCleared(_ ctxs: [Ctx]) -> [Ctx] { cleared(ctxs, \.caseLocals, to: [:]) }

    /// The paths with no case returned yet, before a call whose value is matched.
    static func unreturned(_ ctxs: [Ctx]) -> [Ctx] { cleared(ctxs, \.returned, to: nil) }

    /// The paths with `part` set to `empty` (copied only where some path holds another value).
    static func cleared<T: Equatable>(_ ctxs: [Ctx], _ part: WritableKeyPath<Ctx, T>, to empty: T) -> [Ctx] {
        guard ctxs.contains(where: { $0[keyPath: part] != empty }) else { return ctxs }
        return ctxs.map { ctx in
            var c = ctx
            c[keyPath: part] = empty
            return c
        }
    }

    /// Whether a statement is a `try` of a call of a helper of the owner and nothing else (`try move(to: .paid)`),
    /// whose body throws by its own `throw`s only (no `try` in it), which the walk follows.
    func triesHelper(_ item: CodeBlockItemSyntax) -> Bool {
        let e = item.item.as(ExprSyntax.self) ?? item.item.as(ExpressionStmtSyntax.self)?.expression
        guard let attempt = e?.as(TryExprSyntax.self),
              let call = SyntaxHelpers.unwrap(attempt.expression).as(FunctionCallExprSyntax.self) else { return false }
        func says(_ keyword: Keyword, in node: some SyntaxProtocol) -> Bool { node.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(keyword) } }
        guard call.arguments.allSatisfy({ !says(.try, in: $0.expression) }), let body = helper(called: call)?.body else { return false }
        return !says(.try, in: body) && says(.throw, in: body)
    }

    /// The helper of the state's owner an expression calls (`try self.clientSend(message)`), if it is a call.
    func helper(called value: ExprSyntax) -> FunctionDeclSyntax? {
        SyntaxHelpers.unwrap(value).as(FunctionCallExprSyntax.self).flatMap { helper(called: $0) }
    }

    /// The helper of the state's owner a call names: `reset()`, `self.reset()`, `state.reset()`.
    func helper(called call: FunctionCallExprSyntax) -> FunctionDeclSyntax? {
        let callee = call.calledExpression
        // `super.start()` in an override: the superclass's method (the inputs declare it)
        if let member = callee.as(MemberAccessExprSyntax.self), member.base?.is(SuperExprSyntax.self) == true {
            return superclassMethod(member.declName.baseName.text, call)
        }
        var helperName: String?
        if let ref = callee.as(DeclReferenceExprSyntax.self) { helperName = ref.baseName.text }
        if let member = callee.as(MemberAccessExprSyntax.self), let base = member.base, let path = SyntaxHelpers.path(base),
           path == "self" || spec.statePaths.contains(where: { $0.hasPrefix(path + ".") }) {
            helperName = member.declName.baseName.text
        }
        // (the owner's static method: `Self.canTransition(from: stage, to: next)`, `Pipeline.canTransition(…)`)
        var typeName: String?
        if let member = callee.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
           base.baseName.text.first?.isUppercase == true {
            helperName = member.declName.baseName.text
            typeName = base.baseName.text
        }
        guard let name = helperName else { return nil }
        let full = ReducerSpec.key(name, call), file = ReducerSpec.fileKey(call)
        guard let found = spec.helpers[file + full] ?? spec.helpers[full] ?? spec.helpers[file + name] ?? spec.helpers[name] else { return nil }
        if let typeName, !SymbolIndex.isStatic(found.modifiers)
            || typeName != "Self" && SyntaxHelpers.enclosingTypeNames(found).last != typeName { return nil }
        // (a base class's method only subclasses implement, `func execute() { fatalError("subclasses override") }`,
        // is not followed: the overriding one runs; asked once per method, as every call is resolved here)
        let abstract = abstractMethods.value(for: found) {
            guard let body = found.body, SyntaxHelpers.onlyTraps(body.statements) else { return false }
            return effects.index.typeOrder.contains { type in
                type.methods.contains { $0.0.name.text == name && $0.0.modifiers.contains { $0.name.text == "override" } }
            }
        }
        return abstract ? nil : found
    }

    /// Per method a call resolves to, whether only subclasses implement it (`helper(called:)`).
    var abstractMethods = NodeMemo<Bool>()

    /// The method of the superclass of the type a call is written in that the call names by its labels,
    /// with a body.
    func superclassMethod(_ name: String, _ call: FunctionCallExprSyntax) -> FunctionDeclSyntax? {
        let index = effects.index
        guard let scope = index.scope(of: call) else { return nil }
        var owner: TypeInfo?
        for case .type(let t) in scope.levels { owner = t; break }
        guard let owner else { return nil }
        return index.superclassMethod(named: name, fullName: ReducerSpec.key(name, call), of: owner)
    }

    /// The call's arguments by the names of the helper's parameters they stand for (`transition(to:
    /// .loading)`); a trailing closure is the argument of the parameter after the written ones.
    func arguments(of call: FunctionCallExprSyntax, boundTo helper: FunctionDeclSyntax) -> [String: ExprSyntax] {
        arguments(of: call, boundTo: helper.signature)
    }

    /// Arguments naming a parameter of the function being walked that stands for a value written where it
    /// was called (`handle(knock)` in a helper given `.timeout` for `knock`): that value.
    func passedOn(_ bound: [String: ExprSyntax]) -> [String: ExprSyntax] {
        bound.mapValues { e in substituted(e).flatMap { $0.is(DeclReferenceExprSyntax.self) ? nil : $0 } ?? e }
    }

    func arguments(of call: FunctionCallExprSyntax, boundTo signature: FunctionSignatureSyntax) -> [String: ExprSyntax] {
        var bound: [String: ExprSyntax] = [:]
        let parameters = Array(signature.parameterClause.parameters)
        func label(_ p: FunctionParameterSyntax) -> String? { p.firstName.text == "_" ? nil : p.firstName.text }
        // as Swift matches them: in order, a parameter with a default value left out when its label is not written
        var next = 0
        for argument in call.arguments {
            while next < parameters.count, label(parameters[next]) != argument.label?.text, parameters[next].defaultValue != nil { next += 1 }
            guard next < parameters.count else { break }
            bound[(parameters[next].secondName ?? parameters[next].firstName).text] = argument.expression
            next += 1
        }
        if let closure = call.trailingClosure, next < parameters.count {
            let parameter = parameters[next]
            bound[(parameter.secondName ?? parameter.firstName).text] = ExprSyntax(closure)
        }
        return bound
    }

    /// The targets a helper returning the next state gives (`state = next(state, event)`): its body is
    /// walked with its parameters standing for the arguments (those given the state or the input are
    /// the state or the input there), and each value it returns on a path is that path's target. Nil
    /// when the call names no such helper, or no path returns.
    func returnedTargets(of call: FunctionCallExprSyntax, _ ctx: Ctx) -> [(Ctx, Target)]? {
        // a helper of the state's owner, else the one function of the project the callee names where it is
        // written (`reduce(state.phase, action)`) taking as many arguments
        // (or a static function of the state's enum the call names as an implicit member: `.from(receipt)`)
        let named = helper(called: call) ?? {
            let member = call.calledExpression.as(MemberAccessExprSyntax.self)
            let candidates = member?.base == nil ? member.flatMap { spec.enumFactories?.functions[$0.declName.baseName.text] } : nil
            let found = (candidates ?? effects.index.functions(referencedBy: call.calledExpression)).filter {
                $0.signature.parameterClause.parameters.count == call.arguments.count + (call.trailingClosure == nil ? 0 : 1)
            }
            return found.count == 1 ? found[0] : nil
        }()
        guard let helper = named, helper.signature.returnClause != nil, let body = helper.body, helperDepth < 4 else { return nil }
        helperDepth += 1
        defer { helperDepth -= 1 }
        let bound = arguments(of: call, boundTo: helper)
        var paths: Set<String> = [], inputs: Set<String> = []
        for (name, argument) in bound {
            let p = SyntaxHelpers.path(argument)
            if isState(p) { paths.insert(name) } else if isInput(p) { inputs.insert(name) }
        }
        substitutions.append(bound.filter { name, _ in !paths.contains(name) && !inputs.contains(name) })
        defer { substitutions.removeLast() }
        valueSinks.append((returnSinks.count, []))
        // (a method of the state's owner names the state as its helpers do: `mode` for `state.mode`)
        _ = withPaths(paths.union(spec.helperStatePaths), inputs: inputs) {
            // (a body of one expression returns it: `static func from(_ ok: Bool) -> Status { ok ? .on : .off }`)
            // (an expression item, not a `switch` or `if` statement's, nor a `return`, which the block's walk reads)
            if body.statements.count == 1, let only = body.statements.first?.item.as(ExprSyntax.self), !Self.isValueChoice(only),
               SyntaxHelpers.assignment(only) == nil {
                return execReturn(only, [ctx]).next
            }
            return execBlock(body.statements, [ctx]).next
        }
        // a value the helper computes at run time is named by the call the reducer wrote
        let results = valueSinks.removeLast().results.map { c, t -> (Ctx, Target) in
            if case .unknown = t { return (c, .unknown(text(call))) }
            return (c, t)
        }
        // (an optional's value the helper computes is named by the call: `Berth.upper()` is the state `upper`)
        if spec.stateKind == .optional, results.allSatisfy({ if case .unknown = $0.1 { true } else { false } }) { return nil }
        return results.isEmpty ? nil : results
    }

    /// The targets an initializer of the state's enum gives (`Status(receipt: r)`, `.init(receipt: r)`): its
    /// body is walked with `self` standing for the state and its parameters for the arguments; what it
    /// assigns `self` on each path is that path's target. Nil when the call names no one initializer.
    func constructedTargets(of call: FunctionCallExprSyntax, _ ctx: Ctx) -> [(Ctx, Target)]? {
        guard let made = spec.enumFactories, !made.initializers.isEmpty, helperDepth < 4 else { return nil }
        let callee = call.calledExpression
        let member = callee.as(MemberAccessExprSyntax.self)
        let viaInit = member.map { $0.declName.baseName.text == "init" && ($0.base == nil || $0.base!.trimmedText == made.name) } ?? false
        guard viaInit || callee.as(DeclReferenceExprSyntax.self)?.baseName.text == made.name else { return nil }
        let labels = call.arguments.map { $0.label?.text }
        let found = made.initializers.filter { i in
            // as Swift matches them: the labels written in order, a parameter left out only when it has a default
            var rest = labels[...]
            for p in i.signature.parameterClause.parameters {
                let label = p.firstName.text == "_" ? nil : p.firstName.text
                if let next = rest.first, next == label { rest.removeFirst() } else if p.defaultValue == nil { return false }
            }
            return rest.isEmpty && call.trailingClosure == nil
        }
        guard found.count == 1, let initializer = found.first, let body = initializer.body else { return nil }
        helperDepth += 1
        defer { helperDepth -= 1 }
        substitutions.append(arguments(of: call, boundTo: initializer.signature))
        defer { substitutions.removeLast() }
        var start = ctx
        start.target = nil
        returnSinks.append([])
        let next = withPaths(["self"], inputs: []) { execBlock(body.statements, Self.localsCleared([start])).next }
        let ends = Self.localsCleared(next + returnSinks.removeLast())
        // (a failable one's `return nil` gives no value: `Status(code: c) ?? .unknown` takes the fallback there)
        let failable = initializer.optionalMark != nil
        return ends.isEmpty ? nil : ends.map { c in (c, c.target ?? (failable ? .failure : .unknown(text(call)))) }
    }

    /// Helpers walked for the value they return, innermost last: the `returnSinks` depth they were
    /// entered at, and the (path, target) pairs their `return`s gave.
    var valueSinks: [(depth: Int, results: [(Ctx, Target)])] = []

    /// A call of the walked helper's closure parameter with the state `inout` (`body(&self.state)`): the
    /// closure passed for it, and the names its parameters give the state. (The closure is written where
    /// the helper is called: its body is walked with the names of that place, without the helper's.)
    func stateClosure(_ call: FunctionCallExprSyntax) -> (ClosureExprSyntax, Set<String>)? {
        guard let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
              let closure = substituted(ExprSyntax(callee)).flatMap({ SyntaxHelpers.unwrap($0).as(ClosureExprSyntax.self) }) else { return nil }
        var names: [String] = []
        switch closure.signature?.parameterClause {
        case .simpleInput(let list): names = list.map(\.name.text)
        case .parameterClause(let clause): names = clause.parameters.map { ($0.secondName ?? $0.firstName).text }
        case nil: names = (0..<call.arguments.count).map { "$\($0)" }
        }
        var paths: Set<String> = []
        for (argument, name) in zip(call.arguments, names) {
            guard let io = argument.expression.as(InOutExprSyntax.self), let p = SyntaxHelpers.path(io.expression) else { continue }
            if isState(p) { paths.insert(name) }
            for statePath in spec.statePaths.union(extraStatePaths) where statePath.hasPrefix(p + ".") {
                paths.insert(name + statePath.dropFirst(p.count))
            }
        }
        return paths.isEmpty ? nil : (closure, paths)
    }

    /// Arguments bound to the parameters of the helpers being walked, innermost last.
    var substitutions: [[String: ExprSyntax]] = []

    /// The argument a helper's parameter stands for, if `expr` is such a parameter.
    func substituted(_ expr: ExprSyntax) -> ExprSyntax? {
        guard let ref = expr.as(DeclReferenceExprSyntax.self), let bound = substitutions.last?[ref.baseName.text] else { return nil }
        return bound
    }

    var extraStatePaths: Set<String> = []
    /// Locals of the blocks being walked that hide a state path of that name.
    var locals: Set<String> = []
    var extraInputPaths: Set<String> = []
    /// Contexts that `return`ed from functions walked for calls used as statements, innermost last.
    var returnSinks: [[Ctx]] = []
    /// The `returnSinks` depth of a predicate walked for what it returns (`decidingCall`): its `return
    /// state == .new` splits the paths into those returning `true` and those returning `false`.
    var decidingDepth: Int?

    /// `call` walked as a predicate deciding a condition (`decidingCall`).
    func execDeciding(_ call: FunctionCallExprSyntax, _ ctxs: [Ctx]) -> [Ctx] {
        let outer = decidingDepth
        decidingDepth = returnSinks.count + 1
        defer { decidingDepth = outer }
        return execCall(call, Self.unreturned(ctxs))
    }

    func withHelperPaths(_ body: () -> [Ctx]) -> [Ctx] { withPaths(spec.helperStatePaths, inputs: [], body) }

    /// Walks `body` with more names for the state and the input, and `hiding` names of the reducer's
    /// input that a walked function's parameters hide.
    func withPaths(_ paths: Set<String>, inputs: Set<String>, hiding: Set<String> = [], _ body: () -> [Ctx]) -> [Ctx] {
        let saved = (extraStatePaths, extraInputPaths, hiddenInputs)
        extraStatePaths.formUnion(paths)
        extraInputPaths.formUnion(inputs)
        hiddenInputs.formUnion(hiding)
        defer { (extraStatePaths, extraInputPaths, hiddenInputs) = saved }
        return body()
    }

    /// Where a node is: in its own file, which for a helper's node may not be the reducer's.
    func location(of node: some SyntaxProtocol) -> SourceLocation { effects.index.location(of: node, orIn: file) }

    func patternAtom(_ pattern: PatternSyntax) -> PatternAtom { readings.patternAtom(pattern, index: effects.index) }
    func text(_ node: some SyntaxProtocol) -> String { readings.text(node) }
    func fold(_ expr: ExprSyntax) -> ExprSyntax { readings.fold(expr) }
    func inoutFunctions(_ call: FunctionCallExprSyntax) -> [FunctionDeclSyntax] { readings.inoutFunctions(call, index: effects.index) }

    /// A call that passes the state `inout` to a function of the project: the function and the paths
    /// that denote the state (and the input) inside it.
    func inoutCallee(_ call: FunctionCallExprSyntax) -> (FunctionDeclSyntax, Set<String>, Set<String>)? {
        // the function the callee names where it is written (`f`, `self.f`, `Self.f`, `Type.f`)
        let candidates = inoutFunctions(call)
        guard !candidates.isEmpty else { return nil }
        let arguments = Array(call.arguments)
        for function in candidates {
            let parameters = Array(function.signature.parameterClause.parameters)
            guard parameters.count == arguments.count else { continue }
            var paths: Set<String> = []
            var inputs: Set<String> = []
            for (argument, parameter) in zip(arguments, parameters) {
                let inner = (parameter.secondName ?? parameter.firstName).text
                if let io = argument.expression.as(InOutExprSyntax.self), let p = SyntaxHelpers.path(io.expression) {
                    if isState(p) { paths.insert(inner) }
                    for statePath in spec.statePaths.union(extraStatePaths) where statePath.hasPrefix(p + ".") {
                        paths.insert(inner + statePath.dropFirst(p.count))
                    }
                } else if isInput(SyntaxHelpers.path(argument.expression)) {
                    inputs.insert(inner)
                }
            }
            if !paths.isEmpty { return (function, paths, inputs) }
        }
        return nil
    }

    /// Whether an assignment to (or a mutation of) `lhs` writes the reducer's state: its path starts at
    /// the state parameter (`state.count`, `state`), as the reducer or a walked helper names it.
    func writesState(_ lhs: ExprSyntax) -> Bool {
        // `(action, self.state) = …`: any of its elements
        if let tuple = lhs.as(TupleExprSyntax.self), tuple.elements.count > 1 { return tuple.elements.contains { writesState($0.expression) } }
        guard let path = SyntaxHelpers.path(lhs) ?? SyntaxHelpers.path(SyntaxHelpers.unwrap(lhs)) else { return false }
        if isLocal(SyntaxHelpers.unwrap(lhs)) { return false }
        let root = path.split(separator: ".").first.map(String.init) ?? path
        let prefix = root + "."
        func denotes(_ p: String) -> Bool { p == root || p.hasPrefix(prefix) }
        return spec.statePaths.contains(where: denotes) || extraStatePaths.contains(where: denotes)
    }

    func isState(_ path: String?) -> Bool {
        guard let path else { return false }
        return spec.statePaths.contains(path) || extraStatePaths.contains(path)
    }

    /// A bare name of the state that a local declaration before it in a block around it hides (`let (state,
    /// result) = self.step(); self.state = state`): a value, not the state. For a member state, any local
    /// or parameter declared around it (`if let state = pending`, `func jam(unless state: State)`), but a
    /// walked helper's parameter given the state (`extraStatePaths`); `state.mode` by its root.
    func isLocal(_ expr: ExprSyntax) -> Bool {
        var root = expr
        while spec.stateIsMember, let member = root.as(MemberAccessExprSyntax.self), let base = member.base { root = base }
        guard let ref = root.as(DeclReferenceExprSyntax.self) else { return false }
        let name = ref.baseName.text
        if locals.contains(name) { return true }
        // (a local holding `self`, `strongSelf.state`, is `self`)
        return spec.stateIsMember && name != "self" && !extraStatePaths.contains(name) && SymbolIndex.isLocalName(ExprSyntax(ref))
            && !(root.id != expr.id && SyntaxHelpers.aliasesSelf(ref))
    }

    func isInput(_ path: String?) -> Bool {
        guard let path else { return false }
        if extraInputPaths.contains(path) { return true }
        let root = path.prefix { $0 != "." }
        return spec.inputPaths.contains(path) && !hiddenInputs.contains(String(root))
    }

    /// Names of the reducer's input that a parameter of the function being walked hides.
    var hiddenInputs: Set<String> = []

    /// Walks a function a call gives the state `inout` (`walk` from the paths entering it): its
    /// parameters hide the reducer's names, but for those standing for the state and the input, and
    /// one given a part of the input a case bound (`case let .view(action): return handleView(action,
    /// state: &state)`) stands for that part, so its `switch` narrows the input.
    func walkInout(_ call: FunctionCallExprSyntax, _ function: FunctionDeclSyntax, paths: Set<String>, inputs: Set<String>,
                   _ ctxs: [Ctx], _ walk: ([Ctx]) -> [Ctx]) -> [Ctx] {
        let passed = passedBindings(call, to: function, ctxs)
        let parameters = Set(function.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
        let out = withPaths(paths, inputs: inputs, hiding: parameters.subtracting(paths).subtracting(inputs)) {
            walk(passed?.entering ?? ctxs)
        }
        guard let passed else { return out }
        return out.map { ctx in passed.restore.reduce(into: ctx) { c, name in c.bound[name.key] = name.value } }
    }

    /// The paths entering a function walked for a call, each of its parameters given the part of the
    /// input the argument names (bound by a case pattern) or none; and the bindings to put back after.
    /// Nil when the paths disagree about what a parameter's name was bound to before the call.
    func passedBindings(_ call: FunctionCallExprSyntax, to function: FunctionDeclSyntax, _ ctxs: [Ctx])
        -> (entering: [Ctx], restore: [String: Bound?])? {
        let pairs = zip(call.arguments, function.signature.parameterClause.parameters).compactMap { argument, parameter in
            argument.expression.as(DeclReferenceExprSyntax.self).map { (parameter: (parameter.secondName ?? parameter.firstName).text, argument: $0.baseName.text) }
        }
        guard pairs.contains(where: { p in ctxs.contains { $0.bound[p.argument] != nil } }) else { return nil }
        var restore: [String: Bound?] = [:]
        for p in pairs {
            let before = Set(ctxs.map { $0.bound[p.parameter] })
            guard before.count == 1, let b = before.first else { return nil }
            restore[p.parameter] = b
        }
        let entering = ctxs.map { ctx in
            var c = ctx
            for p in pairs { c.bound[p.parameter] = ctx.bound[p.argument] }
            return c
        }
        return (entering, restore)
    }

    // MARK: switch / if

    /// What a `switch` tests: the state, the input, a parameter of a walked helper given a case (`known`:
    /// `next` in `switch (state, next)` for `transition(to: .running)`), or other data.
    indirect enum Subject {
        case state, input, known(String), other(String), tuple([Subject])
    }

    func classify(_ raw: ExprSyntax) -> Subject {
        let expr = SyntaxHelpers.unwrap(raw)
        if let t = expr.as(TupleExprSyntax.self), t.elements.count > 1 {
            return .tuple(t.elements.map { classify($0.expression) })
        }
        let p = SyntaxHelpers.path(expr)
        if isState(p), !isLocal(expr) { return .state }
        if isInput(p) { return .input }
        if let value = knownCase(expr) { return .known(value) }
        // (a walked helper's parameter given the state: `from` in `canTransition(from: stage, to: next)`)
        if let argument = substituted(expr), isState(SyntaxHelpers.path(SyntaxHelpers.unwrap(argument))) { return .state }
        if snapshotsState(expr) { return .state }
        return .other(text(expr))
    }

    /// Whether a bare name is a local copy of the state, read before the function wrote the state or the
    /// copy (`let current = state; switch current { … }`, `var state = self.state; guard state == .off`): a
    /// test of it is a test of the state. (`let old = state; state = .idle; if old == .busy` tests the
    /// value the state had: not this.)
    func snapshotsState(_ expr: ExprSyntax) -> Bool {
        // (an optional state's value bound by an earlier condition of the same list: `if let error = state.error,
        // error == .locked`)
        if spec.stateKind == .optional, let ref = expr.as(DeclReferenceExprSyntax.self),
           let element = SymbolIndex.localDeclaration(of: ref.baseName.text, around: Syntax(ref))?.as(ConditionElementSyntax.self),
           case .optionalBinding(let b) = element.condition, let value = b.initializer.map({ SyntaxHelpers.unwrap($0.value) }),
           isState(SyntaxHelpers.path(value)), !isLocal(value),
           let list = element.parent, case let use = (Rebuilt.shared.original(of: Syntax(ref)) ?? Syntax(ref)).position,
           list.position <= use, use < list.endPosition {
            return true
        }
        // (a name a `case` binds at the state's place, tested in its `where`: `case (let s, .fault) where s != .offline`)
        if let ref = expr.as(DeclReferenceExprSyntax.self),
           let label = SymbolIndex.localDeclaration(of: ref.baseName.text, around: Syntax(ref))?.as(SwitchCaseLabelSyntax.self),
           case let use = (Rebuilt.shared.original(of: Syntax(ref)) ?? Syntax(ref)).position, label.position <= use, use < label.endPosition,
           let sw = sequence(first: Syntax(label), next: { $0.parent }).lazy.compactMap({ $0.as(SwitchExprSyntax.self) }).first {
            let subject = SyntaxHelpers.unwrap(sw.subject)
            let subjects = subject.as(TupleExprSyntax.self).map { $0.elements.map(\.expression) } ?? [subject]
            let bound = ["let " + ref.baseName.text, "var " + ref.baseName.text]
            for item in label.caseItems {
                let pattern = item.pattern.as(ExpressionPatternSyntax.self)?.expression
                let parts = pattern?.as(TupleExprSyntax.self).map { $0.elements.map(\.expression.trimmedText) } ?? [item.pattern.trimmedText]
                guard parts.count == subjects.count, let k = parts.firstIndex(where: bound.contains) else { continue }
                let value = SyntaxHelpers.unwrap(subjects[k])
                if isState(SyntaxHelpers.path(value)), !isLocal(value) { return true }
            }
        }
        guard let ref = expr.as(DeclReferenceExprSyntax.self),
              let declaration = SymbolIndex.localDeclaration(of: ref.baseName.text, around: Syntax(ref))?.as(PatternBindingSyntax.self),
              declaration.pattern.is(IdentifierPatternSyntax.self),
              let variable = declaration.parent?.parent?.as(VariableDeclSyntax.self),
              let given = declaration.initializer?.value, case let value = SyntaxHelpers.withoutFallback(given).value,
              case let path = SyntaxHelpers.path(SyntaxHelpers.unwrap(value)), isState(path),
              // (`let state = state ?? .home`: a declaration's own value names what it hides)
              path == ref.baseName.text || !isLocal(SyntaxHelpers.unwrap(value)),
              let body = sequence(first: Syntax(variable), next: \.parent).first(where: Self.isFunctionBody)
        else { return false }
        // no write of the state in the function (or closure) before the use: a copy taken after one may be
        // read after another (a loop waiting for a change another thread makes)
        let use = (Rebuilt.shared.original(of: Syntax(ref)) ?? Syntax(ref)).position
        let scan = SwitchFinder.scanAll(body)
        let name = ref.baseName.text
        // (an assignment whose value reads the copy writes after reading it: `state = switch (current, lever) { … }`)
        let writes = scan.assignments.filter { !($0.rhs.position <= use && use < $0.rhs.endPosition) }.map(\.lhs) + scan.inouts.map(\.expression)
        return !writes.contains { lhs in
            lhs.position < use && (writesState(lhs) || lhs.as(DeclReferenceExprSyntax.self)?.baseName.text == name)
        }
    }

    /// Whether a declaration copies the value it hides (`var state = state`, `let model = model ?? Model()`).
    static func copiesItself(_ binding: PatternBindingSyntax) -> Bool {
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = binding.initializer?.value
        else { return false }
        return SyntaxHelpers.path(SyntaxHelpers.withoutFallback(value).value) == name
    }

    /// Whether a node is the body of a function, initializer, accessor or closure (not of a statement in one).
    static func isFunctionBody(_ node: Syntax) -> Bool {
        if node.is(ClosureExprSyntax.self) { return true }
        guard node.is(CodeBlockSyntax.self), let parent = node.parent else { return false }
        return parent.is(FunctionDeclSyntax.self) || parent.is(InitializerDeclSyntax.self) || parent.is(AccessorDeclSyntax.self)
            || parent.is(DeinitializerDeclSyntax.self)
    }

    /// The case a walked helper's parameter is given (`next` in `transition(to: .running)`), or nil.
    func knownCase(_ expr: ExprSyntax) -> String? {
        // (a case, or a case with its payload: `send(.tag(id))`, `send(Event.tag(id))`; not a call's result)
        guard let argument = substituted(expr), !isState(SyntaxHelpers.path(argument)), !isInput(SyntaxHelpers.path(argument)) else { return nil }
        let value = SyntaxHelpers.unwrap(argument)
        if value.is(MemberAccessExprSyntax.self) { return SyntaxHelpers.caseReference(argument, effects.index)?.name }
        guard let callee = value.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self),
              let name = SyntaxHelpers.caseReference(argument, effects.index)?.name else { return nil }
        guard let base = callee.base else { return name }
        return effects.index.typeExpression(base, at: Rebuilt.shared.original(of: Syntax(base)) ?? Syntax(base))?.enumInfo?.caseNames.contains(name) == true ? name : nil
    }

    func involvesMachine(_ s: Subject) -> Bool {
        switch s {
        case .state, .input: true
        case .other, .known: false
        case .tuple(let items): items.contains(where: involvesMachine)
        }
    }

    /// What a pattern over a tuple asks of its elements that are neither the state nor the input (`case
    /// (.quoted, "\""):` over `(state, scalar)` asks `scalar ~ "\""`); nil when it asks nothing of them.
    func dataText(_ pattern: PatternSyntax, _ subject: ExprSyntax, _ parts: [Subject]) -> String? {
        guard let subjects = SyntaxHelpers.unwrap(subject).as(TupleExprSyntax.self)?.elements.map(\.expression), subjects.count == parts.count else { return nil }
        let elements: [String]
        if let tuple = pattern.as(ExpressionPatternSyntax.self)?.expression.as(TupleExprSyntax.self) {
            elements = tuple.elements.map { $0.expression.trimmedText }
        } else if let tuple = pattern.as(TuplePatternSyntax.self) {
            elements = tuple.elements.map { $0.pattern.trimmedText }
        } else { return nil }
        guard elements.count == parts.count else { return nil }
        let asked = zip(zip(subjects, elements), parts).compactMap { pair, part -> String? in
            guard case .other = part, pair.1 != "_", !pair.1.hasPrefix("let "), !pair.1.hasPrefix("var ") else { return nil }
            return "\(pair.0.trimmedText) ~ \(pair.1)"
        }
        return asked.isEmpty ? nil : asked.joined(separator: " && ")
    }

    func execSwitch(_ sw: SwitchExprSyntax, _ ctx: Ctx) -> Flow {
        if let flow = execSwitchOnArgument(sw, ctx) { return flow }
        // `switch result` where `result` was bound by a case on the input (`case let .view(action)`, even
        // when it shadows the reducer's `action`): its cases narrow the input
        let boundSubject = SyntaxHelpers.unwrap(sw.subject).as(DeclReferenceExprSyntax.self).flatMap { ctx.bound[$0.baseName.text] }
        let subject = boundSubject == nil ? classify(sw.subject) : .other(text(sw.subject))
        let machineSwitch = involvesMachine(subject) || boundSubject != nil
        var remaining = ctx.pairs
        var flow = Flow()
        var pending: [Ctx] = []
        // the guards the cases of a switch over data add, and whether a case that matched added none
        var caseGuards: [String] = []
        var unguardedCase = false
        // the pairs each payload case of an input matched so far (`.response(.success)`, `.response(.failure)`):
        // together, the cases of `Result`, `Bool` or `Optional` leave none of them for later cases
        var payloadCases: [String: [String: PairSet]] = [:]
        // (a case under `#if` is there in some builds only: as if it had a `where` that may not hold, which
        // leaves the pairs it takes to the cases after it and to its `#else`)
        // (the pairs each clause of an `#if … #else` block surely takes: those every clause takes are taken in
        // every build, as by one case)
        var clauseTakes: [Int: PairSet] = [:]
        var block: SyntaxIdentifier?
        func closeBlock() {
            if block != nil, let all = clauseTakes.values.first { remaining = remaining.subtracting(clauseTakes.values.reduce(all) { $0.intersection($1) }) }
            block = nil
            clauseTakes = [:]
        }
        // (`switch (state, event)` in a helper called with a case, `self?.on(.found(hits))`: the cases naming another
        // event at its place do not run)
        let skipped = casesNotMatchingArguments(sw, ctx)
        for configured in SyntaxHelpers.configuredCases(of: sw) {
            let sc = configured.switchCase, configuration = configured.condition
            if pending.isEmpty, skipped.contains(sc.id) { continue }
            if configured.clause?.block != block { closeBlock() }
            block = configured.clause?.block
            var pred = Pred.never(d)
            var catchAll = false
            var touched = Set<String>()
            var patternTexts: [String] = []
            var whereTexts: [String] = []
            var narrowings: [Narrowing] = []
            var broad: Set<String> = []
            var bindings: [String: Bound] = [:]
            // what each item asks of the data beside the machine in a tuple (`case (.fieldStart, "\""):`
            // `scalar ~ "\""`), nil for an item asking nothing of it
            var dataTexts: [String?] = []
            // the pairs a pattern without a `where` takes: `where` binds to its own pattern only (`case .off,
            // .dim where bright:` is `.off` or `.dim` with `bright`)
            var unconditioned = d.none
            switch sc.label {
            case .default:
                pred = configuration == nil ? .always(d) : .unknown(d)
                if let configuration { whereTexts.append(configuration) }
                catchAll = boundSubject == nil
            case .case(let label):
                for item in label.caseItems {
                    let atom = patternAtom(item.pattern)
                    var p: Pred
                    var tree: InputPattern?
                    var bindingPaths: [String: [Int]] = [:]
                    if let bound = boundSubject {
                        let read = PatternReader.read(item.pattern, effects.index)
                        let full = PatternReader.substitute(read.tree, into: bound.pattern, at: bound.path)
                        p = read.tree == .any ? .always(d) : Pred(yes: d.none, maybe: bound.pairs.intersection(arrivals(full)))
                        tree = full
                        bindingPaths = read.bindings.mapValues { bound.path + $0 }
                    } else {
                        if machineSwitch, case .tuple(let parts) = subject { dataTexts.append(dataText(item.pattern, sw.subject, parts)) }
                        p = atomPred(atom, subject, ctx)
                        tree = inputTree(atom, subject)
                        if let tree { p = p.and(Pred(yes: arrivals(tree), maybe: d.none)) }
                        if case .input = subject, label.caseItems.count == 1 { bindingPaths = PatternReader.read(item.pattern, effects.index).bindings }
                    }
                    if !p.maybe.isEmpty { patternTexts.append(text(item.pattern)) }
                    // (where the pattern's payload case matches, the pairs it surely takes: its `where` holds there)
                    var sure = p.possible
                    if let w = item.whereClause {
                        let pw = eval(w.condition, ctx)
                        if !pw.maybe.isEmpty { whereTexts.append(text(w.condition)) }
                        p = p.and(pw)
                        sure = sure.intersection(pw.yes)
                    } else if configuration == nil {
                        unconditioned = unconditioned.union(p.possible)
                    }
                    if let configuration {
                        if let clause = configured.clause { clauseTakes[clause.index] = (clauseTakes[clause.index] ?? d.none).union(p.yes) }
                        p = p.and(.unknown(d))
                        sure = d.none
                        whereTexts.append(configuration)
                    }
                    if let tree, let root = tree.name {
                        if tree.narrows { narrowings.append(Narrowing(pattern: tree, pairs: p.possible)) } else { broad.insert(root) }
                        for (name, path) in bindingPaths { bindings[name] = Bound(pattern: tree, path: path, pairs: p.possible) }
                    }
                    pred = pred.or(p)
                    if boundSubject == nil, inputIsWild(atom, subject) { catchAll = true }
                    if let tree, let (root, payload) = Self.payloadCase(tree) {
                        payloadCases[root, default: [:]][payload] = (payloadCases[root]?[payload] ?? d.none).union(sure)
                        touched.insert(root)
                    }
                }
            }
            let matched = pred.possible.intersection(remaining)
            let raw = pred.possible.intersection(ctx.pairs)
            var caseCtx = ctx
            caseCtx.pairs = matched
            if !pred.maybe.intersection(matched).isEmpty {
                if !machineSwitch {
                    caseGuards.append("\(text(sw.subject)) ~ \((patternTexts + whereTexts).joined(separator: ", "))")
                    caseCtx.guards.append(caseGuards.last!)
                } else if !dataTexts.isEmpty, !dataTexts.contains(nil) {
                    caseCtx.guards.append((dataTexts.compactMap { $0 } + whereTexts).uniqued().joined(separator: " || "))
                } else if !whereTexts.isEmpty {
                    caseCtx.guards.append(whereTexts.uniqued().joined(separator: " || "))
                }
            } else if !matched.isEmpty {
                unguardedCase = true
            }
            if machineSwitch {
                // a case's own patterns replace the ones of enclosing cases on the same input
                narrowings = narrowings.filter { !broad.contains($0.pattern.name!) }
                let roots = Set(narrowings.compactMap(\.pattern.name))
                if !roots.isEmpty { caseCtx.patterns = ctx.patterns.filter { !roots.contains($0.pattern.name!) } + narrowings }
                caseCtx.bound.merge(bindings) { $1 }
                let position = sc.positionAfterSkippingLeadingTrivia
                let index = slots.count
                // (the actions of an open set, types matched by casts, are not all known: others reach a `default`)
                let open = spec.openInputs && catchAll
                slots.append(Slot(location: location(of: sc.label), catchAll: catchAll,
                                  shadowed: matched.isEmpty && !raw.isEmpty && sc.attribute == nil && !SyntaxHelpers.onlyTraps(sc.statements) && !open))
                slotByPosition[position] = index
                caseCtx.slot = index
            }
            remaining = remaining.subtracting(pred.yes)
            for root in touched.sorted() {
                guard let cases = payloadCases[root], let family = payloadType(of: root).flatMap(Self.payloadFamily(ofType:)),
                      family.isSubset(of: Set(cases.keys)) else { continue }
                remaining = remaining.subtracting(family.map { cases[$0]! }.reduce(d.set(inputs: [root])) { $0.intersection($1) })
            }
            var starts = (matched.isEmpty ? [] : [caseCtx]) + pending
            if machineSwitch, !whereTexts.isEmpty, case let plain = matched.intersection(unconditioned), !plain.isEmpty {
                var unguarded = caseCtx
                unguarded.pairs = plain
                unguarded.guards = ctx.guards
                starts[0].pairs = matched.subtracting(plain)
                if starts[0].pairs.isEmpty { starts.removeFirst() }
                starts.insert(unguarded, at: 0)
            }
            let f = execBlock(sc.statements, starts)
            flow.next += f.next + f.breaks
            flow.continues += f.continues
            flow.carry(f)
            pending = f.fallthroughs
        }
        closeBlock()
        flow.next = merged(joiningAlike(flow.next, caseGuards, unguarded: unguardedCase))
        return flow
    }

    /// Every value of a payload type whose values the code names in patterns, by its written type: `Result`
    /// (TCA's `TaskResult`), `Bool`, an optional.
    static func payloadFamily(ofType type: String) -> Set<String>? {
        if SymbolIndex.bareTypeName(type).hasSuffix("Result") { return ["success", "failure"] }
        if type == "Bool" { return ["true", "false"] }
        return SyntaxHelpers.optionalWrapped(type) != nil ? ["some", "none"] : nil
    }

    /// The written type of the one payload of an input's case (`case response(Result<Int, Error>)`).
    func payloadType(of input: String) -> String? {
        guard let key = effects.inputKey, let info = effects.index.types[key]?.enumInfo,
              let parameters = info.cases.first(where: { $0.name == input })?.node.parameterClause?.parameters, parameters.count == 1 else { return nil }
        return parameters.first!.type.trimmedText
    }

    /// An input's case with one payload that is a case matching all of its own (`.response(.success)`,
    /// `.response(.failure(let e))`, `.answer(true)`): the input's name and the payload case.
    static func payloadCase(_ tree: InputPattern) -> (String, String)? {
        guard case .member(let root, let arguments) = tree, arguments.count == 1 else { return nil }
        switch arguments[0].value {
        case .member(let payload, let inner) where inner.allSatisfy({ $0.value == .any }): return (root, payload)
        case .literal(let value) where value == "true" || value == "false": return (root, value)
        case .literal("nil"): return (root, "none")
        default: return nil
        }
    }

    /// Paths that went on past an `if` or a `switch` over data alike from each of its branches, but for
    /// the guard each branch added (`guards`: the condition and its negation, or each case's pattern), go
    /// on as one path with none of them: the statement decided nothing for them. When a branch went
    /// on without a guard (`unguarded`: a `default`), a path from it must be among them.
    func joiningAlike(_ ctxs: [Ctx], _ guards: [String], unguarded: Bool) -> [Ctx] {
        guard guards.count > 1 || (unguarded && !guards.isEmpty), ctxs.count > 1 else { return ctxs }
        let all = Set(guards)
        var stripped: [Ctx] = []
        var reached: [Condition: Set<String>] = [:]
        for ctx in ctxs {
            var c = ctx
            // (a path from a branch that added no guard reaches as "")
            let k = c.guards.lastIndex { all.contains($0) }
            let guardText = k.map { c.guards.remove(at: $0) } ?? ""
            stripped.append(c)
            reached[Condition(c), default: []].insert(guardText)
        }
        return zip(ctxs, stripped).map { ctx, c in
            guard let from = reached[Condition(c)], from.isSuperset(of: all), !unguarded || from.contains("") else { return ctx }
            return c
        }
    }

    /// The cases of a `switch` over a tuple that cannot match where a part of the tuple is a parameter given a
    /// known case (`switch (state, event)` in `on(_:)` called as `on(.found(hits))`): each item of theirs names
    /// other cases at that place.
    func casesNotMatchingArguments(_ sw: SwitchExprSyntax, _ ctx: Ctx) -> Set<SyntaxIdentifier> {
        guard let tuple = SyntaxHelpers.unwrap(sw.subject).as(TupleExprSyntax.self) else { return [] }
        let known = tuple.elements.map { knownValue(of: $0.expression, ctx) }
        guard known.contains(where: { $0 != nil }) else { return [] }
        var skipped = Set<SyntaxIdentifier>()
        for sc in SyntaxHelpers.cases(of: sw) {
            guard case .case(let label) = sc.label else { continue }
            let excluded = label.caseItems.allSatisfy { item in
                guard item.whereClause == nil, case .tuple(let atoms) = patternAtom(item.pattern), atoms.count == known.count else { return false }
                return zip(atoms, known).contains { atom, value in
                    guard let value, case .cases(let names, _, _) = atom else { return false }
                    return !names.contains(value)
                }
            }
            if excluded { skipped.insert(sc.id) }
        }
        return skipped
    }

    /// `switch action` in a helper called with a case (`send(.succeeded)` from a method walked as an
    /// input): only the case that value matches runs, and those it falls through to. Nil when the subject is
    /// no such parameter, or a case cannot be told to match or not (a `where`, a payload pattern).
    func execSwitchOnArgument(_ sw: SwitchExprSyntax, _ ctx: Ctx) -> Flow? {
        guard let value = knownValue(of: sw.subject, ctx) else { return nil }
        let cases = SyntaxHelpers.cases(of: sw)
        var start: Int?
        for (i, sc) in cases.enumerated() where start == nil {
            switch sc.label {
            case .default:
                start = i
            case .case(let label):
                for item in label.caseItems {
                    guard item.whereClause == nil else { return nil }
                    switch patternAtom(item.pattern) {
                    case .any: start = i
                    case .cases(let names, let refutable, _):
                        if names.contains(value) {
                            guard !refutable else { return nil }
                            start = i
                        }
                    default: return nil
                    }
                }
            }
        }
        guard let start else { return nil }
        var flow = Flow()
        var entering = [ctx]
        for sc in cases[start...] where !entering.isEmpty {
            let f = execBlock(sc.statements, entering)
            flow.next += f.next + f.breaks
            flow.continues += f.continues
            flow.carry(f)
            entering = f.fallthroughs
        }
        return flow
    }

    /// The case a `switch` subject is known to hold on a path: a helper's parameter given a case
    /// (`transition(to: .idle)`), a local holding one a call returned (`let action = state.close()`), or
    /// the case the call it names returned (`switch self.state.closed(reason: r)`).
    func knownValue(of subject: ExprSyntax, _ ctx: Ctx) -> String? {
        let s = SyntaxHelpers.unwrap(subject)
        if s.is(FunctionCallExprSyntax.self) { return ctx.returned }
        guard let ref = s.as(DeclReferenceExprSyntax.self), ctx.bound[ref.baseName.text] == nil else { return nil }
        if let held = ctx.caseLocals[ref.baseName.text] { return held }
        guard let argument = substituted(ExprSyntax(ref)), !isState(SyntaxHelpers.path(argument)), !isInput(SyntaxHelpers.path(argument)),
              let value = SyntaxHelpers.caseReference(argument, effects.index) else { return nil }
        // (`T.x(…)` names a case only where `T` is an enum declaring it: `System.status()` is a call)
        if let type = value.type {
            guard let scope = effects.index.scope(of: argument), effects.index.enumInfo(type, in: scope)?.caseNames.contains(value.name) == true
            else { return nil }
        }
        return value.name
    }

    /// The part of a case pattern that matches the input, when the subject is (or contains) the input.
    func inputTree(_ atom: PatternAtom, _ subject: Subject) -> InputPattern? {
        switch (atom, subject) {
        case (_, .input): return atom.tree
        case (.tuple(let atoms), .tuple(let subjects)) where atoms.count == subjects.count:
            for (a, s) in zip(atoms, subjects) { if case .input = s { return a.tree } }
            return nil
        default: return nil
        }
    }

    /// The pairs on which an input matching `tree` can arrive (every pair of other inputs): an action of
    /// a presented child (`.destination(.presented(.editor(…)))`) only arrives while that child is
    /// presented. With no tree, the restriction of every scoped input.
    func arrivals(_ tree: InputPattern?) -> PairSet {
        var set = d.all
        for (input, arrival) in spec.arrivals where d.inputIndex[input] != nil && (tree == nil || tree?.name == input) {
            var allowed = arrival.states
            if let tree, let byCase = arrival.presented, case .member("presented", let inner)? = tree.arguments.first?.value,
               let head = inner.first?.value.name {
                allowed = allowed.intersection(byCase[head] ?? [])
            }
            set = set.subtracting(d.set(inputs: [input]).subtracting(d.set(states: allowed)))
        }
        return set
    }

    func inputIsWild(_ atom: PatternAtom, _ subject: Subject) -> Bool {
        switch (atom, subject) {
        case (.any, .input): return true
        case (.tuple(let atoms), .tuple(let subjects)) where atoms.count == subjects.count:
            return zip(atoms, subjects).contains { a, s in
                if case .input = s, case .any = a { return true }
                return false
            }
        default: return false
        }
    }

    func execIf(_ node: IfExprSyntax, _ ctxs: [Ctx]) -> Flow {
        let (thens, elses) = split(ctxs, on: node.conditions)
        var flow = Flow()
        if !thens.isEmpty { flow.absorb(execBlock(node.body.statements, thens)) }
        if !elses.isEmpty {
            switch node.elseBody {
            case .ifExpr(let e): flow.absorb(execIf(e, elses))
            case .codeBlock(let b): flow.absorb(execBlock(b.statements, elses))
            case nil: flow.next += elses
            }
        }
        // paths that went on alike where the condition held and where it failed: it decided nothing for them
        // (`if let loop { loop.resume() }`)
        let condition = text(node.conditions)
        flow.next = merged(joiningAlike(flow.next, [condition, "!(\(condition))"], unguarded: false))
        return flow
    }

    /// The paths back from a function the walk entered, those that went on alike but for the two sides
    /// of one condition joined (`guard let data = next() else { return }` in a helper decides nothing
    /// for its caller when both sides end alike), innermost condition first.
    func rejoined(_ ctxs: [Ctx]) -> [Ctx] {
        var result = merged(ctxs)
        for _ in 0..<4 where result.count > 1 {
            // each path with its last condition as held (`!(x)` read as `x`), and the sides seen of it
            var sides: [Condition: Set<Bool>] = [:]
            var stripped: [Ctx?] = []
            for ctx in result {
                guard let last = ctx.guards.last else { stripped.append(nil); continue }
                var c = ctx
                let held = !(last.hasPrefix("!(") && last.hasSuffix(")"))
                c.guards[c.guards.count - 1] = held ? last : String(last.dropFirst(2).dropLast())
                stripped.append(c)
                sides[condition(c), default: []].insert(held)
            }
            var joined = false
            let next = zip(result, stripped).map { ctx, s -> Ctx in
                guard let c = s, sides[condition(c)]?.count == 2 else { return ctx }
                var n = c
                n.guards.removeLast()
                joined = true
                return n
            }
            guard joined else { break }
            result = merged(next)
        }
        return result
    }

    /// The paths on which the conditions of an `if` or `guard` hold, and those on which they fail (paths
    /// with no pairs left are dropped).
    func split(_ ctxs: [Ctx], on conditions: ConditionElementListSyntax) -> (yes: [Ctx], no: [Ctx]) {
        var yes: [Ctx] = []
        var no: [Ctx] = []
        let (ctxs, decided) = conditionCalls(conditions, ctxs)
        for var ctx in ctxs {
            // (a condition that is a call of the state's method returning `true` or `false` on this path: the
            // others decide where it holds)
            var skipping: SyntaxIdentifier?
            if let decided, let held = Self.literalBool(ctx.returned) {
                ctx.returned = nil
                guard held == decided.holds else { no.append(ctx); continue }
                skipping = decided.element
            }
            let pred = evalConditions(conditions, ctx, skipping: skipping)
            let text = dataText(conditions, ctx)
            let holds = refined(restrict(ctx, pred, text: text), conditions)
            if !holds.pairs.isEmpty { yes += bindingSteps(conditions, holds) }
            let fails = restrict(ctx, pred.negated(d), text: "!(\(text))")
            if !fails.pairs.isEmpty { no.append(fails) }
        }
        return (yes, no)
    }

    /// The paths after the calls of the state's mutating methods in a condition (`if self.readState.unpause()
    /// { … }`, `guard let next = state.take() else { … }`), which change the state before it is read, and
    /// of the owner's methods returning `Bool` (`guard canTransition(to: next)`); and,
    /// for a condition that is one such call (or its negation), the value that makes it hold.
    func conditionCalls(_ conditions: ConditionElementListSyntax, _ ctxs: [Ctx]) -> ([Ctx], decided: (element: SyntaxIdentifier, holds: Bool)?) {
        var paths = ctxs
        var decided: [(element: SyntaxIdentifier, holds: Bool)] = []
        for element in conditions {
            let expr: ExprSyntax
            switch element.condition {
            case .expression(let e): expr = e
            case .optionalBinding(let b): guard let value = b.initializer?.value else { continue }; expr = value
            default: continue
            }
            guard let (call, negated) = decidingCall(expr) else { continue }
            paths = execDeciding(call, paths)
            if case .expression = element.condition { decided.append((element.id, !negated)) }
        }
        // (one such call among the conditions: what it returned decides it, the others are read as they are)
        return (paths, decided.count == 1 ? decided[0] : nil)
    }

    /// A call (or its negation) of the state's own method, or of a method of the owner returning `Bool`
    /// that reads the state or is given it (`canTransition(to: next)`, `!canMove(from: stage, to: .b)`):
    /// walked, what it returns on each path decides the condition it is.
    func decidingCall(_ raw: ExprSyntax) -> (FunctionCallExprSyntax, negated: Bool)? {
        var expr = SyntaxHelpers.unwrap(raw)
        var negated = false
        if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            negated = true
            expr = SyntaxHelpers.unwrap(prefix.expression)
        }
        guard let call = expr.as(FunctionCallExprSyntax.self) else { return nil }
        let ownMethod = call.calledExpression.as(MemberAccessExprSyntax.self).flatMap { member in
            member.base.flatMap { isState(SyntaxHelpers.path($0)) ? spec.enumMethods[member.declName.baseName.text] : nil }
        }
        // (or a lock's accessor running one on the state: `if state.withLock({ $0.pause() })`)
        guard ownMethod != nil || helper(called: call).map(testsState) == true
                || helper(called: call) != nil && call.arguments.contains(where: { isState(SyntaxHelpers.path($0.expression)) })
                || !spec.accessors.isEmpty && SyntaxHelpers.accessorClosure(of: call, among: spec.accessors) != nil else { return nil }
        return (call, negated)
    }

    /// `true` or `false` when a walked call returned that literal.
    static func literalBool(_ returned: String?) -> Bool? { returned.flatMap { ["true": true, "false": false][$0] } }

    /// The paths where a walked call returned `holds` (those where it returned no literal go on too).
    static func returning(_ holds: Bool, _ ctxs: [Ctx]) -> [Ctx] {
        ctxs.compactMap { ctx in
            var c = ctx
            c.returned = nil
            guard let r = literalBool(ctx.returned) else { return c }
            return r == holds ? c : nil
        }
    }

    /// Whether a helper returning `Bool` tests the state (`func canTransition(to next: Phase) -> Bool {
    /// switch (current, next) { … } }`), asked once per helper.
    func testsState(_ helper: FunctionDeclSyntax) -> Bool {
        if let known = stateTesters[helper.id] { return known }
        let tests = helper.signature.returnClause?.type.trimmedText == "Bool"
            && helper.body.map { ValueTestFinder.tests($0, roots: spec.statePaths.union(spec.helperStatePaths)) } == true
        stateTesters[helper.id] = tests
        return tests
    }
    var stateTesters: [SyntaxIdentifier: Bool] = [:]

    /// `if case .success = result` (`result` bound from the input) or `guard case .view(.tapped) = action`:
    /// the branch fires on the narrower pattern.
    func refined(_ ctx: Ctx, _ conditions: ConditionElementListSyntax) -> Ctx {
        var c = ctx
        for element in conditions {
            guard case .matchingPattern(let m) = element.condition else { continue }
            let value = SyntaxHelpers.unwrap(m.initializer.value)
            let read = PatternReader.read(m.pattern, effects.index)
            var full = read.tree
            var base: [Int] = []
            if let ref = value.as(DeclReferenceExprSyntax.self), let bound = c.bound[ref.baseName.text] {
                full = PatternReader.substitute(read.tree, into: bound.pattern, at: bound.path)
                base = bound.path
            } else if !isInput(SyntaxHelpers.path(value)) {
                continue
            }
            guard full.narrows, let root = full.name, d.inputIndex[root] != nil else { continue }
            let pairs = d.set(inputs: [root])
            c.patterns = c.patterns.filter { $0.pattern.name != root } + [Narrowing(pattern: full, pairs: pairs)]
            for (name, path) in read.bindings { c.bound[name] = Bound(pattern: full, path: base + path, pairs: pairs) }
        }
        return c
    }

    /// The state's next case by raw value an expression names (`Step(rawValue: step.rawValue + 1)`), by
    /// state, and the fallback where there is none (`?? .first`).
    func rawStep(_ value: ExprSyntax) -> (next: [String: String], fallback: ExprSyntax?)? {
        guard !spec.enumSuccessors.isEmpty else { return nil }
        if let step = SyntaxHelpers.rawStep(value), isState(SyntaxHelpers.path(step.base)), !isLocal(step.base),
           let next = spec.enumSuccessors[step.name] {
            return (next, step.fallback)
        }
        // a step by another amount, written or given to a walked helper (`shift(by: -1)` with `Phase(rawValue:
        // phase.rawValue + delta)`)
        if let offset = SyntaxHelpers.rawOffset(value), isState(SyntaxHelpers.path(offset.base)), !isLocal(offset.base),
           let byRaw = spec.enumSuccessors["rawValue="], let amount = integer(offset.amount) {
            let raws = Dictionary(byRaw.compactMap { raw, name in Int(raw).map { (name, $0) } }, uniquingKeysWith: { a, _ in a })
            // (clamped: `min(step.rawValue + 1, 3)` stops at 3)
            var bound: (upper: Bool, value: Int)?
            if let clamp = offset.clamp {
                guard let value = integer(clamp.bound) else { return nil }
                bound = (clamp.upper, value)
            }
            return (raws.compactMapValues { raw in
                let stepped = raw + offset.sign * amount
                return byRaw["\(bound.map { $0.upper ? min(stepped, $0.value) : max(stepped, $0.value) } ?? stepped)"]
            }, offset.fallback)
        }
        // a position in `allCases` (`Stage.allCases[Stage.allCases.firstIndex(of: stage)! + 1]`, `all[(all.firstIndex(of:
        // stage)! + 1) % all.count]`)
        if let order = spec.enumSuccessors["allCases="], let next = allCasesStep(value, order: order) {
            return (next, SyntaxHelpers.withoutFallback(value).fallback)
        }
        // a successor of the enum (`light.next`, `step.advanced()`), optional ones with their fallback
        // (`step.next ?? .done`) or bound (`guard let next = step.next`)
        let (e, fallback) = SyntaxHelpers.withoutFallback(value)
        let reading = e.as(FunctionCallExprSyntax.self)?.calledExpression ?? e
        guard let base = reading.as(MemberAccessExprSyntax.self)?.base, let path = SyntaxHelpers.path(base), isState(path), !isLocal(base),
              let name = SyntaxHelpers.successorName(e, on: [path]), let next = spec.enumSuccessors[name] else { return nil }
        return (next, fallback)
    }

    /// The case of `allCases` (`order`: position → case) an expression picks for each state, at a position
    /// computed from the state's own (`allCases.firstIndex(of: stage)! + 1`, `% allCases.count`); none where
    /// it falls outside. Nil when the expression is no such pick.
    func allCasesStep(_ value: ExprSyntax, order: [String: String]) -> [String: String]? {
        let e = SyntaxHelpers.withoutFallback(value).value
        guard let pick = e.as(SubscriptCallExprSyntax.self), isAllCases(pick.calledExpression), pick.arguments.count == 1,
              let position = pick.arguments.first?.expression else { return nil }
        var readsState = false
        var next: [String: String] = [:]
        for (index, name) in order {
            guard let from = Int(index), let to = casePosition(position, of: from, count: order.count, readsState: &readsState) else { return nil }
            if let target = order["\(to)"] { next[name] = target }
        }
        return readsState ? next : nil
    }

    /// A comparison of positions in `allCases` computed from the state's own (`index + 1 < Step.allCases.count`
    /// with `index` its position): the states where it holds. Nil when a side is no such position.
    func positionComparison(_ infix: InfixOperatorExprSyntax, _ op: String, _ ctx: Ctx) -> Pred? {
        guard let order = spec.enumSuccessors["allCases="] else { return nil }
        var readsState = false
        var holds: Set<String> = []
        for (index, name) in order {
            guard let from = Int(index), let a = casePosition(infix.leftOperand, of: from, count: order.count, readsState: &readsState),
                  let b = casePosition(infix.rightOperand, of: from, count: order.count, readsState: &readsState) else { return nil }
            if Self.compare(a, op, b) { holds.insert(name) }
        }
        guard readsState else { return nil }
        return holds.isEmpty ? .never(d) : stateAtom(holds, refutable: false, ctx)
    }

    /// `a op b` for a comparison operator (`<`, `<=`, `>`, `>=`, `==`; any other is `!=`).
    static func compare(_ a: Int, _ op: String, _ b: Int) -> Bool {
        switch op {
        case "<": a < b
        case "<=": a <= b
        case ">": a > b
        case ">=": a >= b
        case "==": a == b
        default: a != b
        }
    }

    /// A comparison of the state's `Int` raw value with a case's or a number (`stage.rawValue <
    /// Stage.profile.rawValue`, `step.rawValue == 2`), decided per state.
    func rawValueComparison(_ infix: InfixOperatorExprSyntax, _ op: String, _ ctx: Ctx) -> Pred? {
        guard let byRaw = spec.enumSuccessors["rawValue="] else { return nil }
        var raws: [String: Int] = [:]
        for (raw, name) in byRaw {
            guard let value = Int(raw) else { return nil }
            raws[name] = value
        }
        var readsState = false
        func value(_ e: ExprSyntax, in state: String) -> Int? {
            let u = SyntaxHelpers.unwrap(e)
            if let number = Int(u.trimmedText) { return number }
            guard let member = u.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "rawValue", let base = member.base else { return nil }
            if isState(SyntaxHelpers.path(base)) {
                readsState = true
                return raws[state]
            }
            return SyntaxHelpers.caseReference(base, effects.index, accepting: { raws[$0] != nil }).flatMap { raws[$0.name] }
        }
        var holds: Set<String> = []
        for state in d.states {
            guard let a = value(infix.leftOperand, in: state), let b = value(infix.rightOperand, in: state) else { return nil }
            if Self.compare(a, op, b) { holds.insert(state) }
        }
        guard readsState else { return nil }
        return holds.isEmpty ? .never(d) : stateAtom(holds, refutable: false, ctx)
    }

    /// Whether an expression is the enum's `allCases` (`Stage.allCases`, `Self.allCases`, `allCases` in the
    /// enum, a local constant holding it).
    func isAllCases(_ raw: ExprSyntax) -> Bool {
        let e = SyntaxHelpers.unwrap(raw)
        if let member = e.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text == "allCases" }
        guard let ref = e.as(DeclReferenceExprSyntax.self) else { return false }
        if ref.baseName.text == "allCases" { return true }
        let local = SymbolIndex.localDeclaration(of: ref.baseName.text, around: Syntax(ref))?.as(PatternBindingSyntax.self)
        return local?.parent?.parent?.as(VariableDeclSyntax.self)?.bindingSpecifier.tokenKind == .keyword(.let)
            && local?.initializer.map { isAllCases($0.value) } == true
    }

    /// The case the first or last of `allCases` is (`Step.allCases.first!`, `Stage.allCases.last`, `all[0]` of a
    /// local holding it).
    func allCasesEnd(_ expr: ExprSyntax) -> String? {
        guard let order = spec.enumSuccessors["allCases="],
              let position = SyntaxHelpers.allCasesPosition(expr, count: order.count, isAllCases: isAllCases) else { return nil }
        return order["\(position)"]
    }

    /// Whether an expression is the state's position in `allCases` (`Step.allCases.firstIndex(of: step)`).
    func isStatePosition(_ value: ExprSyntax, order: [String: String]) -> Bool {
        guard let call = SyntaxHelpers.unwrap(value).as(FunctionCallExprSyntax.self),
              call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "firstIndex" else { return false }
        var readsState = false
        return casePosition(value, of: 0, count: order.count, readsState: &readsState) != nil && readsState
    }

    /// The position an index expression over `allCases` gives when the state is at `from`: integers,
    /// `+ - * %`, `count`, `firstIndex(of:)` of the state, `index(after:)`.
    func casePosition(_ raw: ExprSyntax, of from: Int, count: Int, readsState: inout Bool) -> Int? {
        let e = SyntaxHelpers.unwrapFolded(raw)
        if let n = integer(e) { return n }
        if let member = e.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "count", let base = member.base, isAllCases(base) {
            return count
        }
        // (a position kept in a local constant: `guard let index = Step.allCases.firstIndex(of: step)`)
        if let ref = e.as(DeclReferenceExprSyntax.self), let value = SyntaxHelpers.localValue(ref) {
            return casePosition(value, of: from, count: count, readsState: &readsState)
        }
        if let infix = e.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text,
           let a = casePosition(infix.leftOperand, of: from, count: count, readsState: &readsState),
           let b = casePosition(infix.rightOperand, of: from, count: count, readsState: &readsState) {
            switch op {
            case "+": return a + b
            case "-": return a - b
            case "*": return a * b
            case "%": return b == 0 ? nil : a % b
            default: return nil
            }
        }
        guard let call = e.as(FunctionCallExprSyntax.self), call.arguments.count == 1, let argument = call.arguments.first?.expression,
              let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base, isAllCases(base) else { return nil }
        switch (member.declName.baseName.text, call.arguments.first?.label?.text) {
        case ("firstIndex", "of"?):
            guard let path = SyntaxHelpers.path(SyntaxHelpers.unwrap(argument)), isState(path), !isLocal(SyntaxHelpers.unwrap(argument)) else { return nil }
            readsState = true
            return from
        case ("index", "after"?): return casePosition(argument, of: from, count: count, readsState: &readsState).map { $0 + 1 }
        default: return nil
        }
    }

    /// An integer an expression is, written (`2`, `-1`) or given to the walked helper for it.
    func integer(_ expr: ExprSyntax) -> Int? {
        let e = SyntaxHelpers.unwrap(substituted(SyntaxHelpers.unwrap(expr)) ?? expr)
        if let literal = e.as(IntegerLiteralExprSyntax.self) { return Int(literal.literal.text) }
        if let prefix = e.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
           let literal = prefix.expression.as(IntegerLiteralExprSyntax.self) { return Int(literal.literal.text).map { -$0 } }
        // (the number of the enum's cases, and sums of such: `Step.allCases.count - 1`)
        if let member = e.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "count", let base = member.base, isAllCases(base) {
            return spec.enumSuccessors["allCases="]?.count
        }
        if let infix = SyntaxHelpers.unwrapFolded(e).as(InfixOperatorExprSyntax.self), case let op = infix.operator.trimmedText, op == "+" || op == "-",
           let left = integer(infix.leftOperand), let right = integer(infix.rightOperand) {
            return op == "+" ? left + right : left - right
        }
        return nil
    }

    /// The paths where a condition holds, each with the name it binds to the state's next case by raw value.
    func bindingSteps(_ conditions: ConditionElementListSyntax, _ ctx: Ctx) -> [Ctx] {
        conditions.reduce([ctx]) { paths, element in
            guard case .optionalBinding(let b) = element.condition, let name = b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                  let value = b.initializer?.value, let step = rawStep(value), step.fallback == nil else { return paths }
            return paths.flatMap { naming(name, successors(step.next, $0)) }
        }
    }

    /// The paths of `results`, each with a local `name` holding the state it gives (none where it gives
    /// no state).
    func naming(_ name: String, _ results: [(Ctx, Target)]) -> [Ctx] {
        results.map { c, target in
            var n = c
            if case .state(let s) = target { n.values[name] = s } else { n.values[name] = nil }
            return n
        }
    }

    func restrict(_ ctx: Ctx, _ pred: Pred, text: String) -> Ctx {
        var c = ctx
        c.pairs = ctx.pairs.intersection(pred.possible)
        if !pred.maybe.intersection(c.pairs).isEmpty { c.guards.append(text) }
        return c
    }

    // MARK: Conditions

    func evalConditions(_ list: ConditionElementListSyntax, _ ctx: Ctx, skipping: SyntaxIdentifier? = nil) -> Pred {
        var pred = Pred.always(d)
        for element in list where element.id != skipping {
            if let p = evalCondition(element, ctx) { pred = pred.and(p) }
        }
        return pred
    }

    /// What one condition of a list says of a path (nil: nothing, as `guard let self`).
    func evalCondition(_ element: ConditionElementSyntax, _ ctx: Ctx) -> Pred? {
        switch element.condition {
        case .expression(let e):
            return eval(e, ctx)
        // (`#available(iOS 18, *)`: the platform the program runs on decides, so both ways)
        case .availability:
            return .unknown(d)
        case .matchingPattern(let m):
            return atomPred(patternAtom(m.pattern), classify(m.initializer.value), ctx)
        case .optionalBinding(let b):
            if let value = b.initializer?.value, isState(SyntaxHelpers.path(value)), spec.stateKind == .optional {
                return stateAtom(["some"], refutable: false, ctx)
            } else if spec.stateKind == .enumeration, let value = b.initializer?.value, let (base, name) = SyntaxHelpers.casePath(value, test: false),
                      isState(SyntaxHelpers.path(base)), !isLocal(base), d.stateIndex[name] != nil {
                // `guard let draft = state.stage.drafting` of a `@CasePathable` enum: in that case
                return stateAtom([name], refutable: false, ctx)
            } else if let value = b.initializer?.value, let order = spec.enumSuccessors["allCases="], isStatePosition(value, order: order) {
                // `guard let index = Step.allCases.firstIndex(of: step)`: every case has a position
                return nil
            } else if let step = b.initializer.flatMap({ rawStep($0.value) }), step.fallback == nil {
                // `guard let next = Step(rawValue: step.rawValue + 1)`: the states with a next case
                return stateAtom(Set(step.next.keys), refutable: false, ctx)
            } else if let cast = b.initializer.flatMap({ SyntaxHelpers.conditionalCast($0.value) }), isInput(cast.base),
                      spec.inputPaths.contains(b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text ?? "") {
                // `guard let action = action as? CounterAction`: the cast the reducer reads its input through
                return nil
            } else if spec.openInputs, let cast = b.initializer.flatMap({ SyntaxHelpers.conditionalCast($0.value) }), isInput(cast.base),
                      d.inputIndex[cast.type] != nil {
                // `if let add = action as? AddTodo`, where the actions are types
                return inputAtom([cast.type], refutable: false)
            } else if isInput(b.initializer.map { SyntaxHelpers.path($0.value) } ?? b.pattern.as(IdentifierPatternSyntax.self)?.identifier.text) {
                // `guard let event` on an optional input: every input but `nil` (an input of its own where
                // the event is optional: the end of a stream), or every input when none is `nil`
                guard d.inputIndex["nil"] != nil else { return nil }
                return inputAtom(Set(d.inputs).subtracting(["nil"]), refutable: false)
            } else if (b.initializer?.value).map(SyntaxHelpers.isSelf) ?? (b.pattern.trimmedText == "self") {
                // `guard let strongSelf = self`, `guard let self`: while the object lives, which the walk assumes
                return nil
            } else {
                return .unknown(d)
            }
        }
    }

    /// The text of the conditions a path's guard keeps: those that depend on data there, when the others
    /// are decided by the state or the input (`guard step != .payment, !items.isEmpty`: `!items.isEmpty`).
    func dataText(_ list: ConditionElementListSyntax, _ ctx: Ctx) -> String {
        guard list.count > 1 else { return text(list) }
        let kept = list.filter { element in
            evalCondition(element, ctx).map { !$0.maybe.intersection(ctx.pairs).isEmpty } ?? false
        }
        guard !kept.isEmpty, kept.count < list.count else { return text(list) }
        return kept.map { text($0.condition) }.joined(separator: ", ")
    }

    func eval(_ raw: ExprSyntax, _ ctx: Ctx) -> Pred {
        let expr = SyntaxHelpers.unwrap(fold(SyntaxHelpers.unwrap(raw)))
        // `action is Undo`, where the actions are types
        if spec.openInputs, let test = expr.as(IsExprSyntax.self), isInput(SyntaxHelpers.path(test.expression)),
           d.inputIndex[test.type.trimmedText] != nil {
            return inputAtom([test.type.trimmedText], refutable: false)
        }
        if let infix = expr.as(InfixOperatorExprSyntax.self) {
            let op = infix.operator.trimmedText
            switch op {
            case "&&": return eval(infix.leftOperand, ctx).and(eval(infix.rightOperand, ctx))
            case "||": return eval(infix.leftOperand, ctx).or(eval(infix.rightOperand, ctx))
            case "==", "!=", "===", "!==", "~=":
                let p = comparison(infix.leftOperand, infix.rightOperand, ctx) ?? comparison(infix.rightOperand, infix.leftOperand, ctx)
                // (`state.uploading != nil` of a `@CasePathable` enum: the evaluator's)
                guard let p else {
                    return statePredicate(expr, ctx) ?? positionComparison(infix, op, ctx) ?? rawValueComparison(infix, op, ctx) ?? .unknown(d)
                }
                return op.hasPrefix("!") ? p.negated(d) : p
            case "<", "<=", ">", ">=":
                return positionComparison(infix, op, ctx) ?? rawValueComparison(infix, op, ctx) ?? .unknown(d)
            default:
                return .unknown(d)
            }
        }
        if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return eval(prefix.expression, ctx).negated(d)
        }
        if let lit = (substituted(expr).map(SyntaxHelpers.unwrap) ?? expr).as(BooleanLiteralExprSyntax.self) {
            return lit.literal.text == "true" ? .always(d) : .never(d)
        }
        if spec.stateKind == .bool, isState(SyntaxHelpers.path(expr)) {
            return stateAtom(["true"], refutable: false, ctx)
        }
        // [.a, .b].contains(action)
        if let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
           member.declName.baseName.text == "contains", let array = member.base?.as(ArrayExprSyntax.self),
           let arg = call.arguments.first?.expression, case .input = classify(arg) {
            return inputAtom(Set(array.elements.compactMap { SyntaxHelpers.caseReference($0.expression, effects.index)?.name }), refutable: false)
        }
        // a condition on the state alone: `[.a, .b].contains(state)`, `isIdle(state)`, `state.canPause`
        return relationPredicate(expr, ctx) ?? statePredicate(expr, ctx) ?? .unknown(d)
    }

    /// `state.canMove(to: next)`: a relation of the state's enum, given a case the walk knows (written, or
    /// a walked method's parameter bound to one): true in the states it allows a move from to that case.
    func relationPredicate(_ expr: ExprSyntax, _ ctx: Ctx) -> Pred? {
        guard spec.stateKind == .enumeration, !spec.enumRelations.isEmpty,
              let call = SyntaxHelpers.unwrap(expr).as(FunctionCallExprSyntax.self),
              let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { return nil }
        // `phase.canMove(to: next)`, or the enum's static function given the state first
        // (`Phase.canTransition(from: phase, to: next)`), or its list of next cases asked (`phase.nextStates.contains(next)`)
        let list = member.declName.baseName.text == "contains" ? base.as(MemberAccessExprSyntax.self) : nil
        guard let moves = spec.enumRelations[list?.declName.baseName.text ?? member.declName.baseName.text] else { return nil }
        let arguments = Array(call.arguments)
        let given: ExprSyntax
        if let list {
            guard arguments.count == 1, isState(list.base.flatMap(SyntaxHelpers.path)) else { return nil }
            given = arguments[0].expression
        } else if arguments.count == 1, isState(SyntaxHelpers.path(base)) {
            given = arguments[0].expression
        } else if arguments.count == 2, !isState(SyntaxHelpers.path(base)), isState(SyntaxHelpers.path(arguments[0].expression)) {
            given = arguments[1].expression
        } else {
            return nil
        }
        let argument = SyntaxHelpers.unwrap(given)
        guard let to = knownCase(argument)
                ?? (argument.is(MemberAccessExprSyntax.self) ? SyntaxHelpers.caseReference(argument, effects.index)?.name : nil) else { return nil }
        let sources = Set(moves.filter { $0.to == to }.map(\.from))
        if case .state(let v)? = ctx.target { return sources.contains(v) ? .always(d) : .never(d) }
        if case .unknown? = ctx.target { return .unknown(d) }
        return Pred(yes: d.set(states: sources), maybe: d.none)
    }

    /// A condition about the state alone, read by the predicate evaluator; nil when it says nothing.
    func statePredicate(_ expr: ExprSyntax, _ ctx: Ctx) -> Pred? {
        guard spec.stateKind == .enumeration, let verdict = stateVerdict(expr) else { return nil }
        if case .state(let v)? = ctx.target {
            return verdict.yes.contains(v) ? .always(d) : verdict.maybe.contains(v) ? .unknown(d) : .never(d)
        }
        if case .unknown? = ctx.target { return .unknown(d) }
        return Pred(yes: d.set(states: verdict.yes), maybe: d.set(states: verdict.maybe))
    }

    /// What the predicate evaluator says of a condition on the state, once per node (it does not depend
    /// on the path); nil when it says nothing.
    var verdicts = NodeMemo<Verdict?>()

    func stateVerdict(_ expr: ExprSyntax) -> Verdict? {
        verdicts.value(for: expr) {
            // (a name a `case` binds at the state's place is the state: `case (let l, .hang) where l.isBusy`)
            var snapshots = Set<String>()
            for token in expr.tokens(viewMode: .sourceAccurate) {
                if case .identifier(let name) = token.tokenKind, let ref = token.parent?.as(DeclReferenceExprSyntax.self),
                   !spec.statePaths.contains(name), snapshotsState(ExprSyntax(ref)) { snapshots.insert(name) }
            }
            let evaluator = PredicateEvaluator(values: d.states, subjects: spec.statePaths.union(snapshots), file: file, index: effects.index)
            let properties = spec.enumPredicates, own = spec.ownerPredicates
            evaluator.property = { name in properties[name].map { Verdict(yes: $0.yes, maybe: $0.maybe) } }
            evaluator.hidden = { [unowned self] e in
                !snapshots.contains(SyntaxHelpers.path(e) ?? "") && isLocal(SyntaxHelpers.unwrap(e))
            }
            if !own.isEmpty {
                evaluator.ownProperty = { name in own[name].map { Verdict(yes: $0.yes, maybe: $0.maybe) } }
                evaluator.ownerPath = spec.ownerPath
            }
            let verdict = evaluator.eval(expr)
            return verdict != .unknown(evaluator.all) ? verdict : nil
        }
    }

    /// `state == .x`, `action == .x`, `state.alert == nil`, `state.flag == true`.
    func comparison(_ lhs: ExprSyntax, _ rhs: ExprSyntax, _ ctx: Ctx) -> Pred? {
        let subject = classify(lhs)
        var r = SyntaxHelpers.unwrap(rhs)
        // (`phase == .some(.b)` on an optional state is `phase == .b`)
        if spec.stateKind == .optional, let some = r.as(FunctionCallExprSyntax.self), some.arguments.count == 1,
           some.calledExpression.as(MemberAccessExprSyntax.self).map({ $0.declName.baseName.text == "some" && ($0.base == nil || $0.base!.trimmedText == "Optional") }) == true {
            r = SyntaxHelpers.unwrap(some.arguments.first!.expression)
        }
        var name: String?
        if r.is(NilLiteralExprSyntax.self) { name = "nil" }
        else if let b = r.as(BooleanLiteralExprSyntax.self) { name = b.literal.text }
        else if let ref = SyntaxHelpers.caseReference(r, effects.index) {
            name = ref.name
            // (a static constant standing for a case: `mode == .initial` with `static let initial = Mode.idle`)
            if case .state = subject, d.stateIndex[normalizeState(ref.name)] == nil,
               let constant = effects.index.staticCase(ref.name, among: d.states) { name = constant }
        }
        // (`stage != Stage.allCases.last`)
        else if let end = allCasesEnd(r) { name = end }
        guard let name else { return nil }
        // (`state == .page(1)`: some `page` values only)
        let some = SyntaxHelpers.withPayload(r)
        switch subject {
        case .state: return stateAtom([normalizeState(name)], refutable: some, ctx)
        case .input: return inputAtom([name], refutable: some)
        // (a parameter standing for one case: `next == .closed` when the walk gives `next` `.closed`)
        case .known(let value): return value != name ? .never(d) : some ? .unknown(d) : .always(d)
        default: return nil
        }
    }

    func normalizeState(_ name: String) -> String {
        if spec.stateKind == .optional { return name == "none" || name == "nil" ? "nil" : name == "some" ? "some" : name }
        return name
    }

    func stateAtom(_ names: Set<String>, refutable: Bool, _ ctx: Ctx) -> Pred {
        // `some` of an optional with named values: every value
        let expanded = spec.valueStates.isEmpty ? names : Set(names.flatMap { $0 == "some" ? Array(spec.valueStates.keys) : [$0] })
        let known = Set(expanded.map(normalizeState)).filter { d.stateIndex[$0] != nil }
        if names.isEmpty || known.isEmpty && spec.stateKind != .optional { return .unknown(d) }
        if case .state(let v)? = ctx.target {
            // after an assignment the state is known on this path
            if !known.contains(v) { return .never(d) }
            return refutable ? .unknown(d) : .always(d)
        }
        if case .unknown? = ctx.target { return .unknown(d) }
        let set = d.set(states: known)
        return refutable ? Pred(yes: d.none, maybe: set) : Pred(yes: set, maybe: d.none)
    }

    /// A pattern over an optional with named values: `.editor` takes the `editor` states, `.alert(.x)`
    /// the state `alert(x)` (and maybe `alert` values whose payload is not known), `.some`/`let x?` all.
    func valuePred(_ pattern: InputPattern, _ ctx: Ctx) -> Pred {
        var tree = pattern
        if tree == .literal("nil") || tree.name == "none" { return stateAtom(["nil"], refutable: false, ctx) }
        if tree.name == "some" { tree = tree.arguments.first?.value ?? .any }
        var yes = Set<String>(), maybe = Set<String>()
        for (state, value) in spec.valueStates {
            switch tree.matches(value) {
            case true?: yes.insert(state)
            case nil: maybe.insert(state)
            case false?: break
            }
        }
        if case .state(let v)? = ctx.target { return yes.contains(v) ? .always(d) : maybe.contains(v) ? .unknown(d) : .never(d) }
        if case .unknown? = ctx.target { return .unknown(d) }
        return Pred(yes: d.set(states: yes), maybe: d.set(states: maybe))
    }

    func inputAtom(_ names: Set<String>, refutable: Bool) -> Pred {
        let known = names.filter { d.inputIndex[$0] != nil }
        if known.isEmpty { return .unknown(d) }
        let set = d.set(inputs: known)
        return refutable ? Pred(yes: d.none, maybe: set) : Pred(yes: set, maybe: d.none)
    }

    func atomPred(_ atom: PatternAtom, _ subject: Subject, _ ctx: Ctx) -> Pred {
        if case .any = atom { return .always(d) }
        switch subject {
        case .tuple(let subjects):
            guard case .tuple(let atoms) = atom, atoms.count == subjects.count else { return .unknown(d) }
            return zip(atoms, subjects).reduce(Pred.always(d)) { $0.and(atomPred($1.0, $1.1, ctx)) }
        case .state:
            if case .cases(let names, let refutable, _) = atom {
                if spec.stateKind == .optional, !spec.valueStates.isEmpty, case .cases(_, _, let tree) = atom {
                    return valuePred(tree, ctx)
                }
                if spec.stateKind == .optional {
                    let mapped = Set(names.map { $0 == "none" || $0 == "nil" ? "nil" : "some" })
                    return stateAtom(mapped, refutable: refutable && !mapped.contains("nil"), ctx)
                }
                return stateAtom(names, refutable: refutable, ctx)
            }
            return .unknown(d)
        case .input:
            if case .cases(let names, let refutable, _) = atom { return inputAtom(names, refutable: refutable) }
            return .unknown(d)
        case .known(let value):
            if case .cases(let names, _, _) = atom { return names.contains(value) ? .always(d) : .never(d) }
            return .unknown(d)
        case .other:
            return .unknown(d)
        }
    }

    // MARK: Assignment and targets

    /// The state `self = rhs` gives when it rebuilds the type holding the state (`spec.rebuild`).
    func rebuilt(_ lhs: ExprSyntax, _ rhs: ExprSyntax) -> ExprSyntax? {
        guard let rebuild = spec.rebuild, SyntaxHelpers.path(lhs) == "self" else { return nil }
        return rebuild.state(in: rhs)
    }

    func assign(_ lhs: ExprSyntax, _ rhs: ExprSyntax, _ ctxs: [Ctx]) -> [Ctx] {
        // `(a, b) = (x, y)`: each element its own assignment; `(action, self) = payload.close()`: the
        // state takes what the call returns, which the walk does not follow (a data-dependent target)
        if let tuple = lhs.as(TupleExprSyntax.self), tuple.elements.count > 1 {
            if let values = SyntaxHelpers.unwrap(rhs).as(TupleExprSyntax.self), values.elements.count == tuple.elements.count {
                return zip(tuple.elements, values.elements).reduce(ctxs) { assign($1.0.expression, $1.1.expression, $0) }
            }
            let after = SyntaxHelpers.unwrap(rhs).as(FunctionCallExprSyntax.self).map { execCall($0, ctxs) } ?? ctxs
            let takesState = tuple.elements.contains { element in
                guard let path = SyntaxHelpers.path(element.expression) else { return false }
                return isState(path) || spec.statePaths.contains { $0.hasPrefix(path + ".") }
            }
            guard takesState else { return after }
            return after.map { ctx in
                var n = ctx
                n.target = .unknown(text(rhs))
                return n
            }
        }
        // (a local named like the state is no state: `var state = self.state; state = .open`)
        let path = isLocal(SyntaxHelpers.unwrap(lhs)) ? nil : SyntaxHelpers.path(lhs)
        let rebuilt = rebuilt(lhs, rhs)
        if isState(path) || rebuilt != nil { return startedInPayload(rhs, setting(rebuilt ?? rhs, ctxs)) }
        // the whole owner replaced: `state = State()` resets the field to its default, or to the value given
        // for it (`state = State(step: .finished)`, `.init(step: .finished)`)
        if let path, let field = spec.statePaths.lazy.compactMap({ $0.hasPrefix(path + ".") ? $0.dropFirst(path.count + 1) : nil }).first {
            if !field.contains("."), let made = SyntaxHelpers.unwrap(rhs).as(FunctionCallExprSyntax.self),
               let given = made.arguments.first(where: { $0.label?.text == String(field) }) {
                return setting(given.expression, ctxs)
            }
            return ctxs.map { ctx in
                var n = ctx
                n.target = spec.resetTarget
                return n
            }
        }
        // `next = .closed`: a local now holds that state
        let ctxs = lhs.as(DeclReferenceExprSyntax.self).map { held($0.baseName.text, rhs, ctxs) } ?? ctxs
        // `onClosed = .emitIdle`, `action = self.state.close()` in a function walked for a call: the case it
        // may return
        if !returnSinks.isEmpty, let name = lhs.as(DeclReferenceExprSyntax.self)?.baseName.text {
            return holding(name, SyntaxHelpers.unwrap(rhs).as(FunctionCallExprSyntax.self), spelled: SyntaxHelpers.spelledCase(rhs), ctxs)
        }
        // `action = self.state.advance()`: the call may change the state
        if let call = SyntaxHelpers.unwrap(rhs).as(FunctionCallExprSyntax.self) { return execCall(call, ctxs) }
        return ctxs
    }

    /// The paths after a local took the case `spelled` (`onClosed = .emitIdle`) or what `call` returned (`let
    /// action = self.state.close()`, the call walked first); nil when neither names one.
    func holding(_ name: String?, _ call: FunctionCallExprSyntax?, spelled: String?, _ ctxs: [Ctx]) -> [Ctx] {
        let after = call.map { execCall($0, Self.unreturned(ctxs)) } ?? ctxs
        guard let name else { return after }
        return after.map { ctx in
            var c = ctx
            c.caseLocals[name] = spelled ?? (call != nil ? c.returned : nil)
            c.returned = nil
            return c
        }
    }

    /// The paths after a local variable took `value`: the state it names when it is a case of the state's
    /// enum (`next = .closed`; `next = slow ? .opening : .open` forks), otherwise none.
    func held(_ name: String, _ value: ExprSyntax?, _ ctxs: [Ctx]) -> [Ctx] {
        func namesState(_ e: ExprSyntax) -> Bool {
            let u = SyntaxHelpers.unwrap(e)
            if let t = u.as(TernaryExprSyntax.self) { return namesState(t.thenExpression) && namesState(t.elseExpression) }
            // (the member's name first: every local declaration of a walked body is asked)
            let member = (u.as(FunctionCallExprSyntax.self)?.calledExpression ?? u).as(MemberAccessExprSyntax.self)
            guard let name = member?.declName.baseName.text, d.stateIndex[name] != nil else { return false }
            return SyntaxHelpers.caseReference(u, effects.index, accepting: { self.d.stateIndex[$0] != nil }) != nil
        }
        guard spec.stateKind != .bool, let value = value.map({ SyntaxHelpers.unwrap(fold($0)) }), namesState(value) else {
            return ctxs.map { ctx in
                guard ctx.values[name] != nil else { return ctx }
                var c = ctx
                c.values[name] = nil
                return c
            }
        }
        return ctxs.flatMap { naming(name, targets(of: value, $0)) }
    }

    /// The states an expression may denote on a path, forking on `?:`.
    func targets(of raw: ExprSyntax, _ ctx: Ctx) -> [(Ctx, Target)] {
        let expr = SyntaxHelpers.unwrap(fold(SyntaxHelpers.unwrap(raw)))
        if let argument = substituted(expr) {
            let saved = substitutions.removeLast()
            defer { substitutions.append(saved) }
            return targets(of: argument, ctx)
        }
        if let t = expr.as(TernaryExprSyntax.self) {
            let pred = eval(t.condition, ctx)
            let text = self.text(t.condition)
            let a = restrict(ctx, pred, text: text)
            let b = restrict(ctx, pred.negated(d), text: "!(\(text))")
            return (a.pairs.isEmpty ? [] : targets(of: t.thenExpression, a)) + (b.pairs.isEmpty ? [] : targets(of: t.elseExpression, b))
        }
        if isState(SyntaxHelpers.path(expr)), !isLocal(expr) || snapshotsState(expr) { return [(ctx, ctx.target ?? .stay)] }
        // (`Step(rawValue: step.rawValue + 1) ?? .first`: the fallback where there is no next case)
        // (also `light.next`, `step.advanced()`, `step.next ?? .done`)
        if let step = rawStep(expr) {
            // where there is no next case: the fallback, or the failure a `nil` is (`var next: Self? { Self(rawValue:
            // rawValue + 1) }`, a mapping function's `-> S?`)
            let none: Target? = step.fallback == nil && spec.nilIsFailure ? .failure : nil
            if case .state(let v)? = ctx.target, step.next[v] == nil {
                if let fallback = step.fallback { return targets(of: fallback, ctx) }
                if let none { return [(ctx, none)] }
            }
            guard ctx.target == nil, step.fallback != nil || none != nil else { return successors(step.next, ctx) }
            var rest = ctx
            rest.pairs = ctx.pairs.subtracting(d.set(states: Set(step.next.keys)))
            return successors(step.next, ctx) + (rest.pairs.isEmpty ? [] : step.fallback.map { targets(of: $0, rest) } ?? [(rest, none!)])
        }
        // (a case by its raw value, a literal: `.init(rawValue: 0)!`, `Step(rawValue: 1) ?? .first`)
        if let literal = SyntaxHelpers.literalRawValue(expr), let byRaw = spec.enumSuccessors["rawValue="] {
            if let name = byRaw["\(literal.raw)"] { return [(ctx, .state(name))] }
            if let fallback = literal.fallback { return targets(of: fallback, ctx) }
        }
        if let name = allCasesEnd(expr) { return [(ctx, .state(name))] }
        // (`Face.allCases.randomElement()!`: any case, chosen at run time)
        if spec.enumSuccessors["allCases="] != nil, let call = SyntaxHelpers.unwrap(expr).as(FunctionCallExprSyntax.self), call.arguments.isEmpty,
           let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "randomElement",
           let base = member.base, isAllCases(base) {
            return d.states.map { (ctx, .state($0)) }
        }
        // (`Optional(.rolling)`: the value it wraps)
        if spec.stateKind == .optional, let call = expr.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedText == "Optional",
           call.arguments.count == 1, let only = call.arguments.first, only.label == nil {
            return targets(of: only.expression, ctx)
        }
        // `status = reply.status`: a value of the state's enum other data holds, any of its cases
        if let key = spec.stateEnumKey, spec.stateKind == .enumeration, let member = expr.as(MemberAccessExprSyntax.self), member.base != nil,
           !isState(SyntaxHelpers.path(expr)), effects.index.storedMemberType(expr)?.enumInfo?.key == key {
            return d.states.map { (ctx, .state($0)) }
        }
        if let call = expr.as(FunctionCallExprSyntax.self), let returned = returnedTargets(of: call, ctx) ?? constructedTargets(of: call, ctx) { return returned }
        // `Status(code: c) ?? .unknown`: the fallback on the paths where a failable initializer of the enum gives nil
        if let infix = expr.as(InfixOperatorExprSyntax.self), infix.operator.trimmedText == "??",
           let call = SyntaxHelpers.unwrap(infix.leftOperand).as(FunctionCallExprSyntax.self), let made = constructedTargets(of: call, ctx) {
            return made.flatMap { c, t in t == .failure ? targets(of: infix.rightOperand, c) : [(c, t)] }
        }
        if spec.stateKind != .optional, expr.is(NilLiteralExprSyntax.self) {
            return [(ctx, spec.nilIsFailure ? .failure : (ctx.target ?? .stay))]
        }
        switch spec.stateKind {
        case .bool:
            if let b = expr.as(BooleanLiteralExprSyntax.self) { return [(ctx, .state(b.literal.text))] }
            if let p = expr.as(PrefixOperatorExprSyntax.self), p.operator.text == "!", isState(SyntaxHelpers.path(p.expression)) {
                return toggle(ctx).map { ($0, $0.target!) }
            }
            let text = expr.compactText
            var t = ctx; t.guards.append(text)
            var f = ctx; f.guards.append("!(\(text))")
            return [(t, .state("true")), (f, .state("false"))]
        case .optional:
            if expr.is(NilLiteralExprSyntax.self) { return [(ctx, .state("nil"))] }
            if let ref = SyntaxHelpers.caseReference(expr, effects.index, accepting: { $0 == "none" }), ref.type == nil { return [(ctx, .state("nil"))] }
            guard !spec.valueStates.isEmpty else { return [(ctx, .state("some"))] }
            switch PatternReader.value(expr, effects.index) {
            case .named(let value) where d.stateIndex[value.stateName] != nil: return [(ctx, .state(value.stateName))]
            // (a case with a payload where the states are the cases: `.settings(tab: .general)` is `settings`)
            case .named(let value) where value.name.map({ d.stateIndex[$0] != nil && spec.valueStates[$0] == .member($0) }) == true:
                return [(ctx, .state(value.name!))]
            case .unnamed where d.stateIndex["some"] != nil: return [(ctx, .state("some"))]
            default:
                // (an optional value of the enum the input carries, `case let .sortPicked(key): state.sort = key`)
                if let ref = expr.as(DeclReferenceExprSyntax.self),
                   let bound = SymbolIndex.localDeclaration(of: ref.baseName.text, around: Syntax(ref)), bound.is(SwitchCaseLabelSyntax.self) {
                    return handedIn(ref, ctx)
                }
                return [(ctx, .unknown(expr.compactText))]
            }
        case .enumeration:
            if let ref = SyntaxHelpers.caseReference(expr, effects.index, accepting: { d.stateIndex[$0] != nil }) { return [(ctx, .state(ref.name))] }
            // (a static constant of the enum standing for a case: `state = .initial`)
            if expr.is(MemberAccessExprSyntax.self), let ref = SyntaxHelpers.caseReference(expr, effects.index),
               let constant = effects.index.staticCase(ref.name, among: d.states) { return [(ctx, .state(constant))] }
            // a value handed in by the input (`case let .setMode(mode): state.mode = mode`): a setter
            // action's payload leads to the states the reducer sends it with; otherwise, by its type,
            // to any state — each a data-dependent edge
            // (a bare name that is no case reference: a variable or parameter)
            if let ref = expr.as(DeclReferenceExprSyntax.self) { return handedIn(ref, ctx) }
            return [(ctx, .unknown(expr.compactText))]
        }
    }

    /// The states a bare name (a variable or parameter, no case) may hold: the one a local holds, else, for
    /// a value handed in by the input (`case let .setMode(mode): state.mode = mode`), the states the reducer
    /// sends that input with, otherwise, by its type, any state; each a data-dependent edge.
    func handedIn(_ ref: DeclReferenceExprSyntax, _ ctx: Ctx) -> [(Ctx, Target)] {
        if let held = ctx.values[ref.baseName.text] { return [(ctx, .state(held))] }
        let inputs = Set(d.pairs(ctx.pairs).map(\.input))
        let sent = inputs.flatMap { spec.payloadTargets[$0] ?? [] }.uniqued()
        let possible = inputs.count == 1 && !sent.isEmpty ? sent : d.states.filter { !spec.unobservable.contains($0) }
        return possible.map { s in
            var c = ctx
            c.guards.append(s == "nil" ? "\(ref.baseName.text) == nil" : "\(ref.baseName.text) == .\(s)")
            return (c, .state(s))
        }
    }

    /// The state a successor property of the state's enum gives (`state.light.next`): on a path that
    /// assigned the state, the next of that one; otherwise the path splits by the state it starts in.
    func successors(_ next: [String: String], _ ctx: Ctx) -> [(Ctx, Target)] {
        if case .state(let v)? = ctx.target { return [(ctx, next[v].map(Target.state) ?? .unknown(v))] }
        if case .unknown? = ctx.target { return [(ctx, ctx.target!)] }
        return d.states.compactMap { to -> (Ctx, Target)? in
            var c = ctx
            c.pairs = ctx.pairs.intersection(d.set(states: Set(next.filter { $0.value == to }.keys)))
            return c.pairs.isEmpty ? nil : (c, .state(to))
        }
    }

    func toggle(_ ctx: Ctx) -> [Ctx] {
        if case .state(let v)? = ctx.target {
            var c = ctx
            c.target = .state(v == "true" ? "false" : "true")
            return [c]
        }
        var t = ctx
        t.pairs = ctx.pairs.intersection(d.set(states: ["true"]))
        t.target = .state("false")
        var f = ctx
        f.pairs = ctx.pairs.intersection(d.set(states: ["false"]))
        f.target = .state("true")
        return [t, f].filter { !$0.pairs.isEmpty }
    }

    /// The paths at a suspension point: each that changed the state ends there, and its rest goes on as
    /// the input the suspension names, from the state it waits in (any, when computed at run time).
    func suspend(_ ctxs: [Ctx], at s: Suspension) -> [Ctx] {
        ctxs.map { ctx in
            // (a `for await` loop's body runs for each value, later: the method's own input ends where it
            // begins waiting, in whatever state it is, and the loop goes on as the values' input)
            let target: Target
            if let t = ctx.target, t != .stay, t != .failure { target = t }
            else if s.node.is(ForStmtSyntax.self), ctx.target != .failure, ctx.pairs.intersection(d.set(inputs: [s.input])).isEmpty {
                target = .stay
            } else { return ctx }
            record(ctx, target: target)
            let position = s.node.positionAfterSkippingLeadingTrivia
            let slot = slotByPosition[position] ?? {
                slots.append(Slot(location: location(of: s.node), catchAll: false, shadowed: false))
                slotByPosition[position] = slots.count - 1
                return slots.count - 1
            }()
            var pairs = d.set(inputs: [s.input])
            if case .state(let waiting) = target { pairs = pairs.intersection(d.set(states: [waiting])) }
            else if target == .stay { pairs = pairs.intersection(d.set(states: Set(d.stateNames(ctx.pairs)))) }
            var rest = Ctx(pairs: pairs, slot: slot)
            rest.bound = ctx.bound
            rest.values = ctx.values
            return rest
        }
    }

    // MARK: Ends of paths

    func finalize(_ ctx: Ctx, returning expr: ExprSyntax?) {
        guard !ctx.pairs.isEmpty else { return }
        guard let expr else {
            record(ctx, target: ctx.target ?? .stay)
            return
        }
        let value = SyntaxHelpers.unwrap(expr)
        if value.is(NilLiteralExprSyntax.self) {
            record(ctx, target: spec.nilIsFailure ? .failure : (ctx.target ?? .stay))
            return
        }
        if spec.returnsNext, let next = SyntaxHelpers.nextValue(value) {
            let n = next.effects.map { withEffect(effects.read($0), ctx) } ?? ctx
            guard let model = next.model else {
                record(n, target: next.effects == nil ? .failure : .stay)
                return
            }
            // a model built afresh (`.next(Model())`, `.next(.init())`) is the whole state replaced
            if !spec.returnsState, SyntaxHelpers.construction(model) != nil {
                record(n, target: spec.resetTarget)
                return
            }
            finalize(n, returning: model)
            return
        }
        if spec.returnsState {
            // `return (.next, effect)` or `return .next`
            if let tuple = value.as(TupleExprSyntax.self), tuple.elements.count == 2 {
                let elements = Array(tuple.elements)
                let r = effects.read(elements[1].expression)
                for (c, t) in targets(of: elements[0].expression, ctx) { record(withEffect(r, c), target: t) }
                return
            }
            for (c, t) in targets(of: value, ctx) { record(c, target: t) }
            return
        }
        // `return newState`: a reducer returning (a copy of) its state returns no effect; `return (newState,
        // command)` returns the command
        func isOwner(_ e: ExprSyntax) -> Bool {
            guard let path = SyntaxHelpers.path(e) else { return false }
            return isState(path) || spec.statePaths.union(extraStatePaths).contains { $0.hasPrefix(path + ".") }
        }
        if isOwner(value) {
            record(ctx, target: ctx.target ?? .stay)
            return
        }
        if let tuple = value.as(TupleExprSyntax.self), tuple.elements.count == 2, isOwner(tuple.elements.first!.expression) {
            record(withEffect(effects.read(tuple.elements.last!.expression), ctx), target: ctx.target ?? .stay)
            return
        }
        // `return done ? .send(.finish) : .none`: each side's effect where its condition holds
        if let choice = SyntaxHelpers.unwrap(fold(value)).as(TernaryExprSyntax.self) {
            let pred = eval(choice.condition, ctx)
            let condition = text(choice.condition)
            finalize(restrict(ctx, pred, text: condition), returning: choice.thenExpression)
            finalize(restrict(ctx, pred.negated(d), text: "!(\(condition))"), returning: choice.elseExpression)
            return
        }
        // (a local effect `var`: the path's effect is what it was given on it)
        if effectLocal(value) != nil {
            record(ctx, target: ctx.target ?? .stay)
            return
        }
        // (a method giving its caller data, `func token() async throws -> String { … return tok }`, returns no effect)
        if returnsData(from: expr) {
            record(ctx, target: ctx.target ?? .stay)
            return
        }
        record(withEffect(effects.read(value), ctx), target: ctx.target ?? .stay)
    }

    /// Whether the function a `return` is in declares a plain value of the standard library or Foundation
    /// (`String`, `[Item]`, `Int?`, `URL`; not a type of the inputs of that name), which is data for its
    /// caller, no effect.
    func returnsData(from expr: ExprSyntax) -> Bool {
        guard let function = SyntaxHelpers.nearest(expr, { $0.as(FunctionDeclSyntax.self) }),
              let type = function.signature.returnClause?.type else { return false }
        var t = type
        while true {
            if let o = t.as(OptionalTypeSyntax.self) { t = o.wrappedType }
            else if let a = t.as(ArrayTypeSyntax.self) { t = a.element }
            else if let d = t.as(DictionaryTypeSyntax.self) { t = d.value }
            else { break }
        }
        let name = SymbolIndex.bareTypeName(t.trimmedText)
        guard name != "Task", SymbolIndex.standardLibraryTypes.contains(name) || ["URL", "Data", "Date", "UUID", "TimeInterval"].contains(name),
              let scope = effects.index.scope(of: Syntax(function)) else { return false }
        if case .external = effects.index.resolveType(t, in: scope) { return true }
        return false
    }

    /// The path with an effect read added: what it starts and what it cancels.
    func withEffect(_ r: EffectReader.Result, _ ctx: Ctx) -> Ctx {
        var n = ctx
        n.effect = merge(n.effect, r.effect)
        n.cancels = n.cancels.appendingUnique(r.cancels)
        return n
    }

    /// The paths after the state was set to `value` (`state = value`, `phase.accept(value)`): one per
    /// state it may denote.
    func setting(_ value: ExprSyntax, _ ctxs: [Ctx]) -> [Ctx] {
        ctxs.flatMap { ctx in
            targets(of: value, ctx).map { c, t in
                var n = c
                n.target = t
                return n
            }
        }
    }

    func merge(_ a: Effect?, _ b: Effect?) -> Effect? {
        guard let b else { return a }
        return a.map { $0.merged(with: b) } ?? b
    }

    func record(_ ctx: Ctx, target: Target) {
        guard !ctx.pairs.isEmpty else { return }
        let guardText = ctx.guards.isEmpty ? nil : ctx.guards.joined(separator: " && ")
        // each narrower pattern applies to the pairs it matched; the others fire on the input's name
        var rest = ctx.pairs
        var parts: [(PairSet, InputPattern?)] = []
        for n in ctx.patterns.uniqued() {
            let pairs = ctx.pairs.intersection(n.pairs)
            rest = rest.subtracting(n.pairs)
            if !pairs.isEmpty { parts.append((pairs, n.pattern)) }
        }
        if !rest.isEmpty { parts.insert((rest, nil), at: 0) }
        for (pairs, pattern) in parts {
            branches.append((ctx.slot, Outcome(pairs: d.pairs(pairs), target: target, effect: ctx.effect,
                                               cancels: ctx.cancels, guardText: guardText, pattern: pattern, writes: ctx.writes)))
        }
    }
}

/// What a node means that does not depend on the path reaching it, read once per node: a body reached
/// by many paths (a helper called after a switch, a reducer read once per field) is read as often.
/// Not thread-safe: one per extraction context (forked contexts have their own). Each entry keeps its
/// node, so no other tree can reuse the node's identifier while the entry exists.
final class NodeReadings {
    private var folds = NodeMemo<ExprSyntax>()
    private var inoutCandidates = NodeMemo<[FunctionDeclSyntax]>()
    private var atoms = NodeMemo<PatternAtom>()
    private var texts = NodeMemo<String>()

    /// Drops every reading (once a reducer or a type is built: memory is not held for the whole run).
    func forget() {
        folds = NodeMemo()
        inoutCandidates = NodeMemo()
        atoms = NodeMemo()
        texts = NodeMemo()
    }

    /// `PatternAtom(pattern, index)`.
    func patternAtom(_ pattern: PatternSyntax, index: SymbolIndex) -> PatternAtom {
        atoms.value(for: pattern) { PatternAtom(pattern, index) }
    }

    /// `node.compactText`.
    func text(_ node: some SyntaxProtocol) -> String {
        texts.value(for: node) { node.compactText }
    }

    /// `SyntaxHelpers.fold`.
    func fold(_ expr: ExprSyntax) -> ExprSyntax {
        folds.value(for: expr) { SyntaxHelpers.fold(expr) }
    }

    /// The functions taking an `inout` parameter that a call's callee names where it is written.
    func inoutFunctions(_ call: FunctionCallExprSyntax, index: SymbolIndex) -> [FunctionDeclSyntax] {
        inoutCandidates.value(for: call) { index.functions(referencedBy: call.calledExpression).filter(SyntaxHelpers.takesInout) }
    }
}

/// Values computed once per syntax node. Each entry keeps its node, so no other tree can reuse the
/// node's identifier while the entry exists.
struct NodeMemo<Value> {
    private var table: [SyntaxIdentifier: (node: Syntax, value: Value)] = [:]

    mutating func value(for node: some SyntaxProtocol, _ make: () -> Value) -> Value {
        if let hit = table[node.id] { return hit.value }
        let value = make()
        table[node.id] = (Syntax(node), value)
        return value
    }
}

/// A `case` pattern reduced to what matters for matching enum cases, with its pattern tree.
indirect enum PatternAtom {
    /// Matches anything (`_`, `let x`).
    case any
    /// One of these case names; refutable when a payload sub-pattern can fail (`.done(.failure)`).
    case cases(Set<String>, refutable: Bool, tree: InputPattern)
    case tuple([PatternAtom])
    case unknown

    init(_ pattern: PatternSyntax, _ index: SymbolIndex) {
        // `case let a as AddTodo`, `case is Reset`: an action told apart by its type (the type is the input)
        if let type = SyntaxHelpers.typeCase(pattern) {
            self = .cases([type], refutable: false, tree: .member(type, []))
            return
        }
        if let b = pattern.as(ValueBindingPatternSyntax.self) { self = PatternAtom(b.pattern, index); return }
        if let e = pattern.as(ExpressionPatternSyntax.self) { self = PatternAtom(expr: e.expression, index); return }
        if let t = pattern.as(TuplePatternSyntax.self), t.elements.count > 1 {
            self = .tuple(t.elements.map { PatternAtom($0.pattern, index) })
            return
        }
        self = PatternAtom(tree: PatternReader.read(pattern, index).tree)
    }

    init(expr: ExprSyntax, _ index: SymbolIndex) {
        if let p = expr.as(PatternExprSyntax.self) { self = PatternAtom(p.pattern, index); return }
        if let t = expr.as(TupleExprSyntax.self), t.elements.count > 1 || t.elements.first?.label != nil {
            self = .tuple(t.elements.map { PatternAtom(expr: $0.expression, index) })
            return
        }
        self = PatternAtom(tree: PatternReader.read(expr: expr, index).tree)
    }

    init(tree: InputPattern) {
        switch tree {
        case .any: self = .any
        case .literal(let text) where ["nil", "true", "false"].contains(text):
            self = .cases([text], refutable: false, tree: tree)
        case .literal: self = .unknown
        case .member(let name, _): self = .cases([name], refutable: tree.narrows, tree: tree)
        }
    }

    /// The tree of a pattern that is not a tuple.
    var tree: InputPattern? {
        switch self {
        case .any: .any
        case .cases(_, _, let tree): tree
        default: nil
        }
    }
}
