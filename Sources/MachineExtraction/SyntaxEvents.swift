@_spi(RawSyntax) import SwiftSyntax

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
        events = Recorder(tree).events
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

    /// The walk itself. It goes through the raw tree (`RawSyntax`, read without allocating) and
    /// materialises only the nodes of a recorded kind and those on the way to them: a `SyntaxVisitor`
    /// materialises every node and token of the file, and swift-syntax keeps each materialised node
    /// as long as its tree. The events are those a `SyntaxVisitor` in `.sourceAccurate` mode records,
    /// in the same order (`SyntaxEventsTests`): no token is of a recorded kind, and that mode visits
    /// every layout node.
    private struct Recorder {
        /// A node on the path from the root to where the walk is.
        struct Frame {
            var raw: RawSyntax
            /// Its position among its parent's children (`children(viewMode: .all)`).
            var slot: Int
            var node: Syntax?
            /// Once a child is materialised: the node's children, and the one last materialised.
            var children: SyntaxChildren?
            var cursor: (index: SyntaxChildrenIndex, slot: Int)?
        }

        var events: [Event] = []
        private var path: [Frame] = []

        init(_ tree: SourceFileSyntax) {
            let root = Syntax(tree)
            path.append(Frame(raw: root.raw, slot: 0, node: root))
            walk()
        }

        private mutating func walk() {
            guard let layout = path[path.count - 1].raw.layoutView else { return }
            var slot = -1
            for case let child? in layout.children {
                slot += 1
                guard !child.isToken else { continue }
                path.append(Frame(raw: child, slot: slot))
                let index = events.count
                let kind = Self.kind(child.kind)
                if let kind { events.append(Event(node: node(), kind: kind, end: 0)) }
                walk()
                if kind != nil { events[index].end = Int32(events.count) }
                path.removeLast()
            }
        }

        /// The node where the walk is, materialising the nodes above it that are not yet. A node's
        /// children are met in order, so each is reached from the last one materialised.
        private mutating func node() -> Syntax {
            var i = path.count - 1
            while path[i].node == nil { i -= 1 }
            while i < path.count - 1 {
                let children = path[i].children ?? path[i].node!.children(viewMode: .all)
                var (index, slot) = path[i].cursor ?? (children.startIndex, 0)
                while slot < path[i + 1].slot {
                    index = children.index(after: index)
                    slot += 1
                }
                path[i].children = children
                path[i].cursor = (index, slot)
                path[i + 1].node = children[index]
                i += 1
            }
            return path[i].node!
        }

        private static func kind(_ kind: SyntaxKind) -> Kind? {
            switch kind {
            case .importDecl: .importDecl
            case .enumDecl: .enumDecl
            case .structDecl: .structDecl
            case .classDecl: .classDecl
            case .actorDecl: .actorDecl
            case .protocolDecl: .protocolDecl
            case .extensionDecl: .extensionDecl
            case .typeAliasDecl: .typeAliasDecl
            case .functionDecl: .functionDecl
            case .initializerDecl: .initializerDecl
            case .accessorBlock: .accessorBlock
            case .closureExpr: .closureExpr
            case .variableDecl: .variableDecl
            case .functionCallExpr: .functionCallExpr
            case .labeledExpr: .labeledExpr
            case .arrayExpr: .arrayExpr
            case .dictionaryExpr: .dictionaryExpr
            case .switchExpr: .switchExpr
            case .sequenceExpr: .sequenceExpr
            case .subscriptCallExpr: .subscriptCallExpr
            default: nil
            }
        }
    }
}
