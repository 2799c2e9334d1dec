import Foundation
import MachineModel
import SwiftSyntax

/// Machines found in a set of Swift files, with what could not be extracted.
public struct ExtractionResult: Sendable {
    public var machines: [Machine]
    public var diagnostics: [Diagnostic]
    /// `// machine-viz:disable…` commands found in comments (see CommentCommands).
    public var suppressions: [Suppression] = []
    /// Struct states whose machine fields are explored together, in source order.
    public var products: [ProductMachine] = []
}

/// Runs every dialect recogniser over a source set. Machines come back in source order with rule
/// ids assigned; edges and findings are the analyser's job.
public enum Extractor {
    public static func extract(_ sources: SourceSet) -> ExtractionResult {
        let timing = ProcessInfo.processInfo.environment["MACHINE_VIZ_TIMING"] != nil
        let indexStart = Date()
        let context = ExtractionContext(files: sources.files)
        if timing { FileHandle.standardError.write(Data("SymbolIndex: \(Date().timeIntervalSince(indexStart))\n".utf8)) }
        let commands = CommentCommands.scan(sources.files)
        context.markers = Set(commands.markers.map { "\($0.word)\u{0}\($0.location.file)\u{0}\($0.location.line)" })
        let recognisers: [Recogniser] = [
            SwiftStateRecogniser(), TinderRecogniser(), DictionaryTableRecogniser(), GameplayKitRecogniser(),
            OperatorTableRecogniser(),
            ReducerRecogniser(),
            MappingFunctionRecogniser(),
            SwitchMethodRecogniser(),
        ]
        for recogniser in recognisers {
            let start = Date()
            recogniser.recognise(in: context)
            if timing { FileHandle.standardError.write(Data("\(type(of: recogniser)): \(Date().timeIntervalSince(start))\n".utf8)) }
        }
        var machines = context.machines.map { m -> Machine in
            var machine = m
            for i in machine.rules.indices { machine.rules[i].id = i + 1 }
            return machine
        }
        machines.sort { ($0.location, $0.name) < ($1.location, $1.name) }
        disambiguateNames(&machines)
        let diagnostics = (sources.diagnostics + context.diagnostics).uniqued()
        var result = ExtractionResult(machines: machines, diagnostics: diagnostics)
        result.diagnostics += commands.diagnostics
        result.suppressions = commands.suppressions
        result.products = disambiguateNames(context.products.sorted { ($0.location, $0.name) < ($1.location, $1.name) })
        return result
    }

    /// Two machines with one name: the same machine seen twice (two `Reduce` blocks of one feature
    /// writing one field) is one machine with both rule sets; different machines that share a variable
    /// name in two files get the file and line appended.
    /// Products as machines: reducers of one feature over the same fields are joined (their rules are
    /// alternatives); other name clashes get `@File:line`.
    static func disambiguateNames(_ products: [ProductMachine]) -> [ProductMachine] {
        var merged: [ProductMachine] = []
        for p in products {
            if let i = merged.firstIndex(where: { $0.name == p.name && $0.fields == p.fields && $0.inputs == p.inputs }) {
                merged[i].rules += p.rules
                merged[i].invariants = merged[i].invariants.appendingUnique(p.invariants)
            } else {
                merged.append(p)
            }
        }
        var counts: [String: Int] = [:]
        for p in merged { counts[p.name, default: 0] += 1 }
        for i in merged.indices where counts[merged[i].name]! > 1 {
            let file = URL(fileURLWithPath: merged[i].location.file).deletingPathExtension().lastPathComponent
            merged[i].name += "@\(file):\(merged[i].location.line)"
        }
        return merged
    }

    static func disambiguateNames(_ machines: inout [Machine]) {
        var merged: [Machine] = []
        for m in machines {
            // one field read from two blocks has one location; an optional's values may differ per block
            if let i = merged.firstIndex(where: { $0.name == m.name && $0.dialect == m.dialect && ($0.states == m.states || $0.location == m.location)
                                                  && $0.inputs == m.inputs && $0.order == .resolved && m.order == .resolved }) {
                merged[i].states = merged[i].states.appendingUnique(m.states)
                let offset = merged[i].rules.count
                merged[i].rules += m.rules.map { r in var r = r; r.id += offset; return r }
                merged[i].rules = withoutRepeatedImplicitRules(merged[i].rules)
                merged[i].initial = merged[i].initial ?? m.initial
                merged[i].terminal = merged[i].terminal.appendingUnique(m.terminal)
            } else {
                merged.append(m)
            }
        }
        machines = merged
        var counts: [String: Int] = [:]
        for m in machines { counts[m.name, default: 0] += 1 }
        for i in machines.indices where counts[machines[i].name]! > 1 {
            let file = URL(fileURLWithPath: machines[i].location.file).deletingPathExtension().lastPathComponent
            machines[i].name += "@\(file):\(machines[i].location.line)"
        }
    }
}

