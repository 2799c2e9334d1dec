import MachineModel
import SwiftSyntax

/// D11: GameplayKit `GKStateMachine(states: [...])` with `GKState` subclasses.
///
/// - States are the class names in the `states:` array (instances, or variables holding them). Several
///   constructions stored in one variable (a restart building a new machine) are one machine.
/// - Allowed transitions come from each class's `isValidNextState(_:)` (or an ancestor's in the given
///   files): `c is X.Type` (X and its subclasses), `c == X.self`, `||`, `&&`, `!`, `switch c { case is X.Type: … }`,
///   `if`/`guard`/`return`, `[X.self, Y.self].contains { … }`, `super.isValidNextState(c)`. A condition the tool
///   cannot decide makes the edge guarded by its text. Not overridden: every transition is allowed, and
///   the moves drawn are those some `enter` makes (when every `enter` names a state the tool can tell).
/// - There is no input type: an edge's input is `*` and its `trigger` names the functions that call
///   `enter(X.self)` (in any given file). A call inside a state class only triggers from that state.
/// - The initial state is entered first: by the `enter` right after the construction (same function),
///   else by one in an initializer, else by one in a framework lifecycle override that runs before any
///   event (`override func didMove(to:)`, `sceneDidLoad()`, `viewDidLoad()`, `awakeFromNib()`), else by
///   the only state every other `enter` names. Several candidates at the first level that has any: no
///   initial state, and a note lists them (the tool does not guess which function runs first).
/// - `didEnter(from:)` / `willExit(to:)` bodies are effects on the edges into / out of their class,
///   following `if previous is X` branches.
struct GameplayKitRecogniser: Recogniser {
    /// SpriteKit and UIKit methods the framework calls once, before any event reaches the object
    /// (the API, overridden: `override func didMove(to view: SKView)`).
    static let lifecycleOverrides: Set<String> = ["didMove", "sceneDidLoad", "viewDidLoad", "awakeFromNib"]

    struct EnterCall {
        var target: String
        var caller: String
        var ownerState: String?
        var location: SourceLocation
        var call: FunctionCallExprSyntax
        var file: ParsedFile
        var receiver: String?
        /// The call right after a construction, in the same function: it starts the machine, it is no transition.
        var starts = false
        /// The states it can be made from, when tests of `currentState` around it say (`if machine.currentState
        /// is StandState { machine.enter(DuckState.self) }`); nil when nothing around it tests it.
        var sources: Set<String>?
    }

    struct Construction {
        var key: String
        var name: String
        var states: [String]
        var call: FunctionCallExprSyntax
        var file: ParsedFile
    }

