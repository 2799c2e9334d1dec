import Foundation
import MachineModel
import SwiftSyntax

/// Machines found in a set of Swift files, with what could not be extracted.
public struct ExtractionResult: Sendable {
    public var machines: [Machine]
    public var diagnostics: [Diagnostic]
    /// `// machine-viz:disable…` commands found in comments (see CommentCommands).
    public var suppressions: [Suppression] = []
    /// Everything shaped like a machine and what became of it (CandidatePass).
    public var candidates: [Candidate] = []
    /// Struct states whose machine fields are explored together, in source order.
    public var products: [ProductMachine] = []
}

/// Runs every dialect recogniser over a source set. Machines come back in source order with rule
/// ids assigned; edges and findings are the analyser's job.
public enum Extractor {
    /// The recognisers, in the order they build (a node one claims is not another's).
    static func recognisers() -> [Recogniser] {
        [
            SwiftStateRecogniser(), TinderRecogniser(), DictionaryTableRecogniser(), GameplayKitRecogniser(),
            OperatorTableRecogniser(),
            ReducerRecogniser(),
            MappingFunctionRecogniser(),
            SwitchMethodRecogniser(),
            LocalMachineRecogniser(),
        ]
    }

    /// Per-file work (what the loader did not read of a file, comment commands, the candidate
    /// finder's judgements, building candidates) runs on `jobs` threads; the result does not depend on it.
    public static func extract(_ sources: SourceSet, jobs: Int = 1) -> ExtractionResult {
        var timer = StageTimer()
        func stage(_ name: String) { timer.stage(name) }
        let roots = Set(sources.files.map { $0.tree.id })
        Rebuilt.shared.begin(files: roots)
        defer { Rebuilt.shared.end(files: roots) }
        let context = ExtractionContext(files: sources.files, jobs: jobs, readings: sources.readings)
        defer { ProcessTuning.keepUntilExit(context) }
        stage("SymbolIndex+ProjectFacts")
        let commands = CommentCommands.scan(sources.files, jobs: jobs)
        stage("CommentCommands")
        context.markers = Set(commands.markers.map { "\($0.word)\u{0}\($0.location.file)\u{0}\($0.location.line)" })
        let recognisers = Self.recognisers()
        // every finder read its file with the index's collector, as the file was loaded (FileReading);
        // the candidate finder's findings are read with the index here, in a fork of the context (one
        // per file with several jobs): what it says of them, ambiguities, is the recognisers' to say,
        // and is dropped
        let machineTypes = CandidatePass.machineTypes(context)
        let forks = jobs > 1 ? context.files.map { _ in context.fork() } : Array(repeating: context.fork(), count: context.files.count)
        let shapes = Parallel.map(Array(zip(context.fileReadings, forks)), jobs: jobs) { reading, fork in
            reading.candidates.found(context: fork, machineTypes: machineTypes)
        }
        let found = context.fileReadings.map(\.finders)
        stage("finders")
        for (k, recogniser) in recognisers.enumerated() {
            recogniser.recognise(in: context, found: found.map { $0[k] })
            stage("\(type(of: recogniser))")
        }
        var machines = context.machines.map { m -> Machine in
            var machine = m
            for i in machine.rules.indices { machine.rules[i].id = i + 1 }
            return machine
        }
        machines.sort { ($0.location, $0.name) < ($1.location, $1.name) }
        context.addGivenIDs(&machines)
        disambiguate(&machines, mergeable: context.mergeableIDs)
        var diagnostics = (sources.diagnostics + context.diagnostics).uniqued()
        let candidates = CandidatePass.explain(shapes.flatMap { $0 }, machines: machines,
                                               built: context.constructionMachines, reasons: context.constructionReasons,
                                               diagnostics: &diagnostics)
        // names whose meaning Swift's rules left open (NameResolution.swift), in source order; they
        // explain no candidate (a machine not read for another reason keeps its own explanation)
        diagnostics += context.index.undecidedNotes.sorted {
            ($0.location?.file ?? "", $0.location?.line ?? 0, $0.location?.column ?? 0, $0.message)
                < ($1.location?.file ?? "", $1.location?.line ?? 0, $1.location?.column ?? 0, $1.message)
        }
        var result = ExtractionResult(machines: machines, diagnostics: diagnostics)
        result.candidates = candidates
        result.diagnostics += commands.diagnostics
        result.suppressions = commands.suppressions
        result.products = disambiguateNames(context.products.sorted { ($0.location, $0.name) < ($1.location, $1.name) })
        stage("CandidatePass")
        return result
    }

