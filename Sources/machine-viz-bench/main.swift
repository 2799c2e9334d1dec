import Foundation
import GraphvizRendering
import MachineAnalysis
import MachineExtraction
import MachineModel
import MachineRendering
import SwiftParser
import SwiftSyntax
#if canImport(Glibc)
import Glibc
#endif

/// Visits every node: the cost of one pass over a parsed code base.
final class CountingVisitor: SyntaxVisitor {
    var count = 0
    init() { super.init(viewMode: .sourceAccurate) }
    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        count += 1
        return .visitChildren
    }
}

// Benchmark of issue 10's six figures, from one run (release build: scripts/benchmark.sh):
// `machine-viz lint` on real folders against a parse-only baseline (this program in `--parse-only`
// mode: read, parse and walk every file once, one thread), each measured as a child process in the
// same run; 1 vs 2 jobs; cold vs warm cache; growth for N vs 10N files; peak RSS; and the layout of a
// 200-state / 600-transition machine. See docs/benchmark.md.

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

/// CPU time of this process (not wall time): the figure stays right on a loaded machine.
func cpuTime(_ body: () -> Void) -> Double {
    var a = timespec(), b = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a)
    body()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b)
    return Double(b.tv_sec - a.tv_sec) + Double(b.tv_nsec - a.tv_nsec) / 1e9
}

func bestCPU(of n: Int, _ body: () -> Void) -> Double { (0..<n).map { _ in cpuTime(body) }.min()! }

/// `machine-viz-bench depth`: parse time of one file holding a literal nested N brackets deep, for the
/// shapes that nest `[` (array literals, dictionary literals, array types, subscripts), and of a
/// literal blanked the way `SourceSet` blanks a too-deep region (12 brackets around 6000 blanks), to
/// choose `SourceSet.maximumBracketDepth`. CPU time, best of 3. Stops a shape once a depth takes 4 s.
if CommandLine.arguments.dropFirst().first == "depth" {
    let shapes: [(String, (Int) -> String)] = [
        ("array literal", { n in "let x = " + String(repeating: "[", count: n) + "1" + String(repeating: "]", count: n) + "\n" }),
        ("dictionary literal", { n in "let x = " + String(repeating: "[\"k\": ", count: n) + "1" + String(repeating: "]", count: n) + "\n" }),
        ("array type", { n in "let x: " + String(repeating: "[", count: n) + "Int" + String(repeating: "]", count: n) + " = []\n" }),
        ("subscripts", { n in "let x = a" + String(repeating: "[b", count: n) + String(repeating: "]", count: n) + "\n" }),
    ]
    for (label, blanks) in [("12 deep around 100 blanks", 100), ("12 deep around 6000 blanks", 6000), ("8 deep around 6000 blanks", -6000)] {
        let n = blanks < 0 ? 8 : 12
        let source = "let x = " + String(repeating: "[", count: n) + String(repeating: " ", count: abs(blanks)) + String(repeating: "]", count: n) + "\n"
        print(String(format: "%@: %.4fs", label, bestCPU(of: 3) { _ = Parser.parse(source: source) }))
    }
    print("depth  " + shapes.map { $0.0.padding(toLength: 20, withPad: " ", startingAt: 0) }.joined())
    var stopped = Set<String>()
    for n in stride(from: 4, through: 40, by: 2) {
        var row = String(format: "%5d  ", n)
        for (name, make) in shapes {
            if stopped.contains(name) { row += "-".padding(toLength: 20, withPad: " ", startingAt: 0); continue }
            let source = "struct S {}\n" + make(n)
            let t = bestCPU(of: 3) { _ = Parser.parse(source: source) }
            if t > 4 { stopped.insert(name) }
            row += String(format: "%.4fs", t).padding(toLength: 20, withPad: " ", startingAt: 0)
        }
        print(row)
        if stopped.count == shapes.count { break }
    }
    exit(0)
}

// MARK: Child processes

struct ChildRun {
    var seconds: Double
    var maxRSSMiB: Double
    var status: Int32
    /// User + system CPU time: on a shared, busy machine far steadier than wall time for one thread.
    var cpuSeconds: Double = .infinity
}

