import Foundation
import MachineModel
import SwiftParser
@_spi(RawSyntax) import SwiftSyntax

/// An enum declared in one of the input files.
struct EnumInfo {
    public struct Case {
        var name: String
        var hasPayload: Bool
        var node: EnumCaseElementSyntax
        var file: ParsedFile
        var leadingComment: String
        /// (Computed when asked: most declarations' lines are never needed, and a file's line table is made only when one is.)
        var location: SourceLocation { file.location(of: node) }
    }
    var name: String
    var qualifiedName: String
    /// Unique in the index: module, declaration path, and the file for file-private declarations.
    var key: String
    var cases: [Case]
    var inherited: [String]
    let decl: EnumDeclSyntax
    let file: ParsedFile
    var location: SourceLocation { file.location(of: decl) }

    var caseNames: [String] { cases.map(\.name) }
}

/// A stored or computed property, or a top-level variable.
struct Binding {
    var name: String
    var typeText: String?
    var initializer: ExprSyntax?
    var owner: String?
    var isStatic: Bool
    var isComputed: Bool
    var isFilePrivate: Bool
    var node: Syntax
    var file: ParsedFile
    var location: SourceLocation { file.location(of: node) }
}

/// A struct, class, actor, enum or protocol with its members (extensions merged in), or an
/// extension of a type the inputs do not declare (`kind == "extension"`).
final class TypeInfo {
    /// The initializers its declaration holds (not those of its extensions).
    var initializers: [InitializerDeclSyntax] {
        node.asProtocol(DeclGroupSyntax.self)?.memberBlock.members.compactMap { $0.decl.as(InitializerDeclSyntax.self) } ?? []
    }
    /// The initializers its extensions hold.
    var extensionInitializers: [InitializerDeclSyntax] {
        extensions.flatMap { $0.asProtocol(DeclGroupSyntax.self)?.memberBlock.members.compactMap { $0.decl.as(InitializerDeclSyntax.self) } ?? [] }
    }
    /// The extensions merged into it.
    var extensions: [Syntax] = []

    var name: String
    /// The declaration path inside its module: `Outer.Inner`, `Outer.run().Local` for a local type.
    var qualifiedName: String
    var kind: String
    var inherited: [String]
    var properties: [Binding] = []
    var methods: [(FunctionDeclSyntax, ParsedFile)] = []
    var location: SourceLocation { file.location(of: node) }
    var node: Syntax
    var file: ParsedFile
    var module: String
    /// `private`/`fileprivate` (or nested in such a type): seen only in its file.
    var isFilePrivate: Bool
    var genericParameters: [String]
    weak var parent: TypeInfo?
    /// Nested types and typealiases, by name (those of extensions included).
    var members: [String: [Declaration]] = [:]
    var enumInfo: EnumInfo?
    var key = ""
    /// A view of another type (`view(adding:)`): not the index's own, so nothing is kept by its identity.
    private(set) var isView = false

    init(name: String, qualifiedName: String, kind: String, inherited: [String], node: Syntax,
         file: ParsedFile, module: String, isFilePrivate: Bool, genericParameters: [String]) {
        self.name = name
        self.qualifiedName = qualifiedName
        self.kind = kind
        self.inherited = inherited
        self.node = node
        self.file = file
        self.module = module
        self.isFilePrivate = isFilePrivate
        self.genericParameters = genericParameters
    }

    /// The type with more methods read as its own (those it inherits from a superclass, or a protocol
    /// extension's defaults) and more properties: everything else the type's.
    func view(adding methods: [(FunctionDeclSyntax, ParsedFile)], properties: [Binding] = []) -> TypeInfo {
        let view = TypeInfo(name: name, qualifiedName: qualifiedName, kind: kind, inherited: inherited, node: node, file: file,
                            module: module, isFilePrivate: isFilePrivate, genericParameters: genericParameters)
        view.isView = true
        view.key = key
        view.parent = parent
        view.extensions = extensions
        view.members = members
        view.enumInfo = enumInfo
        view.properties = self.properties + properties
        view.methods = self.methods + methods
        return view
    }
}

/// A `typealias`, possibly generic (`typealias Machine<S> = Automaton<S, Input>`).
final class AliasInfo {
    let name: String
    let parameters: [String]
    let target: TypeSyntax
    let file: ParsedFile
    let module: String
    let isFilePrivate: Bool
    let node: TypeAliasDeclSyntax
    init(name: String, parameters: [String], target: TypeSyntax, file: ParsedFile, module: String, isFilePrivate: Bool,
         node: TypeAliasDeclSyntax) {
        self.name = name
        self.parameters = parameters
        self.target = target
        self.file = file
        self.module = module
        self.isFilePrivate = isFilePrivate
        self.node = node
    }
}

/// A named type declaration: a nominal type or a typealias.
enum Declaration {
    case type(TypeInfo)
    case alias(AliasInfo)

    var file: ParsedFile { switch self { case .type(let t): t.file; case .alias(let a): a.file } }
    var isFilePrivate: Bool { switch self { case .type(let t): t.isFilePrivate; case .alias(let a): a.isFilePrivate } }
    var module: String { switch self { case .type(let t): t.module; case .alias(let a): a.module } }
    var description: String {
        switch self {
        case .type(let t): "\(t.module).\(t.qualifiedName) (\(t.location.file):\(t.location.line))"
        case .alias(let a): "typealias \(a.name) (\(a.file.location(of: a.node).file):\(a.file.location(of: a.node).line))"
        }
    }
}

/// A type written in the source, resolved the way the compiler resolves it.
indirect enum ResolvedType {
    /// A type the inputs declare, with its generic arguments.
    case declared(TypeInfo, arguments: [ResolvedType])
    /// A type the inputs do not declare (a framework's, a generic parameter): its written name, e.g.
    /// `Harvester.EffectMapping`, `Optional`, `Array`, `Dictionary`.
    case external(String, arguments: [ResolvedType])
    /// Several declarations are visible under this name: the compiler would not accept it either.
    case ambiguous(String, candidates: [String])
    /// Tuples, function types and other shapes with no name.
    case other(String)

    var declared: TypeInfo? { if case .declared(let t, _) = self { t } else { nil } }
    var enumInfo: EnumInfo? { declared?.enumInfo }
    var arguments: [ResolvedType] {
        switch self {
        case .declared(_, let a), .external(_, let a): a
        default: []
        }
    }
    /// The external name (`Optional`), nil for declared types.
    var externalName: String? { if case .external(let n, _) = self { n } else { nil } }
    /// The last component of the name: `EffectMapping` for `Harvester.EffectMapping`.
    var shortName: String? {
        switch self {
        case .declared(let t, _): t.name
        case .external(let n, _): String(n.split(separator: ".").last ?? Substring(n))
        default: nil
        }
    }

    /// Every declared enum named anywhere in the type, outermost first (`Harvester<In, St>` → In, St).
    var enums: [EnumInfo] {
        var result: [EnumInfo] = []
        if let e = enumInfo { result.append(e) }
        for a in arguments { result += a.enums }
        return result
    }

    /// The ambiguities anywhere in the type.
    var ambiguities: [(String, [String])] {
        if case .ambiguous(let n, let c) = self { return [(n, c)] }
        return arguments.flatMap(\.ambiguities)
    }
}

/// Where a name is looked up: the file, and the lexical levels around the use, innermost first.
struct LookupScope {
    enum Level {
        case type(TypeInfo)
        case local([String: [Declaration]])
        case generic(Set<String>)
    }
    let file: ParsedFile
    let levels: [Level]

    /// The innermost type around the use.
    var innermostType: TypeInfo? {
        levels.lazy.compactMap { level -> TypeInfo? in if case .type(let t) = level { t } else { nil } }.first
    }
}

