import MachineModel
import SwiftSyntax

/// D10: a dictionary literal from (state, event) to the next state:
/// - keyed by a struct (`Key(state: .a, event: .e): .b`, `.init(…)`, unlabelled `Key(.a, .e)`) or a tuple,
/// - or nested, state first (`[.a: [.e: .b]]`, `[.a: [(.e, .b)]]`),
/// - values a state, or `(state, effect)`.
///
/// A pair named twice compiles but traps when the literal is evaluated: a `duplicate_key` finding (the
/// entries stay as rules, so both targets are visible). The lookup (`table[Key(state: s, event: e)] ?? s`,
/// in any given file) gives what happens to pairs the table leaves out: `?? s` is a catch-all that stays,
/// `?? .x` a catch-all to `.x`; with no lookup they have no edge. The variable the lookup reads the state
/// from (`var door: Door = .closed`) gives the initial state when its initializer is visible.
struct DictionaryTableRecogniser: Recogniser {
    struct Entry {
        var components: [(label: String?, name: String)]   // two: one state, one event
        var target: ExprSyntax
        var node: Syntax
    }

    func finder(for file: ParsedFile) -> SyntaxVisitor? { Finder() }

    func recognise(in context: ExtractionContext, found: [SyntaxVisitor?]) {
        let subscripts = Subscripts(files: context.files)
        for (file, finder) in self.found(found, in: context, as: Finder.self) {
            for dict in finder.dictionaries(index: context.index) { build(dict, file: file, context: context, subscripts: subscripts) }
            for dict in finder.allowed(index: context.index) { buildAllowed(dict, file: file, context: context, subscripts: subscripts) }
            for array in finder.arrays(index: context.index) { ArrayTable(array: array, file: file, context: context).build() }
            for calls in finder.registrations(index: context.index) { ArrayTable(calls: calls, file: file, context: context).build() }
        }
    }

    /// Every subscript of the given files by the last name of what it subscripts (`table`, `self.table`),
    /// in file order: collected once, the first time a table's lookup is looked for (one replay of each
    /// file for all the tables, instead of one per table).
    final class Subscripts {
        let files: [ParsedFile]
        init(files: [ParsedFile]) { self.files = files }

        lazy var byName: [String: [(file: ParsedFile, node: SubscriptCallExprSyntax)]] = {
            final class V: SyntaxVisitor {
                var found: [SubscriptCallExprSyntax] = []
                override func visit(_ node: SubscriptCallExprSyntax) -> SyntaxVisitorContinueKind {
                    found.append(node)
                    return .visitChildren
                }
            }
            var byName: [String: [(file: ParsedFile, node: SubscriptCallExprSyntax)]] = [:]
            for file in files {
                let v = V(viewMode: .sourceAccurate)
                file.events.replay(v)
                for node in v.found {
                    guard let name = SyntaxHelpers.lastName(node.calledExpression) else { continue }
                    byName[name, default: []].append((file, node))
                }
            }
            return byName
        }()
    }

    final class Finder: SyntaxVisitor {
        /// Dictionary literals with elements, in walk order.
        var literals: [DictionaryExprSyntax] = []
        /// Array literals whose first element is a row of three or four (a tuple or a call), in walk order.
        var rowArrays: [ArrayExprSyntax] = []
        init() { super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: DictionaryExprSyntax) -> SyntaxVisitorContinueKind {
            if case .elements(let list) = node.content, !list.isEmpty { literals.append(node) }
            return .visitChildren
        }
        override func visit(_ node: ArrayExprSyntax) -> SyntaxVisitorContinueKind {
            if let first = node.elements.first, ArrayTable.row(first.expression) != nil { rowArrays.append(node) }
            return .visitChildren
        }
        /// Calls on a receiver with three or four arguments (`m.add(from: .a, on: .e, to: .b)`, three and a
        /// trailing closure), or one (`m.add(transition: t)`, a row given whole).
        var rowCalls: [FunctionCallExprSyntax] = []
        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            if node.trailingClosure == nil ? (1...4).contains(node.arguments.count) && (node.arguments.count != 2 || ArrayTable.movePair(node.arguments)) : node.arguments.count == 3,
               node.calledExpression.as(MemberAccessExprSyntax.self)?.base != nil || onInheritedSelf(node),
               node.parent?.is(CodeBlockItemSyntax.self) == true { rowCalls.append(node) }
            return .visitChildren
        }

        /// A call on implicit `self` in a subclass of a generic class, its first argument a case or labelled
        /// as a row's part (`class Download: Machine<Phase, Event> { init() { addTransition(from: .queued, …) } }`).
        func onInheritedSelf(_ node: FunctionCallExprSyntax) -> Bool {
            guard node.calledExpression.is(DeclReferenceExprSyntax.self), let first = node.arguments.first,
                  first.label.map({ ArrayTable.labelRoles[$0.text] != nil }) ?? (first.expression.as(MemberAccessExprSyntax.self)?.base == nil) else { return false }
            return ArrayTable.inheritedMachine(around: Syntax(node)) != nil
        }

        /// Calls registering transitions: statements of one function calling one method on one receiver, at
        /// least two of them, most naming three cases (or two, `from:` and `to:`).
        func registrations(index: SymbolIndex) -> [[FunctionCallExprSyntax]] {
            struct Key: Hashable { var block: SyntaxIdentifier?; var type: String?; var callee: String }
            var groups: [[FunctionCallExprSyntax]] = []
            var byKey: [Key: Int] = [:]
            for call in rowCalls {
                // (one function's calls, those under an `if` too: `if debug { m.addTransition(…) }`)
                let function = SyntaxHelpers.nearest(call) { node -> Syntax? in
                    node.is(FunctionDeclSyntax.self) || node.is(InitializerDeclSyntax.self) || node.is(ClosureExprSyntax.self)
                        || node.is(AccessorDeclSyntax.self) ? node : nil
                }
                // (on a property of the type, in its methods: one table, whichever method registers each row,
                // `setupHappyPath()` and `setupEnding()` both calling `sm.addTransition`)
                var key = Key(block: function?.id ?? call.parent?.parent?.id, type: nil, callee: call.calledExpression.trimmedText)
                if let function, !function.is(ClosureExprSyntax.self), let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base,
                   Self.namesProperty(base), case let types = SyntaxHelpers.enclosingTypeNames(function), !types.isEmpty {
                    key = Key(block: nil, type: types.joined(separator: "."), callee: key.callee.hasPrefix("self.") ? String(key.callee.dropFirst(5)) : key.callee)
                }
                if let i = byKey[key] { groups[i].append(call) } else { byKey[key] = groups.count; groups.append([call]) }
            }
            // by syntax first (each of the three a member, two at least written `.x` or with their enum's name,
            // `LampLevel.off`), then by the names
            func shaped(_ row: ExprSyntax) -> Bool {
                let parts = ArrayTable.parts(row)
                let members = parts.prefix(3).compactMap { SyntaxHelpers.unwrap($0.expr).as(MemberAccessExprSyntax.self) }
                let cases = members.filter { m in m.base.map { index.enumInfo($0.trimmedText, in: index.scope(of: m)) != nil } ?? true }
                // (a move, `m.addTransition(from: .idle, to: .loading)`: both written `.x`)
                if parts.count == 2 { return members.count == 2 && cases.count == 2 }
                return members.count == 3 && cases.count >= 2
            }
            return groups.filter { calls in
                guard calls.count >= 2 else { return false }
                let read = calls.lazy.compactMap { ArrayTable.registeredRow($0, index) }.filter(shaped).filter { ArrayTable.readableRow($0, index) }.count
                return read >= 2 && read * 2 > calls.count
            }
        }