/// Runs a program with stdout and stderr to /dev/null; wall time and peak resident memory (wait4).
func runChild(_ arguments: [String]) -> ChildRun {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for a in argv { free(a) } }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else {
        fatalError("cannot start \(arguments[0])")
    }
    var status: Int32 = 0
    var usage = rusage()
    _ = wait4(pid, &status, 0, &usage)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    return ChildRun(seconds: seconds, maxRSSMiB: Double(usage.ru_maxrss) / 1024, status: (status >> 8) & 0xff, cpuSeconds: cpu)
}

/// Best wall time of `n` runs, and the largest peak RSS seen.
func bestChild(of n: Int, _ arguments: [String]) -> ChildRun {
    var best = ChildRun(seconds: .infinity, maxRSSMiB: 0, status: 0)
    for _ in 0..<n {
        let run = runChild(arguments)
        if run.status > 1 { FileHandle.standardError.write(Data("exit \(run.status): \(arguments.prefix(6).joined(separator: " ")) …\n".utf8)) }
        best = ChildRun(seconds: min(best.seconds, run.seconds), maxRSSMiB: max(best.maxRSSMiB, run.maxRSSMiB), status: max(best.status, run.status),
                        cpuSeconds: min(best.cpuSeconds, run.cpuSeconds))
    }
    return best
}

// MARK: Parse-only mode (the baseline, run as a child like lint)

let arguments = Array(CommandLine.arguments.dropFirst())
// the same allocator settings as the tool, so the baseline is not slowed by what lint is spared
ProcessTuning.growHeapsInLargeSteps()
if arguments.first == "--parse-only" {
    var ignored: [Diagnostic] = []
    let files = SourceSet.list(paths: Array(arguments.dropFirst()), diagnostics: &ignored)
    var count = 0
    for path in files {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { continue }
        let visitor = CountingVisitor()
        visitor.walk(Parser.parse(source: text))
        count += visitor.count
    }
    print(count)
    exit(0)
}

// MARK: Options

var repeats = 3
var folders: [String] = []
var examples = "examples"
var layoutOnly = false
do {
    var i = 0
    while i < arguments.count {
        switch arguments[i] {
        case "--repeat": i += 1; repeats = Int(arguments[i]) ?? 3
        case "--examples": i += 1; examples = arguments[i]
        case "--layout-only": layoutOnly = true
        case "-h", "--help":
            print("usage: machine-viz-bench [--repeat N] [--examples DIR] [--layout-only] [FOLDER…]")
            exit(0)
        default: folders.append(arguments[i])
        }
        i += 1
    }
}

let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
let tool = executable.deletingLastPathComponent().appendingPathComponent("machine-viz").path
let bench = executable.path
guard layoutOnly || FileManager.default.isExecutableFile(atPath: tool) else {
    print("machine-viz not found beside the benchmark (\(tool)): swift build -c release")
    exit(2)
}
let base = FileManager.default.temporaryDirectory.appendingPathComponent("machine-viz-bench-\(getpid())")
try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)

@MainActor func lint(_ paths: [String], _ options: [String]) -> [String] {
    [tool, "lint", "-q", "--reporter", "json", "-o", "/dev/null"] + options + paths
}

struct Goal {
    var name: String
    var figure: String
    var met: Bool
}
var goals: [Goal] = []
@MainActor func goal(_ name: String, _ figure: String, _ met: Bool) {
    goals.append(Goal(name: name, figure: figure, met: met))
}

print("machine-viz benchmark: best of \(repeats), every figure a ratio of runs in this process's lifetime; \(ProcessInfo.processInfo.activeProcessorCount) cores")

// MARK: 1–3, 6: per folder

