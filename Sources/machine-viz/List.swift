import ArgumentParser
import Foundation

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the machines found: name, dialect, size and where they are declared.",
        discussion: """
        Example:
          machine-viz list Sources/
        """)

    @OptionGroup var inputs: InputOptions

    @Flag(name: [.short, .long], help: "No progress on stderr (it is only ever shown on a terminal).")
    var quiet = false

    func run() throws {
        let progress = TerminalProgress(quiet: quiet)
        let result = progress.during("scanning \(inputs.described)") { Pipeline.run(inputs, progress: progress) }
        for m in result.machines {
            print("\(m.name)\t\(m.dialect)\t\(Output.count(m.states.count, "state")), \(Output.count(m.inputs.count, "input")), \(Output.count(m.rules.count, "rule"))\t\(m.location)")
        }
        for d in result.diagnostics { Output.stderr(Output.describe(d)) }
        try result.requireInput(inputs)
    }
}
