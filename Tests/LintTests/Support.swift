import Foundation
import MachineAnalysis
import MachineExtraction
import MachineModel

/// Runs Swift source through the real extractor, analyser and suppression filter, as `lint` does
/// without a configuration.
enum LintHarness {
    struct Run {
        var machines: [Machine]
        var violations: [Violation]
        var suppressed: [Violation]
        var diagnostics: [Diagnostic]
    }

    static func lint(_ source: String, name: String = "Example.swift") throws -> Run {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mv-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent(name)
        try source.write(to: url, atomically: true, encoding: .utf8)
        let extracted = Extractor.extract(paths: [url.path])
        let machines = extracted.machines.map(Analyzer().analyze)
        // struct states explored as products, with the invariants stated in the code
        let products = extracted.products.map { p in
            ProductExplorer().explore(p, invariants: p.invariants.compactMap { try? Invariant($0) }).machine
        }
        let violations = (machines + products).flatMap { m in
            m.findings.map { Violation(machine: m.name, finding: $0, fingerprint: Baseline.fingerprint($0, machine: m)) }
        }
        let outcome = SuppressionFilter.apply(extracted.suppressions, to: violations)
        let kept = outcome.kept + outcome.unused.map { Violation(machine: nil, finding: $0) }
        return Run(machines: machines, violations: Violation.sorted(kept), suppressed: outcome.suppressed,
                   diagnostics: extracted.diagnostics)
    }

    /// Source without `↓` markers, and the (line, column) of each marker.
    static func markers(_ example: String) -> (source: String, positions: [Position]) {
        var positions: [Position] = []
        var source = ""
        var line = 1, column = 1
        for c in example {
            if c == CheckDescription.marker {
                positions.append(Position(line: line, column: column))
                continue
            }
            source.append(c)
            if c == "\n" { line += 1; column = 1 } else { column += c.utf8.count }
        }
        return (source, positions)
    }

    struct Position: Hashable, CustomStringConvertible {
        var line: Int
        var column: Int
        var description: String { "\(line):\(column)" }
    }
}