/// Declarations across every input file, kept where Swift keeps them: per module, per file for
/// `private`/`fileprivate` ones, nested in their types (extensions merged), local to their function.
/// Names are looked up as the compiler looks them up; a lookup is unique, ambiguous or external.
final class SymbolIndex {
    var enums: [EnumInfo] = []
    /// By key (module, declaration path, file for file-private declarations).
    var types: [String: TypeInfo] = [:]
    var typeOrder: [TypeInfo] = []
    var bindings: [String: [Binding]] = [:]  // by simple name
    let files: [ParsedFile]

    /// Top-level declarations by module, then name.
    private var moduleDecls: [String: [String: [Declaration]]] = [:]
    /// Types declared in a function or closure body, by the statement list that declares them.
    private var localDecls: [SyntaxIdentifier: [String: [Declaration]]] = [:]
    /// The type each type or (resolved) extension declaration node stands for.
    private var typeByNode: [SyntaxIdentifier: TypeInfo] = [:]
    /// Each file by its syntax tree's root, so a node finds its file.
    private var fileByRoot: [SyntaxIdentifier: ParsedFile] = [:]
    /// Modules each file imports (inside `#if` too).
    private var importsByFile: [ObjectIdentifier: Set<String>] = [:]
    private(set) var modules = Set<String>()
    /// Top-level functions by module, then name; functions local to a body, by the statement list
    /// that declares them. Methods are kept on their types (`TypeInfo.methods`).
    private var moduleFunctions: [String: [String: [FunctionDeclSyntax]]] = [:]
    private var localFunctions: [SyntaxIdentifier: [String: [FunctionDeclSyntax]]] = [:]
    /// Simple names written in type position anywhere in the inputs (annotations, signatures,
    /// inheritance clauses, typealias targets): a name the inputs do not declare but write as a type
    /// is a type of a dependency (NameResolution.swift).
    private(set) var writtenTypeNames = Set<String>()
    /// Notes for names whose meaning (type or value) Swift's rules leave open here; read by the
    /// extractor at the end of the run. Candidates are built on several threads: behind a lock.
    var undecidedNotes: [Diagnostic] = []
    /// The notes in `undecidedNotes`: each is said once however often the lookup runs into it.
    var undecidedSaid = Set<Diagnostic>()
    let undecidedLock = NSLock()

    /// Each file's declarations are collected on its own (on `jobs` threads, replaying the file's one
    /// walk), then registered in file order: keys and lookups do not depend on the job count.
    convenience init(files: [ParsedFile], jobs: Int = 1) {
        self.init(files: files, collected: Parallel.map(files, jobs: jobs) { file -> Collector in
            let collector = Collector(file: file)
            file.events.replay(collector)
            return collector
        })
    }

    /// The index of `files` from what each file's collector found (`collected[i]` of `files[i]`).
    init(files: [ParsedFile], collected: [Collector]) {
        self.files = files
        var extensions: [Extension] = []
        for (file, collector) in zip(files, collected) {
            fileByRoot[file.tree.id] = file
            modules.insert(file.module)
            for registration in collector.registrations { apply(registration) }
            extensions += collector.extensions
            importsByFile[ObjectIdentifier(file)] = collector.imports
            writtenTypeNames.formUnion(collector.writtenTypeNames)
        }
        resolve(extensions)
        for file in files {
            let visible = visibleModules(of: file)
            importCache[ObjectIdentifier(file)] = visible
            sortedImportCache[ObjectIdentifier(file)] = visible.sorted()
        }
    }

    // MARK: Registration

    /// What a file's collector found, registered in file order.
    enum Registration {
        case type(TypeInfo, Container?)
        case declaration(Declaration, String, Container)
        case binding(Binding)
        case function(FunctionDeclSyntax, Container)
        case exportedImport(module: String, String)
    }

    private func apply(_ registration: Registration) {
        switch registration {
        case .type(let t, let container):
            register(t, in: container)
            if var e = t.enumInfo {
                e.key = t.key
                t.enumInfo = e
                enums.append(e)
            }
        case .declaration(let d, let name, let container): add(d, named: name, to: container)
        case .binding(let b): bindings[b.name, default: []].append(b)
        case .function(let f, let container): addFunction(f, to: container)
        case .exportedImport(let module, let name): exportedImports[module, default: []].insert(name)
        }
    }

    func register(_ t: TypeInfo, in container: Container?) {
        var key = Self.id(module: t.module, path: (t.isFilePrivate ? t.file.baseName + "#" : "") + t.qualifiedName)
        if types[key] != nil {
            // a redeclaration (or one module seen as two folders): told apart by file, never by line
            key += "@" + t.file.baseName
            var n = 2
            while types[key + (n > 2 ? "~\(n)" : "")] != nil { n += 1 }
            if n > 2 { key += "~\(n)" }
        }
        t.key = key
        types[key] = t
        typeOrder.append(t)
        typeByNode[t.node.id] = t
        if let container { add(.type(t), named: t.name, to: container) }
    }

    func add(_ d: Declaration, named name: String, to container: Container) {
        switch container {
        case .module(let m): moduleDecls[m, default: [:]][name, default: []].append(d)
        case .type(let parent): parent.members[name, default: []].append(d)
        case .local(let block): localDecls[block, default: [:]][name, default: []].append(d)
        }
    }

    enum Container {
        case module(String)
        case type(TypeInfo)
        case local(SyntaxIdentifier)
    }

    /// An extension waiting for its extended type to be known (it may be declared in another file,
    /// or nested in a type that another extension adds).
    struct Extension {
        let node: ExtensionDeclSyntax
        let file: ParsedFile
        let placeholder: TypeInfo
    }

    /// Merges every extension into the type it extends; extensions of types the inputs do not
    /// declare stay as types of kind `extension`.
    private func resolve(_ pending: [Extension]) {
        var rest = pending
        var progress = true
        while progress && !rest.isEmpty {
            progress = false
            rest = rest.filter { e in
                let scope = LookupScope(file: e.file, levels: [])
                guard case .declared(let target, _) = resolveType(e.node.extendedType, in: scope, depth: 0) else { return true }
                merge(e.placeholder, into: target)
                typeByNode[e.node.id] = target
                progress = true
                return false
            }
        }
        for e in rest {
            e.placeholder.qualifiedName = SymbolIndex.bareTypeName(e.node.extendedType.trimmedText)
            // an extension of a framework's type: kept for its members, its name stays the framework's
            register(e.placeholder, in: nil)
            for decls in e.placeholder.members.values {
                for d in decls { if case .type(let nested) = d { reparent(nested, under: e.placeholder) } }
            }
        }
    }

    private func merge(_ ext: TypeInfo, into target: TypeInfo) {
        target.inherited += ext.inherited
        target.properties += ext.properties.map { var b = $0; b.owner = target.qualifiedName; return b }
        target.methods += ext.methods
        target.extensions.append(ext.node)
        for (name, decls) in ext.members {
            for d in decls {
                if case .type(let nested) = d { reparent(nested, under: target) }
                target.members[name, default: []].append(d)
            }
        }
    }

    /// A type declared in an extension gets the extended type's path.
    private func reparent(_ t: TypeInfo, under parent: TypeInfo) {
        t.parent = parent
        types[t.key] = nil
        let oldPath = t.qualifiedName
        t.qualifiedName = parent.qualifiedName + "." + t.name
        t.isFilePrivate = t.isFilePrivate || parent.isFilePrivate
        var key = Self.id(module: t.module, path: (t.isFilePrivate ? t.file.baseName + "#" : "") + t.qualifiedName)
        if types[key] != nil { key += "@" + t.file.baseName }
        t.key = key
        types[key] = t
        if var e = t.enumInfo {
            e.qualifiedName = t.qualifiedName
            e.key = key
            t.enumInfo = e
            if let i = enums.firstIndex(where: { $0.decl.id == e.decl.id }) { enums[i] = e }
        }
        for p in t.properties.indices where t.properties[p].owner == oldPath { t.properties[p].owner = t.qualifiedName }
        for decls in t.members.values {
            for d in decls { if case .type(let nested) = d { reparent(nested, under: t) } }
        }
    }

    // MARK: Lookup