    /// Products as machines: reducers of one feature over the same fields are joined (their rules are
    /// alternatives); other name clashes get `@File.swift`, then `#2`, `#3` in source order (no lines).
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
            merged[i].name += "@" + URL(fileURLWithPath: merged[i].location.file).lastPathComponent
        }
        var seen: [String: Int] = [:]
        for i in merged.indices {
            seen[merged[i].name, default: 0] += 1
            if seen[merged[i].name]! > 1 { merged[i].name += "#\(seen[merged[i].name]!)" }
        }
        return merged
    }

    /// Machines with one id: the same declaration seen twice (two `Reduce` blocks of one feature
    /// writing one field) is one machine with both rule sets; different declarations that would share
    /// an id are told apart by file name, then by their order in the file (never by line). Display
    /// names stay Swift names; two machines with one name are named by declaration path, then by id.
    static func disambiguate(_ machines: inout [Machine], mergeable: Set<String>) {
        var merged: [Machine] = []
        var byID: [String: Int] = [:]
        for m in machines {
            // one field read from two blocks (one id); an optional's values may differ per block
            if let i = byID[m.id], mergeable.contains(m.id), merged[i].name == m.name, merged[i].dialect == m.dialect,
               merged[i].states == m.states || merged[i].location == m.location,
               merged[i].inputs == m.inputs, merged[i].order == .resolved, m.order == .resolved {
                merged[i].states = merged[i].states.appendingUnique(m.states)
                let offset = merged[i].rules.count
                merged[i].rules += m.rules.map { r in var r = r; r.id += offset; return r }
                merged[i].rules = withoutRepeatedImplicitRules(merged[i].rules)
                merged[i].initial = merged[i].initial ?? m.initial
                merged[i].terminal = merged[i].terminal.appendingUnique(m.terminal)
                merged[i].partial = merged[i].partial || m.partial
                merged[i].unreadWrites = merged[i].unreadWrites.appendingUnique(m.unreadWrites)
                merged[i].pathsLeftOut = merged[i].pathsLeftOut.appendingUnique(m.pathsLeftOut)
            } else {
                byID[m.id] = byID[m.id] ?? merged.count
                merged.append(m)
            }
        }
        machines = merged
        func groups(_ key: (Machine) -> String) -> [String: [Int]] {
            var result: [String: [Int]] = [:]
            for i in machines.indices { result[key(machines[i]), default: []].append(i) }
            return result
        }
        for (_, group) in groups(\.id) where group.count > 1 && Set(group.map { machines[$0].location.file }).count > 1 {
            for i in group {
                let file = URL(fileURLWithPath: machines[i].location.file).lastPathComponent
                machines[i].id += "@" + file
            }
        }
        for (_, group) in groups(\.id) where group.count > 1 {
            for (n, i) in group.enumerated() where n > 0 { machines[i].id += "#\(n + 1)" }
        }
        for (_, group) in groups(\.name) where group.count > 1 {
            for i in group {
                let id = machines[i].id
                machines[i].name = id.firstIndex(of: "/").map { String(id[id.index(after: $0)...]) } ?? id
            }
        }
        for (_, group) in groups(\.name) where group.count > 1 {
            for i in group { machines[i].name = machines[i].id }
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

/// One dialect's recogniser. Finding is per file: every recogniser's finder reads the file in the
/// same replay of its walk as the symbol index's collector, as the file is loaded (FileReading), so a
/// finder reads its file and nothing else: what needs the index (names, typealiases, imports) it
/// records and its recogniser decides when it builds. Building runs recogniser after recogniser, in
/// the extractor's order (a node one claims is not another's).
protocol Recogniser {
    /// The visitor that finds this recogniser's candidates in one file; nil for a recogniser that finds
    /// its own way (from the index, or from what others built).
    func finder(for file: ParsedFile) -> SyntaxVisitor?
    /// Builds the machines: `found` holds, per file of `context.files` in order, what `finder` gave
    /// for it after the replay.
    func recognise(in context: ExtractionContext, found: [SyntaxVisitor?])
}

extension Recogniser {
    func finder(for file: ParsedFile) -> SyntaxVisitor? { nil }

    /// The files with their finders, as the type `finder(for:)` made them.
    func found<Finder: SyntaxVisitor>(_ found: [SyntaxVisitor?], in context: ExtractionContext, as type: Finder.Type) -> [(file: ParsedFile, finder: Finder)] {
        zip(context.files, found).map { ($0, $1 as! Finder) }
    }
}

/// What one file says, read in one replay of the file's walk: the symbol index's collector, the
/// project facts, every recogniser's finder and the candidate finder. The loader makes it right
/// after the walk (SourceSet.load), on its threads, while the file's nodes are still in the cache.
final class FileReading: @unchecked Sendable {
    let collector: SymbolIndex.Collector
    let facts: ExtractionContext.ProjectFacts
    /// Each recogniser's finder (`Extractor.recognisers()` order), nil for one without.
    let finders: [SyntaxVisitor?]
    let candidates: CandidatePass.Finder

    init(_ file: ParsedFile) {
        collector = SymbolIndex.Collector(file: file)
        facts = ExtractionContext.ProjectFacts(module: file.module)
        finders = Extractor.recognisers().map { $0.finder(for: file) }
        candidates = CandidatePass.Finder(file: file)
        file.events.replay([collector, facts] + finders.compactMap { $0 } + [candidates])
    }
}

/// Shared state of one extraction run.
final class ExtractionContext {
    let files: [ParsedFile]
    let index: SymbolIndex
    /// What each file says (`fileReadings[i]` of `files[i]`), read before the index existed.
    let fileReadings: [FileReading]
    var machines: [Machine] = []
    var products: [ProductMachine] = []
    var diagnostics: [Diagnostic] = []
    /// Syntax nodes (closures, functions) a recogniser has turned into a machine already.
    var claimed = Set<SyntaxIdentifier>()
    /// `machine-viz: terminal` / `initial` comments by word, file and line (CommentCommands), so a
    /// marker after a case on its own line counts too.
    var markers = Set<String>()

    /// Threads for per-file work.
    let jobs: Int
    /// Node readings of the interpreters run on this context (a fork has its own: one thread each).
    let readings = NodeReadings()

    /// `readings`: what the loader read from the files already (SourceSet.readings); the files it has
    /// none of are read here, on `jobs` threads.
    init(files: [ParsedFile], jobs: Int = 1, readings: SourceSet.Readings? = nil) {
        self.files = files
        self.jobs = jobs
        var read = files.map { readings?.byFile[ObjectIdentifier($0)] }
        let unread = files.indices.filter { read[$0] == nil }
        for (i, reading) in zip(unread, Parallel.map(unread, jobs: jobs) { FileReading(files[$0]) }) { read[i] = reading }
        fileReadings = read.map { $0! }
        index = SymbolIndex(files: files, collected: fileReadings.map(\.collector))
        facts = ProjectFacts(merging: fileReadings.map(\.facts), index: index)
        self.caches = Caches()
    }

    /// A context for building one candidate on another thread: it reads what this one read (index,
    /// facts, markers, caches: only read, or behind a lock) and collects machines, products and
    /// diagnostics of its own, which `merge` appends here. Built in candidate order and merged in
    /// that order, the result is the one of building them one after the other.
    private init(forking parent: ExtractionContext) {
        files = parent.files
        jobs = 1
        index = parent.index
        fileReadings = parent.fileReadings
        caches = parent.caches
        markers = parent.markers
        claimed = parent.claimed
        facts = parent.facts
        moduleByPath = parent.moduleByPath
    }

    func fork() -> ExtractionContext {
        _ = moduleByPath
        return ExtractionContext(forking: self)
    }

    func merge(_ child: ExtractionContext) {
        machines += child.machines
        products += child.products
        diagnostics += child.diagnostics
        mergeableIDs.formUnion(child.mergeableIDs)
        for (call, locations) in child.constructionMachines { constructionMachines[call, default: []] += locations }
        constructionReasons.merge(child.constructionReasons) { first, _ in first }
    }

    /// Builds each item in turn on this context; with several jobs (and `inParallel`), each in a fork of
    /// it on `jobs` threads, the forks merged back in item order (machines, diagnostics, claims), so the
    /// result is the one of building them one after the other. Node readings are dropped after each item.
    func buildEach<T>(_ items: [T], inParallel: Bool = true, _ body: @escaping (T, ExtractionContext) -> Void) {
        guard jobs > 1, inParallel else {
            for item in items {
                body(item, self)
                readings.forget()
            }
            return
        }
        let forks = items.map { _ in fork() }
        _ = Parallel.map(Array(zip(items, forks)), jobs: jobs) { item, fork in
            body(item, fork)
            fork.readings.forget()
        }
        let claimedBefore = claimed.count
        for fork in forks {
            merge(fork)
            if fork.claimed.count > claimedBefore { claimed.formUnion(fork.claimed) }
        }
    }

    /// Computed once per run and shared by forked contexts (each behind the lock).
    final class Caches: @unchecked Sendable {
        let lock = NSLock()
        var predicates: [String: [String: (yes: Set<String>, maybe: Set<String>)]] = [:]
        var relations: [String: EnumRelations] = [:]
        var successors: [String: [String: [String: String]]] = [:]
        var initialisersByKey: [String: [FunctionCallExprSyntax]]?
        /// Stored properties by the last name of their type (written, or of the case they start as).
        var propertiesByTypeName: [String: [(TypeInfo, Binding)]]?
        /// The stored properties of other types holding each enum (by key).
        var holders: [String: [(TypeInfo, Binding)]] = [:]
        /// Declared types by the last name of each type they inherit from or conform to.
        var inheritorsByName: [String: [TypeInfo]]?
        /// Per protocol or base class (by key), its conforming types when they construct one another
        /// (the states of a state pattern), else empty.
        var patternStates: [String: [TypeInfo]] = [:]
        var storeBindings: [String: Set<String>] = [:]
        /// `protocolsWithDefaults`' names.
        var protocolsWithDefaults: Set<String>?
        /// `namedAsMember`'s names.
        var memberNames: Set<String>?
    }
    let caches: Caches

    /// The names of fields a view binds through a TCA store, in the files of a module importing SwiftUI:
    /// `$store.mode`, `viewStore.$mode`, `\.$mode` (found once per module, when first asked).
    func storeBindings(in module: String) -> Set<String> {
        caches.lock.lock()
        defer { caches.lock.unlock() }
        if let found = caches.storeBindings[module] { return found }
        var names = Set<String>()
        // (the text's bytes, not its tokens: `$store.` name, `.$`name)
        let store = Array("$store.".utf8), dot = UInt8(ascii: "."), dollar = UInt8(ascii: "$")
        func isName(_ b: UInt8) -> Bool { (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "_") }
        for file in files where file.module == module && file.imports.contains("SwiftUI") {
            let text = file.tree.syntaxTextBytes
            var i = 0
            while i + 2 < text.count {
                var start: Int?
                if text[i] == dot, text[i + 1] == dollar { start = i + 2 }
                else if text[i] == dollar, text.count - i >= store.count, text[i..<(i + store.count)].elementsEqual(store) { start = i + store.count }
                guard var end = start, end < text.count, isName(text[end]), !(text[end] >= 0x30 && text[end] <= 0x39) else { i += 1; continue }
                while end < text.count, isName(text[end]) { end += 1 }
                names.insert(String(decoding: text[start!..<end], as: UTF8.self))
                i = end
            }
        }
        caches.storeBindings[module] = names
        return names
    }

    /// The last names of the protocols the inputs declare with a method of a body (a default, in an
    /// extension), and of those refining them, by name (found once, when first asked).
    func protocolsWithDefaults() -> Set<String> {
        caches.lock.lock()
        defer { caches.lock.unlock() }
        if let known = caches.protocolsWithDefaults { return known }
        let protocols = index.typeOrder.filter { $0.kind == "protocol" }
        var names = Set(protocols.filter { $0.methods.contains { $0.0.body != nil } }.map(\.name))
        var grown = true
        while grown {
            grown = false
            for p in protocols where !names.contains(p.name) && p.inherited.contains(where: { names.contains(Self.lastName($0)) }) {
                names.insert(p.name)
                grown = true
            }
        }
        caches.protocolsWithDefaults = names
        return names
    }

    /// A written type's last name without generic arguments (`Foundation.Runnable` → `Runnable`).
    static func lastName(_ text: String) -> String {
        String(SymbolIndex.bareTypeName(text).split(separator: ".").last ?? "")
    }

    /// Whether the code calls or hands on `name` as a member of a value other than `self` anywhere
    /// (`model.refresh()`, `action: model.refresh`, `#selector(Feed.refresh)`): what code outside a type
    /// may call of it. The names are read once, when first asked, from the calls and arguments the one
    /// walk recorded.
    func namedAsMember(_ name: String) -> Bool {
        caches.lock.lock()
        defer { caches.lock.unlock() }
        if caches.memberNames == nil {
            var names = Set<String>()
            func note(_ expr: ExprSyntax) {
                guard let member = expr.as(MemberAccessExprSyntax.self), let base = member.base,
                      base.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind != .keyword(.self) else { return }
                names.insert(member.declName.baseName.text)
            }
            for file in files {
                for event in file.events.events {
                    if event.kind == .functionCallExpr, let call = event.node.as(FunctionCallExprSyntax.self) { note(call.calledExpression) }
                    else if event.kind == .labeledExpr, let argument = event.node.as(LabeledExprSyntax.self) { note(argument.expression) }
                }
            }
            caches.memberNames = names
        }
        return caches.memberNames!.contains(name)
    }

    func warn(_ message: String, at location: SourceLocation?, severity: Severity = .warning) {
        diagnostics.append(Diagnostic(severity: severity, message: message, location: location))
    }

    func effectReader(inputs: [String], inputType: EnumInfo?, at origin: (any SyntaxProtocol)? = nil,
                      mappingType: ResolvedType? = nil) -> EffectReader {
        var reader = EffectReader(index: index, inputs: Set(inputs), inputKey: inputType?.key, origin: origin.map { Syntax($0) })
        reader.queueType = mappingType.flatMap(Self.effectQueue)
        return reader
    }

    /// The Harvest effect queue a mapping's written type names: the one declared type among its type
    /// arguments (typealiases followed) that conforms to Harvest's `EffectQueueProtocol`.
    static func effectQueue(in type: ResolvedType) -> TypeInfo? {
        var found: [TypeInfo] = []
        func walk(_ r: ResolvedType) {
            if let t = r.declared, !found.contains(where: { $0 === t }),
               t.inherited.contains(where: { SymbolIndex.bareTypeName($0).split(separator: ".").last == "EffectQueueProtocol" }) {
                found.append(t)
            }
            r.arguments.forEach(walk)
        }
        walk(type)
        return found.count == 1 ? found[0] : nil
    }

    /// The enums a written type names, typealiases followed (`LockMapping` → `Harvester<LockInput, LockState>.EffectMapping<…>`
    /// → LockInput, LockState), resolved where the type is written. Ambiguous names become diagnostics.
    func writtenEnums(_ text: String?, at node: some SyntaxProtocol) -> [EnumInfo] {
        guard let text, let scope = index.scope(of: node) else { return [] }
        let resolved = index.resolveType(text, in: scope)
        reportAmbiguities(resolved, at: node)
        return resolved.enums
    }

    /// Resolves a written type where `node` is; ambiguous names are reported.
    func resolve(_ text: String?, at node: some SyntaxProtocol) -> ResolvedType? {
        guard let text, let scope = index.scope(of: node) else { return nil }
        let resolved = index.resolveType(text, in: scope)
        reportAmbiguities(resolved, at: node)
        return resolved
    }

    func reportAmbiguities(_ resolved: ResolvedType, at node: some SyntaxProtocol) {
        guard let scope = index.scope(of: node) else { return }
        for (name, candidates) in resolved.ambiguities {
            warn("`\(name)` is ambiguous here: \(candidates.joined(separator: ", ")); no machine reads it", at: scope.file.location(of: node))
        }
    }

    /// Among the enums the code's written types name, the one the case names used at one position belong
    /// to, as the type checker finds the contextual type of `.x`: the one written type that declares every
    /// name used there. When none declares them all (a wildcard the dialect spells as a case, a name of
    /// another type), the one declaring the most is taken and a note says so; a tie between two enums is
    /// a warning and nil (the caller uses the names themselves). No written type: nil.
    func enumDeclaring(_ names: Set<String>, among candidates: [EnumInfo], excluding: EnumInfo? = nil,
                       role: String, at location: SourceLocation) -> EnumInfo? {
        guard !names.isEmpty else { return nil }
        var seen = Set<String>()
        let distinct = candidates.filter { $0.key != excluding?.key && seen.insert($0.key).inserted }
        let complete = distinct.filter { names.isSubset(of: $0.caseNames) }
        if complete.count == 1 { return complete[0] }
        let scored = distinct.map { e in (e, names.intersection(e.caseNames).count) }.filter { $0.1 > 0 }
        guard let best = scored.map(\.1).max() else { return nil }
        let top = scored.filter { $0.1 == best }.map(\.0)
        if top.count > 1 {
            warn("the \(role) cases used here are declared by several of the written types (\(top.map(\.qualifiedName).joined(separator: ", "))); the \(role)s are the cases the code uses",
                 at: location)
            return nil
        }
        let missing = names.subtracting(top[0].caseNames).sorted()
        warn("no written type declares every name used as a \(role) here; read as \(top[0].qualifiedName), which does not declare \(missing.map { "`\($0)`" }.joined(separator: ", "))",
             at: location, severity: .note)
        return top[0]
    }

    /// A call that builds the running machine from `name` (`Harvester(state: .x, mapping: .reduce(.first, name))`):
    /// the variable it is bound to and its initial-state argument. The next machine `add`ed is linked
    /// to the call (`pendingConstruction`).
    func construction(referencing name: String?, around node: Syntax) -> (binding: String?, initial: ExprSyntax?, call: FunctionCallExprSyntax)? {
        guard let call = constructionCall(referencing: name, around: node) else { return nil }
        pendingConstruction = call.id
        // (a `scan` is named by what its result is assigned to, `gate = inputs.scan(…)`, not a subscription
        // made of it; else its accumulator keeps its own name)
        return (Self.scanSeed(call) != nil ? SyntaxHelpers.assignedName(call) : DSLSupport.storageName(call), initialArgument(call), call)
    }

    /// The call `construction(referencing:around:)` finds, with nothing linked to it.
    func constructionCall(referencing name: String?, around node: Syntax) -> FunctionCallExprSyntax? {
        // inline: the node sits inside the constructing call
        var current = node.parent
        while let c = current {
            if let call = c.as(FunctionCallExprSyntax.self), initialArgument(call) != nil { return call }
            if c.is(CodeBlockItemSyntax.self) || c.is(MemberBlockItemSyntax.self) { break }
            current = c.parent
        }
        // elsewhere: a construction whose arguments name the variable or function the node is the value
        // or body of (resolved where the construction is written: a variable of another scope with the
        // same name is another variable): in the node's function, else in its file, else in this module
        // when only one there does
        guard let name, let mentioning = constructions[name], !mentioning.isEmpty else { return nil }
        func resolves(_ call: FunctionCallExprSyntax) -> Bool {
            let finder = ReferenceFinder()
            for argument in call.arguments { finder.walk(argument.expression) }
            if Self.scanSeed(call) != nil, let closure = call.trailingClosure { finder.walk(closure) }
            return finder.references.contains { ref in
                guard Self.referencedName(ref) == name else { return false }
                // the variable's declaration holds the node (its initializer, or its getter's body)
                if let v = DSLSupport.variable(ref, index: index), Self.contains(v.node, node) { return true }
                return index.functions(referencedBy: ref).contains { Self.contains($0, node) }
            }
        }
        // resolving is the costly part: the constructions of the node's file first, the module's others
        // only when none of those is it (where every feature reuses a name, most are elsewhere)
        let file = index.scope(of: node)?.file
        let here = mentioning.filter { index.scope(of: $0)?.file === file }.filter(resolves)
        let found: FunctionCallExprSyntax?
        if !here.isEmpty {
            let function = SyntaxHelpers.enclosingFunction(node).map { Syntax($0).id }
            found = here.first { c in function != nil && SyntaxHelpers.enclosingFunction(c).map { Syntax($0).id } == function } ?? here[0]
        } else {
            let module = mentioning.filter { c in
                let other = index.scope(of: c)?.file
                return other !== file && other?.module == file?.module
            }.filter(resolves)
            found = module.count == 1 ? module[0] : nil
        }
        return found
    }

    /// The construction the last `construction(referencing:around:)` returned, until `add` links it to
    /// the machine it builds (`constructionMachines`, read by CandidatePass).
    var pendingConstruction: SyntaxIdentifier?
    var constructionMachines: [SyntaxIdentifier: [SourceLocation]] = [:]
    /// Why a construction built no machine, when the reducer it names said why where it is declared
    /// (read by CandidatePass, which else says the rules were not found).
    var constructionReasons: [SyntaxIdentifier: String] = [:]

    /// Computed `Bool` properties of an enum, each evaluated for every case: `switch self { case .a, .b:
    /// return true; default: return false }`, `if case .a = self { return true }; return false`,
    /// `self == .a || self == .b`, `[.a, .b].contains(self)`.
    func predicates(of info: EnumInfo?) -> [String: (yes: Set<String>, maybe: Set<String>)] {
        // each enum's predicates are evaluated once per run, however many machines use it
        info.map { info in cached(\.predicates, info.key) { evaluatePredicates(of: info) } } ?? [:]
    }

    /// An enum's relations over two of its values, by method name: the moves each method named as moves
    /// allows (`func canMove(to next: Self) -> Bool { switch (self, next) { … } }`, `AllowedMoves`).
    func relations(of info: EnumInfo?) -> [String: Set<AllowedMoves.Move>] { enumRelations(of: info).moves }

    /// The cases a member naming the enum's moves says allow no move (`case .returned: []`, `case .ended:
    /// return false`): ends by design, no dead ends in any machine of the enum.
    func declaredEnds(of info: EnumInfo?) -> Set<String> { enumRelations(of: info).ends }

    struct EnumRelations {
        var moves: [String: Set<AllowedMoves.Move>] = [:]
        var ends = Set<String>()
    }

    func enumRelations(of info: EnumInfo?) -> EnumRelations {
        guard let info, let type = index.types[info.key] else { return EnumRelations() }
        return cached(\.relations, info.key) {
            let reader = AllowedMoves(type: type, stateEnum: info, context: self)
            var result = EnumRelations()
            func add(_ name: String, _ moves: [(move: AllowedMoves.Move, node: Syntax)], ends: Set<String>) {
                result.moves[name] = Set(moves.map(\.move))
                // (an end no earlier case of the member gives a move from)
                result.ends.formUnion(ends.filter { end in !moves.contains { $0.move.from == end } })
            }
            // (a computed list of the next cases, `var nextStates: Set<Self>`, read by its `contains`)
            for property in type.properties where property.isComputed && !property.isStatic && AllowedMoves.namedAsMoves(property.name) {
                guard let text = property.typeText, reader.isCollectionOfSelf(text), let body = ExtractionContext.getter(of: property),
                      let moves = reader.listed(body) else { continue }
                add(property.name, moves, ends: reader.ends(body, source: "self"))
            }
            for (method, _) in type.methods where AllowedMoves.namedAsMoves(method.name.text) {
                guard method.signature.returnClause?.type.trimmedText == "Bool", let body = method.body,
                      let moves = reader.predicate(method, body.statements), let source = reader.subjects(of: method)?.first else { continue }
                add(method.name.text, moves, ends: reader.ends(body.statements, source: source))
            }
            return result
        }
    }

    /// `caches[keyPath][key]`, computed (outside the lock) and kept when first asked.
    func cached<T>(_ keyPath: ReferenceWritableKeyPath<Caches, [String: T]>, _ key: String, _ compute: () -> T) -> T {
        caches.lock.lock()
        let known = caches[keyPath: keyPath][key]
        caches.lock.unlock()
        if let known { return known }
        let result = compute()
        caches.lock.lock()
        caches[keyPath: keyPath][key] = result
        caches.lock.unlock()
        return result
    }

    func evaluatePredicates(of info: EnumInfo) -> [String: (yes: Set<String>, maybe: Set<String>)] {
        guard let type = index.types[info.key] else { return [:] }
        var result: [String: (yes: Set<String>, maybe: Set<String>)] = [:]
        for (name, verdict) in boolVerdicts(of: type, values: info.caseNames, subjects: ["self"], methods: false) {
            result[name] = (verdict.yes, verdict.maybe)
        }
        return result
    }

    /// What each `Bool` computed property of a type (with `methods`, each method taking nothing that returns
    /// one too) says of a subject (named by `subjects`) taking `values`, in declaration order.
    /// `own`: what the type's other `Bool` members are known to say, for one that reads them (`var canSend:
    /// Bool { isDraft && !text.isEmpty }`); those are not evaluated again.
    func boolVerdicts(of type: TypeInfo, values: [String], subjects: Set<String>, methods: Bool,
                      own: [String: Verdict] = [:]) -> [(name: String, verdict: Verdict)] {
        var besides = Set(own.keys)
        var bodies: [(String, CodeBlockItemListSyntax, ParsedFile)] = []
        // the type's own, then the defaults of the protocols it conforms to that it does not implement
        // (`extension PhaseDescribing { var isBusy: Bool { phase == .heating } }`)
        let protocols = type.kind == "protocol" ? [] : index.supertypes(of: type).filter { $0.kind == "protocol" }
        for t in [type] + protocols {
            var named: [String] = []
            for property in t.properties where property.isComputed && !property.isStatic && property.typeText == "Bool" && !besides.contains(property.name) {
                if let body = Self.getter(of: property) { bodies.append((property.name, body, property.file)) }
                named.append(property.name)
            }
            for (method, file) in methods ? t.methods : [] where method.signature.parameterClause.parameters.isEmpty
                && method.signature.returnClause?.type.trimmedText == "Bool" && !method.modifiers.contains(where: { $0.name.text == "static" })
                && !besides.contains(method.name.text) {
                if let body = method.body?.statements { bodies.append((method.name.text, body, file)) }
                named.append(method.name.text)
            }
            besides.formUnion(named)
        }
        return bodies.map { name, body, file in
            let evaluator = predicateEvaluator(values: values, subjects: subjects, file: file)
            if !own.isEmpty { evaluator.ownProperty = { own[$0] } }
            return (name, evaluator.block(body, Set(values)).result)
        }
    }

    /// The `Bool` computed properties and methods taking nothing of a type keeping a state (named by
    /// `statePaths`), each evaluated for every state: those that say something of it (`var isBusy: Bool {
    /// state == .saving }`, `func canSave() -> Bool { switch state { … } }`).
    func ownerPredicates(of type: TypeInfo, statePaths: Set<String>, states: [String]) -> [String: (yes: Set<String>, maybe: Set<String>)] {
        var known: [String: Verdict] = [:]
        for (name, verdict) in boolVerdicts(of: type, values: states, subjects: statePaths, methods: true)
        where known[name] == nil && verdict.maybe.count < states.count {
            known[name] = verdict
        }
        // (one reading another: `var canSend: Bool { isDraft && !text.isEmpty }` with `isDraft` known)
        if !known.isEmpty {
            for (name, verdict) in boolVerdicts(of: type, values: states, subjects: statePaths, methods: true, own: known)
            where known[name] == nil && verdict.maybe.count < states.count {
                known[name] = verdict
            }
        }
        return known.mapValues { ($0.yes, $0.maybe) }
    }

    /// The body of a computed property's getter.
    static func getter(of property: Binding) -> CodeBlockItemListSyntax? {
        guard let binding = property.node.as(PatternBindingSyntax.self), let accessor = binding.accessorBlock else { return nil }
        switch accessor.accessors {
        case .getter(let items): return items
        case .accessors(let list): return list.first(where: { $0.accessorSpecifier.text == "get" })?.body?.statements
        }
    }

    /// Computed properties of an enum that give the next case (`var next: Light { switch self { case .red:
    /// return .green … } }`), and its methods taking nothing that do (`func advanced() -> Self`, by the name
    /// `advanced()`): each case's next case. Only those that name one case for every case (evaluated once
    /// per run, like the predicates).
    func successors(of info: EnumInfo?) -> [String: [String: String]] {
        info.map { info in cached(\.successors, info.key) { evaluateSuccessors(of: info) } } ?? [:]
    }

    /// Each case's raw value in an enum of `Int` raw values, written or implicit (one more than the case
    /// before); nil for another enum, or where one is not a literal or two are the same.
    static func intRawValues(of info: EnumInfo) -> [String: Int]? {
        guard info.inherited.first == "Int" else { return nil }
        var raws: [String: Int] = [:]
        var next = 0
        for c in info.cases {
            if let written = c.node.rawValue?.value {
                guard let value = Int(written.trimmedDescription) else { return nil }
                next = value
            }
            raws[c.name] = next
            next &+= 1
        }
        return Set(raws.values).count == raws.count ? raws : nil
    }

    /// Each case's raw value in an enum of `String` raw values, written or implicit (the case's name); nil
    /// for another enum, or where one is not a plain literal or two are the same.
    static func stringRawValues(of info: EnumInfo) -> [String: String]? {
        guard info.inherited.first == "String" else { return nil }
        var raws: [String: String] = [:]
        for c in info.cases {
            if let written = c.node.rawValue?.value {
                guard let text = written.as(StringLiteralExprSyntax.self).flatMap(SyntaxHelpers.stringContent) else { return nil }
                raws[c.name] = text
            } else {
                raws[c.name] = c.name
            }
        }
        return Set(raws.values).count == raws.count ? raws : nil
    }

    func evaluateSuccessors(of info: EnumInfo) -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        if let type = index.types[info.key] {
            let selfNames: Set<String> = ["Self", info.name, type.qualifiedName]
            // (`var next: Self?`, nil for the last case: a successor where there is one)
            // whether a type is the enum (false) or the enum optional (true); nil for another type
            func successorType(_ text: String?) -> Bool? {
                guard let text else { return nil }
                if selfNames.contains(text) { return false }
                return SyntaxHelpers.optionalWrapped(text).map(selfNames.contains) == true ? true : nil
            }
            var bodies: [(name: String, body: CodeBlockItemListSyntax, file: ParsedFile, location: SourceLocation, optional: Bool)] = []
            for property in type.properties where property.isComputed && !property.isStatic {
                if let optional = successorType(property.typeText), let body = Self.getter(of: property) {
                    bodies.append((property.name, body, property.file, property.location, optional))
                }
            }
            for (method, file) in type.methods where method.signature.parameterClause.parameters.isEmpty
                && !method.modifiers.contains(where: { ["static", "mutating", "class"].contains($0.name.text) }) {
                if let optional = successorType(method.signature.returnClause?.type.trimmedText), let body = method.body {
                    bodies.append((method.name.text + "()", body.statements, file, file.location(of: method), optional))
                }
            }
            // `Step(rawValue: step.rawValue + 1)` in an enum of `Int` raw values: the case one on (or back),
            // where there is one (`rawValue+1`, `rawValue-1`); and the case of each raw value (`rawValue=`,
            // by the value's text: `.init(rawValue: 0)!`; no name a member could have)
            if let raws = Self.intRawValues(of: info) {
                let byRaw = Dictionary(uniqueKeysWithValues: raws.map { ($0.value, $0.key) })
                result["rawValue+1"] = raws.compactMapValues { byRaw[$0 + 1] }
                result["rawValue-1"] = raws.compactMapValues { byRaw[$0 - 1] }
                result["rawValue="] = Dictionary(uniqueKeysWithValues: raws.map { ("\($0.value)", $0.key) })
            } else if let raws = Self.stringRawValues(of: info) {
                // (`Tier(rawValue: "trial")!`, of an enum of `String` raw values)
                result["rawValue="] = Dictionary(uniqueKeysWithValues: raws.map { ($0.value, $0.key) })
            }
            // each case's position in `allCases` when Swift makes it (`allCases=`, by the position's text)
            if info.inherited.contains("CaseIterable"), !type.properties.contains(where: { $0.name == "allCases" }) {
                result["allCases="] = Dictionary(uniqueKeysWithValues: info.caseNames.enumerated().map { ("\($0.offset)", $0.element) })
            }
            for (name, body, file, location, optional) in bodies {
                var spec = ReducerSpec(domain: Domain(states: info.caseNames, inputs: ["*"]), statePaths: ["self"], inputPaths: [],
                                       returnsState: true, nilIsFailure: optional)
                // (`Self(rawValue: rawValue + 1)`: read with the raw steps above)
                spec.enumSuccessors = result
                let interpreter = ReducerInterpreter(spec: spec, file: file, effects: effectReader(inputs: [], inputType: nil),
                                                     readings: readings)
                var next: [String: Set<String>] = [:]
                for outcome in interpreter.run(body, at: location).flatMap(\.outcomes) {
                    for pair in outcome.pairs {
                        switch outcome.target {
                        case .state(let t): next[pair.from, default: []].insert(t)
                        case .stay: next[pair.from, default: []].insert(pair.from)
                        // (nil from an optional successor: none; " " never names a case)
                        case .failure: next[pair.from, default: []].insert(optional ? " " : "")
                        case .unknown: next[pair.from, default: []].insert("")
                        }
                    }
                }
                guard info.caseNames.allSatisfy({ next[$0]?.count == 1 && next[$0]?.first != "" }),
                      info.caseNames.contains(where: { next[$0]?.first != " " }) else { continue }
                result[name] = next.compactMapValues { $0.first == " " ? nil : $0.first }
            }
        }
        return result
    }

    /// The predicate evaluator of this run: names resolve through the project's declarations, and
    /// `s.isX` reads the computed `Bool` properties of the subject's enum when `stateEnum` is given.
    func predicateEvaluator(values: [String], subjects: Set<String>, file: ParsedFile, stateEnum: EnumInfo? = nil) -> PredicateEvaluator {
        let evaluator = PredicateEvaluator(values: values, subjects: subjects, file: file, index: index)
        if let stateEnum {
            evaluator.property = { [unowned self] name in
                self.predicates(of: stateEnum)[name].map { Verdict(yes: $0.yes, maybe: $0.maybe) }
            }
        }
        return evaluator
    }

    // MARK: Facts about the whole project, gathered in one pass

    /// Every call that builds a running machine (it has a `state:`-like argument), by each name its
    /// arguments mention, in file order.
    var constructions: [String: [FunctionCallExprSyntax]] { facts.constructions }
    /// Functions of the project that some call passes an `&` argument, resolved where each call is
    /// written (reducers split into functions that take `&state`): the argument a parameter of the
    /// function or closure the call is in, as a reducer's state is (a stored property handed over,
    /// `apply(&model, action)` in a store's method, leaves the function a reducer of its own).
    lazy var inoutCalledFunctions: Set<SyntaxIdentifier> = inoutCalled { _ in true }

    /// The same, for calls in a closure handing on its own parameter (a library's reducer closure,
    /// `Reducer { action, state, _ in … return settle(action: action, state: &state) }`).
    lazy var inoutCalledFromClosures: Set<SyntaxIdentifier> = inoutCalled { $0.is(ClosureExprSyntax.self) }

    func inoutCalled(from caller: (Syntax) -> Bool) -> Set<SyntaxIdentifier> {
        var result = Set<SyntaxIdentifier>()
        for call in facts.inoutCalls where Self.inoutSource(call).map(caller) == true {
            for f in index.functions(referencedBy: call.calledExpression) { result.insert(f.id) }
        }
        return result
    }

    /// The closure or function whose parameter a call passes `&` (`&state`, `&state.player`); nil when the
    /// argument is anything else.
    static func inoutSource(_ call: FunctionCallExprSyntax) -> Syntax? {
        let roots = call.arguments.compactMap { $0.expression.as(InOutExprSyntax.self).flatMap { SyntaxHelpers.root($0.expression) } }
        guard !roots.isEmpty else { return nil }
        for node in sequence(first: Syntax(call), next: { $0.parent }) {
            if let closure = node.as(ClosureExprSyntax.self) {
                if !Set(SyntaxHelpers.closureParameterNames(closure)).isDisjoint(with: roots) { return node }
            } else if let function = node.as(FunctionDeclSyntax.self) {
                return function.signature.parameterClause.parameters.contains { roots.contains(($0.secondName ?? $0.firstName).text) } ? node : nil
            }
        }
        return nil
    }
    /// Calls given as `initialState:` / `state:` arguments (`Store(initialState: Feature.State(…))`),
    /// by the last component of the called type's name.
    var stateInitialisers: [String: [FunctionCallExprSyntax]] { facts.stateInitialisers }

    /// The `initialState:`/`state:` arguments that construct `type` itself: the callee resolves to its
    /// declaration where the call is written (a preview's or a test's type of the same name does not).
    /// Stores built by tests and previews are left out (unless the type itself is declared in test
    /// code): they start the machine wherever the test or preview wants to look, not where the program
    /// starts it.
    func initialisers(of type: TypeInfo) -> [FunctionCallExprSyntax] {
        caches.lock.lock()
        defer { caches.lock.unlock() }
        if caches.initialisersByKey == nil {
            var result: [String: [FunctionCallExprSyntax]] = [:]
            for name in stateInitialisers.keys.sorted() {
                for call in stateInitialisers[name]! {
                    guard let scope = index.scope(of: call),
                          let t = index.resolveType(call.calledExpression.trimmedText, in: scope).declared else { continue }
                    // a feature declared in test code is run by its tests: their stores are its program
                    guard !Self.isTestOrPreview(call, index: index) || Self.isTestOrPreview(t.node, index: index) else { continue }
                    result[t.key, default: []].append(call)
                }
            }
            caches.initialisersByKey = result
        }
        return caches.initialisersByKey?[type.key] ?? []
    }

    /// Code that is not the program: a file of a test target or that imports a test framework (XCTest, Swift
    /// Testing, Quick, Nimble), or a SwiftUI preview (`#Preview { … }`, a type conforming to `PreviewProvider`).
    static func isTestOrPreview(_ node: some SyntaxProtocol, index: SymbolIndex) -> Bool {
        if let file = index.file(of: node), file.inTestTarget || !file.imports.isDisjoint(with: testFrameworks) { return true }
        var current = Syntax(node).parent
        while let c = current {
            if let m = c.as(MacroExpansionExprSyntax.self), m.macroName.text == "Preview" { return true }
            if let m = c.as(MacroExpansionDeclSyntax.self), m.macroName.text == "Preview" { return true }
            // (the kind first: a cast to a protocol asks the runtime, on every node of the way up)
            if SymbolIndex.isTypeDeclaration(c.kind),
               let d = c.asProtocol(DeclGroupSyntax.self),
               d.inheritanceClause?.inheritedTypes.contains(where: { SymbolIndex.bareTypeName($0.type.trimmedText).split(separator: ".").last == "PreviewProvider" }) == true {
                return true
            }
            current = c.parent
        }
        return false
    }
    static let testFrameworks: Set<String> = ["XCTest", "Testing", "Quick", "Nimble"]

    /// Test code over the program's declaration: `node` is in a test or preview and the declaration is not
    /// (a test's stub reducer over the program's `State`, rows of expected moves over its enum).
    func testsProgram(_ node: some SyntaxProtocol, declaredAt declaration: Syntax?) -> Bool {
        guard let declaration else { return false }
        return Self.isTestOrPreview(node, index: index) && !Self.isTestOrPreview(declaration, index: index)
    }

    /// What every call of the code base says (ProjectFacts), read in the index's pass over each file.
    let facts: ProjectFacts

    final class ProjectFacts: SyntaxVisitor {
        var constructions: [String: [FunctionCallExprSyntax]] = [:]
        var inoutCalls: [FunctionCallExprSyntax] = []
        /// Every `initialState:` / `state:` argument, in file order.
        var initialStateArguments: [ExprSyntax] = []
        var stateInitialisers: [String: [FunctionCallExprSyntax]] = [:]
        /// Another value's property given a case (`spy.mode = .hang`, `player?.state = .idle`), by the
        /// property's name: writes made from outside the type that declares it.
        var memberWrites: [String: [(lhs: MemberAccessExprSyntax, value: ExprSyntax)]] = [:]
        /// Ids given to effects or sends anywhere (`Machine.givenIDs`), by module (of the merged facts).
        private(set) var givenIDs: [String: Set<String>] = [:]
        /// The `id:` arguments of this file's calls that give ids; their text needs the whole index.
        private var idArguments: [ExprSyntax] = []
        let module: String

        /// Calls whose `id:` names an effect id: a send registered under an id (Actomaton's
        /// `send(_:id:priority:tracksFeedbacks:)`, `TestActomaton.send(_:id:)`), an effect made
        /// cancellable, an Actomaton effect built with an id, TCA's timer.
        static let idGivingCalls: Set<String> = ["send", "cancellable", "Effect", "sequence", "fireAndForget", "timer"]

        init(module: String = "") {
            self.module = module
            super.init(viewMode: .sourceAccurate)
        }

        /// The facts of every file, in file order, with the ids given read with the index.
        init(merging parts: [ProjectFacts], index: SymbolIndex) {
            module = ""
            super.init(viewMode: .sourceAccurate)
            for part in parts {
                for (name, calls) in part.constructions { constructions[name, default: []] += calls }
                inoutCalls += part.inoutCalls
                initialStateArguments += part.initialStateArguments
                for (name, calls) in part.stateInitialisers { stateInitialisers[name, default: []] += calls }
                for (name, writes) in part.memberWrites { memberWrites[name, default: []] += writes }
                for id in part.idArguments { givenIDs[part.module, default: []].insert(EffectReader.idText(id, index)) }
            }
        }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            // one look at the arguments (this runs for every call of the code base)
            var startsMachine = false, takesInout = false
            var id: ExprSyntax?
            for argument in node.arguments {
                if let label = argument.label?.text {
                    if label == "state" || label == "initialState" || label == "initial" { startsMachine = true }
                    if label == "id", id == nil { id = argument.expression }
                }
                if argument.expression.is(InOutExprSyntax.self) { takesInout = true }
            }
            // (a `scan` starts its accumulator at its seed: `scan(.locked, accumulator: Gate.step)`, `scan(.off) { s, e in
            // Lamp.step(s, e) }`)
            let scan = ExtractionContext.scanSeed(node) != nil
            if startsMachine || scan {
                let names = ReferenceFinder()
                for argument in node.arguments { names.walk(argument.expression) }
                if scan, let closure = node.trailingClosure { names.walk(closure) }
                for name in Set(names.names) { constructions[name, default: []].append(node) }
            }
            if let id {
                let callee = node.calledExpression
                let name = (callee.as(MemberAccessExprSyntax.self)?.declName.baseName.text)
                    ?? (callee.as(DeclReferenceExprSyntax.self)?.baseName.text) ?? ""
                if Self.idGivingCalls.contains(name) { idArguments.append(id) }
            }
            if takesInout { inoutCalls.append(node) }
            return .visitChildren
        }

        override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
            // (`a.b = .c` alone, or `a.b = x ? .c : .d`: most sequences are other operators)
            let choice = node.elements.count == 5 && node.elements.contains { $0.is(UnresolvedTernaryExprSyntax.self) }
            guard node.elements.count == 3 || choice, let (lhs, rhs) = SyntaxHelpers.assignment(node) else { return .visitChildren }
            if let member = lhs.as(MemberAccessExprSyntax.self), let base = member.base, !SyntaxHelpers.isSelf(base) {
                if choice, let folded = SyntaxHelpers.fold(ExprSyntax(node)).as(InfixOperatorExprSyntax.self),
                   folded.rightOperand.is(TernaryExprSyntax.self) {
                    memberWrites[member.declName.baseName.text, default: []].append((member, folded.rightOperand))
                } else if case let value = SyntaxHelpers.unwrap(rhs[0]), value.is(MemberAccessExprSyntax.self) || value.is(FunctionCallExprSyntax.self) {
                    memberWrites[member.declName.baseName.text, default: []].append((member, value))
                }
            }
            // ReactorKit's `initialState = State(phase: .idle, seconds: 0)` in an initializer
            if ["initialState", "self.initialState"].contains(SyntaxHelpers.path(lhs) ?? "") { initialState(rhs[0]) }
            return .visitChildren
        }

        // (`let initialState = State(phase: .idle)`)
        override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
            for binding in node.bindings where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "initialState" {
                if let value = binding.initializer?.value { initialState(value) }
            }
            return .visitChildren
        }

        /// A store's state built where it starts.
        func initialState(_ value: ExprSyntax) {
            guard let call = SyntaxHelpers.unwrap(value).as(FunctionCallExprSyntax.self) else { return }
            stateInitialisers[String(call.calledExpression.trimmedText.split(separator: ".").last ?? ""), default: []].append(call)
        }

        override func visit(_ node: LabeledExprSyntax) -> SyntaxVisitorContinueKind {
            if let label = node.label?.text, label == "initialState" || label == "state" || label == "initial" {
                initialStateArguments.append(node.expression)
                initialState(node.expression)
            }
            return .visitChildren
        }
    }

    /// Each machine's `givenIDs`: those of its module and of the modules its file imports.
    func addGivenIDs(_ machines: inout [Machine]) {
        let given = facts.givenIDs
        guard !given.isEmpty else { return }
        let fileByPath = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        for i in machines.indices {
            guard let file = fileByPath[machines[i].location.file] else { continue }
            let modules = [file.module] + index.sortedImports(of: file)
            machines[i].givenIDs = modules.flatMap { given[$0].map { $0.sorted() } ?? [] }.uniqued()
        }
    }

    /// Mutating methods of an enum, by name.
    func mutatingMethods(of info: EnumInfo?) -> [String: FunctionDeclSyntax] {
        guard let info, let type = index.types[info.key] else { return [:] }
        var result: [String: FunctionDeclSyntax] = [:]
        for (m, _) in type.methods where m.modifiers.contains(where: { $0.name.text == "mutating" }) { result[m.name.text] = m }
        return result
    }

    /// The ways an enum builds a value from data: its static functions returning a value, by name, and
    /// its initializers (`static func from(_ r: Receipt) -> Status`, `init(receipt:) { self = … }`).
    func factories(of info: EnumInfo?) -> EnumFactories? {
        guard let info, let type = index.types[info.key] else { return nil }
        var functions: [String: [FunctionDeclSyntax]] = [:]
        for (m, _) in type.methods where m.signature.returnClause != nil && m.modifiers.contains(where: { $0.name.text == "static" }) {
            functions[m.name.text, default: []].append(m)
        }
        let initializers = type.initializers + type.extensionInitializers
        guard !functions.isEmpty || !initializers.isEmpty else { return nil }
        return EnumFactories(name: info.name, functions: functions, initializers: initializers)
    }

    func initialArgument(_ call: FunctionCallExprSyntax) -> ExprSyntax? {
        for label in ["state", "initialState", "initial", "initialValue"] {
            if let e = SyntaxHelpers.argument(call, label) { return e }
        }
        if let seed = Self.scanSeed(call) { return seed }
        // `Machine<Phase, Event>(.stopped) { state, event in … }`: a case alone before the transition closure
        if call.trailingClosure != nil, call.arguments.count == 1, let only = call.arguments.first, only.label == nil,
           let member = only.expression.as(MemberAccessExprSyntax.self), member.base == nil {
            return only.expression
        }
        return nil
    }

    /// The seed of a `scan` call (RxSwift's `scan(_:accumulator:)` and `scan(into:accumulator:)`, Combine's
    /// `scan(_:_:)`): where its accumulator starts, its first argument (not a closure).
    static func scanSeed(_ call: FunctionCallExprSyntax) -> ExprSyntax? {
        guard DSLSupport.calleeName(call) == "scan", let first = call.arguments.first?.expression,
              !first.is(ClosureExprSyntax.self) else { return nil }
        return first
    }

    /// References an expression makes: `x`, `self.x`, `T.x`, `value.x` (what each names is resolved
    /// later, where it is written; `names` only narrows the search).
    final class ReferenceFinder: SyntaxVisitor {
        var references: [ExprSyntax] = []
        var names: [String] { references.compactMap(ExtractionContext.referencedName) }
        init() { super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
            references.append(ExprSyntax(node))
            return .skipChildren
        }
        override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
            if node.base != nil { references.append(ExprSyntax(node)) }
            return .visitChildren
        }
    }

    static func referencedName(_ expr: ExprSyntax) -> String? {
        if let ref = expr.as(DeclReferenceExprSyntax.self) { return ref.baseName.text }
        return expr.as(MemberAccessExprSyntax.self)?.declName.baseName.text
    }

    /// Whether `node` is `outer` or inside it (same tree).
    static func contains(_ outer: some SyntaxProtocol, _ node: some SyntaxProtocol) -> Bool {
        Syntax(outer).root.id == Syntax(node).root.id && outer.position <= node.position && node.endPosition <= outer.endPosition
    }

    /// The state named by an initial-state expression, if it is one of `states`; with the state's enum
    /// (`info`), also a case by its raw value or its place in `allCases` (`Tier(rawValue: "basic")!`,
    /// `.init(rawValue: 2)!`, `Lap.allCases[0]`, `Face.allCases.first!`).
    func initialState(_ expr: ExprSyntax?, states: [String], of info: EnumInfo? = nil) -> String? {
        guard let expr else { return nil }
        if let ref = SyntaxHelpers.caseReference(expr, index, accepting: states.contains) { return ref.name }
        if let b = SyntaxHelpers.unwrap(expr).as(BooleanLiteralExprSyntax.self), states.contains(b.literal.text) { return b.literal.text }
        if let info, case let successors = successors(of: info) {
            if let literal = SyntaxHelpers.literalRawValue(expr) {
                if let name = successors["rawValue="]?[literal.raw], states.contains(name) { return name }
                return literal.fallback.flatMap { initialState($0, states: states, of: info) }
            }
            if let order = successors["allCases="], let position = SyntaxHelpers.allCasesPosition(expr, count: order.count),
               let name = order["\(position)"], states.contains(name) { return name }
        }
        // (a static constant of the enum standing for a case: `var state: State = .initial`)
        return SyntaxHelpers.caseReference(expr, index).flatMap { index.staticCase($0.name, among: states) }
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

    /// Adds a machine. Its id is `Module/declaration path` (the path defaults to the machine's name; no
    /// `Module/` in the unnamed module of loose files):
    /// `key` gives a whole id instead (a state declaration's index key plus the field). Machines
    /// marked `mergeable` are one machine when they have the same id and name (two `Reduce` blocks
    /// of one feature writing one field). An initial state that is not one of the states is dropped.
    /// `leftOut` are the statements where the walk of its rules left paths out (`ReducerInterpreter.leftOut`):
    /// the machine is partial, and each is said.
    func add(_ machine: Machine, stateEnum: EnumInfo?, declaration: String? = nil, key: String? = nil, mergeable: Bool = false,
             at node: (any SyntaxProtocol)? = nil, leftOut: [SourceLocation?] = []) {
        var m = Self.withoutBackticks(machine)
        m.pathsLeftOut = leftOut.compactMap { $0 }.uniqued()
        m.partial = m.partial || !m.pathsLeftOut.isEmpty
        for location in m.pathsLeftOut {
            warn(ReducerInterpreter.leftOutMessage("'\(m.name)'") + " and the machine is partial", at: location, severity: .note)
        }
        m.terminal = m.terminal.appendingUnique(marked(stateEnum, "terminal") + declaredEnds(of: stateEnum).sorted().filter(m.states.contains))
        if let initial = marked(stateEnum, "initial").first {
            // (the marker answers the note that no start could be read)
            if m.initial == nil { diagnostics.removeAll { $0.severity == .note && $0.message.hasPrefix("\(m.name) starts as ") && $0.message.contains("no initial state") } }
            m.initial = initial
        }
        if let initial = m.initial, !m.states.contains(initial) {
            warn("\(m.name): the initial value `\(initial)` is not one of its states; no initial state", at: m.location, severity: .note)
            m.initial = nil
        }
        let module = moduleByPath[m.location.file] ?? ""
        // the name (a fallback name's `@line` left out), inside the types and functions it is written in
        var name = m.name
        if let at = name.lastIndex(of: "@"), !name[name.index(after: at)...].isEmpty,
           name[name.index(after: at)...].allSatisfy(\.isNumber) { name = String(name[..<at]) }
        let path = declaration ?? node.map { n -> String in
            let outer = SyntaxHelpers.declarationPath(n)
            let prefix = outer.joined(separator: ".")
            if outer.isEmpty || name.hasPrefix(prefix + ".") { return name }
            return outer.last == name ? prefix : prefix + "." + name
        }
        m.id = key ?? SymbolIndex.id(module: module, path: path ?? name)
        if mergeable { mergeableIDs.insert(m.id) }
        if let call = pendingConstruction { constructionMachines[call, default: []].append(m.location) }
        pendingConstruction = nil
        machines.append(m)
    }

    lazy var moduleByPath: [String: String] = Dictionary(files.map { ($0.path, $0.module) }, uniquingKeysWith: { a, _ in a })
    /// Ids of machines that a feature may write from several reducer blocks.
    var mergeableIDs = Set<String>()

    /// `` `default` `` and `default` are one name: recognisers read names through
    /// `SyntaxHelpers.caseReference` and `SymbolIndex`, which drop the backticks; this catches any
    /// other path, so no state is declared twice and reported unreachable in one spelling.
    static func withoutBackticks(_ machine: Machine) -> Machine {
        func clean(_ s: String) -> String { s.withoutBackticks }
        // (a byte test: this runs for every machine)
        func ticked(_ s: String) -> Bool { s.utf8.contains(UInt8(ascii: "`")) }
        guard machine.states.contains(where: ticked) || machine.inputs.contains(where: ticked)
                || machine.rules.contains(where: { r in r.outcomes.contains { o in
                    o.pairs.contains { ticked($0.from) || ticked($0.input) } || { if case .state(let s) = o.target { ticked(s) } else { false } }()
                } })
        else { return machine }
        var m = machine
        m.states = m.states.map(clean).uniqued()
        m.inputs = m.inputs.map(clean).uniqued()
        m.initial = m.initial.map(clean)
        m.terminal = m.terminal.map(clean).uniqued()
        m.transient = m.transient.map(clean).uniqued()
        m.stateLocations = Dictionary(m.stateLocations.map { (clean($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
        m.inputLocations = Dictionary(m.inputLocations.map { (clean($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
        for i in m.rules.indices {
            for j in m.rules[i].outcomes.indices {
                m.rules[i].outcomes[j].pairs = m.rules[i].outcomes[j].pairs.map { Pair(from: clean($0.from), input: clean($0.input)) }.uniqued()
                if case .state(let s) = m.rules[i].outcomes[j].target { m.rules[i].outcomes[j].target = .state(clean(s)) }
            }
        }
        return m
    }
}