/// The rules of one machine read from several blocks (two `Reduce`s of one feature): each block added
/// the framework's implicit edges; keep each (state, trigger) once, and no button dismissal that an
/// explicit case of another block handles (it decides where that button leads).
func withoutRepeatedImplicitRules(_ rules: [Rule]) -> [Rule] {
    func key(_ pair: Pair, _ outcome: Outcome) -> String { "\(pair.from)\u{0}\(outcome.trigger(for: pair.input))" }
    let explicit = Set(rules.filter { !$0.implicit }.flatMap { r in
        r.outcomes.filter { $0.pattern?.narrows == true }.flatMap { o in o.pairs.map { key($0, o) } }
    })
    var seen = Set<String>()
    return rules.compactMap { rule in
        guard rule.implicit else { return rule }
        var r = rule
        r.outcomes = rule.outcomes.compactMap { o in
            var kept = o
            let button = o.pattern?.arguments.first?.value.name == "presented"
            kept.pairs = o.pairs.filter { !(button && explicit.contains(key($0, o))) && seen.insert(key($0, o)).inserted }
            return kept.pairs.isEmpty ? nil : kept
        }
        return r.outcomes.isEmpty ? nil : r
    }
}

protocol Recogniser {
    func recognise(in context: ExtractionContext)
}

/// Shared state of one extraction run.
final class ExtractionContext {
    let files: [ParsedFile]
    let index: SymbolIndex
    var machines: [Machine] = []
    var products: [ProductMachine] = []
    var diagnostics: [Diagnostic] = []
    /// Syntax nodes (closures, functions) a recogniser has turned into a machine already.
    var claimed = Set<SyntaxIdentifier>()
    /// `machine-viz: terminal` / `initial` comments by word, file and line (CommentCommands), so a
    /// marker after a case on its own line counts too.
    var markers = Set<String>()

    init(files: [ParsedFile]) {
        self.files = files
        self.index = SymbolIndex(files: files)
    }

    func warn(_ message: String, at location: SourceLocation?, severity: Severity = .warning) {
        diagnostics.append(Diagnostic(severity: severity, message: message, location: location))
    }

    func effectReader(inputs: [String], inputType: EnumInfo?) -> EffectReader {
        var types: Set<String> = []
        if let inputType { types = [inputType.name, inputType.qualifiedName] }
        return EffectReader(index: index, inputs: Set(inputs), inputTypes: types)
    }

    /// Type names mentioned in a type text, with typealiases followed (`LockMapping` → `Harvester<LockInput, LockState>`).
    func typeHints(_ text: String?) -> [String] {
        guard let text else { return [] }
        var result: [String] = []
        var queue = SyntaxHelpers.typeNames(in: text)
        var steps = 0
        while !queue.isEmpty, steps < 64 {
            steps += 1
            let name = queue.removeFirst()
            guard !result.contains(name) else { continue }
            result.append(name)
            for part in [name] + name.split(separator: ".").map(String.init) {
                if let alias = index.typealiases[part] { queue += SyntaxHelpers.typeNames(in: alias) }
            }
        }
        return result
    }

    /// A call that builds the running machine from `name` (`Harvester(state: .x, mapping: .reduce(.first, name))`):
    /// the variable it is bound to and its initial-state argument.
    func construction(referencing name: String?, around node: Syntax) -> (binding: String?, initial: ExprSyntax?, call: FunctionCallExprSyntax)? {
        // inline: the node sits inside the constructing call
        var current = node.parent
        while let c = current {
            if let call = c.as(FunctionCallExprSyntax.self), let s = initialArgument(call) {
                return (SyntaxHelpers.enclosingBindingName(call), s, call)
            }
            if c.is(CodeBlockItemSyntax.self) || c.is(MemberBlockItemSyntax.self) { break }
            current = c.parent
        }
        guard let name, let call = constructions[name] else { return nil }
        return (SyntaxHelpers.enclosingBindingName(call), initialArgument(call), call)
    }