        /// The arrays of transitions: most rows name three cases, and they are in no other table.
        func arrays(index: SymbolIndex) -> [ArrayExprSyntax] {
            rowArrays.filter { array in
                let read = array.elements.filter { ArrayTable.readableRow($0.expression, index) }.count
                return read >= 2 && read * 2 > array.elements.count
            }
        }

        /// The tables of allowed moves: literals keyed by a case whose values are all array or set literals
        /// of cases (`[.idle: [.loading], .loading: [.loaded, .failed], .loaded: []]`), at least one value
        /// naming a key.
        func allowed(index: SymbolIndex) -> [DictionaryExprSyntax] {
            literals.filter { node in
                guard case .elements(let list) = node.content, !DictionaryTableRecogniser.isTable(node, index),
                      let moves = DictionaryTableRecogniser.allowedMoves(list, index) else { return false }
                let keys = Set(moves.map(\.from))
                return moves.contains { !keys.isDisjoint(with: $0.to.map(\.name)) }
            }
        }

        /// Whether a receiver is a property of the type around it: `self.machine`, or a bare name no local declares.
        static func namesProperty(_ base: ExprSyntax) -> Bool {
            if let member = base.as(MemberAccessExprSyntax.self) { return member.base.map(SyntaxHelpers.isSelf) == true }
            return base.is(DeclReferenceExprSyntax.self) && !SyntaxHelpers.isSelf(base) && !SymbolIndex.isLocalName(base)
        }