    func recognise(in context: ExtractionContext, found: [SyntaxVisitor?]) {
        let classes = stateClasses(context)
        guard !classes.isEmpty else { return }
        let machineTypes = Self.machineClasses(context).union(["GKStateMachine"])
        var constructions: [Construction] = []
        var enters: [EnterCall] = []
        var unreadEnter = false
        for file in context.files {
            for call in file.events.nodes(.functionCallExpr, as: FunctionCallExprSyntax.self) {
                guard let name = DSLSupport.calleeName(call) else { continue }
                if machineTypes.contains(name), let arg = SyntaxHelpers.argument(call, "states") {
                    let states = resolveStates(arg, around: Syntax(call), classes: classes, file: file, context: context)
                    let storage = DSLSupport.storageName(call) ?? "stateMachine@\(file.location(of: call).line)"
                    let owner = SyntaxHelpers.enclosingTypeNames(call).last
                    constructions.append(Construction(key: (owner.map { $0 + "." } ?? "") + storage, name: storage,
                                                      states: states, call: call, file: file))
                } else if name == "enter", call.arguments.count == 1, call.arguments.first!.label == nil,
                          classArgument(call.arguments.first!.expression).map({ classes[$0] == nil }) ?? true {
                    context.warn("cannot tell which state `enter(\(call.arguments.compactText.prefix(40)))` enters; it is not drawn as a trigger",
                                 at: file.location(of: call), severity: .note)
                    unreadEnter = true
                } else if name == "enter", call.arguments.count == 1, let target = classArgument(call.arguments.first!.expression),
                          classes[target] != nil {
                    let owner = SyntaxHelpers.enclosingTypeNames(call).last.flatMap { classes[$0] != nil ? $0 : nil }
                    enters.append(EnterCall(target: target, caller: DSLSupport.enclosingFunctionName(call) ?? "top level",
                                            ownerState: owner, location: file.location(of: call), call: call, file: file,
                                            receiver: DSLSupport.receiverPath(call)))
                }
            }
        }
        for i in enters.indices {
            let function = SyntaxHelpers.enclosingFunction(enters[i].call).map { Syntax($0).id }
            enters[i].starts = function != nil && constructions.contains { c in
                c.file === enters[i].file && c.call.position < enters[i].call.position
                    && SyntaxHelpers.enclosingFunction(c.call).map({ Syntax($0).id }) == function
            }
        }
        // Group constructions by where they are stored.
        var groups: [(key: String, items: [Construction])] = []
        for c in constructions {
            if let i = groups.firstIndex(where: { $0.key == c.key }) { groups[i].items.append(c) } else { groups.append((c.key, [c])) }
        }
        if groups.isEmpty {
            // No construction visible: every concrete GKState subclass, if something enters one of them.
            guard !enters.isEmpty else { return }
            let concrete = classes.keys.filter { c in !classes.values.contains { $0.superclass == c } }
            let ordered = context.index.typeOrder.map(\.name).filter { concrete.contains($0) }.uniqued()
            let first = enters[0]
            context.warn("no `GKStateMachine(states:)` in the given files; the machine is taken to hold every GKState subclass",
                         at: first.location, severity: .note)
            build(name: "GKStateMachine", location: first.location, states: ordered, constructions: [], enters: enters,
                  everyEnterRead: !unreadEnter, classes: classes, context: context)
            return
        }
        for group in groups {
            let states = group.items.flatMap(\.states).uniqued()
            guard !states.isEmpty else { continue }
            if group.items.count > 1 {
                let lines = group.items.dropFirst().map { "\($0.file.location(of: $0.call).line)" }.joined(separator: ", ")
                context.warn("'\(group.items[0].name)' is re-created (line \(lines)); all its constructions are drawn as one machine",
                             at: group.items[0].file.location(of: group.items[0].call), severity: .note)
            }
            let otherMachines = groups.filter { $0.key != group.key }
            let mine = enters.filter { e in
                guard states.contains(e.target) else { return false }
                let elsewhere = otherMachines.contains { $0.items.flatMap(\.states).contains(e.target) }
                guard elsewhere, let r = e.receiver else { return true }
                return r.split(separator: ".").last.map(String.init) == group.items[0].name || e.ownerState != nil
            }
            let first = group.items[0]
            for c in group.items { context.constructionMachines[c.call.id, default: []].append(first.file.location(of: first.call)) }
            build(name: first.name, location: first.file.location(of: first.call), states: states, constructions: group.items,
                  enters: mine, everyEnterRead: !unreadEnter, classes: classes, context: context)
        }
    }

    // MARK: Classes

    struct StateClass {
        var name: String
        var superclass: String?
        var type: TypeInfo
    }

    /// Subclasses of `GKStateMachine` in the given files (directly or through project classes): a
    /// `Game(states: [...])` builds a machine as `GKStateMachine(states:)` does.
    static func machineClasses(_ context: ExtractionContext) -> Set<String> {
        subclasses(of: "GKStateMachine", context)
    }

    static func subclasses(of root: String, _ context: ExtractionContext) -> Set<String> {
        var result = Set<String>()
        var changed = true
        var rounds = 0
        while changed, rounds < 16 {
            changed = false
            rounds += 1
            for type in context.index.typeOrder where type.kind == "class" && !result.contains(type.name) {
                let names = type.inherited.map { SymbolIndex.bareTypeName($0).split(separator: ".").last.map(String.init) ?? "" }
                if names.contains(where: { $0 == root || result.contains($0) }) {
                    result.insert(type.name)
                    changed = true
                }
            }
        }
        return result
    }