    /// Computed `Bool` properties of an enum, each evaluated for every case: `switch self { case .a, .b:
    /// return true; default: return false }`, `if case .a = self { return true }; return false`,
    /// `self == .a || self == .b`, `[.a, .b].contains(self)`.
    func predicates(of info: EnumInfo?) -> [String: (yes: Set<String>, maybe: Set<String>)] {
        guard let info else { return [:] }
        if let cached = predicateCache[info.qualifiedName] { return cached }
        let result = evaluatePredicates(of: info)
        predicateCache[info.qualifiedName] = result
        return result
    }

    /// Each enum's predicates are evaluated once per run, however many machines use it.
    var predicateCache: [String: [String: (yes: Set<String>, maybe: Set<String>)]] = [:]

    func evaluatePredicates(of info: EnumInfo) -> [String: (yes: Set<String>, maybe: Set<String>)] {
        guard let type = index.types[info.qualifiedName] else { return [:] }
        var result: [String: (yes: Set<String>, maybe: Set<String>)] = [:]
        let domain = Domain(states: info.caseNames, inputs: [])
        for property in type.properties where property.isComputed && !property.isStatic && property.typeText == "Bool" {
            guard let binding = property.node.as(PatternBindingSyntax.self), let accessor = binding.accessorBlock else { continue }
            let body: CodeBlockItemListSyntax
            switch accessor.accessors {
            case .getter(let items): body = items
            case .accessors(let list):
                guard let getter = list.first(where: { $0.accessorSpecifier.text == "get" })?.body?.statements else { continue }
                body = getter
            }
            // a body that is one expression is a condition; otherwise its `return true/false` branches
            let spec = ReducerSpec(domain: domain, statePaths: ["self"], inputPaths: [], returnsState: true)
            let interpreter = ReducerInterpreter(spec: spec, file: property.file, effects: effectReader(inputs: [], inputType: nil))
            if body.count == 1, let only = body.first, let expr = only.item.as(ExprSyntax.self) ?? only.item.as(ExpressionStmtSyntax.self)?.expression,
               !expr.is(SwitchExprSyntax.self), !expr.is(IfExprSyntax.self) {
                let pred = interpreter.eval(expr, ReducerInterpreter.Ctx(pairs: domain.all, slot: 0))
                result[property.name] = (Set(domain.stateNames(pred.yes)), Set(domain.stateNames(pred.maybe)))
                continue
            }
            var yes = Set<String>(), no = Set<String>(), maybe = Set<String>()
            for rule in interpreter.run(body, at: property.location) {
                for outcome in rule.outcomes {
                    let states = Set(outcome.pairs.map(\.from))
                    switch outcome.target {
                    case .unknown("true") where outcome.guardText == nil: yes.formUnion(states)
                    case .unknown("false") where outcome.guardText == nil: no.formUnion(states)
                    default: maybe.formUnion(states)
                    }
                }
            }
            // a case that returns true on one path and false on another depends on data
            maybe.formUnion(yes.intersection(no))
            result[property.name] = (yes.subtracting(maybe), maybe)
        }
        return result
    }

    // MARK: Facts about the whole project, gathered in one pass

    /// Every call that builds a running machine (it has a `state:`-like argument), by each name its
    /// arguments mention; the first such call in file order wins.
    var constructions: [String: FunctionCallExprSyntax] { facts.constructions }
    /// Functions with an `inout` parameter, by name (reducers split into functions that take `&state`).
    var inoutFunctions: [String: [FunctionDeclSyntax]] { facts.inoutFunctions }
    /// Names of functions called with an `&` argument somewhere.
    var inoutCalledNames: Set<String> { facts.inoutCalledNames }
    /// Calls given as `initialState:` / `state:` arguments (`Store(initialState: Feature.State(…))`),
    /// by the last component of the called type's name.
    var stateInitialisers: [String: [FunctionCallExprSyntax]] { facts.stateInitialisers }

    lazy var facts: ProjectFacts = {
        let scan = ProjectFacts()
        for file in files { scan.walk(file.tree) }
        return scan
    }()

    final class ProjectFacts: SyntaxVisitor {
        var constructions: [String: FunctionCallExprSyntax] = [:]
        var inoutFunctions: [String: [FunctionDeclSyntax]] = [:]
        var inoutCalledNames = Set<String>()
        var stateInitialisers: [String: [FunctionCallExprSyntax]] = [:]