        /// The tables: literals with an entry keyed by a state and an event (case names, resolved with
        /// the index), and not inside another table.
        func dictionaries(index: SymbolIndex) -> [DictionaryExprSyntax] {
            SyntaxHelpers.outermost(literals, node: { Syntax($0) }) { DictionaryTableRecogniser.isTable($0, index) }
        }
    }

    /// The name of the variable a table literal is kept in: the one initialized by calling the function
    /// returning it (`static let table = makeTable()`), else the variable or function it is written in.
    static func tableName(_ literal: some SyntaxProtocol, _ index: SymbolIndex) -> String? {
        tableName(literal, kept: keeper(literal, index))
    }

    /// The same, given the literal's `keeper`.
    static func tableName(_ literal: some SyntaxProtocol, kept: Binding?) -> String? {
        kept?.name ?? SyntaxHelpers.enclosingBindingName(literal)
    }

    /// The one property a function returning the literal initializes (`static let table = makeTable()`).
    static func keeper(_ literal: some SyntaxProtocol, _ index: SymbolIndex) -> Binding? {
        let kept = DSLSupport.keptIn(literal, index: index)
        return kept.count == 1 ? kept[0] : nil
    }

    /// Whether a dictionary literal has an entry keyed by a state and an event.
    static func isTable(_ node: DictionaryExprSyntax, _ index: SymbolIndex) -> Bool {
        guard case .elements(let list) = node.content else { return false }
        return list.contains { entries($0, index).count > 0 }
    }

    /// The (state, event) entries one dictionary element stands for (several when nested).
    static func entries(_ element: DictionaryElementSyntax, _ index: SymbolIndex) -> [Entry] {
        let key = SyntaxHelpers.unwrap(element.key)
        // nested: `.a: [.e: .b, …]`
        if let inner = SyntaxHelpers.unwrap(element.value).as(DictionaryExprSyntax.self), let outer = SyntaxHelpers.caseReference(key, index),
           case .elements(let list) = inner.content {
            var result: [Entry] = []
            for e in list {
                guard let event = SyntaxHelpers.caseReference(e.key, index), target(e.value, index) != nil else { return [] }
                result.append(Entry(components: [(nil, outer.name), (nil, event.name)], target: e.value, node: Syntax(e)))
            }
            return result
        }
        // nested as pairs: `.a: [(.e, .b), …]`
        if let inner = SyntaxHelpers.unwrap(element.value).as(ArrayExprSyntax.self), !inner.elements.isEmpty,
           let outer = SyntaxHelpers.caseReference(key, index) {
            var result: [Entry] = []
            for e in inner.elements {
                guard let pair = SyntaxHelpers.unwrap(e.expression).as(TupleExprSyntax.self), pair.elements.count == 2,
                      let event = SyntaxHelpers.caseReference(pair.elements.first!.expression, index),
                      target(pair.elements.last!.expression, index) != nil else { return [] }
                result.append(Entry(components: [(nil, outer.name), (nil, event.name)], target: pair.elements.last!.expression, node: Syntax(e)))
            }
            return result
        }
        guard target(element.value, index) != nil else { return [] }
        let args = ArrayTable.parts(key)
        guard args.count == 2 else { return [] }
        var components: [(label: String?, name: String)] = []
        for (label, expr) in args {
            guard let ref = SyntaxHelpers.caseReference(expr, index) else { return [] }
            components.append((label, ref.name))
        }
        return [Entry(components: components, target: element.value, node: Syntax(element))]
    }

    /// A table of allowed moves, state to the states it may move to, each with the element naming it; nil
    /// when an entry is not a case keying an array or set literal of cases.
    static func allowedMoves(_ list: DictionaryElementListSyntax, _ index: SymbolIndex) -> [(from: String, to: [(name: String, node: Syntax)])]? {
        // the shape first, by syntax alone (a member per key and per element): names are resolved only then
        func isMember(_ e: ExprSyntax) -> Bool { SyntaxHelpers.unwrap(e).is(MemberAccessExprSyntax.self) }
        let rows = list.map { (key: $0.key, array: SyntaxHelpers.arrayLiteral($0.value)) }
        guard rows.allSatisfy({ row in isMember(row.key) && row.array.map { $0.elements.allSatisfy { isMember($0.expression) } } == true }) else { return nil }
        var moves: [(from: String, to: [(name: String, node: Syntax)])] = []
        for row in rows {
            guard let from = SyntaxHelpers.caseReference(row.key, index) else { return nil }
            var to: [(name: String, node: Syntax)] = []
            for e in row.array!.elements {
                guard let ref = SyntaxHelpers.caseReference(e.expression, index) else { return nil }
                to.append((ref.name, Syntax(e)))
            }
            moves.append((from.name, to))
        }
        return moves.isEmpty ? nil : moves
    }

    /// Rows a test writes over the program's enum (`let rows: [(from: Fan, press: Button, to: Fan)]` given to
    /// `@Test(arguments:)`): the moves it expects, a sample to check, not a machine; said with a note.
    static func testRows(_ node: Syntax, stateEnum: EnumInfo?, name: String?, context: ExtractionContext) -> Bool {
        guard context.testsProgram(node, declaredAt: stateEnum.flatMap { context.index.types[$0.key]?.node }) else { return false }
        context.warn("the table '\(name ?? "of rows")' in test code lists moves of the program's `\(context.index.types[stateEnum!.key]?.qualifiedName ?? stateEnum!.name)`: read as the test's expectations, no machine extracted",
                     at: context.index.file(of: node)!.location(of: node), severity: .note)
        return true
    }

    /// A table of allowed moves (`let allowed: [Phase: Set<Phase>] = [.idle: [.loading], …]`, checked as
    /// `guard allowed[phase]?.contains(next) == true else { return }; phase = next`): each move an edge
    /// with no input (`*`) but the function the lookup is in; the variable the lookup reads the state
    /// from gives the initial state. A written type whose keys and values are not one enum is no such
    /// table; without one, the cases are the names used, with a note.
    func buildAllowed(_ dict: DictionaryExprSyntax, file: ParsedFile, context: ExtractionContext, subscripts: Subscripts) {
        guard case .elements(let list) = dict.content, let moves = Self.allowedMoves(list, context.index) else { return }
        let kept = Self.keeper(dict, context.index)
        let name = Self.tableName(dict, kept: kept)
        let binding = name.flatMap { n in context.index.binding(named: n, at: dict) }
        let location = file.location(of: dict)
        var stateEnum: EnumInfo?
        if let resolved = context.resolve(binding?.typeText ?? DSLSupport.annotatedType(of: dict), at: binding?.node ?? Syntax(dict)) {
            guard resolved.externalName == "Dictionary", resolved.arguments.count == 2,
                  let key = resolved.arguments[0].enumInfo, let element = resolved.arguments[1].arguments.first?.enumInfo,
                  key.key == element.key else { return }
            stateEnum = key
        } else {
            context.warn("no written type says what the table '\(name ?? "of allowed moves")' holds; its keys and values are read as the states, as they name the same cases",
                         at: location, severity: .note)
        }
        let lookup = name.flatMap { findLookup(of: dict, named: $0, in: subscripts, context: context) }
        let trigger = lookup.flatMap(\.function).map { "\($0.name.text)()" }
        let states = context.caseList(stateEnum, used: moves.flatMap { [$0.from] + $0.to.map(\.name) })
        let rules = moves.flatMap { move in
            move.to.map { to in
                Rule(location: file.location(of: to.node), outcomes: [Outcome(pairs: [Pair(from: move.from, input: "*")], target: .state(to.name))],
                     trigger: trigger)
            }
        }
        var initial: String?
        if let stateExpr = lookup?.nestedState, let v = DSLSupport.variable(stateExpr, index: context.index), !v.computed {
            initial = context.initialState(v.initializer, states: states)
        }
        context.add(Machine(name: name ?? "table@\(location.line)", dialect: .dictionaryTable, location: location,
                            states: states, inputs: [], initial: initial, rules: rules, order: .resolved,
                            // (`.archived: []`: an end by design)
                            terminal: moves.filter(\.to.isEmpty).map(\.from), stateLocations: context.locations(stateEnum)),
                    stateEnum: stateEnum, at: kept?.node ?? Syntax(dict))
    }

    /// The state a value names: `.b`, `T.b`, `.b(…)`, or the first element of `(.b, effect)`.
    static func target(_ value: ExprSyntax, _ index: SymbolIndex) -> (name: String, effect: ExprSyntax?)? {
        let v = SyntaxHelpers.unwrap(value)
        if let t = v.as(TupleExprSyntax.self), t.elements.count == 2, let ref = SyntaxHelpers.caseReference(t.elements.first!.expression, index) {
            return (ref.name, t.elements.last!.expression)
        }
        if let ref = SyntaxHelpers.caseReference(v, index) { return (ref.name, nil) }
        return nil
    }

    func build(_ dict: DictionaryExprSyntax, file: ParsedFile, context: ExtractionContext, subscripts: Subscripts) {
        guard case .elements(let list) = dict.content else { return }
        var entries: [Entry] = []
        var unreadable: [DictionaryElementSyntax] = []
        for element in list {
            let e = Self.entries(element, context.index)
            if e.isEmpty { unreadable.append(element) } else { entries += e }
        }
        // Mostly unreadable: not a transition table.
        guard entries.count >= max(1, unreadable.count) else { return }
        let kept = Self.keeper(dict, context.index)
        let name = Self.tableName(dict, kept: kept)
        let binding = name.flatMap { n in context.index.binding(named: n, at: dict) }
        // the written type: `[Key: State]` (a key struct's fields give the key's enums, by label or
        // in order), `[State: [Event: State]]` or `[State: [(Event, State)]]`
        let resolved = context.resolve(binding?.typeText ?? DSLSupport.annotatedType(of: dict), at: binding?.node ?? Syntax(dict))
        var valueEnum: EnumInfo?, enum0: EnumInfo?, enum1: EnumInfo?
        if let resolved, resolved.externalName == "Dictionary", resolved.arguments.count == 2 {
            let key = resolved.arguments[0], value = resolved.arguments[1]
            if value.externalName == "Dictionary", value.arguments.count == 2 {
                (enum0, enum1, valueEnum) = (key.enumInfo, value.arguments[0].enumInfo, value.arguments[1].enumInfo)
            } else if value.externalName == "Array", let pair = value.arguments.first, pair.externalName == "(tuple)",
                      pair.arguments.count == 2 {
                // `[State: [(Event, State)]]`
                (enum0, enum1, valueEnum) = (key.enumInfo, pair.arguments[0].enumInfo, pair.arguments[1].enumInfo)
            } else {
                valueEnum = value.enumInfo ?? value.arguments.first?.enumInfo
                if let keyType = key.declared, keyType.kind != "enum" {
                    let fields = keyType.properties.filter { !$0.isStatic && !$0.isComputed }
                    let labels = entries[0].components.map(\.label)
                    let chosen: [Binding?] = labels.enumerated().map { i, label in
                        label.map { l in fields.first { $0.name == l } } ?? (i < fields.count ? fields[i] : nil)
                    }
                    let enums = chosen.map { f in f.flatMap { f in f.typeText.flatMap { context.resolve($0, at: f.node)?.enumInfo } } }
                    (enum0, enum1) = (enums[0], enums[1])
                }
            }
        }
        let valueNames = entries.compactMap { Self.target($0.target, context.index)?.name }
        let position0 = Set(entries.map { $0.components[0].name })
        let position1 = Set(entries.map { $0.components[1].name })
        var statePosition: Int?
        if let v = valueEnum {
            if enum0?.key == v.key, enum1?.key != v.key { statePosition = 0 }
            else if enum1?.key == v.key, enum0?.key != v.key { statePosition = 1 }
        }
        if statePosition == nil {
            // no types to tell: the position whose names the values use, and a note that says so
            if !Set(valueNames).isDisjoint(with: position0) && Set(valueNames).isDisjoint(with: position1) { statePosition = 0 }
            else if !Set(valueNames).isDisjoint(with: position1) && Set(valueNames).isDisjoint(with: position0) { statePosition = 1 }
            else if Set(valueNames).isSubset(of: position0) { statePosition = 0 }
            if let sp = statePosition {
                context.warn("no written type says which part of the key is the state; the \(sp == 0 ? "first" : "second") is read as the state because the values name its cases",
                             at: file.location(of: dict), severity: .note)
            }
        }
        guard let sp = statePosition else { return }
        let ip = 1 - sp
        let stateEnum = valueEnum ?? (sp == 0 ? enum0 : enum1)
        let inputEnum = (ip == 0 ? enum0 : enum1).flatMap { $0.key == stateEnum?.key ? nil : $0 }
        let stateNames = entries.map { $0.components[sp].name } + valueNames
        let states = context.caseList(stateEnum, used: stateNames)
        let inputs = context.caseList(inputEnum, used: entries.map { $0.components[ip].name })
        for element in unreadable {
            let text = "\(element.key.compactText): \(element.value.compactText)"
            context.warn("not a (state, event): state entry: \(text.prefix(60)); left out of the machine",
                         at: file.location(of: element))
        }

        var rules: [Rule] = []
        var findings: [Finding] = []
        func twiceFound(_ what: String, subject: String, first: SourceLocation, at location: SourceLocation) {
            findings.append(Finding(
                check: "duplicate_key", severity: .error,
                message: "\(what) is a key of '\(name ?? "the table")' twice (lines \(first.line) and \(location.line)); the dictionary literal traps at run time",
                location: location, subject: subject))
        }
        // (a state written twice as the outer key of a nested table, `.leaping: [.splash: .swimming]` and
        // `.leaping: [.release: .sitting]`: the literal traps whatever the inner keys are)
        var outerSeen: [String: SourceLocation] = [:]
        var twice = Set<String>()
        if case .elements(let list) = dict.content {
            for element in list where SyntaxHelpers.unwrap(element.value).is(DictionaryExprSyntax.self) || SyntaxHelpers.unwrap(element.value).is(ArrayExprSyntax.self) {
                guard let key = SyntaxHelpers.caseReference(SyntaxHelpers.unwrap(element.key), context.index)?.name else { continue }
                let location = file.location(of: element)
                if let first = outerSeen[key] {
                    twice.insert(key)
                    twiceFound("'\(key)'", subject: "\(key)/*", first: first, at: location)
                } else {
                    outerSeen[key] = location
                }
            }
        }
        var seen: [Pair: SourceLocation] = [:]
        var covered = Set<Pair>()
        for entry in entries {
            let location = file.location(of: entry.node)
            let pair = Pair(from: entry.components[sp].name, input: entry.components[ip].name)
            guard let t = Self.target(entry.target, context.index) else { continue }
            let effect = t.effect.map { Effect(label: EffectReader(index: context.index, inputs: Set(inputs), inputKey: nil).shortLabel($0)) }
            if let first = seen[pair], !twice.contains(entry.components[0].name) {
                twiceFound("the pair (\(pair.from), \(pair.input))", subject: "\(pair.from)/\(pair.input)", first: first, at: location)
            } else {
                seen[pair] = location
            }
            covered.insert(pair)
            rules.append(Rule(location: location, outcomes: [Outcome(pairs: [pair], target: .state(t.name), effect: effect)]))
        }
        guard !rules.isEmpty else { return }

        // The lookup: what pairs outside the table do, and where the current state lives.
        var initial: String?
        if let name, let lookup = findLookup(of: dict, named: name, in: subscripts, context: context) {
            let stateExpr = lookup.stateExpression(sp)
            // the variable the state is read from, resolved where the lookup is written; a parameter of
            // the lookup's function holds a state given by the caller (no initial state here)
            let parameter = stateExpr.flatMap { SyntaxHelpers.path($0) }.flatMap { p in lookup.stateParameterNames.contains(p) ? p : nil }
            let variable = parameter == nil ? stateExpr.flatMap { DSLSupport.variable($0, index: context.index) } : nil
            if let v = variable, !v.computed, let value = v.initializer {
                initial = context.initialState(value, states: states)
            }
            if let fallback = lookup.fallback {
                let rest = states.flatMap { s in inputs.map { Pair(from: s, input: $0) } }.filter { !covered.contains($0) }
                var target: Target?
                let f = SyntaxHelpers.unwrap(fallback)
                if let v = variable, DSLSupport.variable(f, index: context.index)?.node.id == v.node.id {
                    target = .stay
                } else if let ref = SyntaxHelpers.caseReference(f, context.index, accepting: states.contains) {
                    target = .state(ref.name)
                } else if let p = SyntaxHelpers.path(f), parameter == p {
                    target = .stay
                } else {
                    context.warn("the fallback `\(f.compactText.prefix(40))` of the lookup in '\(name)' is computed at run time; pairs outside the table are drawn without edges",
                                 at: lookup.location, severity: .note)
                }
                if let target, !rest.isEmpty {
                    rules.append(Rule(location: lookup.location, outcomes: [Outcome(pairs: rest, target: target)], catchAll: true))
                }
            }
        }
        // a table given to a machine's initializer with the state it starts in (`StateMachine(initial: .locked,
        // transitions: [...])`): the one other argument naming a state
        if initial == nil, let call = dict.parent?.as(LabeledExprSyntax.self)?.parent?.parent?.as(FunctionCallExprSyntax.self) {
            let started = call.arguments.compactMap { $0.expression.id != dict.id ? context.initialState($0.expression, states: states) : nil }
            if started.count == 1 { initial = started[0] }
        }
        var machine = Machine(name: name ?? "table@\(file.location(of: dict).line)", dialect: .dictionaryTable,
                              location: file.location(of: dict), states: states, inputs: inputs, initial: initial,
                              rules: rules, order: .resolved,
                              stateLocations: context.locations(stateEnum), inputLocations: context.locations(inputEnum))
        machine.findings = findings
        if Self.testRows(Syntax(dict), stateEnum: stateEnum, name: name, context: context) { return }
        context.add(machine, stateEnum: stateEnum, at: kept?.node ?? Syntax(dict))
    }

    struct Lookup {
        var location: SourceLocation
        var keyArguments: [ExprSyntax]
        var nestedState: ExprSyntax?
        var assignedTo: ExprSyntax?
        var fallback: ExprSyntax?
        var stateParameterNames: [String]
        /// The function the lookup is written in.
        var function: FunctionDeclSyntax?

        /// What the current state is read from: the state-position key argument, or what the result is assigned to.
        func stateExpression(_ statePosition: Int) -> ExprSyntax? {
            if let n = nestedState { return n }
            if keyArguments.count == 2 { return keyArguments[statePosition] }
            return assignedTo
        }
    }

    /// The first subscript (in file order) of the table's own variable: its base resolves, where it is
    /// written, to the variable this literal initialises (another variable of the same name is another table).
    func findLookup(of dict: DictionaryExprSyntax, named name: String, in subscripts: Subscripts, context: ExtractionContext) -> Lookup? {
        for (file, sub) in subscripts.byName[name] ?? [] {
            // the same name elsewhere may be another variable: the base must resolve to this literal's
            guard DSLSupport.heldValue(sub.calledExpression, index: context.index)
                .map({ SyntaxHelpers.unwrap($0).id == dict.id }) == true else { continue }
            var lookup = Lookup(location: file.location(of: sub), keyArguments: [], stateParameterNames: [])
            if let key = sub.arguments.first?.expression {
                let k = SyntaxHelpers.unwrap(key)
                if let call = k.as(FunctionCallExprSyntax.self) {
                    lookup.keyArguments = call.arguments.map(\.expression)
                } else if let t = k.as(TupleExprSyntax.self) {
                    lookup.keyArguments = t.elements.map(\.expression)
                } else if SyntaxHelpers.path(k) != nil {
                    lookup.nestedState = k
                }
            }
            // Walk up through `?[event]`, `?? fallback`, `x = …`.
            var node: Syntax = Syntax(sub)
            var steps = 0
            while let parent = node.parent, steps < 8 {
                steps += 1
                if let list = parent.as(ExprListSyntax.self), list.parent?.is(SequenceExprSyntax.self) == true {
                    let elements = Array(list)
                    if let i = elements.firstIndex(where: { $0.id == node.id }) {
                        if i + 2 < elements.count, let op = elements[i + 1].as(BinaryOperatorExprSyntax.self), op.operator.text == "??" {
                            lookup.fallback = elements[i + 2]
                        }
                        if i >= 2, elements[i - 1].is(AssignmentExprSyntax.self) { lookup.assignedTo = elements[i - 2] }
                    }
                    break
                }
                if parent.is(CodeBlockItemSyntax.self) || parent.is(ReturnStmtSyntax.self) { break }
                node = parent
            }
            if let f = SyntaxHelpers.enclosingFunction(sub) {
                lookup.function = f
                lookup.stateParameterNames = f.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text }
            }
            return lookup
        }
        return nil
    }
}

