import SwiftSyntax

/// The one walk over a file's syntax tree (periphery's multiplexing visitor, recorded): every node of
/// the kinds some finder of the extractor looks at, in the order a `SyntaxVisitor` meets them, each
/// with the extent of its subtree. The symbol index, project facts, comment-free finders of every
/// recogniser and the candidate pass replay it (`replay`) instead of walking the whole tree again:
/// the tree is walked once per file (while it is parsed, on the loader's threads) however many
/// recognisers there are. Replaying calls a visitor's `visit`/`visitPost` exactly as `walk` would for
/// these kinds, `.skipChildren` included; a visitor overriding another kind must be walked instead.
struct SyntaxEvents {
    enum Kind: UInt8, CaseIterable {
        case importDecl, enumDecl, structDecl, classDecl, actorDecl, protocolDecl, extensionDecl, typeAliasDecl
        case functionDecl, initializerDecl, accessorBlock, closureExpr, variableDecl
        case functionCallExpr, labeledExpr, arrayExpr, dictionaryExpr, switchExpr, sequenceExpr, subscriptCallExpr
    }

    struct Event {
        var node: Syntax
        var kind: Kind
        /// Index of the first event after this node's subtree.
        var end: Int32
    }

    private(set) var events: [Event] = []

    init(_ tree: SourceFileSyntax) {
        let recorder = Recorder()
        recorder.walk(tree)
        events = recorder.events
    }

    /// Calls `visitor` for every recorded node as `visitor.walk(tree)` would for these kinds.
    func replay(_ visitor: SyntaxVisitor) {
        var open: [Int] = []
        var i = 0
        let count = events.count
        while i < count {
            while let top = open.last, Int(events[top].end) <= i {
                Self.post(visitor, events[top])
                open.removeLast()
            }
            let e = events[i]
            if Self.visit(visitor, e) == .skipChildren {
                Self.post(visitor, e)
                i = Int(e.end)
            } else {
                open.append(i)
                i += 1
            }
        }
        while let top = open.popLast() { Self.post(visitor, events[top]) }
    }

    /// Whether some recorded node of `kind` inside `node` (itself included) satisfies `accept`: a
    /// binary search by position, then the nodes within it, without walking the subtree.
    func contains(_ kind: Kind, within node: some SyntaxProtocol, where accept: (Syntax) -> Bool = { _ in true }) -> Bool {
        let start = node.position, end = node.endPosition
        var low = 0, high = events.count
        while low < high {
            let mid = (low + high) / 2
            if events[mid].node.position < start { low = mid + 1 } else { high = mid }
        }
        var i = low
        while i < events.count, events[i].node.position < end {
            if events[i].kind == kind, events[i].node.endPosition <= end, accept(events[i].node) { return true }
            i += 1
        }
        return false
    }

    /// The recorded nodes of one kind, in walk order.
    func nodes<T: SyntaxProtocol>(_ kind: Kind, as type: T.Type) -> [T] {
        events.compactMap { $0.kind == kind ? $0.node.cast(T.self) : nil }
    }

    private static func visit(_ v: SyntaxVisitor, _ e: Event) -> SyntaxVisitorContinueKind {
        let n = e.node
        switch e.kind {
        case .importDecl: return v.visit(n.cast(ImportDeclSyntax.self))
        case .enumDecl: return v.visit(n.cast(EnumDeclSyntax.self))
        case .structDecl: return v.visit(n.cast(StructDeclSyntax.self))
        case .classDecl: return v.visit(n.cast(ClassDeclSyntax.self))
        case .actorDecl: return v.visit(n.cast(ActorDeclSyntax.self))
        case .protocolDecl: return v.visit(n.cast(ProtocolDeclSyntax.self))
        case .extensionDecl: return v.visit(n.cast(ExtensionDeclSyntax.self))
        case .typeAliasDecl: return v.visit(n.cast(TypeAliasDeclSyntax.self))
        case .functionDecl: return v.visit(n.cast(FunctionDeclSyntax.self))
        case .initializerDecl: return v.visit(n.cast(InitializerDeclSyntax.self))
        case .accessorBlock: return v.visit(n.cast(AccessorBlockSyntax.self))
        case .closureExpr: return v.visit(n.cast(ClosureExprSyntax.self))
        case .variableDecl: return v.visit(n.cast(VariableDeclSyntax.self))
        case .functionCallExpr: return v.visit(n.cast(FunctionCallExprSyntax.self))
        case .labeledExpr: return v.visit(n.cast(LabeledExprSyntax.self))
        case .arrayExpr: return v.visit(n.cast(ArrayExprSyntax.self))
        case .dictionaryExpr: return v.visit(n.cast(DictionaryExprSyntax.self))
        case .switchExpr: return v.visit(n.cast(SwitchExprSyntax.self))
        case .sequenceExpr: return v.visit(n.cast(SequenceExprSyntax.self))
        case .subscriptCallExpr: return v.visit(n.cast(SubscriptCallExprSyntax.self))
        }
    }