    /// GKState subclasses in the given files (directly or through project classes), by name.
    func stateClasses(_ context: ExtractionContext) -> [String: StateClass] {
        var result: [String: StateClass] = [:]
        var changed = true
        var rounds = 0
        while changed, rounds < 16 {
            changed = false
            rounds += 1
            for type in context.index.typeOrder where result[type.name] == nil && (type.kind == "class" || type.kind == "extension") {
                for inherited in type.inherited {
                    let name = SymbolIndex.bareTypeName(inherited)
                    if name == "GKState" || name == "GameplayKit.GKState" || result[name] != nil {
                        result[type.name] = StateClass(name: type.name, superclass: name.split(separator: ".").last == "GKState" ? nil : name, type: type)
                        changed = true
                        break
                    }
                }
            }
        }
        return result
    }

    /// `X.self` → X.
    func classArgument(_ expr: ExprSyntax) -> String? {
        let e = SyntaxHelpers.unwrap(expr)
        guard let m = e.as(MemberAccessExprSyntax.self), m.declName.baseName.text == "self", let base = m.base else { return nil }
        return SymbolIndex.bareTypeName(base.trimmedText).split(separator: ".").last.map(String.init)
    }

    /// Class names in a `states:` argument: `[A(), B(scene: self)]`, variables holding them, or a variable holding the array.
    func resolveStates(_ expr: ExprSyntax, around node: Syntax, classes: [String: StateClass], file: ParsedFile,
                       context: ExtractionContext, depth: Int = 0) -> [String] {
        let e = SyntaxHelpers.unwrap(expr)
        if let array = e.as(ArrayExprSyntax.self) {
            var names: [String] = []
            for element in array.elements {
                if let n = stateClassName(element.expression, around: node, classes: classes, context: context, depth: depth) {
                    names.append(n)
                } else {
                    context.warn("cannot tell which GKState class `\(element.expression.compactText.prefix(40))` is; it is left out of the machine",
                                 at: file.location(of: element))
                }
            }
            return names
        }
        if depth < 3, let name = SyntaxHelpers.lastName(e), let value = valueOf(variable: name, around: node, context: context) {
            return resolveStates(value, around: node, classes: classes, file: file, context: context, depth: depth + 1)
        }
        context.warn("cannot read the states of this GKStateMachine (`\(e.compactText.prefix(40))`)", at: file.location(of: e))
        return []
    }

    func stateClassName(_ expr: ExprSyntax, around node: Syntax, classes: [String: StateClass], context: ExtractionContext, depth: Int) -> String? {
        let e = SyntaxHelpers.unwrap(expr)
        if let call = e.as(FunctionCallExprSyntax.self) {
            var callee = call.calledExpression.trimmedText
            if callee.hasSuffix(".init") { callee.removeLast(5) }
            let name = String(callee.split(separator: ".").last ?? "")
            return classes[name] != nil ? name : nil
        }
        if depth < 3, let name = SyntaxHelpers.lastName(e), let value = valueOf(variable: name, around: node, context: context) {
            return stateClassName(value, around: node, classes: classes, context: context, depth: depth + 1)
        }
        return nil
    }

    func valueOf(variable name: String, around node: Syntax, context: ExtractionContext) -> ExprSyntax? {
        DSLSupport.value(of: name, around: node, index: context.index)
    }

    func method(_ name: String, of className: String, classes: [String: StateClass]) -> (FunctionDeclSyntax, ParsedFile, String)? {
        var current: String? = className
        var steps = 0
        while let c = current, let info = classes[c], steps < 16 {
            steps += 1
            if let (f, file) = info.type.methods.first(where: { $0.0.name.text == name }) { return (f, file, c) }
            current = info.superclass
        }
        return nil
    }

    /// The class and every subclass of it among `states`.
    func descendants(of name: String, in states: [String], classes: [String: StateClass]) -> Set<String> {
        Set(states.filter { s in
            var current: String? = s
            var steps = 0
            while let c = current, steps < 16 {
                if c == name { return true }
                current = classes[c]?.superclass
                steps += 1
            }
            return false
        })
    }

    // MARK: isValidNextState