if !layoutOnly {
    if folders.isEmpty {
        let generated = base.appendingPathComponent("generated400")
        try generateCorpus(files: 400, into: generated)
        folders = [generated.path]
    }
    print("\ncorpus                                   files  MiB   parse-only  lint -j1  ratio  lint -j2  speed-up  cold     warm     cold/warm  peak RSS")
    for folder in folders {
        var ignored: [Diagnostic] = []
        let files = SourceSet.list(paths: [folder], diagnostics: &ignored)
        let bytes = files.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) }
        let parse = bestChild(of: repeats, [bench, "--parse-only", folder])
        let one = bestChild(of: repeats, lint([folder], ["--jobs", "1", "--no-cache"]))
        let two = bestChild(of: repeats, lint([folder], ["--jobs", "2", "--no-cache"]))
        let cache = base.appendingPathComponent("cache").path
        var cold = ChildRun(seconds: .infinity, maxRSSMiB: 0, status: 0)
        var warm = cold
        for _ in 0..<repeats {
            try? FileManager.default.removeItem(atPath: cache)
            let c = runChild(lint([folder], ["--cache-path", cache]))
            let w = runChild(lint([folder], ["--cache-path", cache]))
            cold = ChildRun(seconds: min(cold.seconds, c.seconds), maxRSSMiB: max(cold.maxRSSMiB, c.maxRSSMiB), status: c.status)
            warm = ChildRun(seconds: min(warm.seconds, w.seconds), maxRSSMiB: max(warm.maxRSSMiB, w.maxRSSMiB), status: w.status)
        }
        let rss = max(one.maxRSSMiB, two.maxRSSMiB, cold.maxRSSMiB)
        let name = URL(fileURLWithPath: folder).lastPathComponent
        print(name.prefix(40).padding(toLength: 40, withPad: " ", startingAt: 0) + String(format: " %5d  %4.1f  %8.3fs  %7.3fs  %5.2f  %7.3fs  %7.2f×  %6.3fs  %6.3fs  %8.1f×  %6.0f MiB",
                     files.count, Double(bytes) / 1048576, parse.seconds, one.seconds,
                     one.seconds / parse.seconds, two.seconds, one.seconds / two.seconds, cold.seconds, warm.seconds,
                     cold.seconds / warm.seconds, rss))
        print(String(format: "  single core by CPU time (user+sys): parse-only %.3fs, lint -j1 %.3fs: ratio %.2f", parse.cpuSeconds, one.cpuSeconds,
                     one.cpuSeconds / parse.cpuSeconds))
        goal("1 single core, \(name)", String(format: "lint -j1 / parse-only = %.2f by wall time, %.2f by CPU time (goal ≤ 1.5)",
                                                 one.seconds / parse.seconds, one.cpuSeconds / parse.cpuSeconds),
             max(one.seconds / parse.seconds, one.cpuSeconds / parse.cpuSeconds) <= 1.5)
        goal("2 two jobs, \(name)", String(format: "-j1 / -j2 = %.2f (goal ≥ 1.6)", one.seconds / two.seconds), one.seconds / two.seconds >= 1.6)
        goal("3 warm cache, \(name)", String(format: "cold / warm = %.1f (goal ≥ 10)", cold.seconds / warm.seconds), cold.seconds / warm.seconds >= 10)
        goal("6 memory, \(name)", String(format: "peak RSS %.0f MiB (goal ≤ 300 MB)", rss), rss * 1.048576 <= 300)

        // 5: growth on real code, a tenth of the files (every tenth by path) against all of them
        if files.count >= 20 {
            let tenth = stride(from: 0, to: files.count, by: 10).map { files[$0] }
            let small = bestChild(of: repeats, lint(tenth, ["--jobs", "1", "--no-cache"]))
            let large = bestChild(of: repeats, lint(files, ["--jobs", "1", "--no-cache"]))
            print(String(format: "  growth: %d files %.3fs, %d files %.3fs: %.2f× the time for %.1f× the files",
                         tenth.count, small.seconds, files.count, large.seconds, large.seconds / small.seconds, Double(files.count) / Double(tenth.count)))
            goal("5 growth, \(name)", String(format: "%.1f× files cost %.2f× time (goal ≤ 11× for 10×)", Double(files.count) / Double(tenth.count), large.seconds / small.seconds),
                 large.seconds / small.seconds <= 1.1 * Double(files.count) / Double(tenth.count))
        }
    }

    // 5: growth where every feature reuses the same type names: copies of the bundled examples
    var ignored: [Diagnostic] = []
    let exampleFiles = SourceSet.list(paths: [examples], diagnostics: &ignored)
    if exampleFiles.isEmpty {
        print("\nno examples at \(examples) (--examples DIR): growth on copies skipped")
    } else {
        func copies(_ n: Int) throws -> String {
            let dir = base.appendingPathComponent("copies\(n)")
            for k in 0..<n {
                let target = dir.appendingPathComponent("copy\(k)")
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
                for (j, file) in exampleFiles.enumerated() {
                    try FileManager.default.copyItem(atPath: file, toPath: target.appendingPathComponent("\(j)-" + URL(fileURLWithPath: file).lastPathComponent).path)
                }
            }
            return dir.path
        }
        let small = bestChild(of: repeats, lint([try copies(5)], ["--jobs", "1", "--no-cache"]))
        let large = bestChild(of: repeats, lint([try copies(50)], ["--jobs", "1", "--no-cache"]))
        print("\ngrowth on copies of \(examples) (same type names in every copy): " + String(format: "%d files %.3fs, %d files %.3fs: %.2f× the time for 10× the files",
                     5 * exampleFiles.count, small.seconds, 50 * exampleFiles.count, large.seconds, large.seconds / small.seconds))
        goal("5 growth, copies of examples", String(format: "10× files cost %.2f× time (goal ≤ 11)", large.seconds / small.seconds), large.seconds / small.seconds <= 11)
    }
}