/// D10 as an array: rows of (from, event, to), tuples or calls (`(.idle, .start, .running)`,
/// `(from: .a, on: .e, to: .b)`, `Transition(from: .a, event: .e, to: .b)`), with an effect as a fourth
/// part. Which part is which: the labels (of the rows, of the written tuple type, or of the row type's
/// stored fields), else the written types (two parts of one enum, the state, and one of another),
/// else the names (the two parts that share case names are the state, with a note). Rows that name the
/// same (from, event) twice with different targets are overlapping rules. The lookup (`rows.first {
/// $0.from == state && … }` in the table's file) names the variable the state lives in, whose
/// initializer, when visible, is the initial state.
struct ArrayTable {
    /// The rows: an array literal's elements, or the calls that register them one by one.
    let rows: [ExprSyntax]
    /// The array literal, or the first registering call.
    let anchor: Syntax
    let file: ParsedFile
    let context: ExtractionContext
    var array: ArrayExprSyntax? { anchor.as(ArrayExprSyntax.self) }

    init(array: ArrayExprSyntax, file: ParsedFile, context: ExtractionContext) {
        rows = array.elements.map(\.expression)
        anchor = Syntax(array)
        self.file = file
        self.context = context
    }

    /// Calls registering one row each on one receiver (`machine.addTransition(from: .closed, on: .open, to:
    /// .opened)`, several in one block).
    init(calls: [FunctionCallExprSyntax], file: ParsedFile, context: ExtractionContext) {
        rows = calls.map { Self.registeredRow($0, context.index) ?? ExprSyntax($0) }
        anchor = Syntax(calls[0])
        self.file = file
        self.context = context
    }

