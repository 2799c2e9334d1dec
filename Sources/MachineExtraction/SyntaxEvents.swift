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
    func replay(_ visitor: SyntaxVisitor) { replay([visitor]) }

    /// Replays the events to several visitors at once, each called exactly as `replay(visitor)` alone
    /// would call it (its own `.skipChildren` skips the subtree for it only): a node is cast to its type
    /// once for all of them.
    func replay(_ visitors: [SyntaxVisitor]) {
        precondition(visitors.count <= 64, "at most 64 visitors per replay")
        // per visitor, the event index its current `.skipChildren` skips to
        var skipTo = [Int](repeating: 0, count: visitors.count)
        // open events, each with the visitors that entered it (they get its `visitPost`)
        var open: [(event: Int, entered: UInt64)] = []
        var i = 0
        let count = events.count
        while i < count {
            while let top = open.last, Int(events[top.event].end) <= i {
                Self.post(visitors, top.entered, events[top.event])
                open.removeLast()
            }
            var active: UInt64 = 0
            for k in visitors.indices where skipTo[k] <= i { active |= 1 << UInt64(k) }
            guard active != 0 else {
                // every visitor is in a subtree it skips: on to where the first of them comes back
                i = skipTo.min()!
                continue
            }
            let e = events[i]
            let skipped = Self.visit(visitors, active, e)
            Self.post(visitors, skipped, e)
            for k in visitors.indices where skipped & (1 << UInt64(k)) != 0 { skipTo[k] = Int(e.end) }
            open.append((i, active & ~skipped))
            i += 1
        }
        while let top = open.popLast() { Self.post(visitors, top.entered, events[top.event]) }
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

    /// Calls `visit` on the visitors in `mask` (bit k: `visitors[k]`); returns those that skip the children.
    private static func visit(_ visitors: [SyntaxVisitor], _ mask: UInt64, _ e: Event) -> UInt64 {
        func each(_ call: (SyntaxVisitor) -> SyntaxVisitorContinueKind) -> UInt64 {
            var skipped: UInt64 = 0
            for k in visitors.indices where mask & (1 << UInt64(k)) != 0 {
                if call(visitors[k]) == .skipChildren { skipped |= 1 << UInt64(k) }
            }
            return skipped
        }
        let n = e.node
        switch e.kind {
        case .importDecl: let t = n.cast(ImportDeclSyntax.self); return each { $0.visit(t) }
        case .enumDecl: let t = n.cast(EnumDeclSyntax.self); return each { $0.visit(t) }
        case .structDecl: let t = n.cast(StructDeclSyntax.self); return each { $0.visit(t) }
        case .classDecl: let t = n.cast(ClassDeclSyntax.self); return each { $0.visit(t) }
        case .actorDecl: let t = n.cast(ActorDeclSyntax.self); return each { $0.visit(t) }
        case .protocolDecl: let t = n.cast(ProtocolDeclSyntax.self); return each { $0.visit(t) }
        case .extensionDecl: let t = n.cast(ExtensionDeclSyntax.self); return each { $0.visit(t) }
        case .typeAliasDecl: let t = n.cast(TypeAliasDeclSyntax.self); return each { $0.visit(t) }
        case .functionDecl: let t = n.cast(FunctionDeclSyntax.self); return each { $0.visit(t) }
        case .initializerDecl: let t = n.cast(InitializerDeclSyntax.self); return each { $0.visit(t) }
        case .accessorBlock: let t = n.cast(AccessorBlockSyntax.self); return each { $0.visit(t) }
        case .closureExpr: let t = n.cast(ClosureExprSyntax.self); return each { $0.visit(t) }
        case .variableDecl: let t = n.cast(VariableDeclSyntax.self); return each { $0.visit(t) }
        case .functionCallExpr: let t = n.cast(FunctionCallExprSyntax.self); return each { $0.visit(t) }
        case .labeledExpr: let t = n.cast(LabeledExprSyntax.self); return each { $0.visit(t) }
        case .arrayExpr: let t = n.cast(ArrayExprSyntax.self); return each { $0.visit(t) }
        case .dictionaryExpr: let t = n.cast(DictionaryExprSyntax.self); return each { $0.visit(t) }
        case .switchExpr: let t = n.cast(SwitchExprSyntax.self); return each { $0.visit(t) }
        case .sequenceExpr: let t = n.cast(SequenceExprSyntax.self); return each { $0.visit(t) }
        case .subscriptCallExpr: let t = n.cast(SubscriptCallExprSyntax.self); return each { $0.visit(t) }
        }
    }

    /// Calls `visitPost` on the visitors in `mask`.
    private static func post(_ visitors: [SyntaxVisitor], _ mask: UInt64, _ e: Event) {
        guard mask != 0 else { return }
        func each(_ call: (SyntaxVisitor) -> Void) {
            for k in visitors.indices where mask & (1 << UInt64(k)) != 0 { call(visitors[k]) }
        }
        let n = e.node
        switch e.kind {
        case .importDecl: let t = n.cast(ImportDeclSyntax.self); each { $0.visitPost(t) }
        case .enumDecl: let t = n.cast(EnumDeclSyntax.self); each { $0.visitPost(t) }
        case .structDecl: let t = n.cast(StructDeclSyntax.self); each { $0.visitPost(t) }
        case .classDecl: let t = n.cast(ClassDeclSyntax.self); each { $0.visitPost(t) }
        case .actorDecl: let t = n.cast(ActorDeclSyntax.self); each { $0.visitPost(t) }
        case .protocolDecl: let t = n.cast(ProtocolDeclSyntax.self); each { $0.visitPost(t) }
        case .extensionDecl: let t = n.cast(ExtensionDeclSyntax.self); each { $0.visitPost(t) }
        case .typeAliasDecl: let t = n.cast(TypeAliasDeclSyntax.self); each { $0.visitPost(t) }
        case .functionDecl: let t = n.cast(FunctionDeclSyntax.self); each { $0.visitPost(t) }
        case .initializerDecl: let t = n.cast(InitializerDeclSyntax.self); each { $0.visitPost(t) }
        case .accessorBlock: let t = n.cast(AccessorBlockSyntax.self); each { $0.visitPost(t) }
        case .closureExpr: let t = n.cast(ClosureExprSyntax.self); each { $0.visitPost(t) }
        case .variableDecl: let t = n.cast(VariableDeclSyntax.self); each { $0.visitPost(t) }
        case .functionCallExpr: let t = n.cast(FunctionCallExprSyntax.self); each { $0.visitPost(t) }
        case .labeledExpr: let t = n.cast(LabeledExprSyntax.self); each { $0.visitPost(t) }
        case .arrayExpr: let t = n.cast(ArrayExprSyntax.self); each { $0.visitPost(t) }
        case .dictionaryExpr: let t = n.cast(DictionaryExprSyntax.self); each { $0.visitPost(t) }
        case .switchExpr: let t = n.cast(SwitchExprSyntax.self); each { $0.visitPost(t) }
        case .sequenceExpr: let t = n.cast(SequenceExprSyntax.self); each { $0.visitPost(t) }
        case .subscriptCallExpr: let t = n.cast(SubscriptCallExprSyntax.self); each { $0.visitPost(t) }
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