// MARK: 4: layout

print("\nlayout (DOT text + libgvc layout and SVG, random machines, in this process)")
print("states/transitions  drawn edges  dot-text  svg      engine")
let renderer = DOTRenderer()
for (n, m) in [(50, 150), (100, 300), (200, 600)] {
    let machine = randomMachine(states: n, transitions: m, seed: UInt64(n))
    var dot = ""
    let text = best(of: repeats) { dot = renderer.render(machine) }
    var engine = "?"
    let svg = best(of: n == 200 ? repeats : 1) {
        // the budget `machine-viz render` gives dot by default (--layout-budget)
        engine = (try? Graphviz.layout(dot: dot, format: .svg, budget: 1.5).engine) ?? "failed"
    }
    print(String(format: "%7d/%-10d  %11d  %7.3fs  %6.2fs  ", n, m, renderer.drawnEdgeCount(machine), text, svg) + engine)
    if n == 200 { goal("4 layout 200/600", String(format: "%.2fs with ", svg) + engine + " (goal ≤ 2 s)", svg <= 2) }
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

if let spin = Spin.spin, let cc = Spin.cc {
    let dir = base.appendingPathComponent("spin")
    try? FileManager.default.removeItem(at: dir)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try PromelaRenderer(model: effectModel).render().write(to: dir.appendingPathComponent("model.pml"), atomically: true, encoding: .utf8)
    try Spin.run(spin, ["-a", "model.pml"], in: dir)
    try Spin.run(cc, ["-O2", "-DBFS", "-DNOREDUCE", "-o", "pan", "pan.c"], in: dir)
    var output = ""
    let spinTime = best(of: 3) { output = (try? Spin.run(dir.appendingPathComponent("pan").path, ["-E"], in: dir)) ?? "" }
    let stored = Spin.statesStored(in: output) ?? -1
    print(String(format: "SPIN         %d states stored in %.3fs, %.0f states/s", stored, spinTime, Double(stored) / spinTime)
        + (stored == configurations ? "" : "  (MISMATCH with machine-viz's count)"))
    print(String(format: "ratio        machine-viz / SPIN (states per second): %.2f",
                 (Double(configurations) / exploreTime) / (Double(stored) / spinTime)))
} else {
    print("SPIN         not installed (apt-get install -y spin): no comparison")
}
print("\ngoals")
for g in goals { print("  \(g.met ? "met    " : "NOT MET") \(g.name): \(g.figure)") }
try? FileManager.default.removeItem(at: base)