    enum Role { case from, event, to }

    /// Whether moves with no event are named as transitions (a graph's `addEdge(from:to:)` is none): the
    /// registering method (`addTransition`, `allow`, `addRoute`), or the array's name, the label it is given
    /// under (`transitions:`) or its rows' type (`Transition(from:to:)`).
    var namedAsMoves: Bool {
        var names: [String] = []
        if let call = anchor.as(FunctionCallExprSyntax.self) { names.append(DSLSupport.calleeName(call) ?? "") }
        if let array {
            names.append(DictionaryTableRecogniser.tableName(array, context.index) ?? "")
            names.append(array.parent?.as(LabeledExprSyntax.self)?.label?.text ?? "")
            names += rows.prefix(1).compactMap { SyntaxHelpers.unwrap($0).as(FunctionCallExprSyntax.self)?.calledExpression.trimmedText }
        }
        return names.contains { name in ["transition", "route", "move", "allow"].contains(where: name.lowercased().contains) }
    }

    /// The row a registering call gives: its arguments (`m.add(from: .a, on: .e, to: .b)`), or its one
    /// argument's value, written in place or in a local constant (`let prime = Transition(with: .prime,
    /// from: .idle, to: .priming)`, then `m.add(transition: prime)`).
    static func registeredRow(_ call: FunctionCallExprSyntax, _ index: SymbolIndex) -> ExprSyntax? {
        guard call.arguments.count == 1, let argument = call.arguments.first?.expression else { return ExprSyntax(call) }
        if row(argument) != nil { return argument }
        guard SyntaxHelpers.unwrap(argument).is(DeclReferenceExprSyntax.self),
              let local = DSLSupport.variable(argument, index: index), !local.computed,
              let value = local.initializer, row(value) != nil else { return nil }
        return value
    }

