import MachineModel
import SwiftSyntax

/// D10: a dictionary literal from (state, event) to the next state:
/// - keyed by a struct (`Key(state: .a, event: .e): .b`, `.init(…)`, unlabelled `Key(.a, .e)`) or a tuple,
/// - or nested, state first (`[.a: [.e: .b]]`),
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
        init() { super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: DictionaryExprSyntax) -> SyntaxVisitorContinueKind {
            if case .elements(let list) = node.content, !list.isEmpty { literals.append(node) }
            return .visitChildren
        }

        /// The tables: literals with an entry keyed by a state and an event (case names, resolved with
        /// the index), and not inside another table.
        func dictionaries(index: SymbolIndex) -> [DictionaryExprSyntax] {
            SyntaxHelpers.outermost(literals, node: { Syntax($0) }) { DictionaryTableRecogniser.isTable($0, index) }
        }
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
        guard target(element.value, index) != nil else { return [] }
        var args: [(String?, ExprSyntax)] = []
        if let call = key.as(FunctionCallExprSyntax.self), call.trailingClosure == nil {
            args = call.arguments.map { ($0.label?.text, $0.expression) }
        } else if let tuple = key.as(TupleExprSyntax.self) {
            args = tuple.elements.map { ($0.label?.text, $0.expression) }
        }
        guard args.count == 2 else { return [] }
        var components: [(label: String?, name: String)] = []
        for (label, expr) in args {
            guard let ref = SyntaxHelpers.caseReference(expr, index) else { return [] }
            components.append((label, ref.name))
        }
        return [Entry(components: components, target: element.value, node: Syntax(element))]
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
        let name = SyntaxHelpers.enclosingBindingName(dict)
        let binding = name.flatMap { n in context.index.binding(named: n, at: dict) }
        // the written type: `[Key: State]` (a key struct's fields give the key's enums, by label or
        // in order) or `[State: [Event: State]]`
        let resolved = context.resolve(binding?.typeText ?? DSLSupport.annotatedType(of: dict), at: binding?.node ?? Syntax(dict))
        var valueEnum: EnumInfo?, enum0: EnumInfo?, enum1: EnumInfo?
        if let resolved, resolved.externalName == "Dictionary", resolved.arguments.count == 2 {
            let key = resolved.arguments[0], value = resolved.arguments[1]
            if value.externalName == "Dictionary", value.arguments.count == 2 {
                (enum0, enum1, valueEnum) = (key.enumInfo, value.arguments[0].enumInfo, value.arguments[1].enumInfo)
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
        var seen: [Pair: SourceLocation] = [:]
        var covered = Set<Pair>()
        for entry in entries {
            let location = file.location(of: entry.node)
            let pair = Pair(from: entry.components[sp].name, input: entry.components[ip].name)
            guard let t = Self.target(entry.target, context.index) else { continue }
            let effect = t.effect.map { Effect(label: EffectReader(index: context.index, inputs: Set(inputs), inputKey: nil).shortLabel($0)) }
            if let first = seen[pair] {
                findings.append(Finding(
                    check: "duplicate_key", severity: .error,
                    message: "the pair (\(pair.from), \(pair.input)) is a key of '\(name ?? "the table")' twice (lines \(first.line) and \(location.line)); the dictionary literal traps at run time",
                    location: location, subject: "\(pair.from)/\(pair.input)"))
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
        var machine = Machine(name: name ?? "table@\(file.location(of: dict).line)", dialect: .dictionaryTable,
                              location: file.location(of: dict), states: states, inputs: inputs, initial: initial,
                              rules: rules, order: .resolved,
                              stateLocations: context.locations(stateEnum), inputLocations: context.locations(inputEnum))
        machine.findings = findings
        context.add(machine, stateEnum: stateEnum, at: dict)
    }

    struct Lookup {
        var location: SourceLocation
        var keyArguments: [ExprSyntax]
        var nestedState: ExprSyntax?
        var assignedTo: ExprSyntax?
        var fallback: ExprSyntax?
        var stateParameterNames: [String]

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
            guard DSLSupport.variable(sub.calledExpression, index: context.index)?.initializer
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
                lookup.stateParameterNames = f.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text }
            }
            return lookup
        }
        return nil
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
