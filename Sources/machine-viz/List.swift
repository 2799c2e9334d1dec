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
        let result = TerminalProgress(quiet: quiet).during("scanning \(inputs.paths.joined(separator: " "))") { Pipeline.run(inputs) }
        for m in result.machines {
            print("\(m.name)\t\(m.dialect)\t\(m.states.count) states, \(m.inputs.count) inputs, \(m.rules.count) rules\t\(m.location)")
        }
        for d in result.diagnostics { Output.stderr(Output.describe(d)) }
        if result.readFiles == 0 { throw ExitCode(2) }
    }
}
