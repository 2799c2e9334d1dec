import MachineModel
import SwiftSyntax

/// An enum declared in one of the input files.
struct EnumInfo {
    public struct Case {
        var name: String
        var hasPayload: Bool
        var location: SourceLocation
        var leadingComment: String
    }
    var name: String
    var qualifiedName: String
    var cases: [Case]
    var inherited: [String]
    var location: SourceLocation
    let decl: EnumDeclSyntax
    let file: ParsedFile

    var caseNames: [String] { cases.map(\.name) }
}

/// A stored or computed property, or a top-level variable.
struct Binding {
    var name: String
    var typeText: String?
    var initializer: ExprSyntax?
    var location: SourceLocation
    var owner: String?
    var isStatic: Bool
    var isComputed: Bool
    var node: Syntax
    var file: ParsedFile
}

/// A struct, class, actor or enum with its members (extensions merged in).
final class TypeInfo {
    var name: String
    var qualifiedName: String
    var kind: String
    var inherited: [String]
    var properties: [Binding] = []
    var methods: [(FunctionDeclSyntax, ParsedFile)] = []
    var location: SourceLocation
    var node: Syntax
    var file: ParsedFile

    init(name: String, qualifiedName: String, kind: String, inherited: [String], location: SourceLocation, node: Syntax, file: ParsedFile) {
        self.name = name
        self.qualifiedName = qualifiedName
        self.kind = kind
        self.inherited = inherited
        self.location = location
        self.node = node
        self.file = file
    }
}

/// Declarations across every input file, so a machine can use enums and helpers declared elsewhere.
final class SymbolIndex {
    var enums: [EnumInfo] = []
    var types: [String: TypeInfo] = [:]      // by qualified name
    var typeOrder: [TypeInfo] = []
    var bindings: [String: [Binding]] = [:]  // by simple name
    var typealiases: [String: String] = [:]
    let files: [ParsedFile]

    /// Lookups by name, built once after collection (a code base has thousands of declarations).
    private(set) var enumsByQualifiedName: [String: EnumInfo] = [:]
    private(set) var enumsByLastName: [String: [EnumInfo]] = [:]
    private(set) var typesByLastName: [String: [TypeInfo]] = [:]
    private(set) var methodsByName: [String: [(FunctionDeclSyntax, ParsedFile)]] = [:]
    /// Case name → positions in `enums` of the enums that declare it.
    private(set) var enumsByCase: [String: [Int]] = [:]

    init(files: [ParsedFile]) {
        self.files = files
        for file in files {
            let collector = Collector(file: file, index: self)
            collector.walk(file.tree)
        }
        for (i, e) in enums.enumerated() {
            for c in e.caseNames { enumsByCase[c, default: []].append(i) }
            if enumsByQualifiedName[e.qualifiedName] == nil { enumsByQualifiedName[e.qualifiedName] = e }
            enumsByLastName[e.name, default: []].append(e)
        }
        for t in typeOrder {
            typesByLastName[t.name, default: []].append(t)
            for m in t.methods { methodsByName[m.0.name.text, default: []].append(m) }
        }
    }

    /// Every enum with the given simple or qualified name.
    func enums(named name: String) -> [EnumInfo] {
        let bare = Self.bareTypeName(name)
        let last = String(bare.split(separator: ".").last ?? Substring(bare))
        return (enumsByLastName[last] ?? []).filter { $0.qualifiedName == bare || $0.name == bare || $0.qualifiedName.hasSuffix("." + bare) }
    }

    /// The enum a name written inside `context` (a qualified type path) refers to: nested types of the
    /// context and its parents first, then a top-level enum, then any enum of that name.
    func enumInfo(named name: String, near context: String? = nil) -> EnumInfo? {
        let bare = Self.bareTypeName(name)
        for scope in Self.scopes(context) {
            let qualified = scope.isEmpty ? bare : scope + "." + bare
            if let e = enumsByQualifiedName[qualified] { return e }
            if types[qualified] != nil { return nil }   // the name is a struct or class here
        }
        let found = enums(named: name)
        return found.count == 1 ? found[0] : found.first { $0.qualifiedName == bare }
    }

    func type(named name: String, near context: String? = nil) -> TypeInfo? {
        let bare = Self.bareTypeName(name)
        for scope in Self.scopes(context) {
            if let t = types[scope.isEmpty ? bare : scope + "." + bare] { return t }
        }
        let last = String(bare.split(separator: ".").last ?? Substring(bare))
        let matches = (typesByLastName[last] ?? []).filter { $0.name == bare || $0.qualifiedName.hasSuffix("." + bare) }
        return matches.count == 1 ? matches[0] : nil
    }

