import Foundation
import XCTest

/// `render --trace/--finding/--product`, `paths` and invariants in `lint`, run on the built binary.
extension LintEndToEndTests {
    static let kettle = """
        import ComposableArchitecture

        @Reducer
        struct Kettle {
            @ObservableState
            struct State {
                var mode: Mode = .cold
                var isHeating = false
            }
            enum Mode { case cold, boiling, warm }
            enum Action { case switchOn, boiled, cooled }

            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .switchOn:
                        guard !state.isHeating else { return .none }
                        state.mode = .boiling
                        state.isHeating = true
                        return .run { send in await send(.boiled) }
                    case .boiled:
                        state.mode = .warm
                        state.isHeating = false
                        return .none
                    case .cooled:
                        state.mode = .cold
                        return .none
                    }
                }
            }
        }

        """

    func testRenderTraceByCheckAndSubjectOrByNumber() throws {
        let byName = try run(["render", "Sources/Door.swift", "--trace", "dead_end_state:welded", "--format", "dot"])
        XCTAssertEqual(byName.status, 0, byName.stderr)
        XCTAssertTrue(byName.stdout.contains("\"closed\" -> \"welded\" [label=\"1. weld\""), byName.stdout)
        XCTAssertTrue(byName.stdout.contains("trace of dead_end_state: welded"))
        // the number `analyze --format text` gives the finding
        let text = try run(["analyze", "Sources/Door.swift", "--format", "text"])
        let line = try XCTUnwrap(text.stdout.components(separatedBy: "\n").first { $0.contains("[dead_end_state]") }, text.stdout)
        let number = try XCTUnwrap(line.trimmingCharacters(in: .whitespaces).split(separator: ".").first.map(String.init))
        let byNumber = try run(["render", "Sources/Door.swift", "--finding", number, "--format", "dot"])
        XCTAssertEqual(byNumber.status, 0, byNumber.stderr)
        XCTAssertEqual(byNumber.stdout, byName.stdout)
        let svg = try run(["render", "Sources/Door.swift", "--finding", number, "-o", "trace.svg"])
        XCTAssertEqual(svg.status, 0, svg.stderr)
        XCTAssertTrue(read("trace.svg").contains("<svg"))
    }

    func testRenderTraceOfAFindingWithoutOneListsTheOthers() throws {
        let r = try run(["render", "Sources/Door.swift", "--trace", "unreachable_state:broken", "--format", "dot"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("has no trace"), r.stderr)
        XCTAssertTrue(r.stderr.contains(". dead_end_state:welded"), r.stderr)
        let none = try run(["render", "Sources/Door.swift", "--trace", "dead_end_state:open", "--format", "dot"])
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.stderr.contains("no finding 'dead_end_state:open'"), none.stderr)
        XCTAssertEqual(try run(["render", "Sources/Door.swift", "--finding", "1", "--format", "mermaid"]).status, 2)
        XCTAssertEqual(try run(["render", "Sources/Door.swift", "--finding", "99", "--format", "dot"]).status, 2)
    }

    func testPathsCoverEveryTransitionAndWriteTests() throws {
        let r = try run(["paths", "Sources/Door.swift"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, """
            door (operator-table): 3 sequences take 3 transitions
              1. push   (ends in open)
              2. push → pull   (ends in closed)
              3. weld   (ends in welded)

            """)
        let json = try run(["paths", "Sources/Door.swift", "--format", "json"])
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual((doc.first?["sequences"] as? [Any])?.count, 3)
        let tests = try run(["paths", "Sources/Door.swift", "--format", "xctest", "-o", "DoorPathTests.swift"])
        XCTAssertEqual(tests.status, 0, tests.stderr)
        let swift = read("DoorPathTests.swift")
        XCTAssertTrue(swift.contains("final class DoorPathTests: XCTestCase {"), swift)
        XCTAssertTrue(swift.contains("func testPath3()"), swift)
        XCTAssertTrue(swift.contains("inputs.send(.weld)"), swift)
    }

    func testInvariantsFromTheConfigurationAndTheProductDrawing() throws {
        try write("Sources/Kettle.swift", Self.kettle)
        try write(".machine-viz.yml", "invariants: [\"isHeating implies mode == .boiling\"]\n")
        let lint = try run(["lint", "Sources/Kettle.swift"])
        XCTAssertEqual(lint.status, 0, lint.stderr)
        XCTAssertTrue(lint.stdout.contains("Kettle.swift:25:"), lint.stdout)
        XCTAssertTrue(lint.stdout.contains("Kettle: the combination mode=cold, isHeating=true is reachable but contradicts the invariant 'isHeating implies mode == .boiling' (reached by: switchOn → cooled)"), lint.stdout)
        XCTAssertTrue(lint.stdout.contains("[invariant_violation]"))
        XCTAssertEqual(try run(["lint", "Sources/Kettle.swift", "--strict"]).status, 1)

        let product = try run(["render", "Sources/Kettle.swift", "--product", "Kettle", "--format", "dot"])
        XCTAssertEqual(product.status, 0, product.stderr)
        XCTAssertTrue(product.stdout.contains("\"mode=boiling, isHeating=true\""), product.stdout)
        XCTAssertTrue(product.stdout.contains("breaks invariant"))
        let traced = try run(["render", "Sources/Kettle.swift", "--product", "Kettle", "--format", "dot",
                              "--trace", "invariant_violation:isHeating implies mode == .boiling"])
        XCTAssertEqual(traced.status, 0, traced.stderr)
        XCTAssertTrue(traced.stdout.contains("label=\"2. cooled\""), traced.stdout)
        let missing = try run(["render", "Sources/Kettle.swift", "--product", "Teapot"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("Found: Kettle"), missing.stderr)
    }

    func testBadInvariantsAndTheBudget() throws {
        try write("Sources/Kettle.swift", Self.kettle)
        try write(".machine-viz.yml", "machines:\n  Kettle:\n    invariants: [\"isHeating implies mode ==\"]\n")
        let syntax = try run(["lint", "Sources/Kettle.swift"])
        XCTAssertEqual(syntax.status, 2)
        XCTAssertTrue(syntax.stderr.contains(".machine-viz.yml:3:"), syntax.stderr)
        try write(".machine-viz.yml", "machines:\n  Kettle:\n    invariants: [\"isHeating implies speed == .fast\"]\n")
        let field = try run(["lint", "Sources/Kettle.swift"])
        XCTAssertEqual(field.status, 2)
        XCTAssertTrue(field.stderr.contains("'speed', which is not a machine field of Kettle"), field.stderr)
        try write(".machine-viz.yml", "product_budget: 2\ninvariants: [\"isHeating implies mode == .boiling\"]\n")
        let budget = try run(["lint", "Sources/Kettle.swift"])
        XCTAssertTrue(budget.stderr.contains("stopped after 2 combinations of mode × isHeating (product_budget)"), budget.stderr)
    }
}
