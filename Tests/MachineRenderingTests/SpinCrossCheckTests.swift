import Foundation
import MachineAnalysis
import MachineExtraction
import MachineModel
import MachineRendering
import XCTest

/// Cross-checks the effect explorer with SPIN (Debian package `spin`; `.ci/run` installs it): on every
/// example machine and on generated machines, SPIN's count of reachable states of the exported
/// Promela model equals machine-viz's count of configurations, and SPIN finds an assertion violation
/// of the same (shortest, breadth-first) length exactly where machine-viz reports
/// `stale_effect_output`, `waiting_forever` or `uncancelled_effect`, and none where it reports nothing.
final class SpinCrossCheckTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    var temp: URL!

    override func setUpWithError() throws {
        guard Spin.spin != nil, Spin.cc != nil else {
            throw XCTSkip("SPIN cross-check skipped: `spin` (or a C compiler) is not installed here; `apt-get install -y spin` (CI's .ci/run installs it)")
        }
        temp = FileManager.default.temporaryDirectory.appendingPathComponent("mv-spin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let temp { try? FileManager.default.removeItem(at: temp) }
    }

    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> String { try Spin.run(tool, arguments, in: temp) }

    struct Verdict {
        var stored: Int
        var violated: Bool
        /// Steps in the counterexample trail, when an assertion failed.
        var trail: Int?
    }

    /// Generates, compiles and runs the verifier (breadth-first, so counterexamples are shortest).
    func verify(_ promela: String, define macro: String? = nil) throws -> Verdict {
        try promela.write(to: temp.appendingPathComponent("model.pml"), atomically: true, encoding: .utf8)
        try? FileManager.default.removeItem(at: temp.appendingPathComponent("model.pml.trail"))
        let generated = try run(Spin.spin!, (macro.map { ["-D\($0)"] } ?? []) + ["-a", "model.pml"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: temp.appendingPathComponent("pan.c").path), generated)
        let compiled = try run(Spin.cc!, ["-O0", "-DBFS", "-DNOREDUCE", "-o", "pan", "pan.c"])
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: temp.appendingPathComponent("pan").path), compiled)
        let output = try run(temp.appendingPathComponent("pan").path, ["-E"])
        guard let stored = Spin.statesStored(in: output) else {
            XCTFail("no state count in SPIN's output:\n\(output)")
            return Verdict(stored: -1, violated: false)
        }
        let violated = output.contains("assertion violated")
        var trail: Int?
        if violated, let text = try? String(contentsOf: temp.appendingPathComponent("model.pml.trail"), encoding: .utf8) {
            trail = text.split(separator: "\n").filter { ($0.split(separator: ":").first.flatMap { Int($0) } ?? -1) > 0 }.count
        }
        return Verdict(stored: stored, violated: violated, trail: trail)
    }

    func crossCheck(_ machine: Machine, file: StaticString = #filePath, line: UInt = #line) throws {
        guard machine.initial != nil else { return }
        try crossCheck(EffectModel(machine: machine), file: file, line: line)
    }

    func crossCheck(_ model: EffectModel, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = EffectExplorer(model: model).explore()
        XCTAssertTrue(result.complete, "\(model.machine): exploration hit its budget", file: file, line: line)
        let promela = PromelaRenderer(model: model).render()
        let plain = try verify(promela)
        XCTAssertEqual(plain.stored, result.configurations, "\(model.machine): SPIN states vs configurations", file: file, line: line)
        XCTAssertFalse(plain.violated, file: file, line: line)

        // every property either check could report: the same verdict and the same shortest length
        var properties: [(macro: String, trace: [TraceStep]?)] = []
        let staleInputs = model.definitions.flatMap { $0.emits.map { model.inputs[$0] } }.uniqued()
        for input in staleInputs {
            properties.append((PromelaRenderer.staleMacro(input), result.stale.first { $0.input == input }?.trace))
        }
        for s in model.waitingStates().keys.sorted() where model.initial != s {
            properties.append((PromelaRenderer.waitMacro(model.states[s]), result.waiting.first { $0.state == model.states[s] }?.trace))
        }
        for d in model.definitions.indices where !model.idleStates(of: d).isEmpty {
            properties.append((PromelaRenderer.idleMacro(d), result.uncancelled.first { $0.definition == d }?.trace))
        }
        for (macro, trace) in properties {
            let verdict = try verify(promela, define: macro)
            XCTAssertEqual(verdict.violated, trace != nil, "\(model.machine) \(macro): SPIN \(verdict.violated ? "finds" : "does not find") it",
                           file: file, line: line)
            if let trace {
                XCTAssertEqual(verdict.trail, trace.count, "\(model.machine) \(macro): SPIN's shortest trail vs machine-viz's trace",
                               file: file, line: line)
            }
        }
    }

    func testEveryExampleMachine() throws {
        let examples = Self.root.appendingPathComponent("examples")
        let machines = Extractor.extract(paths: [examples.path]).machines.filter { !$0.location.file.contains("PluginSample") }
            .map(Analyzer().analyze)
        XCTAssertGreaterThan(machines.count, 10)
        for machine in machines { try crossCheck(machine) }
    }

    func testTheConformanceEffectCases() throws {
        let cases = Self.root.deletingLastPathComponent().appendingPathComponent("shared/conformance/cases")
        let files = ["e_stale_output.swift", "e_uncancelled_stream.swift", "e_waiting_forever.swift"]
            .map { cases.appendingPathComponent($0).path }.filter { FileManager.default.fileExists(atPath: $0) }
        try XCTSkipIf(files.isEmpty, "../shared/conformance is not beside the checkout")
        for machine in Extractor.extract(paths: files).machines.map(Analyzer().analyze) { try crossCheck(machine) }
    }

    func testGeneratedMachines() throws {
        for seed in 1...4 as ClosedRange<UInt64> {
            try crossCheck(Analyzer().analyze(SyntheticMachines.withEffects(states: 6 + Int(seed) * 2, effects: 3 + Int(seed), seed: seed)))
        }
    }

    func testTheBenchmarkMachineCountsAlike() throws {
        let machine = Analyzer().analyze(SyntheticMachines.withEffects(states: 50, effects: 20, seed: 7))
        let model = EffectModel(machine: machine)
        let result = EffectExplorer(model: model).explore()
        XCTAssertTrue(result.complete)
        XCTAssertEqual(try verify(PromelaRenderer(model: model).render()).stored, result.configurations)
    }

    /// Products of struct states seen from each field (the effects go stale when that field changes),
    /// from the examples and from a made-up feature whose race needs a guard on another field.
    func testProductsSeenFromEachField() throws {
        let source = temp.appendingPathComponent("Kiosk.swift")
        try """
            import ComposableArchitecture

            @Reducer
            struct Kiosk {
                @ObservableState
                struct State: Equatable {
                    var screen: Screen = .welcome
                    var isArmed = false
                    enum Screen: Equatable { case welcome, scanning, paid }
                }
                enum Action { case arm, scanTapped, scanned, leave }

                var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        switch action {
                        case .arm:
                            state.isArmed = true
                            return .none
                        case .scanTapped:
                            guard state.isArmed else { return .none }
                            state.screen = .scanning
                            return .run { send in await send(.scanned) }
                        case .scanned:
                            state.screen = .paid
                            return .none
                        case .leave:
                            state.screen = .welcome
                            return .none
                        }
                    }
                }
            }
            """.write(to: source, atomically: true, encoding: .utf8)
        let products = Extractor.extract(paths: [Self.root.appendingPathComponent("examples/tca").path, source.path]).products
        XCTAssertEqual(products.map(\.name).sorted(), ["Kiosk", "RecordingFeature", "SyncSettings"])
        var sawRace = false
        for product in products {
            let result = ProductExplorer().explore(product, invariants: [])
            // one field of each example (each SPIN run compiles a verifier: keep CI's time in check)
            for field in product.fields where product.name == "Kiosk" || field.name == product.fields[0].name {
                let model = ProductView(machine: result.machine, field: field.name, values: result.values).effectModel()
                try crossCheck(model)
                if product.name == "Kiosk", field.name == "screen" {
                    let stale = EffectExplorer(model: model, sureOnly: true).explore().stale
                    XCTAssertEqual(stale.map(\.input), ["scanned"])
                    sawRace = !stale.isEmpty
                }
            }
        }
        XCTAssertTrue(sawRace)
    }

    /// Actomaton `runOldest` queues (made up): a new job is dropped while one runs (`discardNew`), or
    /// waits until fewer than two run (`suspendNew`), and their late outputs can still race.
    func testOldestQueues() throws {
        for policy in ["runOldest(1, discardNew)", "runOldest(2, suspendNew)"] {
            var rules: [Rule] = []
            func rule(_ from: [String], _ input: String, _ target: Target, start effect: Effect? = nil, cancels: [String] = []) {
                rules.append(Rule(id: rules.count + 1, location: SourceLocation(file: "Q.swift", line: 10 + rules.count, column: 5),
                                  outcomes: [Outcome(pairs: from.map { Pair(from: $0, input: input) }, target: target, effect: effect, cancels: cancels)]))
            }
            rule(["idle", "busy"], "enqueue", .state("busy"), start: Effect(label: "job", emits: ["finished"], queue: "JobQueue", policy: policy))
            rule(["busy"], "finished", .state("idle"))
            rule(["busy"], "abort", .state("aborted"))
            rule(["aborted"], "reset", .state("idle"))
            rule(["idle"], "poll", .stay, start: Effect(label: "ticker", emits: ["tock"], queue: "JobQueue", policy: policy, kind: .stream))
            rule(["busy"], "tock", .stay)
            let machine = Analyzer().analyze(Machine(name: "jobs", dialect: .actomaton, location: SourceLocation(file: "Q.swift", line: 1, column: 1),
                                                     states: ["idle", "busy", "aborted"], inputs: ["enqueue", "finished", "abort", "reset", "poll", "tock"],
                                                     initial: "idle", rules: rules, order: .resolved))
            let model = EffectModel(machine: machine)
            XCTAssertEqual(model.queues.map(\.name), ["JobQueue"], policy)
            try crossCheck(model)
        }
    }

    /// A stream that ends with what its `catch:` sends (made up): SPIN removes the instance on that
    /// delivery as the explorer does, and finds no race where the explorer finds none.
    func testAStreamEndedByItsLastOutput() throws {
        for failedIsLast in [true, false] {
            let failed = InputPattern.member("feed", [.init(.member("failed"))])
            let feed = Effect(label: "feed", emits: ["feed"], id: "FeedID", kind: .stream,
                              outputs: [.init(value: .member("feed", [.init(.member("chunk", [.init(.any)]))]), last: false),
                                        .init(value: .member("feed", [.init(.member("failed", [.init(.any)]))]), last: failedIsLast)])
            let at = SourceLocation(file: "F.swift", line: 1, column: 1)
            let rules = [
                Rule(id: 1, location: at, outcomes: [Outcome(pairs: [Pair(from: "idle", input: "open")], target: .state("opening"), effect: feed)]),
                Rule(id: 2, location: at, outcomes: [Outcome(pairs: [Pair(from: "opening", input: "feed")], target: .state("open"),
                                                             pattern: .member("feed", [.init(.member("chunk"))]))]),
                Rule(id: 3, location: at, outcomes: [Outcome(pairs: [Pair(from: "opening", input: "feed"), Pair(from: "open", input: "feed")],
                                                             target: .state("idle"), pattern: failed)]),
                Rule(id: 4, location: at, outcomes: [Outcome(pairs: [Pair(from: "opening", input: "close"), Pair(from: "open", input: "close")],
                                                             target: .state("idle"), cancels: ["FeedID"])]),
            ]
            let machine = Analyzer().analyze(Machine(name: "feed", dialect: .tca, location: at, states: ["idle", "opening", "open"],
                                                     inputs: ["open", "feed", "close"], initial: "idle", rules: rules, order: .resolved))
            let model = EffectModel(machine: machine)
            XCTAssertEqual(model.definitions.first?.endingTriggers, failedIsLast ? ["feed(.failed)"] : [])
            XCTAssertEqual(EffectExplorer(model: model).explore().stale.isEmpty, failedIsLast)
            try crossCheck(model)
        }
    }
}
