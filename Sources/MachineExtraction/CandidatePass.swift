import MachineModel
import SwiftSyntax

/// Finds everything shaped like a machine, independently of the recognisers, and after extraction
/// says what became of each: the machines read from it, or a diagnostic (a note) saying why none was.
/// Shapes: `@Reducer` types, `Reduce { }` / `Reducer { }` closures outside one, constructions of the
/// dialects' machine types (`Harvester(…)`, `Automaton(…)`, `Actomaton(…)`, `StateMachine(…)`,
/// `GKStateMachine(states:)` and subclasses of it), operator tables, dictionaries keyed by state and
/// event, and a `switch` over a stored enum property (or `self` of an enum) that the type also assigns.
enum CandidatePass {
    struct Found {
        var shape: String
        var name: String
        var file: ParsedFile
        var node: Syntax
        /// Where machines read from it are located (the node itself, or the methods holding its switches).
        var ranges: [Syntax]
        /// What usually keeps such a shape from being a machine, when no diagnostic says more.
        var reason: String
        /// Where only a machine of the candidate's own name is read from it: the methods that assign a
        /// property a `switch` is over (its rules are there, not in the method that switches).
        var namedRanges: [Syntax] = []
        /// The index key of a constructed type declared in the given files: the machines read from its
        /// own members (`Owner.StateMachine.state`) are read from the construction.
        var typeKey: String? = nil
    }

    /// Machine types the dialects construct, by their last name.
    static let constructedTypes: Set<String> = ["Automaton", "Harvester", "Actomaton", "StateMachine", "GKStateMachine"]

    /// The types whose construction is a candidate: the dialects' and the project's `GKStateMachine` subclasses.
    static func machineTypes(_ context: ExtractionContext) -> Set<String> {
        constructedTypes.union(GameplayKitRecogniser.machineClasses(context))
    }

    /// Finds the shapes in one file as the file is loaded (FileReading); what needs the index, a
    /// construction's type, a dictionary's keys, a switch's subject, `found(context:machineTypes:)`
    /// judges once the index is built.
    final class Finder: SyntaxVisitor {
        let file: ParsedFile
        /// What the walk found, in walk order.
        private var entries: [Entry] = []
        private enum Entry {
            case found(Found)
            /// A call of a type, by the type's last name: a candidate when it names a machine type.
            case construction(FunctionCallExprSyntax, type: String)
            /// A dictionary literal with elements: a candidate when keyed by state and event, and then
            /// what is inside it is not looked at.
            case dictionary(DictionaryExprSyntax)
            /// A `switch` in a method of a type.
            case switchExpr(SwitchExprSyntax, function: FunctionDeclSyntax, typeNames: [String])

            var node: Syntax {
                switch self {
                case .found(let f): f.node
                case .construction(let call, _): Syntax(call)
                case .dictionary(let d): Syntax(d)
                case .switchExpr(let sw, _, _): Syntax(sw)
                }
            }
        }

        init(file: ParsedFile) {
            self.file = file
            super.init(viewMode: .sourceAccurate)
        }

