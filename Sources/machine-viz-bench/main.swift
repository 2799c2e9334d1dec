import Foundation
import GraphvizRendering
import MachineAnalysis
import MachineExtraction
import MachineModel
import MachineRendering
import SwiftParser
import SwiftSyntax

/// Visits every node: the cost of one pass over a parsed code base.
final class CountingVisitor: SyntaxVisitor {
    var count = 0
    init() { super.init(viewMode: .sourceAccurate) }
    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        count += 1
        return .visitChildren
    }
}

// Benchmark: times the extraction + analysis pipeline against a baseline measured in the same run
// (parsing the same files with swift-syntax and nothing else), on generated code bases of two sizes,
// and times DOT + libgvc layout of random machines. Run in release: scripts/benchmark.sh.

func time(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func best(of n: Int, _ body: () -> Void) -> Double { (0..<n).map { _ in time(body) }.min()! }

/// A code base of `files` files: every fourth holds a TCA feature, a Harvest table, a switch method or
/// an Actomaton reducer; the rest is ordinary code (types, functions, extensions) as in an app.
func generateCorpus(files: Int, into dir: URL) throws {
    try? FileManager.default.removeItem(at: dir)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    for i in 0..<files {
        var text = "import Foundation\n\n"
        switch i % 8 {
        case 0:
            text += """
            @Reducer struct Feature\(i) {
                @ObservableState struct State: Equatable { var phase: Phase = .idle; var isOn = false; var count = 0 }
                enum Phase: Equatable { case idle, loading, loaded(Int), failed }
                enum Action { case load, loaded(Int), fail, reset, toggle, view(View); enum View { case tap, swipe } }
                private enum CancelID { case load }
                var body: some ReducerOf<Self> {
                    Reduce { state, action in
                        switch action {
                        case .load:
                            guard state.phase == .idle || state.phase == .failed else { return .none }
                            state.phase = .loading
                            return .run { send in await send(.loaded(1)) }.cancellable(id: CancelID.load, cancelInFlight: true)
                        case let .loaded(n):
                            state.phase = n > 0 ? .loaded(n) : .failed
                            return .none
                        case .fail: state.phase = .failed; return .cancel(id: CancelID.load)
                        case .reset: state.phase = .idle; state.count = 0; return .none
                        case .toggle: state.isOn.toggle(); return .none
                        case .view(.tap): state.count += 1; return .none
                        case .view: return .none
                        }
                    }
                }
            }

            """
        case 2:
            text += """
            enum S\(i) { case a, b, c, d }
            enum I\(i) { case x, y, z }
            let p\(i): (S\(i)) -> Bool = [.b, .c].contains
            let rows\(i): [Harvester<I\(i), S\(i)>.Mapping] = [
                .x | .a => .b, .y | p\(i) => .d, .z | .d => .a, any | .c => .a, .x | .b => .c,
            ]
            let m\(i) = Harvester(state: .a, inputs: input, mapping: .reduce(.first, rows\(i)))

            """
        case 4:
            text += """
            enum Light\(i) { case red, green, amber, off }
            enum Pulse\(i) { case tick, fail, fix }
            final class Junction\(i) {
                var light: Light\(i) = .red
                func handle(_ e: Pulse\(i)) {
                    switch (light, e) {
                    case (.red, .tick): light = .green
                    case (.green, .tick): light = .amber
                    case (.amber, .tick): light = .red
                    case (_, .fail): light = .off
                    case (.off, .fix): light = .red
                    default: break
                    }
                }
            }

            """
        case 6:
            text += """
            enum K\(i): Sendable { case cold, heating, hot }
            enum KA\(i): Sendable { case on, heated, off }
            struct Q\(i): Newest1EffectQueueProtocol {}
            let reducer\(i) = Reducer<KA\(i), K\(i), Void> { action, state, _ in
                switch (action, state) {
                case (.on, .cold): state = .heating; return Effect(queue: Q\(i)()) { .heated }
                case (.heated, .heating): state = .hot; return .empty
                case (.off, _): state = .cold; return .empty
                default: return .empty
                }
            }

            """
        default:
            break
        }
        for k in 0..<6 {
            text += """
            struct Model\(i)_\(k): Codable, Equatable {
                var id: Int
                var name: String
                var tags: [String] = []
                func describe() -> String { "\\(name) #\\(id) \\(tags.joined(separator: ", "))" }
                static func make(_ n: Int) -> [Model\(i)_\(k)] { (0..<n).map { Model\(i)_\(k)(id: $0, name: "m\\($0)") } }
            }
            extension Model\(i)_\(k) {
                var isEmpty: Bool { tags.isEmpty && name.isEmpty }
                mutating func rename(_ s: String) { if !s.isEmpty { name = s } else { name = "unnamed" } }
            }

            """
        }
        try text.write(to: dir.appendingPathComponent("File\(i).swift"), atomically: true, encoding: .utf8)
    }
}

func randomMachine(states n: Int, transitions m: Int, seed: UInt64) -> Machine {
    var state = seed
    func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
    let states = (0..<n).map { "s\($0)" }
    let inputs = (0..<max(3, m / n + 2)).map { "e\($0)" }
    var seen = Set<Pair>()
    var rules: [Rule] = []
    while rules.count < m {
        let pair = Pair(from: states[next(n)], input: inputs[next(inputs.count)])
        guard seen.insert(pair).inserted else { continue }
        rules.append(Rule(id: rules.count + 1, location: SourceLocation(file: "R.swift", line: rules.count + 2, column: 1),
                          outcomes: [Outcome(pairs: [pair], target: .state(states[next(n)]))]))
    }
    return Analyzer().analyze(Machine(name: "random", dialect: .operatorTable, location: SourceLocation(file: "R.swift", line: 1, column: 1),
                                      states: states, inputs: inputs, initial: "s0", rules: rules, order: .resolved))
}

let base = FileManager.default.temporaryDirectory.appendingPathComponent("machine-viz-bench")
print("machine-viz benchmark (best of 3; ratio = pipeline / parse-only baseline, same run)")
print("files  lines   parse-only  one-walk  pipeline  ratio  machines")
for files in [100, 400] {
    let dir = base.appendingPathComponent("corpus\(files)")
    try generateCorpus(files: files, into: dir)
    let paths = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted().map { dir.appendingPathComponent($0).path }
    let texts = try paths.map { try String(contentsOfFile: $0, encoding: .utf8) }
    let lines = texts.reduce(0) { $0 + $1.split(separator: "\n").count }
    let parse = best(of: 3) { for t in texts { _ = Parser.parse(source: t) } }
    let trees = texts.map { Parser.parse(source: $0) }
    let walk = best(of: 3) { for t in trees { CountingVisitor().walk(t) } }
    var machines = 0
    let pipeline = best(of: 3) {
        let result = Extractor.extract(paths: [dir.path])
        machines = result.machines.map(Analyzer().analyze).count
    }
    print(String(format: "%5d  %6d  %9.3fs  %7.3fs  %7.3fs  %5.2f  %d", files, lines, parse, walk, pipeline, pipeline / parse, machines))
}

print("\nlayout (DOT + libgvc SVG, random machines)")
print("states/transitions  dot-text  svg")
let renderer = DOTRenderer()
for (n, m) in [(50, 150), (100, 300), (200, 600)] {
    let machine = randomMachine(states: n, transitions: m, seed: UInt64(n))
    var dot = ""
    let text = best(of: 3) { dot = renderer.render(machine) }
    let svg = time { _ = try? Graphviz.render(dot: dot, format: .svg) }
    print(String(format: "%7d/%-10d  %7.3fs  %6.2fs", n, m, text, svg))
}

// Effect-aware exploration against SPIN on the same generated machine (50 states, 20 effects),
// measured in this run: machine-viz's configurations per second next to SPIN's states per second
// (breadth-first, partial-order reduction off, so both store the same states; SPIN's time is the
// verifier's run, not its generation and compilation).
print("\neffects (generated machine, explorer vs SPIN on its Promela export, best of 3)")
let effectMachine = Analyzer().analyze(SyntheticMachines.withEffects(states: 50, effects: 20, seed: 7))
let effectModel = EffectModel(machine: effectMachine)
var explored: EffectExplorer.Result?
let exploreTime = best(of: 3) { explored = EffectExplorer(model: effectModel).explore() }
let configurations = explored!.configurations
print("machine-viz  \(effectMachine.states.count) states, \(effectModel.definitions.count) effects: \(configurations) configurations"
    + (explored!.complete ? "" : " (budget reached)")
    + String(format: " in %.3fs, %.0f configurations/s", exploreTime, Double(configurations) / exploreTime))

func which(_ name: String) -> String? {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}

func shell(_ tool: String, _ arguments: [String], in dir: URL) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.currentDirectoryURL = dir
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

if let spin = which("spin"), let cc = which("gcc") ?? which("cc") {
    let dir = base.appendingPathComponent("spin")
    try? FileManager.default.removeItem(at: dir)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try PromelaRenderer(model: effectModel).render().write(to: dir.appendingPathComponent("model.pml"), atomically: true, encoding: .utf8)
    _ = try shell(spin, ["-a", "model.pml"], in: dir)
    _ = try shell(cc, ["-O2", "-DBFS", "-DNOREDUCE", "-o", "pan", "pan.c"], in: dir)
    var output = ""
    let spinTime = best(of: 3) { output = (try? shell(dir.appendingPathComponent("pan").path, ["-E"], in: dir)) ?? "" }
    let stored = output.split(separator: "\n").first { $0.contains("states, stored") }
        .flatMap { Int($0.split(separator: " ").first ?? "") } ?? -1
    print(String(format: "SPIN         %d states stored in %.3fs, %.0f states/s", stored, spinTime, Double(stored) / spinTime)
        + (stored == configurations ? "" : "  (MISMATCH with machine-viz's count)"))
    print(String(format: "ratio        machine-viz / SPIN (states per second): %.2f",
                 (Double(configurations) / exploreTime) / (Double(stored) / spinTime)))
} else {
    print("SPIN         not installed (apt-get install -y spin): no comparison")
}
