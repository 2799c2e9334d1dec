import ArgumentParser
import Foundation
import MachineModel

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the machines found: name, dialect, size and where they are declared.",
        discussion: """
        With --explain, list every candidate instead: everything shaped like a machine (a @Reducer type, \
        a Reduce { } closure, a construction of a machine type, an operator table, a dictionary keyed by \
        state and event, a switch over a stored enum property the type assigns), where it is, and what \
        became of it: the machines read from it, or why none was.

        Examples:
          machine-viz list Sources/
          machine-viz list Sources/ --explain
          machine-viz list Sources/ --explain --format json
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var inputs: InputOptions

    @Flag(help: "List every candidate (shape, location, outcome and reason) instead of the machines.")
    var explain = false

    @Option(help: "text (tab-separated lines) or json (machines or candidates as one JSON document).")
    var format: Format = .text

    @Flag(name: [.short, .long], help: "No progress on stderr (it is only ever shown on a terminal).")
    var quiet = false

    struct MachineSummary: Codable {
        var id: String
        var name: String
        var dialect: Dialect
        var states: Int
        var inputs: Int
        var rules: Int
        var partial: Bool
        var location: SourceLocation
    }

    struct Document: Codable {
        var machines: [MachineSummary]?
        var candidates: [Candidate]?
    }

    func run() throws {
        try CLIError.requireExisting(inputs.paths)
        let progress = TerminalProgress(quiet: quiet)
        let result = progress.during("scanning \(inputs.described)") { Pipeline.run(inputs, progress: progress) }
        switch (explain, format) {
        case (false, .text):
            for m in result.machines {
                let partial = m.partial ? " (partial)" : ""
                print("\(m.name)\t\(m.dialect)\t\(Output.count(m.states.count, "state")), \(Output.count(m.inputs.count, "input")), \(Output.count(m.rules.count, "rule"))\(partial)\t\(m.location)")
            }
        case (true, .text):
            for c in result.candidates {
                let outcome = c.outcome == .machine ? "machine \(c.machines.joined(separator: ", "))" : "no machine: \(c.reason ?? "")"
                print("\(c.location)\t\(c.shape)\t\(c.name)\t\(outcome)")
            }
        case (_, .json):
            let machines = result.machines.map {
                MachineSummary(id: $0.id, name: $0.name, dialect: $0.dialect, states: $0.states.count, inputs: $0.inputs.count,
                               rules: $0.rules.count, partial: $0.partial, location: $0.location)
            }
            let document = explain ? Document(machines: nil, candidates: result.candidates) : Document(machines: machines, candidates: nil)
            try Output.write(StableJSON.data(document), to: nil)
        }
        Output.stderr(lines: result.diagnostics.map(Output.describe))
        try result.requireInput(inputs)
    }
}
