import SwiftParser
import SwiftSyntax
@testable import MachineExtraction
import XCTest

/// The one recorded walk per file (SyntaxEvents) replays to a visitor exactly what `walk` gives it.
final class SyntaxEventsTests: XCTestCase {
    /// Logs every visit and visitPost of the recorded kinds; skips the children of calls to `skipMe`
    /// and of dictionary literals, as finders do.
    class Logger: SyntaxVisitor {
        var log: [String] = []
        init() { super.init(viewMode: .sourceAccurate) }
        func note(_ what: String, _ node: some SyntaxProtocol) { log.append("\(what) \(node.kind) \(node.position.utf8Offset)") }
        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            note("call", node)
            return node.calledExpression.trimmedDescription == "skipMe" ? .skipChildren : .visitChildren
        }
        override func visitPost(_ node: FunctionCallExprSyntax) { note("/call", node) }
        override func visit(_ node: DictionaryExprSyntax) -> SyntaxVisitorContinueKind { note("dict", node); return .skipChildren }
        override func visitPost(_ node: DictionaryExprSyntax) { note("/dict", node) }
        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { note("struct", node); return .visitChildren }
        override func visitPost(_ node: StructDeclSyntax) { note("/struct", node) }
        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { note("closure", node); return .visitChildren }
        override func visitPost(_ node: ClosureExprSyntax) { note("/closure", node) }
        override func visit(_ node: LabeledExprSyntax) -> SyntaxVisitorContinueKind { note("arg", node); return .visitChildren }
        override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind { note("switch", node); return .visitChildren }
        override func visitPost(_ node: FunctionDeclSyntax) { note("/func", node) }
    }

    /// Skips what `Logger` visits, and the children of every closure and of structs named `Nested`.
    final class ClosureSkipper: Logger {
        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { note("closure", node); return .skipChildren }
        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
            note("struct", node)
            return node.name.text == "Nested" ? .skipChildren : .visitChildren
        }
    }

    /// Skips the children of everything it is shown.
    final class SkipAll: Logger {
        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind { note("call", node); return .skipChildren }
        override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { note("struct", node); return .skipChildren }
    }

    static let source = """
        struct Gadget {
            var table = [Knob.a: [Knob.b: 1]]
            func spin(_ x: Int, _ y: Int) -> Int {
                let z = wobble(a: { v in v + skipMe(inner(1), [1: 2]) }, b: [3: wobble(c: 4)])
                switch (x, y) {
                case (1, 2): return outer(first: inner(second: z))
                default: return skipMe(deep(deeper()))
                }
            }
            struct Nested { let k = zap { _ in [:] } }
        }
        func loose() {}
        """

    func testReplayMatchesWalk() {
        let tree = Parser.parse(source: Self.source)
        let walked = Logger()
        walked.walk(tree)
        let replayed = Logger()
        SyntaxEvents(tree).replay(replayed)
        XCTAssertGreaterThan(walked.log.count, 20)
        XCTAssertEqual(replayed.log, walked.log)
    }

    /// Several visitors replayed at once each get what their own walk gives them, whatever the others skip.
    func testReplayToSeveralVisitorsMatchesEachOnesWalk() {
        let tree = Parser.parse(source: Self.source)
        let kinds: [() -> Logger] = [{ Logger() }, { ClosureSkipper() }, { SkipAll() }, { Logger() }]
        let together = kinds.map { $0() }
        SyntaxEvents(tree).replay(together)
        for (make, replayed) in zip(kinds, together) {
            let walked = make()
            walked.walk(tree)
            XCTAssertGreaterThan(walked.log.count, 2)
            XCTAssertEqual(replayed.log, walked.log, "\(type(of: walked))")
        }
        // visitors that all skip: the replay jumps over the skipped parts and still closes every node
        let skippers = [SkipAll(), SkipAll()]
        SyntaxEvents(tree).replay(skippers)
        let alone = SkipAll()
        alone.walk(tree)
        XCTAssertEqual(skippers[0].log, alone.log)
        XCTAssertEqual(skippers[1].log, alone.log)
    }

    /// The recorder reads the raw tree and materialises only what it records: its events must be those
    /// a `SyntaxVisitor` in `.sourceAccurate` mode meets, with the same nodes and extents, on every
    /// Swift file of the package (sources, tests, fixtures, examples) and on broken code, where the
    /// parser leaves unexpected and missing nodes.
    func testRecordingMatchesAVisitorWalkOnEveryFileOfThePackage() throws {
        final class Reference: SyntaxAnyVisitor {
            var events: [(kind: String, id: SyntaxIdentifier, end: Int)] = []
            var open: [Int] = []
            static let kinds = Set(SyntaxEvents.Kind.allCases.map { "\($0)" })
            init() { super.init(viewMode: .sourceAccurate) }
            override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
                if Self.kinds.contains("\(node.kind)") {
                    open.append(events.count)
                    events.append(("\(node.kind)", node.id, 0))
                } else {
                    open.append(-1)
                }
                return .visitChildren
            }
            override func visitAnyPost(_ node: Syntax) {
                let i = open.removeLast()
                if i >= 0 { events[i].end = events.count }
            }
        }
        var sources = [
            "struct S { func f( { switch x { case .a: g(y: [1: 2] } } }",
            "let x = f(a: , b: { [k: ] }, c: [1, 2,)\nenum E { case a(, b }\n}}}",
            "@attr(x) extension T where U: V { subscript(i: Int) -> Int { get { h(i) } } }",
            "#if os(Linux)\nimport Glibc\n#else\nactor A { init() { m = [:]; q = x ?? y ? z : w } }\n#endif",
            // calls, closures and literals the parser can place only among unexpected nodes
            "class C { foo(bar: { 1 }) [2: 3] }\nlet x = 1 2 f(y: [z])\nfunc f() { } } g(h: 1)\nenum E: f(x) { case a = g(y) }",
        ]
        for folder in ["Sources", "Tests", "examples"] {
            let root = Fixture.packageRoot.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            for file in files.sorted() { sources.append(try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)) }
        }
        XCTAssertGreaterThan(sources.count, 100)
        var compared = 0
        for source in sources {
            let tree = Parser.parse(source: source)
            let reference = Reference()
            reference.walk(tree)
            let recorded = SyntaxEvents(tree).events.map { ("\($0.kind)", $0.node.id, Int($0.end)) }
            XCTAssertEqual(recorded.map(\.0), reference.events.map(\.kind))
            XCTAssertEqual(recorded.map(\.1), reference.events.map(\.id))
            XCTAssertEqual(recorded.map(\.2), reference.events.map(\.end))
            compared += recorded.count
        }
        XCTAssertGreaterThan(compared, 10_000)
    }

    func testContainsFindsNodesInsideANodeOnly() {
        let tree = Parser.parse(source: "func a() { switch x { default: break } }\nfunc b() { let y = 1 }\n")
        let events = SyntaxEvents(tree)
        let functions = events.nodes(.functionDecl, as: FunctionDeclSyntax.self)
        XCTAssertEqual(functions.map(\.name.text), ["a", "b"])
        XCTAssertTrue(events.contains(.switchExpr, within: functions[0]))
        XCTAssertFalse(events.contains(.switchExpr, within: functions[1]))
        XCTAssertFalse(events.contains(.switchExpr, within: functions[0], where: { _ in false }))
    }

    /// A finder that can judge a node only once the index is built records every node it might keep
    /// and decides later (`SyntaxHelpers.outermost`): the nodes kept must be those a walk that skips
    /// the children of each kept node keeps.
    func testDecidingAfterTheWalkKeepsWhatSkippingDuringItKeeps() {
        let source = """
        let a = [k1: [k2: [k3: 1]], k4: 2]
        let b = [k5: f([k6: [k7: 3]]), k8: { [k9: 4] }()]
        let c = [k10: 5]
        """
        let tree = Parser.parse(source: source)
        final class Walker: SyntaxVisitor {
            var seen: [DictionaryExprSyntax] = []
            var kept: [DictionaryExprSyntax] = []
            let accept: (DictionaryExprSyntax) -> Bool
            init(_ accept: @escaping (DictionaryExprSyntax) -> Bool) {
                self.accept = accept
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: DictionaryExprSyntax) -> SyntaxVisitorContinueKind {
                seen.append(node)
                guard accept(node) else { return .visitChildren }
                kept.append(node)
                return .skipChildren
            }
        }
        let all = Walker { _ in false }
        all.walk(tree)
        XCTAssertEqual(all.seen.count, 8)
        // every subset of the literals as the ones a finder would keep
        for mask in 0..<(1 << all.seen.count) {
            let chosen = Set(all.seen.indices.filter { mask & (1 << $0) != 0 }.map { all.seen[$0].id })
            let live = Walker { chosen.contains($0.id) }
            live.walk(tree)
            let later = SyntaxHelpers.outermost(all.seen, node: { Syntax($0) }) { chosen.contains($0.id) }
            XCTAssertEqual(later.map(\.id), live.kept.map(\.id), "mask \(mask)")
        }
    }

    func testANodeOfNoWidthOnTheEdgeIsWithinByItsParents() {
        // the parser gives the call a missing `)` of no width at its end
        let tree = Parser.parse(source: "f(a, b\nlet x = 1\n")
        let call = try! XCTUnwrap(SyntaxEvents(tree).nodes(.functionCallExpr, as: FunctionCallExprSyntax.self).first)
        let paren = try! XCTUnwrap(call.rightParen)
        XCTAssertEqual(paren.presence, .missing)
        XCTAssertEqual(paren.position, call.endPosition)
        XCTAssertTrue(SyntaxHelpers.isWithin(paren, call))
        XCTAssertFalse(SyntaxHelpers.isWithin(call, paren))
        let binding = try! XCTUnwrap(SyntaxEvents(tree).nodes(.variableDecl, as: VariableDeclSyntax.self).first)
        XCTAssertFalse(SyntaxHelpers.isWithin(binding, call))
        XCTAssertTrue(SyntaxHelpers.isWithin(call, call))
    }
}