        init() { super.init(viewMode: .sourceAccurate) }

        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            if node.signature.parameterClause.parameters.contains(where: { $0.type.trimmedDescription.hasPrefix("inout ") }) {
                inoutFunctions[node.name.text, default: []].append(node)
            }
            return .visitChildren
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            if ["state", "initialState", "initial"].contains(where: { SyntaxHelpers.argument(node, $0) != nil }) {
                let names = ReferenceFinder()
                for argument in node.arguments { names.walk(argument.expression) }
                for name in names.names where constructions[name] == nil { constructions[name] = node }
            }
            if node.arguments.contains(where: { $0.expression.is(InOutExprSyntax.self) }) {
                if let ref = node.calledExpression.as(DeclReferenceExprSyntax.self) { inoutCalledNames.insert(ref.baseName.text) }
                if let m = node.calledExpression.as(MemberAccessExprSyntax.self) { inoutCalledNames.insert(m.declName.baseName.text) }
            }
            return .visitChildren
        }

        override func visit(_ node: LabeledExprSyntax) -> SyntaxVisitorContinueKind {
            if let label = node.label?.text, label == "initialState" || label == "state",
               let call = SyntaxHelpers.unwrap(node.expression).as(FunctionCallExprSyntax.self) {
                let callee = call.calledExpression.trimmedDescription
                stateInitialisers[String(callee.split(separator: ".").last ?? ""), default: []].append(call)
            }
            return .visitChildren
        }
    }

    /// Mutating methods of an enum, by name.
    func mutatingMethods(of info: EnumInfo?) -> [String: FunctionDeclSyntax] {
        guard let info, let type = index.types[info.qualifiedName] else { return [:] }
        var result: [String: FunctionDeclSyntax] = [:]
        for (m, _) in type.methods where m.modifiers.contains(where: { $0.name.text == "mutating" }) { result[m.name.text] = m }
        return result
    }

    func initialArgument(_ call: FunctionCallExprSyntax) -> ExprSyntax? {
        for label in ["state", "initialState", "initial", "initialValue"] {
            if let e = SyntaxHelpers.argument(call, label) { return e }
        }
        return nil
    }

    /// Names an expression mentions: `x`, and `y` in `value.y` (a property of a value, not a type).
    final class ReferenceFinder: SyntaxVisitor {
        var names: [String] = []
        init() { super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            names.append(node.baseName.text)
            return .skipChildren
        }
        override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
            if node.base.map({ $0.trimmedDescription.first?.isLowercase ?? false }) ?? false { names.append(node.declName.baseName.text) }
            return .visitChildren
        }
    }

    /// The state named by an initial-state expression, if it is one of `states`.
    func initialState(_ expr: ExprSyntax?, states: [String]) -> String? {
        guard let expr else { return nil }
        if let ref = SyntaxHelpers.caseReference(expr), states.contains(ref.name) { return ref.name }
        if let b = SyntaxHelpers.unwrap(expr).as(BooleanLiteralExprSyntax.self), states.contains(b.literal.text) { return b.literal.text }
        return nil
    }

    /// States and inputs of a machine whose cases come from declared enums where the code declares them,
    /// or from the names used when it does not.
    func caseList(_ info: EnumInfo?, used: [String]) -> [String] {
        guard let info else { return used.uniqued() }
        return info.caseNames + used.filter { !info.caseNames.contains($0) }.uniqued()
    }

    func locations(_ info: EnumInfo?) -> [String: SourceLocation] {
        var result: [String: SourceLocation] = [:]
        for c in info?.cases ?? [] where result[c.name] == nil { result[c.name] = c.location }
        return result
    }

    /// States marked `// machine-viz: terminal` / the case marked `// machine-viz: initial`.
    func marked(_ info: EnumInfo?, _ word: String) -> [String] {
        (info?.cases ?? []).filter { $0.leadingComment.contains("machine-viz: \(word)") || $0.leadingComment.contains("machine-viz:\(word)")
            || markers.contains("\(word)\u{0}\($0.location.file)\u{0}\($0.location.line)") }.map(\.name)
    }

    func add(_ machine: Machine, stateEnum: EnumInfo?) {
        var m = machine
        m.terminal = m.terminal.appendingUnique(marked(stateEnum, "terminal"))
        if let initial = marked(stateEnum, "initial").first { m.initial = initial }
        machines.append(m)
    }
}
