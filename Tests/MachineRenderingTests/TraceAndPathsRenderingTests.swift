import Foundation
import MachineAnalysis
import MachineExtraction
import MachineModel
import MachineRendering
import SwiftParser
import SwiftSyntax
import XCTest

final class TraceRenderingTests: XCTestCase {
    let here = SourceLocation(file: "T.swift", line: 1, column: 1)

    /// off -power-> booting -ready (sent by the boot effect)-> on -power-> off; on -ping-> on is a no-op.
    func machine() -> Machine {
        func rule(_ id: Int, _ from: String, _ input: String, _ to: Target, effect: Effect? = nil) -> Rule {
            Rule(id: id, location: SourceLocation(file: "T.swift", line: 10 + id, column: 1),
                 outcomes: [Outcome(pairs: [Pair(from: from, input: input)], target: to, effect: effect)])
        }
        return Analyzer().analyze(Machine(
            name: "router", dialect: .switchMethod, location: here, states: ["off", "booting", "on"],
            inputs: ["power", "ready", "ping"], initial: "off",
            rules: [rule(1, "off", "power", .state("booting"), effect: Effect(label: "boot", emits: ["ready"])),
                    rule(2, "booting", "ready", .state("on")), rule(3, "on", "power", .state("off")), rule(4, "on", "ping", .stay)],
            order: .resolved))
    }

    func testTraceEdgesAreNumberedBoldAndEffectStepsDashed() {
        let m = machine()
        let steps = [TraceStep(input: "power", state: "booting"), TraceStep(input: "ready", by: .effect, state: "on"),
                     TraceStep(input: "ping", state: "on"), TraceStep(input: "power", state: "off"), TraceStep(input: "power", state: "booting")]
        let dot = DOTRenderer(options: .init(trace: .init(title: "example: off", steps: steps))).render(m)
        let lines = dot.components(separatedBy: "\n")
        func edge(_ from: String, _ to: String) -> String? { lines.first { $0.hasPrefix("  \"\(from)\" -> \"\(to)\" [") } }
        // the edge taken twice carries both numbers
        XCTAssertTrue(edge("off", "booting")?.contains("label=\"1. 5. power / boot") == true, edge("off", "booting") ?? "")
        XCTAssertTrue(edge("off", "booting")?.contains("color=\"crimson\"") == true)
        XCTAssertTrue(edge("booting", "on")?.contains("label=\"2. ready\"") == true, edge("booting", "on") ?? "")
        XCTAssertTrue(edge("booting", "on")?.contains("style=\"bold,dashed\"") == true)
        // a no-op self-loop is not drawn, but the step that takes it is
        XCTAssertTrue(edge("on", "on")?.contains("label=\"3. ping\"") == true, edge("on", "on") ?? "")
        XCTAssertTrue(edge("on", "off")?.contains("label=\"4. power\"") == true)
        XCTAssertTrue(dot.contains("trace of example: off, step by step"))
        XCTAssertTrue(dot.contains("step delivered by an effect"))
        // where it ends
        XCTAssertTrue(lines.contains { $0.hasPrefix("  \"booting\" [") && $0.contains("penwidth=\"2.5\"") })
        // without a trace, nothing of it
        let plain = DOTRenderer().render(m)
        XCTAssertFalse(plain.contains("crimson"))
        XCTAssertFalse(plain.contains("\"on\" -> \"on\""))
    }

    func testEmptyTraceMarksTheInitialState() {
        let dot = DOTRenderer(options: .init(trace: .init(title: "x", steps: []))).render(machine())
        XCTAssertTrue(dot.contains("the finding holds in the initial state"))
        XCTAssertTrue(dot.components(separatedBy: "\n").contains { $0.hasPrefix("  \"off\" [") && $0.contains("crimson") })
    }
}

