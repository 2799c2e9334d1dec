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
    }

    /// Machine types the dialects construct, by their last name.
    static let constructedTypes: Set<String> = ["Automaton", "Harvester", "Actomaton", "StateMachine", "GKStateMachine"]

    /// The types whose construction is a candidate: the dialects' and the project's `GKStateMachine` subclasses.
    static func machineTypes(_ context: ExtractionContext) -> Set<String> {
        constructedTypes.union(GameplayKitRecogniser.machineClasses(context))
    }

    final class Finder: SyntaxVisitor {
        let file: ParsedFile
        let context: ExtractionContext
        let machineTypes: Set<String>
        var found: [Found] = []
        /// (type, property) pairs already listed: one candidate per state property.
        var seenProperties: [String: Int] = [:]

        init(file: ParsedFile, context: ExtractionContext, machineTypes: Set<String>) {
            self.file = file
            self.context = context
            self.machineTypes = machineTypes
            super.init(viewMode: .sourceAccurate)
        }

        static func hasReducerAttribute(_ attributes: AttributeListSyntax) -> Bool {
            attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedText == "Reducer" }
        }

        func addReducerType(_ name: String, _ node: some SyntaxProtocol) {
            found.append(Found(shape: "@Reducer", name: name, file: file, node: Syntax(node), ranges: [Syntax(node)],
                               reason: "its reducer assigns no field of its State whose type is an enum, a Bool or an optional"))
        }

        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
            if Self.hasReducerAttribute(node.attributes) { addReducerType(node.name.text, node) }
            return .visitChildren
        }

        override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
            if Self.hasReducerAttribute(node.attributes) { addReducerType(node.name.text, node) }
            return .visitChildren
        }

        func insideReducerType(_ node: some SyntaxProtocol) -> Bool {
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
            var callee = call.calledExpression
            if let spec = callee.as(GenericSpecializationExprSyntax.self) { callee = spec.expression }
            if let member = callee.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init", let base = member.base {
                return calledTypeName(base)
            }
            return calledTypeName(callee)
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
            let hasClosure = node.trailingClosure != nil || node.arguments.contains { $0.expression.is(ClosureExprSyntax.self) }
            var name: String { DSLSupport.storageName(node) ?? DSLSupport.enclosingFunctionName(node) ?? "top level" }
            if (type == "Reduce" || type == "Reducer"), hasClosure, !insideReducerType(node) {
                found.append(Found(shape: "\(type) { }", name: name, file: file, node: Syntax(node), ranges: [Syntax(node)],
                                   reason: "its closure switches over no state or action the tool could identify"))
            } else if machineTypes.contains(type) {
                found.append(Found(shape: "\(type)(…)", name: name, file: file, node: Syntax(node), ranges: [Syntax(node)],
                                   reason: "the rules it is built from (its table, mapping, reducer or states) were not found in the given files"))
            }
            return .visitChildren
        }

        override func visit(_ node: ArrayExprSyntax) -> SyntaxVisitorContinueKind {
            if node.elements.contains(where: { OperatorTableRecogniser.row($0.expression) != nil }) {
                found.append(Found(shape: "operator table", name: SyntaxHelpers.enclosingBindingName(node) ?? "table", file: file,
                                   node: Syntax(node), ranges: [Syntax(node)], reason: "none of its rows could be read"))
                return .skipChildren
            }
            return .visitChildren
        }

        override func visit(_ node: DictionaryExprSyntax) -> SyntaxVisitorContinueKind {
            guard case .elements(let list) = node.content, !list.isEmpty else { return .visitChildren }
            if list.contains(where: { DictionaryTableRecogniser.entries($0, context.index).count > 0 }) {
                found.append(Found(shape: "dictionary keyed by state and event", name: SyntaxHelpers.enclosingBindingName(node) ?? "table",
                                   file: file, node: Syntax(node), ranges: [Syntax(node)], reason: "none of its entries could be read"))
                return .skipChildren
            }
            return .visitChildren
        }

        override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind {
            guard let function = SyntaxHelpers.enclosingFunction(node) else { return .visitChildren }
            let typeNames = SyntaxHelpers.enclosingTypeNames(node)
            guard !typeNames.isEmpty else { return .visitChildren }
            let qualified = typeNames.joined(separator: ".")
            // the type the switch is written in, resolved where it is written
            let enclosing = context.index.type(qualified, in: context.index.scope(of: node))
            let subject = SyntaxHelpers.unwrap(node.subject)
            let parts = subject.as(TupleExprSyntax.self).map { $0.elements.map(\.expression) } ?? [subject]
            for part in parts {
                guard let path = SyntaxHelpers.path(part), !path.contains(".") else { continue }
                if path == "self" {
                    guard let info = enclosing?.enumInfo, !info.cases.isEmpty,
                          function.modifiers.contains(where: { $0.name.text == "mutating" }), let body = function.body,
                          SwitchFinder.scan(body).assignments.contains(where: { $0.lhs.trimmedText == "self" }) else { continue }
                    add(key: qualified + ".self", shape: "switch over self", name: qualified, node: node, function: function,
                        reason: "the method that switches over it takes no event parameter of an enum type declared in the given files")
                } else if let type = enclosing,
                          let property = type.properties.first(where: { $0.name == path && !$0.isComputed && !$0.isStatic }),
                          SwitchMethodRecogniser().stateType(of: property, owner: type, context: context) != nil,
                          type.methods.contains(where: { m, _ in
                              m.body.map { SwitchFinder.scan($0).assignments.contains { SyntaxHelpers.path($0.lhs) == path } } ?? false
                          }) {
                    add(key: qualified + "." + path, shape: "switch over a state property", name: "\(typeNames.last!).\(path)", node: node,
                        function: function,
                        reason: "no method that assigns it also switches over it with an event parameter of an enum type declared in the given files")
                }
            }
            return .visitChildren
        }

        func add(key: String, shape: String, name: String, node: SwitchExprSyntax, function: FunctionDeclSyntax, reason: String) {
            if let i = seenProperties[key] {
                found[i].ranges.append(Syntax(function))
                return
            }
            seenProperties[key] = found.count
            found.append(Found(shape: shape, name: name, file: file, node: Syntax(node), ranges: [Syntax(function)], reason: reason))
        }
    }

    /// What became of each candidate. Candidates that became no machine and have no diagnostic inside
    /// them get a note saying why (added to `diagnostics`).
    static func explain(_ found: [Found], machines: [Machine], built: [SyntaxIdentifier: [SourceLocation]],
                        diagnostics: inout [Diagnostic]) -> [Candidate] {
        var result: [Candidate] = []
        // the lines of machines and their rules, and the diagnostics, by file: a candidate looks at its
        // own file's only (a code base has thousands of each)
        var machineLines: [String: [(machine: Int, line: Int)]] = [:]
        var machinesAt: [SourceLocation: [Int]] = [:]
        for (k, m) in machines.enumerated() {
            machineLines[m.location.file, default: []].append((k, m.location.line))
            for rule in m.rules { machineLines[rule.location.file, default: []].append((k, rule.location.line)) }
            machinesAt[m.location, default: []].append(k)
        }
        var diagnosticsIn: [String: [Int]] = [:]
        for (k, d) in diagnostics.enumerated() { if let file = d.location?.file { diagnosticsIn[file, default: []].append(k) } }
        for f in found {
            let spans = f.ranges.map { node -> (Int, Int) in
                (f.file.location(of: node).line, f.file.location(at: node.endPositionBeforeTrailingTrivia).line)
            }
            func inside(_ line: Int) -> Bool { spans.contains { line >= $0.0 && line <= $0.1 } }
            let location = f.file.location(of: f.node)
            var covering = Set((machineLines[f.file.path] ?? []).filter { inside($0.line) }.map(\.machine))
            for l in Set(built[f.node.id] ?? []) { covering.formUnion(machinesAt[l] ?? []) }
            if !covering.isEmpty {
                result.append(Candidate(shape: f.shape, name: f.name, location: location, outcome: .machine,
                                        machines: covering.sorted().map { machines[$0].id }.uniqued()))
                continue
            }
            if let k = diagnosticsIn[f.file.path]?.first(where: { inside(diagnostics[$0].location!.line) }) {
                result.append(Candidate(shape: f.shape, name: f.name, location: location, outcome: .diagnostic, reason: diagnostics[k].message))
                continue
            }
            let message = "`\(f.name)` is shaped like a state machine (\(f.shape)) but none was read from it: \(f.reason)"
            diagnosticsIn[location.file, default: []].append(diagnostics.count)
            diagnostics.append(Diagnostic(severity: .note, message: message, location: location))
            result.append(Candidate(shape: f.shape, name: f.name, location: location, outcome: .diagnostic, reason: message))
        }
        return result
    }
}