    /// `A.B.C` → `A.B.C`, `A.B`, `A`, `` (innermost first).
    static func scopes(_ context: String?) -> [String] {
        guard let context, !context.isEmpty else { return [""] }
        var parts = context.split(separator: ".").map(String.init)
        var result: [String] = []
        while !parts.isEmpty {
            result.append(parts.joined(separator: "."))
            parts.removeLast()
        }
        return result + [""]
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

    /// The enum that contains the most of the given case names; ties go to a preferred type name,
    /// then to the smaller enum. Nil when no enum contains any of them.
    func bestEnum(containing names: Set<String>, preferring: [String] = [], excluding: Set<String> = []) -> EnumInfo? {
        guard !names.isEmpty else { return nil }
        var best: (EnumInfo, Int, Int, Int)?
        let preferred = Set(preferring.map { Self.bareTypeName($0) })
        let preferredLast = Set(preferred.map { String($0.split(separator: ".").last ?? Substring($0)) })
        // only enums that declare at least one of the names, each counted once per name it declares
        var hitsByEnum: [Int: Int] = [:]
        for name in names {
            for i in Set(enumsByCase[name] ?? []) { hitsByEnum[i, default: 0] += 1 }
        }
        for (i, hits) in hitsByEnum.sorted(by: { $0.key < $1.key }) where !excluding.contains(enums[i].qualifiedName) {
            let info = enums[i]
            let isPreferred = preferred.contains(info.name) || preferred.contains(info.qualifiedName)
                || (preferredLast.contains(info.name) && preferred.contains { info.qualifiedName.hasSuffix("." + $0) })
            let score = (hits, isPreferred ? 1 : 0, -info.cases.count)
            if let b = best, (b.1, b.2, b.3) >= score { continue }
            best = (info, score.0, score.1, score.2)
        }
        return best?.0
    }

    func resolveAlias(_ name: String) -> String {
        var current = name
        var steps = 0
        while let next = typealiases[Self.bareTypeName(current)], steps < 8 {
            current = next
            steps += 1
        }
        return current
    }

    final class Collector: SyntaxVisitor {
        let file: ParsedFile
        let index: SymbolIndex
        var scope: [String] = []
        var functionDepth = 0

        init(file: ParsedFile, index: SymbolIndex) {
            self.file = file
            self.index = index
            super.init(viewMode: .sourceAccurate)
        }

        func inherited(_ clause: InheritanceClauseSyntax?) -> [String] {
            clause?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
        }

        func open(_ name: String, kind: String, inherited: [String], node: some SyntaxProtocol) {
            let qualified = (scope + [name]).joined(separator: ".")
            if index.types[qualified] == nil {
                let info = TypeInfo(name: name, qualifiedName: qualified, kind: kind, inherited: inherited,
                                    location: file.location(of: node), node: Syntax(node), file: file)
                index.types[qualified] = info
                index.typeOrder.append(info)
            } else if !inherited.isEmpty {
                index.types[qualified]!.inherited += inherited
            }
            scope.append(name)
        }

        override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
            let name = node.name.text
            var cases: [EnumInfo.Case] = []
            for member in node.memberBlock.members {
                guard let decl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
                let comment = decl.leadingTrivia.compactMap { piece -> String? in
                    switch piece {
                    case .lineComment(let t), .blockComment(let t), .docLineComment(let t): t
                    default: nil
                    }
                }.joined(separator: "\n")
                for element in decl.elements {
                    cases.append(.init(name: element.name.text.replacingOccurrences(of: "`", with: ""),
                                       hasPayload: element.parameterClause != nil,
                                       location: file.location(of: element), leadingComment: comment))
                }
            }
            let qualified = (scope + [name]).joined(separator: ".")
            index.enums.append(EnumInfo(name: name, qualifiedName: qualified, cases: cases,
                                        inherited: inherited(node.inheritanceClause), location: file.location(of: node),
                                        decl: node, file: file))
            open(name, kind: "enum", inherited: inherited(node.inheritanceClause), node: node)
            return .visitChildren
        }
        override func visitPost(_ node: EnumDeclSyntax) { scope.removeLast() }

        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
            open(node.name.text, kind: "struct", inherited: inherited(node.inheritanceClause), node: node)
            return .visitChildren
        }
        override func visitPost(_ node: StructDeclSyntax) { scope.removeLast() }

        override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
            open(node.name.text, kind: "class", inherited: inherited(node.inheritanceClause), node: node)
            return .visitChildren
        }
        override func visitPost(_ node: ClassDeclSyntax) { scope.removeLast() }

        override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
            open(node.name.text, kind: "actor", inherited: inherited(node.inheritanceClause), node: node)
            return .visitChildren
        }
        override func visitPost(_ node: ActorDeclSyntax) { scope.removeLast() }

        override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
            let name = SymbolIndex.bareTypeName(node.extendedType.trimmedDescription)
            // Extensions reopen the type by its written (possibly qualified) name.
            let parts = name.split(separator: ".").map(String.init)
            let saved = scope
            scope = Array(parts.dropLast())
            open(parts.last ?? name, kind: "extension", inherited: inherited(node.inheritanceClause), node: node)
            savedScopes.append(saved)
            return .visitChildren
        }
        var savedScopes: [[String]] = []
        override func visitPost(_ node: ExtensionDeclSyntax) { scope = savedScopes.removeLast() }

        override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
            index.typealiases[node.name.text] = node.initializer.value.trimmedDescription
            return .skipChildren
        }

        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            if !scope.isEmpty, functionDepth == 0, let owner = index.types[scope.joined(separator: ".")] {
                owner.methods.append((node, file))
            }
            functionDepth += 1
            return .visitChildren
        }
        override func visitPost(_ node: FunctionDeclSyntax) { functionDepth -= 1 }

        override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
            guard functionDepth == 0 else { return .visitChildren }
            let isStatic = node.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
            let owner = scope.isEmpty ? nil : scope.joined(separator: ".")
            for binding in node.bindings {
                guard let id = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                var computed = false
                if let accessor = binding.accessorBlock {
                    switch accessor.accessors {
                    case .getter: computed = true
                    case .accessors(let list): computed = list.contains { $0.accessorSpecifier.text == "get" }
                    }
                }
                let b = Binding(name: id.identifier.text, typeText: binding.typeAnnotation?.type.trimmedDescription,
                                initializer: binding.initializer?.value, location: file.location(of: binding),
                                owner: owner, isStatic: isStatic, isComputed: computed, node: Syntax(binding), file: file)
                index.bindings[b.name, default: []].append(b)
                if let owner, let type = index.types[owner] { type.properties.append(b) }
            }
            return .visitChildren
        }
    }
}