    /// `X.Type` (a class parameter) or `X` / `X?` (an instance) → X.
    func typeName(_ text: String, instance: Bool) -> String? {
        var text = text
        if instance {
            while text.hasSuffix("?") || text.hasSuffix("!") { text.removeLast() }
        } else {
            guard text.hasSuffix(".Type") else { return nil }
            text.removeLast(5)
        }
        return text.split(separator: ".").last.map(String.init)
    }

    /// The shared predicate evaluator over the machine's classes: `X.self` names a class, `is X.Type`
    /// (`is X` for an instance) names X and its subclasses, `super.isValidNextState(c)` is left to the caller.
    func evaluator(param: String, states: [String], classes: [String: StateClass], file: ParsedFile, instance: Bool,
                   context: ExtractionContext) -> PredicateEvaluator {
        let e = context.predicateEvaluator(values: states, subjects: [param], file: file)
        e.literal = { expr in self.classArgument(expr) }
        e.typeTest = { text in self.typeName(text, instance: instance).map { self.descendants(of: $0, in: states, classes: classes) } }
        let all = Set(states)
        e.special = { call in
            guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base?.trimmedText == "super",
                  member.declName.baseName.text == "isValidNextState" else { return nil }
            return .all(all)   // resolved by the caller (see `allowed`)
        }
        return e
    }

    struct Allowance {
        var target: String
        var sure: Bool
        var location: SourceLocation
        var guardText: String?
    }

    /// The targets `from` may move to.
    func allowed(from: String, states: [String], classes: [String: StateClass], context: ExtractionContext, depth: Int = 0) -> [Allowance] {
        guard depth < 8, let (method, file, owner) = method("isValidNextState", of: from, classes: classes), let body = method.body else {
            let loc = classes[from].map { $0.type.location } ?? SourceLocation(file: "", line: 1, column: 1)
            return states.map { Allowance(target: $0, sure: true, location: loc, guardText: nil) }
        }
        let param = method.signature.parameterClause.parameters.first.map { ($0.secondName ?? $0.firstName).text } ?? "stateClass"
        let evaluator = self.evaluator(param: param, states: states, classes: classes, file: file, instance: false, context: context)
        // super.isValidNextState: the ancestor's answer (everything when none overrides it), where the call is
        // (`c is Extra.Type || super.isValidNextState(c)`)
        func isSuper(_ call: FunctionCallExprSyntax) -> Bool {
            call.calledExpression.as(MemberAccessExprSyntax.self).map { $0.base?.is(SuperExprSyntax.self) == true && $0.declName.baseName.text == "isValidNextState" } ?? false
        }
        if DSLSupport.calls(in: body).contains(where: isSuper), let sup = classes[owner]?.superclass {
            let inherited = allowed(from: sup, states: states, classes: classes, context: context, depth: depth + 1)
            let answer = Verdict(yes: Set(inherited.filter(\.sure).map(\.target)), maybe: Set(inherited.filter { !$0.sure }.map(\.target)))
            evaluator.special = { call in isSuper(call) ? answer : nil }
        }
        let (verdict, _) = evaluator.block(body.statements, Set(states))
        let guardText = evaluator.unknownTexts.uniqued().joined(separator: " && ")
        let methodLocation = file.location(of: method)
        return states.compactMap { t in
            guard verdict.possible.contains(t) else { return nil }
            let sure = verdict.yes.contains(t)
            return Allowance(target: t, sure: sure, location: evaluator.mentions[t] ?? methodLocation,
                             guardText: sure || guardText.isEmpty ? nil : guardText)
        }
    }

    // MARK: Effects

