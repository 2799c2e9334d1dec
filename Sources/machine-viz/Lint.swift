import ArgumentParser
import Foundation
import MachineModel

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Report findings as compiler-style warnings for editors and CI.",
        discussion: """
        Each finding is printed as `file:line:column: warning: message [check_id]`. Exit status: 0 when \
        clean, 1 when a finding has severity error (or, with --strict, any warning), 2 when the input \
        cannot be used.

        Example:
          machine-viz lint Sources/ --strict
        """)

    @OptionGroup var inputs: InputOptions

    @Flag(help: "Fail (exit 1) on warnings too.")
    var strict = false

    func run() throws {
        let result = Pipeline.run(inputs)
        var worst: Severity?
        for m in result.machines {
            for f in m.findings {
                let witness = f.witness.map { $0.isEmpty ? " (reached at start)" : " (reached by: \($0.joined(separator: " → ")))" } ?? ""
                print("\(f.location.file):\(f.location.line):\(f.location.column): \(f.severity.rawValue): \(m.name): \(f.message)\(witness) [\(f.check)]")
                worst = max(worst ?? f.severity, f.severity)
            }
        }
        for d in result.diagnostics { Output.stderr(Output.describe(d)) }
        if result.readFiles == 0 { throw ExitCode(2) }
        if worst == .error || (strict && worst == .warning) { throw ExitCode(1) }
    }
}