    static let labelRoles: [String: Role] = [
        "from": .from, "source": .from, "state": .from, "current": .from, "origin": .from,
        "to": .to, "target": .to, "destination": .to, "next": .to, "dest": .to,
        "event": .event, "input": .event, "on": .event, "trigger": .event, "action": .event, "when": .event,
        "with": .event,
    ]

    /// A key's or a row's parts: a call's arguments (`Key(state: .a, event: .e)`; three and a trailing
    /// closure, the effect, last) or a tuple's elements, with their labels.
    static func parts(_ expr: ExprSyntax) -> [(label: String?, expr: ExprSyntax)] {
        let e = SyntaxHelpers.unwrap(expr)
        if let call = e.as(FunctionCallExprSyntax.self) {
            // (a row's trailing closure is its effect: `fsm.on(.record, from: .stopped, to: .recording) { … }`)
            guard let closure = call.trailingClosure else { return call.arguments.map { ($0.label?.text, $0.expression) } }
            guard call.arguments.count == 3, call.additionalTrailingClosures.isEmpty else { return [] }
            return call.arguments.map { ($0.label?.text, $0.expression) } + [(nil, ExprSyntax(closure))]
        }
        if let tuple = e.as(TupleExprSyntax.self) { return tuple.elements.map { ($0.label?.text, $0.expression) } }
        return []
    }

    /// A row's parts, three or four; or two labelled as a move with no event (`from: .idle, to: .loading`).
    static func row(_ expr: ExprSyntax) -> [(label: String?, expr: ExprSyntax)]? {
        let p = parts(expr)
        if p.count == 2 { return movePair(p.map(\.label)) ? p : nil }
        return p.count == 3 || p.count == 4 ? p : nil
    }

    /// Whether two parts are labelled as a move's source and target (`from:`, `to:`).
    static func movePair(_ labels: [String?]) -> Bool {
        labels.count == 2 && labels.map { $0.flatMap { labelRoles[$0] } } == [.from, .to]
    }

    static func movePair(_ arguments: LabeledExprListSyntax) -> Bool { movePair(arguments.map { $0.label?.text }) }

    /// The case names of a row's first three parts (two for a move), if each names one, or one of them is
    /// an array of cases (`from: [.heating, .boiling]`: a row for each).
    static func caseNames(_ row: [(label: String?, expr: ExprSyntax)], _ index: SymbolIndex) -> [[String]]? {
        var arrays = 0
        let count = row.count == 2 ? 2 : 3
        let names = row.prefix(count).compactMap { part -> [String]? in
            if let one = SyntaxHelpers.caseReference(part.expr, index)?.name { return [one] }
            guard let array = SyntaxHelpers.arrayLiteral(part.expr) ?? loopedArray(part.expr), !array.elements.isEmpty else { return nil }
            arrays += 1
            let many = array.elements.compactMap { SyntaxHelpers.caseReference($0.expression, index)?.name }
            return many.count == array.elements.count ? many : nil
        }
        return names.count == count && arrays <= 1 ? names : nil
    }

    /// The array literal a `for` loop around a row iterates, when the row names the loop's variable
    /// (`for s in [Robot.exploring, .returning] { m.addTransition(from: s, to: .stuck, on: .bump) }`).
    static func loopedArray(_ expr: ExprSyntax) -> ArrayExprSyntax? {
        guard let name = SyntaxHelpers.unwrap(expr).as(DeclReferenceExprSyntax.self), name.argumentNames == nil else { return nil }
        var node = Syntax(name).parent
        while let n = node, !n.is(FunctionDeclSyntax.self), !n.is(InitializerDeclSyntax.self), !n.is(ClosureExprSyntax.self) {
            if let loop = n.as(ForStmtSyntax.self), loop.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name.baseName.text {
                return loop.whereClause == nil ? SyntaxHelpers.arrayLiteral(loop.sequence) : nil
            }
            node = n.parent
        }
        return nil
    }

    /// Whether a row names a case, or an array of cases, in each of its first three parts: a table has most
    /// rows so (`Route(from: [.browsing, .cart], on: .add, to: .cart)`).
    static func readableRow(_ expr: ExprSyntax, _ index: SymbolIndex) -> Bool {
        row(expr).flatMap { caseNames($0, index) } != nil
    }