        /// The candidates of the file, in walk order; `machineTypes`: the types whose construction is one.
        func found(context: ExtractionContext, machineTypes: Set<String>) -> [Found] {
            var found: [Found] = []
            // (type, property) pairs already listed: one candidate per state property
            var seenProperties: [String: Int] = [:]
            var table: DictionaryExprSyntax?
            for entry in entries {
                if let table, SyntaxHelpers.isWithin(entry.node, table) { continue }
                switch entry {
                case .found(var f):
                    // (a feature's machines are its State's fields, wherever its `body` is written)
                    if f.shape == "@Reducer", case let name = f.name,
                       let t = context.index.type(name, in: context.index.scope(of: f.node)), t.name == name { f.typeKey = t.key }
                    found.append(f)
                case .construction(let call, let type):
                    guard machineTypes.contains(type) else { continue }
                    let declared = context.index.type(Self.calledType(call).trimmedDescription, in: context.index.scope(of: call))
                    let reason = "the rules it is built from (its table, mapping, reducer or states) were not found in the given files"
                        + (declared.map { t in
                            ", and no machine was read from the members of `\(t.qualifiedName)` (\(t.file.baseName):\(t.location.line)) either (no enum property or enum type that its methods switch over and change)"
                        } ?? "")
                    found.append(Found(shape: "\(type)(…)", name: Self.name(call), file: file, node: Syntax(call), ranges: [Syntax(call)],
                                       reason: reason, typeKey: declared?.key))
                case .dictionary(let node):
                    guard DictionaryTableRecogniser.isTable(node, context.index) else { continue }
                    found.append(Found(shape: "dictionary keyed by state and event", name: SyntaxHelpers.enclosingBindingName(node) ?? "table",
                                       file: file, node: Syntax(node), ranges: [Syntax(node)], reason: "none of its entries could be read"))
                    table = node
                case .switchExpr(let node, let function, let typeNames):
                    for c in Self.switchCandidates(node, function: function, typeNames: typeNames, context: context) {
                        if let i = seenProperties[c.key] {
                            found[i].ranges.append(Syntax(function))
                            continue
                        }
                        seenProperties[c.key] = found.count
                        found.append(Found(shape: c.shape, name: c.name, file: file, node: Syntax(node), ranges: [Syntax(function)], reason: c.reason,
                                           namedRanges: c.assigning.filter { $0.1.path == file.path }.map { Syntax($0.0) }))
                    }
                }
            }
            return found
        }

        static func name(_ call: FunctionCallExprSyntax) -> String {
            DSLSupport.storageName(call) ?? DSLSupport.enclosingFunctionName(call) ?? "top level"
        }

        static func hasReducerAttribute(_ attributes: AttributeListSyntax) -> Bool {
            attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedText == "Reducer" }
        }