    /// Functions a `didEnter(from:)` / `willExit(to:)` body calls when the other state is `other`.
    func effectCalls(_ method: String, of cls: String, other: String, states: [String], classes: [String: StateClass],
                     context: ExtractionContext) -> [String] {
        guard let (f, file, _) = self.method(method, of: cls, classes: classes), let body = f.body else { return [] }
        let param = f.signature.parameterClause.parameters.first.map { ($0.secondName ?? $0.firstName).text } ?? "_"
        let evaluator = self.evaluator(param: param, states: states, classes: classes, file: file, instance: true, context: context)
        var names: [String] = []
        func walk(_ items: CodeBlockItemListSyntax, depth: Int) -> Bool {   // false: the path left
            guard depth < 16 else { return true }
            for item in items {
                if let g = item.item.as(GuardStmtSyntax.self) {
                    let c = evaluator.conditions(g.conditions)
                    if !c.possible.contains(other) { _ = walk(g.body.statements, depth: depth + 1); return false }
                    if !c.yes.contains(other) { _ = walk(g.body.statements, depth: depth + 1) }
                    continue
                }
                if item.item.is(ReturnStmtSyntax.self) { return false }
                var expr: ExprSyntax?
                if let e = item.item.as(ExpressionStmtSyntax.self) { expr = e.expression } else if let e = item.item.as(ExprSyntax.self) { expr = e }
                if let e = expr.map(SyntaxHelpers.unwrap), let i = e.as(IfExprSyntax.self) {
                    var node: IfExprSyntax? = i
                    while let n = node {
                        let c = evaluator.conditions(n.conditions)
                        if c.possible.contains(other) { _ = walk(n.body.statements, depth: depth + 1) }
                        if c.yes.contains(other) { break }
                        switch n.elseBody {
                        case .ifExpr(let next): node = next
                        case .codeBlock(let b): _ = walk(b.statements, depth: depth + 1); node = nil
                        case nil: node = nil
                        }
                    }
                    continue
                }
                if let e = expr.map(SyntaxHelpers.unwrap), let sw = e.as(SwitchExprSyntax.self), evaluator.isSubject(sw.subject) {
                    var done = false
                    for element in sw.cases where !done {
                        guard case .switchCase(let sc) = element else { continue }
                        var matches = false
                        switch sc.label {
                        case .default: matches = true
                        case .case(let label):
                            for ci in label.caseItems {
                                if let p = ci.pattern.as(IsTypePatternSyntax.self), let n = typeName(p.type.trimmedText, instance: true) {
                                    if descendants(of: n, in: states, classes: classes).contains(other) { matches = true }
                                } else if let b = ci.pattern.as(ValueBindingPatternSyntax.self), b.compactText.contains(" as ") {
                                    let typeText = b.compactText.components(separatedBy: " as ").last ?? ""
                                    if let n = typeText.split(separator: ".").last.map(String.init),
                                       descendants(of: n, in: states, classes: classes).contains(other) { matches = true }
                                } else {
                                    matches = true
                                }
                            }
                        }
                        if matches { _ = walk(sc.statements, depth: depth + 1); done = true }
                    }
                    continue
                }
                let called = DSLSupport.calledNames(in: item, index: context.index, limit: 8).filter { !["didEnter", "willExit", "print"].contains($0) }
                names += called
            }
            return true
        }
        _ = walk(body.statements, depth: 0)
        // `super.didEnter(from:)`: the ancestor's effect too
        return names.uniqued()
    }

    // MARK: Machine