final class TestSkeletonTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func machines(_ example: String) -> [Machine] {
        Extractor.extract(paths: [Self.root.appendingPathComponent("examples/\(example)").path]).machines.map(Analyzer().analyze)
    }

    /// The source parses with no syntax error (missing or unexpected tokens).
    func assertValidSwift(_ source: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let tree = Parser.parse(source: source)
        XCTAssertFalse(tree.hasError, "\(what) is not valid Swift:\n\(source)", file: file, line: line)
        XCTAssertEqual(tree.description, source, "round trip", file: file, line: line)
        XCTAssertFalse(source.contains("<#"), "no editor placeholders: they do not compile", file: file, line: line)
    }

    func testEveryExampleMachineGivesValidSwift() {
        var count = 0
        for example in ["harvest/Login.swift", "tca/VoiceMemos.swift", "actomaton/Uploader.swift", "switch/TrafficLight.swift",
                        "mapping/Checkout.swift", "swiftstate/Elevator.swift", "tinder/MediaUpload.swift", "gameplaykit/DungeonRun.swift",
                        "dictionary-table/TrafficLight.swift", "Machines/DoorLock.swift"] {
            for m in machines(example) {
                let text = TestSkeletonWriter().write(m, cover: TransitionCover(machine: m))
                assertValidSwift(text, "\(example) \(m.name)")
                count += 1
            }
        }
        XCTAssertGreaterThan(count, 10)
    }

    func testTCASendsAndReceives() throws {
        let m = try XCTUnwrap(machines("tca/VoiceMemos.swift").first { $0.name == "RecordingFeature.phase" })
        let text = TestSkeletonWriter().write(m, cover: TransitionCover(machine: m))
        XCTAssertTrue(text.contains("import ComposableArchitecture"))
        XCTAssertTrue(text.contains("let store = TestStore(initialState: RecordingFeature.State()) {"))
        XCTAssertTrue(text.contains("await store.send(."), text)
        XCTAssertTrue(text.contains("$0.phase = ."), text)
        if !m.internalInputs.isEmpty { XCTAssertTrue(text.contains("await store.receive(\\."), text) }
        XCTAssertTrue(text.contains("@MainActor"))
    }

    func testHarvestAndActomatonAndPlainShapes() throws {
        let auth = try XCTUnwrap(machines("harvest/Login.swift").first { $0.name == "auth" })
        let harvest = TestSkeletonWriter().write(auth, cover: TransitionCover(machine: auth))
        XCTAssertTrue(harvest.contains("inputs.send(.login)"), harvest)
        XCTAssertTrue(harvest.contains("XCTAssertEqual(automaton.state, .loggingIn)"), harvest)
        let uploader = try XCTUnwrap(machines("actomaton/Uploader.swift").first)
        let actomaton = TestSkeletonWriter().write(uploader, cover: TransitionCover(machine: uploader))
        XCTAssertTrue(actomaton.contains("await actomaton.send(.pick"), actomaton)
        XCTAssertTrue(actomaton.contains("let state1 = await actomaton.state"), actomaton)
        let light = try XCTUnwrap(machines("switch/TrafficLight.swift").first)
        let plain = TestSkeletonWriter().write(light, cover: TransitionCover(machine: light))
        XCTAssertTrue(plain.contains("var machine = makeMachine()"), plain)
        XCTAssertTrue(plain.contains("XCTAssertEqual(machine.state, ."), plain)
    }

    func testTriggersBecomeExpressions() {
        XCTAssertEqual(TestSkeletonWriter.expression(forTrigger: "view(.saveTapped)", input: "view"), ".view(.saveTapped)")
        XCTAssertEqual(TestSkeletonWriter.expression(forTrigger: "let .finished(.success(url))", input: "finished"), ".finished(.success(url))")
        XCTAssertEqual(TestSkeletonWriter.expression(forTrigger: ".send(didSucceed: true)", input: "send"), ".send(didSucceed: true)")
        XCTAssertEqual(TestSkeletonWriter.expression(forTrigger: "done(let x, _)", input: "done"), ".done(x, value)")
        XCTAssertEqual(TestSkeletonWriter.expression(forTrigger: "a((", input: "a"), ".a")
    }
}
