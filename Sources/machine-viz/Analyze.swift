import ArgumentParser
import Foundation
import MachineAnalysis
import MachineModel

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Extract and check every machine; print one JSON document (or a text summary).",
        discussion: """
        The JSON document (schemaVersion 2) lists each machine with its states, inputs, initial state, \
        rules, edges and findings, plus diagnostics for what could not be read or extracted. It is \
        written even when an input is unreadable. The text format numbers each machine's findings: \
        `render --finding N` draws the trace of the N-th. Exit status: 0 when no finding has severity error, \
        1 when one does, 2 when no input could be read (docs/cli.md lists every status).

        Example:
          machine-viz analyze Sources/ > machines.json
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, text
    }

    @OptionGroup var inputs: InputOptions
    @OptionGroup var effects: EffectOptions

    @Option(help: "Output format: json (the contract of docs/json.md) or text.")
    var format: Format = .json

    @Flag(help: "Add `candidates` to the JSON document: everything shaped like a machine and what became of it (as `list --explain`).")
    var explain = false

    @Flag(name: [.short, .long], help: "No progress on stderr (it is only ever shown on a terminal).")
    var quiet = false

    func run() throws {
        try CLIError.requireExisting(inputs.paths)
        let progress = TerminalProgress(quiet: quiet)
        let result = progress.during("analyzing \(inputs.described)") { Pipeline.run(inputs, progress: progress, bounds: effects.bounds()) }
        var document = AnalysisDocument(machines: result.machines, diagnostics: result.diagnostics)
        if explain { document.candidates = result.candidates }
        switch format {
        case .json:
            FileHandle.standardOutput.write(try document.jsonData())
        case .text:
            var lines: [String] = []
            for m in result.machines {
                lines.append("\(m.name) (\(m.dialect)) \(m.location)")
                lines.append("  states: \(m.states.joined(separator: ", "))")
                lines.append("  inputs: \(m.inputs.joined(separator: ", "))")
                lines.append("  initial: \(m.initial ?? "(not in the code)")")
                // numbered per machine: `render --finding N` draws the trace of the N-th
                for (n, f) in m.findings.enumerated() {
                    let witness = f.triggers.map { " (witness: \($0.isEmpty ? "initial state" : $0.joined(separator: " → ")))" } ?? ""
                    lines.append("  \(n + 1). \(f.severity.rawValue) [\(f.check)] \(f.message)\(witness)")
                }
            }
            lines += result.diagnostics.map(Output.describe)
            print(lines.joined(separator: "\n"))
        }
        try result.requireInput(inputs)
        if result.machines.contains(where: { $0.findings.contains { $0.severity == .error } }) { throw ExitCode(ExitStatus.failed) }
    }
}