    /// `everyEnterRead`: no `enter` in the files names a state the tool cannot tell; then, from a state
    /// that does not override `isValidNextState` (it allows everything), a move no `enter` makes is left
    /// out (a call in a state's class makes it from that state, one elsewhere from any state), so states
    /// that enter the next one themselves are the cycle they make, not every pair.
    func build(name: String, location: SourceLocation, states: [String], constructions: [Construction], enters: [EnterCall],
               everyEnterRead: Bool, classes: [String: StateClass], context: ExtractionContext) {
        var rules: [Rule] = []
        var enters = enters
        for i in enters.indices { enters[i].sources = SyntaxHelpers.typeTestedSources(of: Syntax(enters[i].call), states: Set(states), subject: { $0.trimmedText.hasSuffix("currentState") }).states }
        let start = initialEnter(constructions: constructions, enters: enters, name: name, location: location, context: context)
        if let start { enters[start].starts = true }
        let made = everyEnterRead && enters.contains { !$0.starts }
        for from in states {
            for a in allowed(from: from, states: states, classes: classes, context: context) {
                let callers = enters.filter { e in
                    e.target == a.target && !e.starts && (e.ownerState == nil || descendants(of: e.ownerState!, in: states, classes: classes).contains(from))
                        && e.sources.map { $0.contains(from) } != false
                }.map(\.caller).uniqued()
                // (a state that does not override `isValidNextState` allows everything: its moves are the entered ones)
                if made && callers.isEmpty && method("isValidNextState", of: from, classes: classes) == nil { continue }
                let trigger = callers.isEmpty ? "enter(\(a.target).self)" : callers.joined(separator: ", ")
                var effect: Effect?
                let exit = effectCalls("willExit", of: from, other: a.target, states: states, classes: classes, context: context)
                let enter = effectCalls("didEnter", of: a.target, other: from, states: states, classes: classes, context: context)
                if !exit.isEmpty { effect = Effect(label: "willExit: " + exit.prefix(3).joined(separator: ", ")) }
                if !enter.isEmpty {
                    let e = Effect(label: "didEnter: " + enter.prefix(3).joined(separator: ", "))
                    effect = effect.map { $0.merged(with: e) } ?? e
                }
                rules.append(Rule(location: a.location,
                                  outcomes: [Outcome(pairs: [Pair(from: from, input: "*")], target: .state(a.target), effect: effect)],
                                  guardText: a.guardText, trigger: trigger))
            }
        }
        let initial = start.map { enters[$0].target }
        if enters.isEmpty {
            context.warn("nothing calls `enter(_:)` on '\(name)' in the given files; its initial state is unknown", at: location, severity: .note)
        }
        var stateLocations: [String: SourceLocation] = [:]
        for s in states { stateLocations[s] = classes[s]?.type.location }
        var machine = Machine(name: name, dialect: .gameplaykit, location: location, states: states, inputs: [],
                              initial: initial, rules: rules, order: .resolved, stateLocations: stateLocations)
        // a state whose `isValidNextState` is `false` whatever it is asked is an end its author chose
        machine.terminal = states.filter { s in
            guard let (method, _, owner) = method("isValidNextState", of: s, classes: classes), owner == s,
                  let body = method.body?.statements, let value = SyntaxHelpers.onlyValue(body) else { return false }
            return SyntaxHelpers.unwrap(value).as(BooleanLiteralExprSyntax.self)?.literal.text == "false"
        }
        context.add(machine, stateEnum: nil)
    }

    /// The `enter` call that starts the machine (an index into `enters`).
    func initialEnter(constructions: [Construction], enters: [EnterCall], name: String, location: SourceLocation,
                      context: ExtractionContext) -> Int? {
        let outside = enters.indices.filter { enters[$0].ownerState == nil }
        // after a construction, in the same function
        for c in constructions {
            let function = SyntaxHelpers.enclosingFunction(c.call).map { Syntax($0).id }
            if let i = outside.first(where: { enters[$0].file === c.file && enters[$0].call.position > c.call.position
                    && SyntaxHelpers.enclosingFunction(enters[$0].call).map({ Syntax($0).id }) == function && function != nil }) {
                return i
            }
        }
        // in an initializer, then in a lifecycle override the framework calls before any event
        func enclosingDeclaration(_ call: FunctionCallExprSyntax) -> Syntax? {
            var current = call.parent
            while let c = current {
                if c.is(InitializerDeclSyntax.self) || c.is(FunctionDeclSyntax.self) || c.is(ClosureExprSyntax.self) { return c }
                current = c.parent
            }
            return nil
        }
        let inInit = outside.filter { enclosingDeclaration(enters[$0].call)?.is(InitializerDeclSyntax.self) == true }
        let inLifecycle = outside.filter { i in
            guard let f = enclosingDeclaration(enters[i].call)?.as(FunctionDeclSyntax.self) else { return false }
            return f.modifiers.contains { $0.name.text == "override" } && Self.lifecycleOverrides.contains(f.name.text)
        }
        for level in [inInit, inLifecycle, outside] where !level.isEmpty {
            let targets = level.map { enters[$0].target }.uniqued()
            if targets.count == 1 { return level[0] }
            context.warn("'\(name)' is started by one of several `enter` calls (\(targets.map { "\($0).self" }.joined(separator: ", "))); "
                         + "the tool cannot tell which runs first, so it has no initial state", at: location, severity: .note)
            return nil
        }
        return nil   // every `enter` is written inside a state class: a transition, not a start
    }
}