    /// The lexical scope around a node: local types of the bodies it sits in, the types it is
    /// declared in (innermost first) and their generic parameters.
    func scope(of node: some SyntaxProtocol) -> LookupScope? {
        guard let syntax = inputNode(Syntax(node)), let file = fileByRoot[syntax.root.id] else { return nil }
        var levels: [LookupScope.Level] = []
        var current: Syntax? = syntax
        while let c = current {
            // by kind first: most nodes on the way up are none of these, and a lookup costs a hash
            let kind = c.kind
            switch kind {
            case .codeBlockItemList:
                if let locals = localDecls[c.id] { levels.append(.local(locals)) }
            case .functionDecl:
                if let g = c.cast(FunctionDeclSyntax.self).genericParameterClause {
                    levels.append(.generic(Set(g.parameters.map(\.name.text))))
                }
            case _ where Self.isTypeDeclaration(kind):
                if let t = typeByNode[c.id] { levels.append(.type(t)) }
            default:
                break
            }
            current = c.parent
        }
        return LookupScope(file: file, levels: levels)
    }

    /// Whether `typeByNode` holds nodes of this kind: type declarations and extensions. A `switch`, not
    /// a set: it is asked for every node on the way up from a looked-up name, and a set hashes the kind.
    static func isTypeDeclaration(_ kind: SyntaxKind) -> Bool {
        switch kind {
        case .structDecl, .classDecl, .enumDecl, .actorDecl, .protocolDecl, .extensionDecl: true
        default: false
        }
    }

    /// The scope inside a type's declaration.
    func scope(inside type: TypeInfo) -> LookupScope {
        var levels: [LookupScope.Level] = []
        var t: TypeInfo? = type
        while let c = t { levels.append(.type(c)); t = c.parent }
        return LookupScope(file: type.file, levels: levels)
    }

    /// Modules a file sees: its own imports and the `@_exported` imports of its module's files, and,
    /// transitively, what each of those modules re-exports (`import A` where A has `@_exported import B`
    /// sees B too).
    /// Computed for every file when the index is built (per-file work reads it from several threads).
    func imports(of file: ParsedFile) -> Set<String> {
        importCache[ObjectIdentifier(file)] ?? visibleModules(of: file)
    }

    private func visibleModules(of file: ParsedFile) -> Set<String> {
        var result = (importsByFile[ObjectIdentifier(file)] ?? file.imports).union(exportedImports[file.module] ?? []).union(file.implicitImports)
        var pending = Array(result)
        while let m = pending.popLast() {
            for e in exportedImports[m] ?? [] where result.insert(e).inserted { pending.append(e) }
        }
        return result
    }
    private var importCache: [ObjectIdentifier: Set<String>] = [:]
    private var sortedImportCache: [ObjectIdentifier: [String]] = [:]

    /// `imports(of:)` in name order (the order imported declarations are listed in), sorted once per file.
    func sortedImports(of file: ParsedFile) -> [String] {
        sortedImportCache[ObjectIdentifier(file)] ?? visibleModules(of: file).sorted()
    }
    var exportedImports: [String: Set<String>] = [:]

    /// Declarations a simple name means at a scope: the innermost level that declares it wins; at
    /// file level, declarations of this file and module, then those of imported project modules.
    func lookup(_ name: String, in scope: LookupScope) -> (found: [Declaration], generic: Bool) {
        for level in scope.levels {
            switch level {
            case .local(let decls):
                if let d = decls[name], !d.isEmpty { return (d, false) }
            case .generic(let names):
                if names.contains(name) { return ([], true) }
            case .type(let t):
                if t.genericParameters.contains(name) { return ([], true) }
                let d = members(named: name, of: t, from: scope.file)
                if !d.isEmpty { return (d, false) }
            }
        }
        let own = (moduleDecls[scope.file.module]?[name] ?? []).filter { !$0.isFilePrivate || $0.file === scope.file }
        if !own.isEmpty { return (own, false) }
        var imported: [Declaration] = []
        for module in sortedImports(of: scope.file) where module != scope.file.module {
            imported += (moduleDecls[module]?[name] ?? []).filter { !$0.isFilePrivate }
        }
        return (imported, false)
    }

    /// Member types of a type (extensions merged), then of its superclass when the inputs declare it.
    func members(named name: String, of type: TypeInfo, from file: ParsedFile, depth: Int = 0) -> [Declaration] {
        let own = (type.members[name] ?? []).filter { !$0.isFilePrivate || $0.file === file }
        if !own.isEmpty || depth > 8 || type.inherited.isEmpty { return own }
        let search = SearchGuard.current
        guard !search.types.contains(ObjectIdentifier(type)) else { return [] }
        // Resolving a supertype looks names up, which searches other supertypes, each search starting
        // at depth 0: the searches nested on this thread share one budget of steps (code where many
        // types share names and inherit from each other made it exponential: fuzz finding 6).
        // The outermost search depends on its arguments alone (its budget starts at 0): its answer is
        // kept. A nested one depends on the search around it and is worked out each time.
        if search.types.isEmpty {
            let key = MemberSearch(name: name, type: ObjectIdentifier(type), file: ObjectIdentifier(file), depth: depth)
            supertypesLock.lock()
            let kept = memberSearches[key]
            supertypesLock.unlock()
            if let kept { return kept }
            search.steps = 0
            let found = inheritedMembers(named: name, of: type, from: file, depth: depth, search: search)
            supertypesLock.lock()
            memberSearches[key] = found
            supertypesLock.unlock()
            return found
        }
        return inheritedMembers(named: name, of: type, from: file, depth: depth, search: search)
    }

    /// `members(named:of:from:depth:)` past the type's own members: the search of its supertypes.
    private func inheritedMembers(named name: String, of type: TypeInfo, from file: ParsedFile, depth: Int,
                                  search: SearchGuard) -> [Declaration] {
        search.steps += 1
        guard search.steps <= Self.supertypeSearchBudget else {
            search.cuts += 1
            // (said once per search: the steps after the budget all stop here)
            guard search.steps == Self.supertypeSearchBudget + 1 else { return [] }
            undecided("the search for `\(name)` in the supertypes of `\(type.qualifiedName)` stopped after \(Self.supertypeSearchBudget) steps (too many enclosing types and supertypes to search them all); it is read as not found there",
                      at: type.node)
            return []
        }
        search.types.insert(ObjectIdentifier(type))
        defer { search.types.remove(ObjectIdentifier(type)) }
        for index in type.inherited.indices {
            guard let sup = supertype(index, of: type, depth: depth, search: search) else { continue }
            let found = members(named: name, of: sup, from: file, depth: depth + 1)
            if !found.isEmpty { return found }
        }
        return []
    }

    /// The type's `index`th inherited type when it is a declared class or protocol, resolved inside a
    /// search of its supertypes. What the resolution finds depends on the type, the depth and the types
    /// whose search is under way (the guard), and on the steps left: an answer found within the budget
    /// is kept with the steps it took, and given again where those steps are still left, counting them.
    /// (Every name a type's members are searched for resolves the same inherited types again.) Answers
    /// inside searches nested deeper than `keptGuardLimit` types are not kept: each key holds its own
    /// copy of the guard, and such keys rarely come again (types nested 60 deep kept 600 MB of them).
    private func supertype(_ index: Int, of type: TypeInfo, depth: Int, search: SearchGuard) -> TypeInfo? {
        let keeps = search.types.count <= Self.keptGuardLimit
        let key = InheritedResolution(type: ObjectIdentifier(type), index: index, depth: depth, guarded: keeps ? search.types : [])
        supertypesLock.lock()
        let kept = keeps ? inheritedResolutions[key] : nil
        supertypesLock.unlock()
        if let kept, search.steps + kept.steps <= Self.supertypeSearchBudget {
            search.steps += kept.steps
            return kept.type
        }
        let (stepsBefore, cutsBefore) = (search.steps, search.cuts)
        let found = declaredSupertype(type.inherited[index], of: type, depth: depth + 1)
        if keeps, search.cuts == cutsBefore {
            supertypesLock.lock()
            inheritedResolutions[key] = (found, search.steps - stepsBefore)
            supertypesLock.unlock()
        }
        return found
    }