        func addReducerType(_ name: String, _ node: some SyntaxProtocol) {
            entries.append(.found(Found(shape: "@Reducer", name: name, file: file, node: Syntax(node), ranges: [Syntax(node)],
                               reason: "its reducer assigns no field of its State whose type is an enum, a Bool or an optional")))
        }

        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
            if Self.hasReducerAttribute(node.attributes) { addReducerType(node.name.text, node) }
            return .visitChildren
        }

        override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
            if Self.hasReducerAttribute(node.attributes) { addReducerType(node.name.text, node) }
            return .visitChildren
        }

        static func insideReducerType(_ node: some SyntaxProtocol) -> Bool {
            var current = node.parent
            while let c = current {
                if let s = c.as(StructDeclSyntax.self), Self.hasReducerAttribute(s.attributes) { return true }
                if let e = c.as(EnumDeclSyntax.self), Self.hasReducerAttribute(e.attributes) { return true }
                current = c.parent
            }
            return false
        }

        /// `Reduce`, `Reducer<S, A, E>`, `Harvester.init`: the called type's last name.
        static func calledTypeName(_ call: FunctionCallExprSyntax) -> String? {
            calledTypeName(calledType(call))
        }

        /// The type a call constructs, as written (`Owner.StateMachine` of `Owner.StateMachine.init<…>(…)`).
        static func calledType(_ call: FunctionCallExprSyntax) -> ExprSyntax {
            var callee = call.calledExpression
            if let spec = callee.as(GenericSpecializationExprSyntax.self) { callee = spec.expression }
            if let member = callee.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init", let base = member.base {
                callee = base
            }
            return callee.as(GenericSpecializationExprSyntax.self)?.expression ?? callee
        }

        static func calledTypeName(_ callee: ExprSyntax) -> String? {
            var e = callee
            if let spec = e.as(GenericSpecializationExprSyntax.self) { e = spec.expression }
            let name: String
            if let ref = e.as(DeclReferenceExprSyntax.self) { name = ref.baseName.text }
            else if let member = e.as(MemberAccessExprSyntax.self), member.base != nil { name = member.declName.baseName.text }
            else { return nil }
            return name   // compared with the frameworks' type names only
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            guard let type = Self.calledTypeName(node) else { return .visitChildren }
            if type == "Reduce" || type == "Reducer",
               node.trailingClosure != nil || node.arguments.contains(where: { $0.expression.is(ClosureExprSyntax.self) }),
               !Self.insideReducerType(node) {
                entries.append(.found(Found(shape: "\(type) { }", name: Self.name(node), file: file, node: Syntax(node), ranges: [Syntax(node)],
                                            reason: "its closure switches over no state or action the tool could identify")))
            } else {
                entries.append(.construction(node, type: type))
            }
            return .visitChildren
        }

        override func visit(_ node: ArrayExprSyntax) -> SyntaxVisitorContinueKind {
            if node.elements.contains(where: { OperatorTableRecogniser.row($0.expression) != nil }) {
                entries.append(.found(Found(shape: "operator table", name: SyntaxHelpers.enclosingBindingName(node) ?? "table", file: file,
                                            node: Syntax(node), ranges: [Syntax(node)], reason: "none of its rows could be read")))
                return .skipChildren
            }
            return .visitChildren
        }

        override func visit(_ node: DictionaryExprSyntax) -> SyntaxVisitorContinueKind {
            if case .elements(let list) = node.content, !list.isEmpty { entries.append(.dictionary(node)) }
            return .visitChildren
        }

        override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind {
            guard let function = SyntaxHelpers.enclosingFunction(node) else { return .visitChildren }
            let typeNames = SyntaxHelpers.enclosingTypeNames(node)
            guard !typeNames.isEmpty else { return .visitChildren }
            entries.append(.switchExpr(node, function: function, typeNames: typeNames))
            return .visitChildren
        }

        struct Switched {
            var key, shape, name: String
            /// The methods that assign the property.
            var assigning: [(FunctionDeclSyntax, ParsedFile)]
            var reason: String
        }

        /// A `switch` over `self` of an enum, or over a stored property of a machine's state type that a
        /// method assigns; `key` names the type and property (one candidate each).
        static func switchCandidates(_ node: SwitchExprSyntax, function: FunctionDeclSyntax, typeNames: [String],
                                     context: ExtractionContext) -> [Switched] {
            var result: [Switched] = []
            let qualified = typeNames.joined(separator: ".")
            // the type the switch is written in, resolved where it is written
            let enclosing = context.index.type(qualified, in: context.index.scope(of: node))
            let subject = SyntaxHelpers.unwrap(node.subject)
            let parts = subject.as(TupleExprSyntax.self).map { $0.elements.map(\.expression) } ?? [subject]
            for part in parts {
                // (a local or parameter of the property's name hides it: `func describe(state: State)`)
                guard let path = SyntaxHelpers.path(part), !path.contains("."), !SymbolIndex.isLocalName(part) else { continue }
                if path == "self" {
                    guard let info = enclosing?.enumInfo, !info.cases.isEmpty,
                          function.modifiers.contains(where: { $0.name.text == "mutating" }), let body = function.body,
                          SwitchFinder.scan(body).assignments.contains(where: { $0.lhs.trimmedText == "self" }) else { continue }
                    result.append(Switched(key: qualified + ".self", shape: "switch over self", name: qualified, assigning: [], reason:
                                   "the method that switches over it takes no event parameter of an enum type declared in the given files, and its mutating methods are not read as its events (that needs an enum named as a state, \(SwitchMethodRecogniser.stateWords.joined(separator: ", ")), that no other type holds, and two methods that change it)"))
                } else if let type = enclosing,
                          let property = type.properties.first(where: { $0.name == path && !$0.isComputed && !$0.isStatic }),
                          SwitchMethodRecogniser().stateType(of: property, owner: type, context: context) != nil,
                          // (in a closure too, `DispatchQueue.main.async { self.state = .full }`, for a property named as a
                          // state: generated code sets its other values in decoding closures)
                          case let inClosures = SwitchMethodRecogniser.namedAsState(path),
                          case let assigning = type.methods.filter({ m, _ in
                              m.body.map { body in
                                  (inClosures ? SwitchFinder.scanAll(body) : SwitchFinder.scan(body)).assignments.contains {
                                      SyntaxHelpers.path($0.lhs) == path && !SymbolIndex.isLocalName($0.lhs)
                                  }
                              } ?? false
                          }), !assigning.isEmpty {
                    result.append(Switched(key: qualified + "." + path, shape: "switch over a state property", name: "\(typeNames.last!).\(path)",
                                           assigning: assigning, reason:
                                   "no method that assigns it also switches over it with an event parameter of an enum type declared in the given files, and its type's methods are not read as its events (that needs it or its enum named as a state, \(SwitchMethodRecogniser.stateWords.joined(separator: ", ")), or a method whose `switch` over it assigns it where no case carries data, and two methods that change it, or one stepping it through its cases)"))
                }
            }
            return result
        }
    }

    /// What became of each candidate. Candidates that became no machine and have no diagnostic inside
    /// them get a note saying why (added to `diagnostics`): the reason a recogniser gave for the node
    /// (`reasons`, a construction whose reducer is declared elsewhere), else the candidate's own.
    static func explain(_ found: [Found], machines: [Machine], built: [SyntaxIdentifier: [SourceLocation]],
                        reasons: [SyntaxIdentifier: String], diagnostics: inout [Diagnostic]) -> [Candidate] {
        var result: [Candidate] = []
        // the lines of machines and their rules, and the diagnostics, by file: a candidate looks at its
        // own file's only (a code base has thousands of each)
        var machineLines: [String: [(machine: Int, line: Int)]] = [:]
        var machinesAt: [SourceLocation: [Int]] = [:]
        // the machines read from a type's members, by the type's index key
        var machinesOf: [Substring: [Int]] = [:]
        for (k, m) in machines.enumerated() {
            // the id without its disambiguating suffix (`@File.swift`, `#2`): the type's own, or a member's
            var id = Substring(m.id)
            if let at = id.lastIndex(of: "@") { id = id[..<at] }
            if let hash = id.lastIndex(of: "#"), id[id.index(after: hash)...].allSatisfy(\.isNumber) { id = id[..<hash] }
            machinesOf[id, default: []].append(k)
            if let dot = id.lastIndex(of: ".") { machinesOf[id[..<dot], default: []].append(k) }
            machineLines[m.location.file, default: []].append((k, m.location.line))
            for rule in m.rules { machineLines[rule.location.file, default: []].append((k, rule.location.line)) }
            machinesAt[m.location, default: []].append(k)
        }
        var diagnosticsIn: [String: [Int]] = [:]
        for (k, d) in diagnostics.enumerated() { if let file = d.location?.file { diagnosticsIn[file, default: []].append(k) } }
        for f in found {
            func lines(_ node: Syntax) -> (Int, Int) {
                (f.file.location(of: node).line, f.file.location(at: node.endPositionBeforeTrailingTrivia).line)
            }
            let spans = f.ranges.map(lines), named = f.namedRanges.map(lines)
            func inside(_ line: Int) -> Bool { spans.contains { line >= $0.0 && line <= $0.1 } }
            func ownName(_ k: Int) -> Bool {
                let n = machines[k].name
                return n == f.name || n.hasSuffix("." + f.name) || n.hasSuffix("#" + f.name)
            }
            func insideNamed(_ line: Int) -> Bool { named.contains { line >= $0.0 && line <= $0.1 } }
            let location = f.file.location(of: f.node)
            var covering = Set((machineLines[f.file.path] ?? []).filter { entry in
                inside(entry.line) || (insideNamed(entry.line) && ownName(entry.machine))
            }.map(\.machine))
            for l in Set(built[f.node.id] ?? []) { covering.formUnion(machinesAt[l] ?? []) }
            if let key = f.typeKey {
                covering.formUnion(machinesOf[Substring(key)] ?? [])
                if f.shape == "@Reducer" { covering.formUnion(machinesOf[Substring(key + ".State")] ?? []) }
            }
            if !covering.isEmpty {
                result.append(Candidate(shape: f.shape, name: f.name, location: location, outcome: .machine,
                                        machines: covering.sorted().map { machines[$0].id }.uniqued()))
                continue
            }
            if let k = diagnosticsIn[f.file.path]?.first(where: { inside(diagnostics[$0].location!.line) }) {
                result.append(Candidate(shape: f.shape, name: f.name, location: location, outcome: .diagnostic, reason: diagnostics[k].message))
                continue
            }
            let message = "`\(f.name)` is shaped like a state machine (\(f.shape)) but none was read from it: \(reasons[f.node.id] ?? f.reason)"
            diagnosticsIn[location.file, default: []].append(diagnostics.count)
            diagnostics.append(Diagnostic(severity: .note, message: message, location: location))
            result.append(Candidate(shape: f.shape, name: f.name, location: location, outcome: .diagnostic, reason: message))
        }
        return result
    }
}