    /// Per part, the label and the type the written element type gives: `[(from: S, event: E, to: S)]`,
    /// or `[Transition]` with the struct's stored fields (by the row's labels, else in order).
    func writtenParts(_ labels: [String?]) -> [(label: String?, type: String?)] {
        guard let array else { return labels.map { ($0, nil) } }
        var typeSyntax: TypeSyntax?
        if let binding = array.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self) {
            typeSyntax = binding.typeAnnotation?.type
        }
        let element = typeSyntax?.as(ArrayTypeSyntax.self)?.element
        if let tuple = element?.as(TupleTypeSyntax.self), tuple.elements.count >= 3 {
            return tuple.elements.map { ($0.firstName?.text, $0.type.trimmedText) }
        }
        // the row type: the written element type, else the rows' called type (`Transition(…)`)
        let rowType = element?.trimmedText ?? array.elements.lazy.compactMap { e -> String? in
            SyntaxHelpers.unwrap(e.expression).as(FunctionCallExprSyntax.self).map { $0.calledExpression.trimmedText }
        }.first { !$0.hasPrefix(".") }
        guard let rowType, let declared = context.index.type(rowType, in: context.index.scope(of: array)), declared.kind != "enum" else {
            return labels.map { ($0, nil) }
        }
        let fields = declared.properties.filter { !$0.isStatic && !$0.isComputed }
        return labels.enumerated().map { i, label in
            let field = label.map { l in fields.first { $0.name == l } } ?? (i < fields.count ? fields[i] : nil)
            return (label ?? field?.name, field?.typeText)
        }
    }

    func build() {
        let index = context.index
        var rows: [(parts: [(label: String?, expr: ExprSyntax)], names: [[String]], node: Syntax)] = []
        var unreadable: [ExprSyntax] = []
        for element in self.rows {
            if let parts = Self.row(element), let names = Self.caseNames(parts, index) {
                rows.append((parts, names, element.parent?.as(ArrayElementSyntax.self).map(Syntax.init) ?? Syntax(element)))
            } else {
                unreadable.append(element)
            }
        }
        // (moves with no event, `m.addTransition(from: .idle, to: .loading)`: read as rows whose event is `*`)
        let moves = rows.first?.parts.count == 2
        rows = rows.filter { ($0.parts.count == 2) == moves }.map { row in
            moves ? ([row.parts[0], ("on", row.parts[1].expr), row.parts[1]], [row.names[0], ["*"], row.names[1]], row.node) : row
        }
        guard let first = rows.first, !moves || namedAsMoves else { return }
        let written = writtenParts(first.parts.map(\.label))
        let location = file.location(of: anchor)
        // registering calls: the enums the receiver's written type names (`Machine<Door, DoorEvent>`), by the
        // cases each part uses
        let receiver = array == nil ? anchor.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self)?.base : nil
        // (rows registered on `self` by a subclass of the generic machine: `Machine<Phase, Event>` names the
        // enums, `super.init(initial: .queued)` starts it, and the subclass names it)
        let inherited = array == nil && receiver.map(SyntaxHelpers.isSelf) != false ? Self.inheritedMachine(around: anchor) : nil
        let variable = receiver.flatMap { DSLSupport.variable($0, index: index) }
        // the call building the machine: the receiver's initializer, the call whose trailing closure is
        // given the receiver (`FSM(initialState: .cold) { fsm in fsm.on(…) }`), or the call the array is given to
        let handed = receiver.flatMap { Self.builderHanding($0) }
        let builder = array.map { $0.parent?.as(LabeledExprSyntax.self)?.parent?.parent?.as(FunctionCallExprSyntax.self) }
            ?? variable?.initializer.flatMap { SyntaxHelpers.unwrap($0).as(FunctionCallExprSyntax.self) } ?? handed
            ?? receiver.flatMap { Self.assignedBuilder(of: $0, around: anchor) } ?? inherited.flatMap { _ in Self.superInit(around: anchor) }
        var named: [EnumInfo] = []
        if let text = inherited?.superclass.trimmedText ?? receiver.flatMap({ context.index.binding(referencedBy: $0)?.typeText })
            ?? builder?.calledExpression.trimmedText {
            named = DSLSupport.genericType(text, at: anchor, index: index).arguments.compactMap(\.enumInfo)
        }
        let labels = (0..<3).map { i in first.parts[i].label ?? (i < written.count ? written[i].label : nil) }
        // the roles: by label, else by type, else by name
        var roles: [Role?] = (0..<3).map { i in i < written.count ? written[i].label.flatMap { Self.labelRoles[$0] } : nil }
        let enums: [EnumInfo?] = (0..<3).map { i in
            if moves, i == 1 { return nil }
            if !named.isEmpty {
                return context.enumDeclaring(Set(rows.flatMap { $0.names[i] }), among: named, role: "row part", at: location)
            }
            return i < written.count ? written[i].type.flatMap { index.enumInfo($0, in: index.scope(of: anchor)) } : nil
        }
        if Set(roles.compactMap { $0 }).count != 3 {
            roles = [nil, nil, nil]
            if let e = enums[0], let f = enums[1], let g = enums[2] {
                if e.key == g.key, f.key != e.key { roles = [.from, .event, .to] }
                else if e.key == f.key, g.key != e.key { roles = [.from, .to, .event] }
                else if f.key == g.key, e.key != f.key { roles = [.event, .from, .to] }
            }
        }
        if Set(roles.compactMap { $0 }).count != 3 {
            // without types, a part labelled with another word (`is:`, `expected:`) is no part of a transition
            guard labels.allSatisfy({ $0.map { Self.labelRoles[$0] != nil } ?? true }) else { return }
            // the two positions that name the same cases are the state, the first of them the source
            let sets = (0..<3).map { i in Set(rows.flatMap { $0.names[i] }) }
            let shared = [(0, 2, 1), (0, 1, 2), (1, 2, 0)].filter { a, b, c in
                !sets[a].isDisjoint(with: sets[b]) && sets[c].isDisjoint(with: sets[a].union(sets[b]))
            }
            guard shared.count == 1, let (a, b, c) = shared.first else { return }
            roles = [nil, nil, nil]
            (roles[a], roles[b], roles[c]) = (.from, .to, .event)
            context.warn("no written type or label says which part of a row is the state; parts \(a + 1) and \(b + 1) are read as the source and target states because they name the same cases",
                         at: location, severity: .note)
        }
        guard let fromAt = roles.firstIndex(of: .from), let toAt = roles.firstIndex(of: .to),
              let eventAt = roles.firstIndex(of: .event) else { return }
        let stateEnum = enums[fromAt] ?? enums[toAt]
        let inputEnum = enums[eventAt].flatMap { $0.key == stateEnum?.key ? nil : $0 }
        // (a row leads to one state)
        for row in rows where row.names[toAt].count != 1 { unreadable.append(ExprSyntax(fromProtocol: row.parts[toAt].expr)) }
        rows.removeAll { $0.names[toAt].count != 1 }
        let states = context.caseList(stateEnum, used: rows.flatMap { $0.names[fromAt] + $0.names[toAt] })
        let inputs = moves ? [] : context.caseList(inputEnum, used: rows.flatMap { $0.names[eventAt] })
        for element in unreadable {
            context.warn("not a (from, event, to) row: \(element.compactText.prefix(60)); left out of the machine",
                         at: file.location(of: element))
        }
        let reader = EffectReader(index: index, inputs: Set(inputs), inputKey: nil)
        let rules = rows.map { row in
            Rule(location: file.location(of: row.node),
                 outcomes: [Outcome(pairs: row.names[fromAt].flatMap { from in row.names[eventAt].map { Pair(from: from, input: $0) } },
                                    target: .state(row.names[toAt][0]),
                                    effect: row.parts.count == 4 ? Effect(label: reader.shortLabel(row.parts[3].expr)) : nil)])
        }
        let kept = array.flatMap { DictionaryTableRecogniser.keeper($0, index) }
        let name = array.flatMap { DictionaryTableRecogniser.tableName($0, kept: kept) } ?? handed.flatMap { SyntaxHelpers.enclosingBindingName($0) }
            ?? inherited?.type.name.text ?? receiver.flatMap { SyntaxHelpers.lastName($0) }
        let fromLabel = labels[fromAt] ?? (fromAt < written.count ? written[fromAt].label : nil)
        var initial: String?
        // `Machine<Door, DoorEvent>(initial: .closed)`: the builder's one argument naming a state
        let started = builder?.arguments.compactMap { context.initialState($0.expression, states: states) } ?? []
        // (rows looked up with `first(where:)` only: the first row of a source and event wins)
        var order = RuleOrder.resolved
        if array != nil, let n = name, let field = fromLabel {
            let lookup = lookedUpState(table: n, field: field)
            initial = lookup.state.flatMap { DSLSupport.variable($0, index: index) }
                .flatMap { v in v.computed ? nil : v.initializer.flatMap { context.initialState($0, states: states) } }
            if !lookup.methods.isEmpty, lookup.methods.isSubset(of: ["first", "firstIndex"]) { order = .firstMatch }
        }
        if initial == nil, started.count == 1 { initial = started[0] }
        if DictionaryTableRecogniser.testRows(anchor, stateEnum: stateEnum, name: name, context: context) { return }
        context.add(Machine(name: name ?? "table@\(location.line)", dialect: .dictionaryTable, location: location,
                            states: states, inputs: inputs, initial: initial, rules: rules, order: order,
                            stateLocations: context.locations(stateEnum), inputLocations: context.locations(inputEnum)),
                    stateEnum: stateEnum, at: handed.map(Syntax.init) ?? variable?.node ?? inherited.map { Syntax($0.type) }
                        ?? kept?.node ?? anchor)
        // the construction's candidate is this machine
        if let builder { context.constructionMachines[builder.id, default: []].append(location) }
    }

    /// The class around a node that inherits from a generic class (`final class Download: Machine<Phase,
    /// Event>`), with that superclass.
    static func inheritedMachine(around node: Syntax) -> (type: ClassDeclSyntax, superclass: TypeSyntax)? {
        guard let type = SyntaxHelpers.nearest(node, { n -> ClassDeclSyntax? in n.as(ClassDeclSyntax.self) }),
              let first = type.inheritanceClause?.inheritedTypes.first?.type,
              first.as(IdentifierTypeSyntax.self)?.genericArgumentClause != nil else { return nil }
        return (type, first)
    }

    /// The `super.init(…)` call of the initializer around a node.
    static func superInit(around node: Syntax) -> FunctionCallExprSyntax? {
        let initializer = SyntaxHelpers.nearest(node) { $0.as(InitializerDeclSyntax.self) }
        return initializer?.body?.statements.lazy.compactMap { item in
            item.item.as(FunctionCallExprSyntax.self) ?? item.item.as(ExpressionStmtSyntax.self)?.expression.as(FunctionCallExprSyntax.self)
        }.first { $0.calledExpression.trimmedText == "super.init" }
    }

    /// The call a property without an initial value is given in its type's initializers or in the function
    /// registering the rows (`machine = Machine<Gate, Coin>(initial: .locked)` in `init()`).
    static func assignedBuilder(of receiver: ExprSyntax, around anchor: Syntax) -> FunctionCallExprSyntax? {
        guard let name = SyntaxHelpers.lastName(receiver) else { return nil }
        let function = SyntaxHelpers.nearest(anchor) { n -> Syntax? in
            n.is(FunctionDeclSyntax.self) || n.is(InitializerDeclSyntax.self) ? n : nil
        }
        let type = function.flatMap { f in SyntaxHelpers.nearest(f) { SymbolIndex.isTypeDeclaration($0.kind) ? $0 : nil } }
        let initializers = type?.asProtocol(DeclGroupSyntax.self)?.memberBlock.members.compactMap { $0.decl.as(InitializerDeclSyntax.self)?.body } ?? []
        let bodies = [function?.as(FunctionDeclSyntax.self)?.body ?? function?.as(InitializerDeclSyntax.self)?.body].compactMap { $0 } + initializers
        for body in bodies {
            for (lhs, rhs) in SwitchFinder.scan(body).assignments where [name, "self." + name].contains(SyntaxHelpers.path(lhs) ?? "") {
                if let call = SyntaxHelpers.unwrap(rhs).as(FunctionCallExprSyntax.self) { return call }
            }
        }
        return nil
    }

    /// The call whose trailing closure takes `receiver` as its parameter (`FSM(…) { fsm in fsm.on(…) }`).
    static func builderHanding(_ receiver: ExprSyntax) -> FunctionCallExprSyntax? {
        guard let name = receiver.as(DeclReferenceExprSyntax.self)?.baseName.text else { return nil }
        var node = receiver.parent
        while let n = node {
            if let closure = n.as(ClosureExprSyntax.self) {
                guard SyntaxHelpers.closureParameterNames(closure).contains(name) else { return nil }
                let call = closure.parent?.as(FunctionCallExprSyntax.self)
                return call?.trailingClosure?.id == closure.id ? call : nil
            }
            node = n.parent
        }
        return nil
    }
}