    /// A type written in `type`'s inheritance clause, resolved where `type` is declared, when it is a
    /// class or protocol the inputs declare.
    private func declaredSupertype(_ written: String, of type: TypeInfo, depth: Int) -> TypeInfo? {
        guard case .declared(let sup, _) = resolveType(written, in: scope(inside: type.parent ?? type), depth: depth),
              sup !== type, sup.kind == "class" || sup.kind == "protocol" else { return nil }
        return sup
    }

    /// Whether a closure escapes its call, by closure (`SyntaxHelpers.escapes`): asked once per closure for
    /// every property a type's methods are read for.
    private var escapeAnswers: [SyntaxIdentifier: Bool?] = [:]
    private let escapeAnswersLock = NSLock()

    func escapeAnswer(_ closure: ClosureExprSyntax, _ compute: () -> Bool?) -> Bool? {
        escapeAnswersLock.lock()
        let known = escapeAnswers[closure.id]
        escapeAnswersLock.unlock()
        if let known { return known }
        let answer = compute()
        escapeAnswersLock.lock()
        escapeAnswers[closure.id] = answer
        escapeAnswersLock.unlock()
        return answer
    }

    /// Written types parsed once per run. Once built, the index is read from several threads
    /// (candidates are built in parallel): the cache is behind a lock, the cycle guard per thread.
    private var parsedTypes: [String: TypeSyntax] = [:]
    private let parsedTypesLock = NSLock()
    /// `supertypes(of:)` as asked outside any supertype search, by type.
    private var supertypesKept: [ObjectIdentifier: [TypeInfo]] = [:]
    /// `members(named:of:from:depth:)` as asked outside any supertype search.
    private struct MemberSearch: Hashable {
        let name: String
        let type: ObjectIdentifier
        let file: ObjectIdentifier
        let depth: Int
    }
    private var memberSearches: [MemberSearch: [Declaration]] = [:]
    /// `supertype(_:of:depth:search:)`'s answers, with the steps each took.
    private struct InheritedResolution: Hashable {
        let type: ObjectIdentifier
        let index: Int
        let depth: Int
        let guarded: Set<ObjectIdentifier>
    }
    private var inheritedResolutions: [InheritedResolution: (type: TypeInfo?, steps: Int)] = [:]
    private let supertypesLock = NSLock()
    /// How many supertype searches one lookup may make, nested ones included (`members(named:of:)`).
    static let supertypeSearchBudget = 10_000
    /// The most types a search may be nested in for `supertype(_:of:depth:search:)` to keep its answer.
    static let keptGuardLimit = 8

    /// The types whose supertypes the current thread is searching (pthread-specific storage: Foundation's
    /// thread dictionary bridges the set on every access).
    final class SearchGuard {
        var types = Set<ObjectIdentifier>()
        /// Supertype searches made since the outermost one under way began.
        var steps = 0
        /// Searches stopped by the budget on this thread so far.
        var cuts = 0
        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            pthread_key_create(&key) { pointer in
                if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
            }
            return key
        }()

