import ArgumentParser
import Foundation
import MachineAnalysis
import MachineModel
import MachineRendering

struct Paths: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List shortest input sequences that together take every transition, or write them as XCTest skeletons.",
        discussion: """
        For each machine, every transition that changes something (no-op self-loops are left out) is \
        taken by some sequence: in edge order, each transition not yet taken adds the shortest path from \
        the initial state to its source, then the transition. Each sequence starts from the initial state. \
        Steps whose input only the machine's effects send are marked ⇠. Transitions whose source cannot be \
        reached are listed as not covered.

        --format xctest writes test skeletons in the machine's own framework: TCA TestStore \
        (`await store.send(.x) { $0.field = … }`, `await store.receive(\\.y)` for inputs sent back by \
        effects), Actomaton (`await actomaton.send(.x)` and a state assertion), Harvest (send into the \
        input subject, assert `automaton.state`), other dialects a comment per step and an XCTAssertEqual. \
        The skeletons are valid Swift syntax with editor placeholders (<#…#>) for what the code does not \
        say; they are not compiled here (that needs the framework).

        Examples:
          machine-viz paths Sources/
          machine-viz paths Sources/ --machine lock --format xctest -o Tests/LockPathTests.swift
          machine-viz paths Sources/ --format xctest --output-dir Tests/Paths/
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, xctest
    }

    @OptionGroup var inputs: InputOptions

    @Option(help: "Only the machine with this name (see `machine-viz list`).")
    var machine: String?

    @Option(help: "Output format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: Format = .text

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write to this file.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("With --format xctest: write one NAMEPathTests.swift per machine into this folder.", valueName: "dir"))
    var outputDir: String?

    @Flag(name: [.short, .long], help: "No progress on stderr (it is only ever shown on a terminal).")
    var quiet = false

    func validate() throws {
        if output != nil && outputDir != nil { throw ValidationError("Give either -o/--output or --output-dir, not both.") }
        if outputDir != nil && format != .xctest { throw ValidationError("--output-dir writes test files: use it with --format xctest.") }
    }

    struct MachinePaths: Encodable {
        var machine: String
        var initial: String?
        var sequences: [[TraceStep]]
        var uncovered: [Edge]
    }

    func run() throws {
        let machines = try Pipeline.select(try Pipeline.scan(inputs, quiet: quiet).machines, named: machine)
        let covers = machines.map { TransitionCover(machine: $0) }
        for m in machines where m.initial == nil {
            Output.stderr("note: \(m.name): no initial state in the code (mark one with `// machine-viz: initial`); no sequence")
        }
        switch format {
        case .text:
            var lines: [String] = []
            for (m, cover) in zip(machines, covers) {
                lines.append("\(m.name) (\(m.dialect)): \(cover.sequences.count) sequence\(cover.sequences.count == 1 ? "" : "s") take \(cover.covered) transition\(cover.covered == 1 ? "" : "s")")
                for (n, s) in cover.sequences.enumerated() {
                    lines.append("  \(n + 1). " + s.steps.map { ($0.by == .effect ? "⇠ " : "") + $0.readable }.joined(separator: " → ")
                                 + "   (ends in \(s.steps.last?.state ?? m.initial ?? "?"))")
                }
                for i in cover.unreachable {
                    let e = m.edges[i]
                    lines.append("  not covered (source unreachable): \(e.from) --\(e.trigger)--> \(e.to)")
                }
            }
            try Output.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: output)
        case .json:
            let doc = zip(machines, covers).map { m, cover in
                MachinePaths(machine: m.name, initial: m.initial, sequences: cover.sequences.map(\.steps),
                             uncovered: cover.unreachable.map { m.edges[$0] })
            }
            try Output.write(try StableJSON.data(doc), to: output)
        case .xctest:
            let writer = TestSkeletonWriter()
            if let dir = outputDir {
                var files: [(String, Data)] = []
                for (m, cover) in zip(machines, covers) {
                    files.append((Render.fileName(TestSkeletonWriter.typeName(m.name) + "PathTests", "swift"), Data(writer.write(m, cover: cover).utf8)))
                }
                try Output.createFolder(dir)
                for (name, data) in files { try Output.atomicWrite(data, to: URL(fileURLWithPath: dir).appendingPathComponent(name)) }
            } else {
                guard machines.count == 1 else {
                    throw CLIError.usage("\(machines.count) machines found (\(machines.map(\.name).joined(separator: ", "))): choose one with --machine NAME or write them all with --output-dir DIR.")
                }
                try Output.write(Data(writer.write(machines[0], cover: covers[0]).utf8), to: output)
            }
        }
    }
}