extension ArrayTable {
    /// What the table's lookup compares a row's source with: `X` in `table.first { $0.from == X }` (or
    /// `{ row in X == row.from }`, `{ $0.from.contains(X) }`), a call on the table's variable in its file. Nil when there is none,
    /// or several lookups compare with different things. With it, the methods that look rows up so.
    func lookedUpState(table: String, field: String) -> (state: ExprSyntax?, methods: Set<String>) {
        final class Finder: SyntaxVisitor {
            let table: String, field: String
            var compared: [ExprSyntax] = []
            /// The methods that look a row up (`first`, `filter`, …).
            var methods: Set<String> = []
            init(table: String, field: String) {
                self.table = table
                self.field = field
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                guard let member = node.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
                      SyntaxHelpers.path(base).map({ $0 == table || $0.hasSuffix("." + table) }) == true else { return .visitChildren }
                let before = compared.count
                defer { if compared.count > before { methods.insert(member.declName.baseName.text) } }
                for closure in SyntaxHelpers.closures(of: node) {
                    let row = SyntaxHelpers.closureParameterNames(closure).first ?? "$0"
                    for token in closure.tokens(viewMode: .sourceAccurate) where token.tokenKind == .binaryOperator("==") {
                        guard let list = token.parent?.parent?.as(ExprListSyntax.self) else { continue }
                        let items = Array(list)
                        guard let i = items.firstIndex(where: { $0.id == token.parent?.id }), i > 0, i + 1 < items.count else { continue }
                        let sides = [items[i - 1], items[i + 1]]
                        let isRowField = { (e: ExprSyntax) in SyntaxHelpers.path(e) == "\(row).\(self.field)" }
                        if isRowField(sides[0]) { compared.append(sides[1]) } else if isRowField(sides[1]) { compared.append(sides[0]) }
                    }
                    // (a row with several sources: `$0.from.contains(state)`)
                    for token in closure.tokens(viewMode: .sourceAccurate) where token.text == "contains" {
                        guard let member = token.parent?.parent?.as(MemberAccessExprSyntax.self),
                              let call = member.parent?.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
                              let argument = call.arguments.first, argument.label == nil,
                              member.base.flatMap(SyntaxHelpers.path) == "\(row).\(field)" else { continue }
                        compared.append(argument.expression)
                    }
                }
                return .visitChildren
            }
        }
        let finder = Finder(table: table, field: field)
        finder.walk(file.tree)
        guard let first = finder.compared.first, finder.compared.allSatisfy({ $0.trimmedText == first.trimmedText }) else { return (nil, finder.methods) }
        return (first, finder.methods)
    }
}

extension SyntaxHelpers {
    static func enclosingFunction(_ node: some SyntaxProtocol) -> FunctionDeclSyntax? {
        var current = node.parent
        while let c = current {
            if let f = c.as(FunctionDeclSyntax.self) { return f }
            current = c.parent
        }
        return nil
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