    private static func post(_ v: SyntaxVisitor, _ e: Event) {
        let n = e.node
        switch e.kind {
        case .importDecl: v.visitPost(n.cast(ImportDeclSyntax.self))
        case .enumDecl: v.visitPost(n.cast(EnumDeclSyntax.self))
        case .structDecl: v.visitPost(n.cast(StructDeclSyntax.self))
        case .classDecl: v.visitPost(n.cast(ClassDeclSyntax.self))
        case .actorDecl: v.visitPost(n.cast(ActorDeclSyntax.self))
        case .protocolDecl: v.visitPost(n.cast(ProtocolDeclSyntax.self))
        case .extensionDecl: v.visitPost(n.cast(ExtensionDeclSyntax.self))
        case .typeAliasDecl: v.visitPost(n.cast(TypeAliasDeclSyntax.self))
        case .functionDecl: v.visitPost(n.cast(FunctionDeclSyntax.self))
        case .initializerDecl: v.visitPost(n.cast(InitializerDeclSyntax.self))
        case .accessorBlock: v.visitPost(n.cast(AccessorBlockSyntax.self))
        case .closureExpr: v.visitPost(n.cast(ClosureExprSyntax.self))
        case .variableDecl: v.visitPost(n.cast(VariableDeclSyntax.self))
        case .functionCallExpr: v.visitPost(n.cast(FunctionCallExprSyntax.self))
        case .labeledExpr: v.visitPost(n.cast(LabeledExprSyntax.self))
        case .arrayExpr: v.visitPost(n.cast(ArrayExprSyntax.self))
        case .dictionaryExpr: v.visitPost(n.cast(DictionaryExprSyntax.self))
        case .switchExpr: v.visitPost(n.cast(SwitchExprSyntax.self))
        case .sequenceExpr: v.visitPost(n.cast(SequenceExprSyntax.self))
        case .subscriptCallExpr: v.visitPost(n.cast(SubscriptCallExprSyntax.self))
        }
    }

    /// The walk itself.
    private final class Recorder: SyntaxVisitor {
        var events: [Event] = []
        var open: [Int] = []

        init() { super.init(viewMode: .sourceAccurate) }

        func enter(_ node: some SyntaxProtocol, _ kind: Kind) -> SyntaxVisitorContinueKind {
            open.append(events.count)
            events.append(Event(node: Syntax(node), kind: kind, end: 0))
            return .visitChildren
        }

        func leave() {
            events[open.removeLast()].end = Int32(events.count)
        }

        override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind { enter(node, .importDecl) }
        override func visitPost(_ node: ImportDeclSyntax) { leave() }
        override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { enter(node, .enumDecl) }
        override func visitPost(_ node: EnumDeclSyntax) { leave() }
        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { enter(node, .structDecl) }
        override func visitPost(_ node: StructDeclSyntax) { leave() }
        override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { enter(node, .classDecl) }
        override func visitPost(_ node: ClassDeclSyntax) { leave() }
        override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { enter(node, .actorDecl) }
        override func visitPost(_ node: ActorDeclSyntax) { leave() }
        override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { enter(node, .protocolDecl) }
        override func visitPost(_ node: ProtocolDeclSyntax) { leave() }
        override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { enter(node, .extensionDecl) }
        override func visitPost(_ node: ExtensionDeclSyntax) { leave() }
        override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind { enter(node, .typeAliasDecl) }
        override func visitPost(_ node: TypeAliasDeclSyntax) { leave() }
        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { enter(node, .functionDecl) }
        override func visitPost(_ node: FunctionDeclSyntax) { leave() }
        override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { enter(node, .initializerDecl) }
        override func visitPost(_ node: InitializerDeclSyntax) { leave() }
        override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { enter(node, .accessorBlock) }
        override func visitPost(_ node: AccessorBlockSyntax) { leave() }
        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { enter(node, .closureExpr) }
        override func visitPost(_ node: ClosureExprSyntax) { leave() }
        override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind { enter(node, .variableDecl) }
        override func visitPost(_ node: VariableDeclSyntax) { leave() }
        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind { enter(node, .functionCallExpr) }
        override func visitPost(_ node: FunctionCallExprSyntax) { leave() }
        override func visit(_ node: LabeledExprSyntax) -> SyntaxVisitorContinueKind { enter(node, .labeledExpr) }
        override func visitPost(_ node: LabeledExprSyntax) { leave() }
        override func visit(_ node: ArrayExprSyntax) -> SyntaxVisitorContinueKind { enter(node, .arrayExpr) }
        override func visitPost(_ node: ArrayExprSyntax) { leave() }
        override func visit(_ node: DictionaryExprSyntax) -> SyntaxVisitorContinueKind { enter(node, .dictionaryExpr) }
        override func visitPost(_ node: DictionaryExprSyntax) { leave() }
        override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind { enter(node, .switchExpr) }
        override func visitPost(_ node: SwitchExprSyntax) { leave() }
        override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind { enter(node, .sequenceExpr) }
        override func visitPost(_ node: SequenceExprSyntax) { leave() }
        override func visit(_ node: SubscriptCallExprSyntax) -> SyntaxVisitorContinueKind { enter(node, .subscriptCallExpr) }
        override func visitPost(_ node: SubscriptCallExprSyntax) { leave() }
    }
}
