import Foundation
import MachineAnalysis
import MachineExtraction
import MachineModel
import MachineRendering
import XCTest

final class DOTRendererTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func machines(_ example: String) -> [Machine] {
        Extractor.extract(paths: [Self.root.appendingPathComponent("examples/\(example)").path]).machines.map(Analyzer().analyze)
    }

    func testGoldenDOTForExamples() throws {
        let renderer = DOTRenderer()
        for (example, name) in [("harvest/Login.swift", "auth"), ("tca/VoiceMemos.swift", "RecordingFeature.phase"),
                                ("switch/TrafficLight.swift", "Crossing.light"), ("actomaton/Uploader.swift", "uploader")] {
            let m = try XCTUnwrap(machines(example).first { $0.name == name }, name)
            Golden.assertMatches(renderer.render(m), "\(name).dot")
        }
    }

    func testGoldenJSONWithPathsRelativeToThePackage() throws {
        let doc = AnalysisDocument(machines: machines("harvest/Login.swift"), diagnostics: [])
        let text = String(decoding: try doc.jsonData(), as: UTF8.self).replacingOccurrences(of: Self.root.path + "/", with: "")
        Golden.assertMatches(text, "auth.json")
    }

    /// A merge whose parts run under ids of their own is drawn with each id; an id only one part runs under
    /// is said so.
    func testMergedEffectsAreDrawnWithTheirPartsIds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("merge-ids-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Ride.swift")
        try """
        import ComposableArchitecture
        @Reducer
        struct Ride {
            @ObservableState
            struct State: Equatable { var isSearching = false }
            enum Action { case findTapped, cancelTapped, found, etaUpdated, logged }
            enum CancelID { case match, eta }
            var body: some ReducerOf<Self> {
                Reduce { state, action in
                    switch action {
                    case .findTapped:
                        state.isSearching = true
                        return .merge(
                            .run { send in await send(.found) }.cancellable(id: CancelID.match),
                            .run { send in for await _ in AsyncStream<Int> { _ in } { await send(.etaUpdated) } }.cancellable(id: CancelID.eta),
                            .run { send in await send(.logged) }
                        )
                    case .cancelTapped:
                        state.isSearching = false
                        return .cancel(id: CancelID.match)
                    case .found, .etaUpdated, .logged:
                        return .none
                    }
                }
            }
        }
        """.write(to: file, atomically: true, encoding: .utf8)
        let machine = try XCTUnwrap(Extractor.extract(paths: [folder.path]).machines.map(Analyzer().analyze).first)
        let dot = DOTRenderer().render(machine)
        XCTAssertTrue(dot.contains("ids CancelID.match, CancelID.eta"), dot)
    }

    func testSameInputSameBytes() {
        let a = machines("tca/VoiceMemos.swift").map(DOTRenderer().render)
        let b = machines("tca/VoiceMemos.swift").map(DOTRenderer().render)
        XCTAssertEqual(a, b)
    }

    func testEscaping() {
        XCTAssertEqual(DOTRenderer.id("plain"), "\"plain\"")
        XCTAssertEqual(DOTRenderer.id("say \"hi\""), "\"say \\\"hi\\\"\"")
        XCTAssertEqual(DOTRenderer.id("back\\slash"), "\"back\\\\slash\"")
        XCTAssertEqual(DOTRenderer.id("two\nlines"), "\"two\\nlines\"")
        XCTAssertEqual(DOTRenderer.id("graph"), "\"graph\"", "keywords are quoted")
        XCTAssertEqual(DOTRenderer.id("1st"), "\"1st\"", "leading digits are quoted")
        XCTAssertEqual(DOTRenderer.id("état→ü"), "\"état→ü\"", "UTF-8 passes through (charset=UTF-8)")
    }

    func testMarksAndLabels() throws {
        let m = try XCTUnwrap(machines("tca/VoiceMemos.swift").first { $0.name == "RecordingFeature.phase" })
        let dot = DOTRenderer().render(m)
        XCTAssertTrue(dot.contains("\"__start\" -> \"idle\";"), "initial arrow")
        XCTAssertTrue(dot.contains("view(.pauseButtonTapped)\\n✕ cancels CancelID.timer"), "trigger pattern and cancellation")
        XCTAssertTrue(dot.contains("⇢ sends permissionResponse"), "what the effect sends back")
        XCTAssertTrue(dot.contains("label=\"⇠ permissionResponse (sent by effect)\""), "dashed feedback edge")
        XCTAssertTrue(dot.contains("color=\"purple\""), "data-dependent target")
        XCTAssertTrue(dot.contains("cluster_legend"))
        XCTAssertFalse(DOTRenderer(options: .init(legend: false)).render(m).contains("cluster_legend"))
        let crossing = try XCTUnwrap(machines("switch/TrafficLight.swift").first)
        XCTAssertTrue(DOTRenderer().render(crossing).contains("\"off\" [label=\"off\", peripheries=\"2\"]"), "terminal state")
    }

    /// A partial machine's title says why it is partial: writes the tool does not follow, paths it left out.
    func testThePartialTitleSaysWhy() {
        let at = SourceLocation(file: "P.swift", line: 1, column: 1)
        var m = Machine(name: "valve", dialect: .switchMethod, location: at, states: ["shut", "open"], inputs: ["turn"], initial: "shut",
                        rules: [Rule(id: 1, location: at, outcomes: [Outcome(pairs: [Pair(from: "shut", input: "turn")], target: .state("open"))])],
                        order: .resolved)
        XCTAssertFalse(DOTRenderer().render(m).contains("partial"))
        m.partial = true
        m.unreadWrites = [at]
        XCTAssertTrue(DOTRenderer().render(m).contains("label=\"valve (switch-method) — partial: state also written elsewhere\""))
        m.pathsLeftOut = [at]
        XCTAssertTrue(DOTRenderer().render(m).contains("— partial: state also written elsewhere, paths left out\""))
        m.unreadWrites = []
        XCTAssertTrue(DOTRenderer().render(m).contains("— partial: paths left out\""))
    }

    func testLargeMachinesBoundTheLayout() {
        let states = (0..<60).map { "s\($0)" }
        var rules: [Rule] = []
        for (i, s) in states.enumerated() {
            for k in 1...3 {
                rules.append(Rule(id: rules.count + 1, location: SourceLocation(file: "B.swift", line: rules.count + 2, column: 1),
                                  outcomes: [Outcome(pairs: [Pair(from: s, input: "e\(k)")], target: .state(states[(i * 7 + k * 13) % 60]))]))
            }
        }
        let m = Analyzer().analyze(Machine(name: "big", dialect: .switchMethod, location: SourceLocation(file: "B.swift", line: 1, column: 1),
                                           states: states, inputs: ["e1", "e2", "e3"], initial: "s0", rules: rules, order: .resolved))
        let renderer = DOTRenderer()
        XCTAssertEqual(renderer.tradeOffs(for: m).count, 1)
        let dot = renderer.render(m)
        XCTAssertTrue(dot.contains("splines=\"line\""))
        XCTAssertTrue(dot.contains("nslimit=\"2\""))
        XCTAssertTrue(dot.contains("// 180 edges: layout effort bounded"))
    }

    /// Above `hugeEdgeCount` drawn edges (a random 200-state / 600-transition machine) the DOT asks for
    /// sfdp and says why; parallel edges are merged into one edge with a line per input.
    func testHugeMachinesUseSfdpAndMergeParallelEdges() {
        let states = (0..<200).map { "s\($0)" }
        var rules: [Rule] = []
        for (i, s) in states.enumerated() {
            for k in 1...3 {
                rules.append(Rule(id: rules.count + 1, location: SourceLocation(file: "H.swift", line: rules.count + 2, column: 1),
                                  outcomes: [Outcome(pairs: [Pair(from: s, input: "e\(k)")], target: .state(states[(i * 31 + k * 17) % 200]))]))
            }
            // a parallel edge: e4 leads where e1 does
            rules.append(Rule(id: rules.count + 1, location: SourceLocation(file: "H.swift", line: rules.count + 2, column: 1),
                              outcomes: [Outcome(pairs: [Pair(from: s, input: "e4")], target: .state(states[(i * 31 + 17) % 200]))]))
        }
        let m = Analyzer().analyze(Machine(name: "huge", dialect: .switchMethod, location: SourceLocation(file: "H.swift", line: 1, column: 1),
                                           states: states, inputs: ["e1", "e2", "e3", "e4"], initial: "s0", rules: rules, order: .resolved))
        let renderer = DOTRenderer()
        XCTAssertEqual(renderer.drawnEdgeCount(m), 600, "800 transitions, 200 of them parallel to another")
        let dot = renderer.render(m)
        XCTAssertTrue(dot.contains("layout=\"sfdp\""))
        XCTAssertTrue(dot.contains("// 600 edges: laid out with sfdp"))
        XCTAssertTrue(dot.contains("label=\"e1\\ne4\""), "merged parallel edge")
    }
}