        static var current: SearchGuard {
            if let pointer = pthread_getspecific(key) { return Unmanaged<SearchGuard>.fromOpaque(pointer).takeUnretainedValue() }
            let made = SearchGuard()
            pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
            return made
        }
    }

    /// Resolves a type written as text (from an annotation or a generic argument) at a scope.
    func resolveType(_ text: String, in scope: LookupScope, depth: Int = 0) -> ResolvedType {
        parsedTypesLock.lock()
        let cached = parsedTypes[text]
        parsedTypesLock.unlock()
        let type: TypeSyntax
        if let cached { type = cached } else {
            var parser = Parser(text)
            type = TypeSyntax.parse(from: &parser)
            parsedTypesLock.lock()
            parsedTypes[text] = type
            parsedTypesLock.unlock()
        }
        return resolveType(type, in: scope, depth: depth)
    }

    func resolveType(_ type: TypeSyntax, in scope: LookupScope, depth: Int = 0, substitutions: [String: ResolvedType] = [:]) -> ResolvedType {
        guard depth < 16 else { return .other(type.trimmedText) }
        func args(_ clause: GenericArgumentClauseSyntax?) -> [ResolvedType] {
            clause?.arguments.map { a -> ResolvedType in
                #if canImport(SwiftSyntax601)
                // swift-syntax 601 and later: a generic argument is a type or (for value generics) an expression
                if case .type(let t) = a.argument { return resolveType(t, in: scope, depth: depth + 1, substitutions: substitutions) }
                return .other(a.argument.trimmedText)
                #else
                return resolveType(a.argument, in: scope, depth: depth + 1, substitutions: substitutions)
                #endif
            } ?? []
        }
        if let id = type.as(IdentifierTypeSyntax.self) {
            let name = id.name.text.withoutBackticks
            if let s = substitutions[name] { return s }
            let arguments = args(id.genericArgumentClause)
            if name == "Self" {
                for case .type(let t) in scope.levels { return .declared(t, arguments: arguments) }
                return .external("Self", arguments: arguments)
            }
            let (found, generic) = lookup(name, in: scope)
            if generic { return .external(name, arguments: arguments) }
            return declaration(found, name: name, arguments: arguments, depth: depth)
        }
        if let member = type.as(MemberTypeSyntax.self) {
            let name = member.name.text.withoutBackticks
            let arguments = args(member.genericArgumentClause)
            // `Module.Type`: a module name no type of that name hides
            if let baseID = member.baseType.as(IdentifierTypeSyntax.self), baseID.genericArgumentClause == nil,
               modules.contains(baseID.name.text), lookup(baseID.name.text, in: scope).found.isEmpty {
                let m = baseID.name.text
                let found = (moduleDecls[m]?[name] ?? []).filter { !$0.isFilePrivate || $0.file === scope.file }
                return declaration(found, name: "\(m).\(name)", arguments: arguments, depth: depth)
            }
            let base = resolveType(member.baseType, in: scope, depth: depth + 1, substitutions: substitutions)
            switch base {
            case .declared(let t, let baseArguments):
                let found = members(named: name, of: t, from: scope.file)
                if found.isEmpty { return .external("\(t.name).\(name)", arguments: baseArguments + arguments) }
                // a member typealias of a generic type sees the type's arguments: `Automaton<In, St>.Mapping`
                var outer: [String: ResolvedType] = [:]
                for (i, p) in t.genericParameters.enumerated() where i < baseArguments.count { outer[p] = baseArguments[i] }
                return declaration(found, name: "\(t.name).\(name)", arguments: arguments, depth: depth, outer: outer)
            case .external(let n, let baseArguments):
                // a framework's nested type keeps its base's arguments: `Harvester<In, St>.EffectMapping<Q, E>`
                return .external("\(n).\(name)", arguments: baseArguments + arguments)
            case .ambiguous:
                return base
            case .other(let text):
                return .external("\(text).\(name)", arguments: arguments)
            }
        }
        if let o = type.as(OptionalTypeSyntax.self) {
            return .external("Optional", arguments: [resolveType(o.wrappedType, in: scope, depth: depth + 1, substitutions: substitutions)])
        }
        if let o = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return .external("Optional", arguments: [resolveType(o.wrappedType, in: scope, depth: depth + 1, substitutions: substitutions)])
        }
        if let a = type.as(ArrayTypeSyntax.self) {
            return .external("Array", arguments: [resolveType(a.element, in: scope, depth: depth + 1, substitutions: substitutions)])
        }
        if let d = type.as(DictionaryTypeSyntax.self) {
            return .external("Dictionary", arguments: [resolveType(d.key, in: scope, depth: depth + 1, substitutions: substitutions),
                                                      resolveType(d.value, in: scope, depth: depth + 1, substitutions: substitutions)])
        }
        if let a = type.as(AttributedTypeSyntax.self) {
            return resolveType(a.baseType, in: scope, depth: depth + 1, substitutions: substitutions)
        }
        if let s = type.as(SomeOrAnyTypeSyntax.self) {
            return resolveType(s.constraint, in: scope, depth: depth + 1, substitutions: substitutions)
        }
        if let t = type.as(TupleTypeSyntax.self) {
            if t.elements.count == 1, let only = t.elements.first {
                return resolveType(only.type, in: scope, depth: depth + 1, substitutions: substitutions)
            }
            return .external("(tuple)", arguments: t.elements.map { resolveType($0.type, in: scope, depth: depth + 1, substitutions: substitutions) })
        }
        if let f = type.as(FunctionTypeSyntax.self) {
            // `(Input, State) -> State?`: the parameter types, then the result
            let parts = f.parameters.map { resolveType($0.type, in: scope, depth: depth + 1, substitutions: substitutions) }
                + [resolveType(f.returnClause.type, in: scope, depth: depth + 1, substitutions: substitutions)]
            return .external("(function)", arguments: parts)
        }
        return .other(type.trimmedText)
    }

    /// What a lookup found: one type, one typealias (followed), several (ambiguous) or none (external).
    private func declaration(_ found: [Declaration], name: String, arguments: [ResolvedType], depth: Int,
                             outer: [String: ResolvedType] = [:]) -> ResolvedType {
        guard !found.isEmpty else { return .external(name, arguments: arguments) }
        // declarations in different branches of one `#if` are one declaration per build configuration:
        // the compiler sees one of them; the first branch's is read
        let found = Self.configurationAlternatives(found) ? [found[0]] : found
        guard found.count == 1 else { return .ambiguous(name, candidates: found.map(\.description).sorted()) }
        switch found[0] {
        case .type(let t):
            return .declared(t, arguments: arguments)
        case .alias(let a):
            var substitutions = outer
            for (i, p) in a.parameters.enumerated() where i < arguments.count { substitutions[p] = arguments[i] }
            guard let aliasScope = scope(of: a.node) else { return .external(name, arguments: arguments) }
            return resolveType(a.target, in: aliasScope, depth: depth + 1, substitutions: substitutions)
        }
    }

    /// Whether these declarations are one per build configuration: every two sit in different clauses
    /// of one `#if … #elseif … #else`, or all are in one module and each is conditionally compiled (the
    /// module compiles, so at most one of them is active in any build: `ThreadPosix.swift` and
    /// `ThreadWindows.swift` each under their own `#if os(…)`).
    static func configurationAlternatives(_ found: [Declaration]) -> Bool {
        guard found.count > 1 else { return false }
        func conditional(_ d: Declaration) -> Bool {
            var current: Syntax? = { switch d { case .type(let t): t.node; case .alias(let a): Syntax(a.node) } }()
            while let c = current {
                if c.is(IfConfigClauseSyntax.self) { return true }
                current = c.parent
            }
            return false
        }
        if Set(found.map(\.module)).count == 1, found.allSatisfy(conditional) { return true }
        func clauses(_ d: Declaration) -> [SyntaxIdentifier: SyntaxIdentifier] {   // #if block → clause
            var result: [SyntaxIdentifier: SyntaxIdentifier] = [:]
            var current: Syntax? = { switch d { case .type(let t): t.node; case .alias(let a): Syntax(a.node) } }()
            while let c = current {
                if let clause = c.as(IfConfigClauseSyntax.self), let block = clause.parent?.parent { result[block.id] = clause.id }
                current = c.parent
            }
            return result
        }
        let all = found.map(clauses)
        for i in all.indices {
            for j in all.indices where j > i {
                guard all[i].contains(where: { block, clause in all[j][block].map { $0 != clause } ?? false }) else { return false }
            }
        }
        return true
    }

    /// The enum a type text names at a scope; ambiguous and external names give nil.
    func enumInfo(_ text: String, in scope: LookupScope?) -> EnumInfo? {
        guard let scope else { return nil }
        return resolveType(text, in: scope).enumInfo
    }

    func type(_ text: String, in scope: LookupScope?) -> TypeInfo? {
        guard let scope else { return nil }
        return resolveType(text, in: scope).declared
    }

    /// The stored or computed variable a name written at `node` refers to: a member of the enclosing
    /// types (innermost first), else one declared in this file, else the only visible one of this
    /// module or an imported module. Nil when none or several are visible.
    /// The case a static constant stands for where a case is expected (`static let initial: State =
    /// .offline`, used as `.initial` or `State.initial`): nil unless the constants of that name the inputs
    /// declare in a type give one case among `states`.
    func staticCase(_ name: String, among states: [String]) -> String? {
        let found = Set((bindings[name.withoutBackticks] ?? []).compactMap { b -> String? in
            // (stored, or computed as one expression: `static var initial: Self { .offline }`)
            let getter = b.isComputed ? ExtractionContext.getter(of: b) : nil
            let value = b.initializer ?? getter.flatMap { $0.count == 1 ? $0.first?.item.as(ExprSyntax.self) : nil }
            guard b.isStatic, b.owner != nil, let value,
                  let ref = SyntaxHelpers.caseReference(value, self, accepting: states.contains), ref.name != name else { return nil }
            return ref.name
        })
        return found.count == 1 ? found.first : nil
    }

    func binding(named name: String, at node: some SyntaxProtocol, where accept: (Binding) -> Bool = { _ in true }) -> Binding? {
        binding(named: name, in: scope(of: node), where: accept)
    }

    func binding(named name: String, in scope: LookupScope?, where accept: (Binding) -> Bool = { _ in true }) -> Binding? {
        let all = (bindings[name.withoutBackticks] ?? []).filter(accept)
        guard !all.isEmpty, let scope else { return nil }
        for case .type(let t) in scope.levels {
            if let b = all.first(where: { $0.owner == t.qualifiedName && $0.file.module == t.module }) { return b }
        }
        if let b = all.first(where: { $0.file === scope.file && $0.owner == nil }) { return b }
        let imports = imports(of: scope.file)
        let visible = all.filter { b in
            b.owner == nil && !b.isFilePrivate && (b.file.module == scope.file.module || imports.contains(b.file.module))
        }
        return visible.count == 1 ? visible[0] : nil
    }

    func addFunction(_ f: FunctionDeclSyntax, to container: Container) {
        let name = f.name.text.withoutBackticks
        switch container {
        case .module(let m): moduleFunctions[m, default: [:]][name, default: []].append(f)
        case .local(let block): localFunctions[block, default: [:]][name, default: []].append(f)
        case .type(let t): t.methods.append((f, fileByRoot[Syntax(f).root.id] ?? t.file))
        }
    }

    /// The file a node belongs to.
    func file(of node: some SyntaxProtocol) -> ParsedFile? { inputNode(Syntax(node)).flatMap { fileByRoot[$0.root.id] } }

    /// Where a node is, in its own file (a helper walked for a reducer may be declared in another), at
    /// the input node a rebuilt one was copied from; in `fallback` when it is in no input file.
    func location(of node: some SyntaxProtocol, orIn fallback: ParsedFile) -> SourceLocation {
        guard let input = inputNode(Syntax(node)), let file = fileByRoot[input.root.id] else { return fallback.location(of: node) }
        return file.location(of: input)
    }

    /// The node itself when it is part of an input file; for a node of a rebuilt tree (operators
    /// folded), the input node it was copied from (`Rebuilt`); else nil.
    func inputNode(_ node: Syntax) -> Syntax? {
        var n = node
        for _ in 0..<4 {
            if fileByRoot[n.root.id] != nil { return n }
            guard let original = Rebuilt.shared.original(of: n) else { return nil }
            n = original
        }
        return nil
    }

    /// Methods named `name` of a type (extensions merged), then of its superclasses and protocols the
    /// inputs declare.
    func methods(named name: String, of type: TypeInfo, depth: Int = 0) -> [FunctionDeclSyntax] {
        let own = type.methods.map(\.0).filter { $0.name.text.withoutBackticks == name }
        if !own.isEmpty || depth > 8 { return own }
        for sup in supertypes(of: type) {
            let found = methods(named: name, of: sup, depth: depth + 1)
            if !found.isEmpty { return found }
        }
        return []
    }

    /// The method with a body that a superclass of `type` (the nearest declaring `name`) has under the full
    /// name `fullName` (`start(bytes:)`): what `super.start(bytes:)` runs, or what an override overrides.
    func superclassMethod(named name: String, fullName: String, of type: TypeInfo) -> FunctionDeclSyntax? {
        for sup in supertypes(of: type) where sup.kind == "class" {
            if let m = methods(named: name, of: sup).first(where: { $0.body != nil && SyntaxHelpers.fullName($0) == fullName }) { return m }
        }
        return nil
    }

    /// Properties named `name` of a type, then of its superclasses and protocols the inputs declare.
    func properties(named name: String, of type: TypeInfo, depth: Int = 0) -> [Binding] {
        let own = type.properties.filter { $0.name == name }
        if !own.isEmpty || depth > 8 { return own }
        for sup in supertypes(of: type) {
            let found = properties(named: name, of: sup, depth: depth + 1)
            if !found.isEmpty { return found }
        }
        return []
    }

    /// The superclass and protocols of a type that the inputs declare, resolved where the type is declared.
    /// Asked outside any supertype search, the answer depends on the type alone: it is kept (generated
    /// code asks it for the same few protocols at every name it looks up). Inside a search, what the
    /// cycle guard cuts short depends on the search: it is worked out again.
    func supertypes(of type: TypeInfo) -> [TypeInfo] {
        let outermost = SearchGuard.current.types.isEmpty && !type.isView
        if outermost {
            supertypesLock.lock()
            let kept = supertypesKept[ObjectIdentifier(type)]
            supertypesLock.unlock()
            if let kept { return kept }
        }
        let found = type.inherited.compactMap { declaredSupertype($0, of: type, depth: 0) }
        if outermost {
            supertypesLock.lock()
            supertypesKept[ObjectIdentifier(type)] = found
            supertypesLock.unlock()
        }
        return found
    }

    /// The functions a name called at `node` can mean, as Swift looks them up: functions local to the
    /// enclosing bodies (innermost first), methods of the enclosing types (innermost first, with their
    /// supertypes), then top-level functions of this file and module, then of imported modules. The
    /// first level that declares the name wins; overloads of that level all come back.
    func functions(named rawName: String, at node: some SyntaxProtocol) -> [FunctionDeclSyntax] {
        let name = rawName.withoutBackticks
        guard let start = inputNode(Syntax(node)), let file = file(of: start) else { return [] }
        var current: Syntax? = start
        while let c = current {
            if c.kind == .codeBlockItemList, let found = localFunctions[c.id]?[name], !found.isEmpty { return found }
            if Self.isTypeDeclaration(c.kind), let t = typeByNode[c.id] {
                let found = methods(named: name, of: t)
                if !found.isEmpty { return found }
            }
            current = c.parent
        }
        let own = (moduleFunctions[file.module]?[name] ?? []).filter { f in
            !Self.isPrivate(f.modifiers) || self.file(of: f) === file
        }
        if !own.isEmpty { return own }
        var imported: [FunctionDeclSyntax] = []
        for module in sortedImports(of: file) where module != file.module {
            imported += (moduleFunctions[module]?[name] ?? []).filter { !Self.isPrivate($0.modifiers) }
        }
        return imported
    }

    /// The type an expression written as a type names (`Lamp`, `Outer.Lamp`, `Self`), resolved at
    /// `node`; nil when it names no declared type (a value, a framework's type).
    func typeExpression(_ expr: ExprSyntax, at node: some SyntaxProtocol) -> TypeInfo? {
        guard let scope = scope(of: node) else { return nil }
        let text = expr.trimmedText
        if text == "Self" {
            for case .type(let t) in scope.levels { return t }
            return nil
        }
        // a value of this name hides nothing here: `lamp.x` is a value's member when `lamp` is a binding
        if let ref = expr.as(DeclReferenceExprSyntax.self), binding(named: ref.baseName.text, in: scope) != nil,
           lookup(ref.baseName.text, in: scope).found.isEmpty { return nil }
        guard expr.is(DeclReferenceExprSyntax.self) || expr.is(MemberAccessExprSyntax.self) || expr.is(GenericSpecializationExprSyntax.self)
        else { return nil }
        return resolveType(text, in: scope).declared
    }

    /// What a reference names when it is a function or property whose declaration can be found without
    /// knowing the type of a value: `f` (lexical), `self.f` / `Self.f` (the enclosing type), `T.f` (a
    /// declared type). `value.f` gives nil: the tool does not infer the types of values.
    enum Member {
        case lexical(String)
        case member(TypeInfo, String)
    }

    /// `anchor`: where the expression is written, when `expr` itself is a rebuilt node outside the
    /// input trees (an expression with its operators folded).
    func member(_ expr: ExprSyntax, at anchor: Syntax? = nil) -> Member? {
        if let ref = expr.as(DeclReferenceExprSyntax.self) { return .lexical(ref.baseName.text.withoutBackticks) }
        guard let m = expr.as(MemberAccessExprSyntax.self), let base = m.base else { return nil }
        let name = m.declName.baseName.text.withoutBackticks
        let at = anchor ?? Syntax(expr)
        if base.trimmedText == "self", let scope = scope(of: at) {
            for case .type(let t) in scope.levels { return .member(t, name) }
            return nil
        }
        guard let t = typeExpression(base, at: at) else { return nil }
        return .member(t, name)
    }

    /// The functions a callee expression names (overloads included), resolved as `member(_:)` says.
    func functions(referencedBy expr: ExprSyntax, at anchor: Syntax? = nil) -> [FunctionDeclSyntax] {
        switch member(expr, at: anchor) {
        case .lexical(let name)?: return functions(named: name, at: anchor ?? Syntax(expr))
        case .member(let t, let name)?: return methods(named: name, of: t)
        case nil: return []
        }
    }

    /// The written type of a parameter of a closure given to `Reducer<…>(…)`/`AnyReducer<…>`: the closure's
    /// parameters are the type arguments in order.
    static func reducerClosureParameterType(_ name: String, of closure: ClosureExprSyntax) -> TypeSyntax? {
        let reducers: Set<String> = ["Reducer", "AnyReducer"]
        guard let position = SyntaxHelpers.closureParameterNames(closure).firstIndex(of: name), let call = SyntaxHelpers.call(taking: closure) else { return nil }
        var arguments: [GenericArgumentSyntax] = []
        if let generic = call.calledExpression.as(GenericSpecializationExprSyntax.self), reducers.contains(generic.expression.trimmedText) {
            arguments = Array(generic.genericArgumentClause.arguments)
        } else if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self), reducers.contains(callee.baseName.text) {
            // (`var reducer: Reducer<Action, State, Environment> { Reducer { action, state, environment in … } }`: the
            // type the declaration it gives its value to writes)
            let declared = sequence(first: Syntax(call), next: { $0.parent }).lazy.compactMap { node -> TypeSyntax? in
                node.as(PatternBindingSyntax.self)?.typeAnnotation?.type ?? node.as(FunctionDeclSyntax.self)?.signature.returnClause?.type
            }.first
            if let type = declared?.as(IdentifierTypeSyntax.self), reducers.contains(type.name.text), let clause = type.genericArgumentClause {
                arguments = Array(clause.arguments)
            }
        }
        guard position < arguments.count else { return nil }
        #if canImport(SwiftSyntax601)
        // (swift-syntax 601 and later: a generic argument is a type or, for value generics, an expression)
        guard case .type(let type) = arguments[position].argument else { return nil }
        return type
        #else
        return arguments[position].argument
        #endif
    }

    /// The type of a value a stored property or variable holds, as its declaration writes it: its type
    /// (`let api: ProfileAPI`, `ProfileAPI?`) or the type its initializer constructs (`= ProfileAPI()`).
    /// The one step of value typing the tool makes: `api.load(…)` names `ProfileAPI.load`.
    func valueType(_ expr: ExprSyntax) -> TypeInfo? {
        // a parameter of the function or initializer it is written in (`init(feed: Feed)`), found from the
        // input node where the expression was rebuilt (its operators folded)
        if let ref = (Rebuilt.shared.original(of: Syntax(expr)) ?? Syntax(expr)).as(DeclReferenceExprSyntax.self) {
            let name = ref.baseName.text
            for node in sequence(first: Syntax(ref), next: { $0.parent }) {
                // (a reducer closure's parameter, `Reducer<Action, State, Environment> { action, state, env in … }`
                // (legacy TCA's `Reducer<State, Action, Environment> { state, action, env in … }`): the type argument
                // at its place)
                if let closure = node.as(ClosureExprSyntax.self), let type = Self.reducerClosureParameterType(name, of: closure) {
                    return self.type(type.trimmedText, in: scope(of: type))
                }
                let clause = node.as(FunctionDeclSyntax.self)?.signature.parameterClause ?? node.as(InitializerDeclSyntax.self)?.signature.parameterClause
                guard let clause else { continue }
                if let p = clause.parameters.first(where: { ($0.secondName ?? $0.firstName).text == name }) {
                    let text = p.type.trimmedText
                    return type(SyntaxHelpers.optionalWrapped(text) ?? text, in: scope(of: p))
                }
                break
            }
        }
        guard let b = binding(referencedBy: expr), !b.isComputed, let scope = scope(of: b.node) else { return nil }
        if let text = b.typeText { return type(SyntaxHelpers.optionalWrapped(text) ?? text, in: scope) }
        guard let call = b.initializer.flatMap({ SyntaxHelpers.unwrap($0).as(FunctionCallExprSyntax.self) }),
              call.calledExpression.is(DeclReferenceExprSyntax.self) || call.calledExpression.is(GenericSpecializationExprSyntax.self)
        else { return nil }
        return typeExpression(call.calledExpression, at: b.node)
    }

    /// The type of a stored property of a value whose type `valueType(_:)` finds (`reply.status`, with `reply:
    /// Reply` and `let status: Status` in `Reply`), as the property's declaration writes it (not optional).
    func storedMemberType(_ expr: ExprSyntax) -> TypeInfo? {
        guard let m = expr.as(MemberAccessExprSyntax.self), let base = m.base, base.trimmedText != "self", let owner = valueType(base),
              let b = properties(named: m.declName.baseName.text.withoutBackticks, of: owner).first, !b.isComputed,
              let text = b.typeText, SyntaxHelpers.optionalWrapped(text) == nil, let scope = scope(of: b.node) else { return nil }
        return type(text, in: scope)
    }

    /// The property or variable an expression names, resolved as `member(_:)` says.
    func binding(referencedBy expr: ExprSyntax, at anchor: Syntax? = nil, where accept: (Binding) -> Bool = { _ in true }) -> Binding? {
        switch member(expr, at: anchor) {
        case .lexical(let name)?: return binding(named: name, at: anchor ?? Syntax(expr), where: accept)
        case .member(let t, let name)?: return properties(named: name, of: t).first(where: accept)
        case nil: return nil
        }
    }

    /// `node` when it is part of an input file (or the input node a rebuilt one was copied from), else `fallback`.
    func anchor(_ node: some SyntaxProtocol, else fallback: Syntax?) -> Syntax? {
        inputNode(Syntax(node)) ?? fallback
    }

    static func isPrivate(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.text == "private" || $0.name.text == "fileprivate" }
    }

    /// Whether a declaration belongs to its type, not its values (`static`, `class`).
    static func isStatic(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
    }

    /// Whether a member is private to its file: written `private`/`fileprivate`, or in an extension written
    /// so (`private extension Fan { func bump() }`), whose members are no more visible than it.
    static func isPrivate(_ member: some WithModifiersSyntax) -> Bool {
        isPrivate(member.modifiers) || member.parent?.parent?.parent?.parent?.as(ExtensionDeclSyntax.self).map { isPrivate($0.modifiers) } == true
    }

    /// A declaration's id: `Module/Path`, or `Path` in the unnamed module of loose files.
    static func id(module: String, path: String) -> String {
        module.isEmpty ? path : module + "/" + path
    }

    /// `Foo<Bar>?` → `Foo`, `Module.Foo` stays qualified, `[X]` stays.
    static func bareTypeName(_ text: String) -> String {
        var t = Substring(text)
        while let first = t.first, first.isWhitespace { t.removeFirst() }
        if let lt = t.firstIndex(of: "<") { t = t[..<lt] }
        while let last = t.last, last.isWhitespace || last == "?" || last == "!" { t.removeLast() }
        if t.hasPrefix("Self.") { t.removeFirst(5) }
        return String(t)
    }

    // MARK: Collection

    final class Collector: SyntaxVisitor {
        let file: ParsedFile
        /// Enclosing containers: a type (or extension placeholder), or a function body.
        var stack: [Frame] = []
        var extensions: [Extension] = []
        var imports = Set<String>()
        var writtenTypeNames = Set<String>()
        /// What the index registers from this file, in walk order (SymbolIndex.init).
        var registrations: [Registration] = []

        enum Frame {
            case type(TypeInfo)
            case function(String, CodeBlockItemListSyntax?)
        }

        init(file: ParsedFile) {
            self.file = file
            super.init(viewMode: .sourceAccurate)
        }

        var currentType: TypeInfo? {
            if case .type(let t)? = stack.last { return t }
            return nil
        }

        /// The path of the current position: types and functions (`Outer.run()`).
        var path: [String] {
            stack.map { frame in
                switch frame {
                case .type(let t): t.name
                case .function(let n, _): n + "()"
                }
            }
        }

        /// Where a declaration at the current position goes.
        func container(for node: some SyntaxProtocol) -> Container {
            switch stack.last {
            case .type(let t)?: return .type(t)
            case .function?:
                // the statement list that directly holds the declaration
                var c = Syntax(node).parent
                while let p = c, !p.is(CodeBlockItemListSyntax.self) { c = p.parent }
                return c.map { .local($0.id) } ?? .module(file.module)
            case nil: return .module(file.module)
            }
        }

        func isPrivate(_ modifiers: DeclModifierListSyntax) -> Bool {
            modifiers.contains { $0.name.text == "private" || $0.name.text == "fileprivate" }
        }

        var inFilePrivate: Bool {
            if case .type(let t)? = stack.last { return t.isFilePrivate }
            return false
        }

        func inherited(_ clause: InheritanceClauseSyntax?) -> [String] {
            if let clause { written(clause) }
            return clause?.inheritedTypes.map { $0.type.trimmedText } ?? []
        }

        /// Records the type names written under a node (types only, not expressions).
        func written(_ node: some SyntaxProtocol) {
            TypeNameFinder.names(in: node, into: &writtenTypeNames)
        }

        func open(_ name: String, kind: String, modifiers: DeclModifierListSyntax, inherited: [String],
                  generics: GenericParameterClauseSyntax?, node: some SyntaxProtocol) -> TypeInfo {
            let name = name.withoutBackticks
            let local = { if case .function? = self.stack.last { return true } else { return false } }()
            let info = TypeInfo(name: name, qualifiedName: (path + [name]).joined(separator: "."), kind: kind, inherited: inherited,
                                node: Syntax(node), file: file, module: file.module,
                                isFilePrivate: isPrivate(modifiers) || inFilePrivate || local,
                                genericParameters: generics?.parameters.map(\.name.text) ?? [])
            info.parent = currentType
            registrations.append(.type(info, container(for: node)))
            stack.append(.type(info))
            return info
        }

        override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
            if let first = node.path.first?.name.text {
                imports.insert(first)
                if node.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedText == "_exported" }) {
                    registrations.append(.exportedImport(module: file.module, first))
                }
            }
            return .skipChildren
        }

        override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
            var cases: [EnumInfo.Case] = []
            // (cases under `#if` are cases of the builds that have them, `#if DEBUG case inspecting #endif`: each
            // clause's, a name given twice once)
            func members(_ list: MemberBlockItemListSyntax) -> [MemberBlockItemSyntax] {
                list.flatMap { member -> [MemberBlockItemSyntax] in
                    guard let config = member.decl.as(IfConfigDeclSyntax.self) else { return [member] }
                    return config.clauses.flatMap { clause -> [MemberBlockItemSyntax] in
                        if case .decls(let inner)? = clause.elements { return members(inner) }
                        return []
                    }
                }
            }
            for member in members(node.memberBlock.members) {
                guard let decl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
                let comment = decl.leadingTrivia.compactMap { piece -> String? in
                    switch piece {
                    case .lineComment(let t), .blockComment(let t), .docLineComment(let t): t
                    default: nil
                    }
                }.joined(separator: "\n")
                let configured = member.parent?.parent?.is(IfConfigClauseSyntax.self) == true
                for element in decl.elements where !(configured && cases.contains { $0.name == element.name.text.withoutBackticks }) {
                    cases.append(.init(name: element.name.text.withoutBackticks,
                                       hasPayload: element.parameterClause != nil,
                                       node: element, file: file, leadingComment: comment))
                }
            }
            let info = open(node.name.text, kind: "enum", modifiers: node.modifiers, inherited: inherited(node.inheritanceClause),
                            generics: node.genericParameterClause, node: node)
            // its key and its place in `enums` come when it is registered
            info.enumInfo = EnumInfo(name: info.name, qualifiedName: info.qualifiedName, key: "", cases: cases,
                                     inherited: info.inherited, decl: node, file: file)
            return .visitChildren
        }
        override func visitPost(_ node: EnumDeclSyntax) { stack.removeLast() }

        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
            _ = open(node.name.text, kind: "struct", modifiers: node.modifiers, inherited: inherited(node.inheritanceClause),
                     generics: node.genericParameterClause, node: node)
            return .visitChildren
        }
        override func visitPost(_ node: StructDeclSyntax) { stack.removeLast() }

        override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
            _ = open(node.name.text, kind: "class", modifiers: node.modifiers, inherited: inherited(node.inheritanceClause),
                     generics: node.genericParameterClause, node: node)
            return .visitChildren
        }
        override func visitPost(_ node: ClassDeclSyntax) { stack.removeLast() }

        override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
            _ = open(node.name.text, kind: "actor", modifiers: node.modifiers, inherited: inherited(node.inheritanceClause),
                     generics: node.genericParameterClause, node: node)
            return .visitChildren
        }
        override func visitPost(_ node: ActorDeclSyntax) { stack.removeLast() }

        override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
            _ = open(node.name.text, kind: "protocol", modifiers: node.modifiers, inherited: inherited(node.inheritanceClause),
                     generics: nil, node: node)
            return .visitChildren
        }
        override func visitPost(_ node: ProtocolDeclSyntax) { stack.removeLast() }

        override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
            // collected into a placeholder, merged into the extended type once every file is read
            let name = SymbolIndex.bareTypeName(node.extendedType.trimmedText)
            let placeholder = TypeInfo(name: String(name.split(separator: ".").last ?? Substring(name)), qualifiedName: name,
                                       kind: "extension", inherited: inherited(node.inheritanceClause),
                                       node: Syntax(node), file: file, module: file.module,
                                       isFilePrivate: isPrivate(node.modifiers), genericParameters: [])
            extensions.append(Extension(node: node, file: file, placeholder: placeholder))
            stack.append(.type(placeholder))
            return .visitChildren
        }
        override func visitPost(_ node: ExtensionDeclSyntax) { stack.removeLast() }

        override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
            let alias = AliasInfo(name: node.name.text, parameters: node.genericParameterClause?.parameters.map(\.name.text) ?? [],
                                  target: node.initializer.value, file: file, module: file.module,
                                  isFilePrivate: isPrivate(node.modifiers) || inFilePrivate, node: node)
            registrations.append(.declaration(.alias(alias), alias.name, container(for: node)))
            written(node.initializer.value)
            return .skipChildren
        }

        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            written(node.signature)
            if let owner = currentType {
                owner.methods.append((node, file))
            } else {
                registrations.append(.function(node, container(for: node)))
            }
            stack.append(.function(node.name.text, node.body?.statements))
            return .visitChildren
        }
        override func visitPost(_ node: FunctionDeclSyntax) { stack.removeLast() }

        override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
            written(node.signature)
            stack.append(.function("init", node.body?.statements))
            return .visitChildren
        }
        override func visitPost(_ node: InitializerDeclSyntax) { stack.removeLast() }

        override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind {
            stack.append(.function("get", nil))
            return .visitChildren
        }
        override func visitPost(_ node: AccessorBlockSyntax) { stack.removeLast() }

        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
            stack.append(.function("closure", node.statements))
            return .visitChildren
        }
        override func visitPost(_ node: ClosureExprSyntax) { stack.removeLast() }

        override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
            for binding in node.bindings { if let t = binding.typeAnnotation { written(t) } }
            if case .function? = stack.last { return .visitChildren }
            let isStatic = SymbolIndex.isStatic(node.modifiers)
            let owner = currentType
            for binding in node.bindings {
                guard let id = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                var computed = false
                if let accessor = binding.accessorBlock {
                    switch accessor.accessors {
                    case .getter: computed = true
                    case .accessors(let list): computed = list.contains { $0.accessorSpecifier.text == "get" }
                    }
                }
                let b = Binding(name: id.identifier.text.withoutBackticks, typeText: binding.typeAnnotation?.type.trimmedText ?? SymbolIndex.environmentType(node.attributes),
                                initializer: binding.initializer?.value,
                                owner: owner?.qualifiedName, isStatic: isStatic, isComputed: computed,
                                isFilePrivate: isPrivate(node.modifiers) || inFilePrivate, node: Syntax(binding), file: file)
                registrations.append(.binding(b))
                owner?.properties.append(b)
            }
            return .visitChildren
        }
    }
}

extension SymbolIndex {
    /// The type an `@Environment(Model.self)` property holds where none is written (`@Environment(Session.self)
    /// private var session`: Swift takes it from the wrapper's argument).
    static func environmentType(_ attributes: AttributeListSyntax) -> String? {
        for case .attribute(let a) in attributes where a.attributeName.trimmedText == "Environment" {
            guard case .argumentList(let list)? = a.arguments, list.count == 1,
                  let member = list.first?.expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "self",
                  let base = member.base else { continue }
            return base.trimmedText
        }
        return nil
    }
}

/// Names of the types written under a node: `Foo`, `Outer.Inner` (Inner), generic arguments too; not
/// inside code blocks, closures or initial values (expressions inside types are rare: `[Int](repeating:)`
/// is not a type position). Read from the raw tree, so nothing is materialised: a `SyntaxVisitor` would
/// materialise every node of every signature, kept as long as the file's tree.
enum TypeNameFinder {
    static func names(in node: some SyntaxProtocol, into names: inout Set<String>) {
        collect(Syntax(node).raw, &names)
    }

    private static func collect(_ raw: RawSyntax, _ names: inout Set<String>) {
        switch raw.kind {
        case .codeBlock, .closureExpr, .initializerClause:
            return
        case .identifierType:
            if let type = raw.as(RawIdentifierTypeSyntax.self) { names.insert(String(syntaxText: type.name.tokenText).withoutBackticks) }
        case .memberType:
            if let type = raw.as(RawMemberTypeSyntax.self) { names.insert(String(syntaxText: type.name.tokenText).withoutBackticks) }
        default:
            break
        }
        guard let layout = raw.layoutView else { return }
        for case let child? in layout.children where !child.isToken { collect(child, &names) }
    }
}

extension ParsedFile {
    /// The file name without its folder: the discriminator for file-private declarations.
    var baseName: String { String(path.split(separator: "/").last ?? Substring(path)) }
}
