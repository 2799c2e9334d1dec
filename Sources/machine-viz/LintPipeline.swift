import Foundation
import MachineAnalysis
import MachineConfiguration
import MachineExtraction
import MachineModel
import MachineRendering

/// `machine-viz lint` from paths to violations, in a fixed order:
/// 1. configuration (found or given), 2. read and extract, 3. per machine: initial and terminal
/// states from the configuration, analysis, disabled checks, ignored states and severities,
/// 4. inline suppressions, and unused ones reported, 5. baseline written and/or applied.
enum LintPipeline {
    struct Request {
        var paths: [String]
        var excluded: [String]
        var configPath: String?
        var baselinePath: String?
        var writeBaselinePath: String?
        /// From the command line; they win over the configuration.
        var maxEffectInstances: Int?
        var effectBudget: Int?
    }

    struct Outcome {
        var configuration: Configuration
        var violations: [Violation]
        var diagnostics: [Diagnostic]
        /// Things worth saying on stderr (unknown machine names in the configuration, baseline counts).
        var notes: [String]
        var readFiles: Int
    }

    /// Unusable input: a bad configuration or baseline. Exit status 2.
    struct Failure: Error {
        var message: String
    }

    static func loadConfiguration(_ path: String?) throws -> Configuration {
        guard let path = path ?? Configuration.find() else { return Configuration() }
        do {
            return try Configuration.load(path, knownChecks: Check.allCases.map(\.rawValue),
                                          knownReporters: ReporterKind.allCases.map(\.rawValue))
        } catch let error as ConfigurationError {
            throw Failure(message: error.description)
        }
    }

    static func run(_ request: Request) throws -> Outcome {
        let configuration = try loadConfiguration(request.configPath)
        var baseline: Baseline?
        if let path = request.baselinePath {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Failure(message: "\(path): error: cannot read the baseline file")
            }
            do { baseline = try Baseline.decode(data) } catch {
                throw Failure(message: "\(path): error: not a machine-viz baseline (JSON with `version` and `findings`): \(error)")
            }
        }
        let paths = !request.paths.isEmpty ? request.paths
            : !configuration.included.isEmpty ? configuration.included.map { configuration.resolve($0) } : ["."]
        let excluded = request.excluded + configuration.excluded.flatMap { [$0, configuration.resolve($0)] }.uniqued()

        let computed: Result<(ExtractionResult, [Violation], Int), Failure> = Pipeline.onLargeStack {
            let sources = SourceSet.load(paths: paths, excluding: excluded)
            let extracted = Extractor.extract(sources)
            let analyzer = Analyzer(
                bounds: EffectBounds(
                    maxInstances: request.maxEffectInstances ?? configuration.maxEffectInstances ?? EffectBounds.defaultMaxInstances,
                    budget: request.effectBudget ?? configuration.effectBudget ?? EffectBounds.defaultBudget),
                inputOverrides: configuration.machines.compactMapValues { settings in
                    settings.internal == nil && settings.external.isEmpty ? nil
                        : Analyzer.InputOverride(internal: settings.internal, external: settings.external)
                })
            var violations: [Violation] = []
            var notes: [Diagnostic] = []
            for extractedMachine in extracted.machines {
                let machine: Machine
                do {
                    let analysed = analyzer.analyzeReporting(try configuration.apply(to: extractedMachine))
                    machine = analysed.machine
                    notes += analysed.diagnostics
                } catch let error as ConfigurationError {
                    return .failure(Failure(message: error.description))
                } catch {
                    return .failure(Failure(message: "\(error)"))
                }
                for finding in configuration.filter(machine.findings, machine: machine.name) {
                    violations.append(Violation(machine: machine.name, finding: finding,
                                                fingerprint: Baseline.fingerprint(finding, machine: machine)))
                }
            }
            // struct states as the product of their machine fields: invariant violations
            let products: (explored: [Products.Explored], diagnostics: [Diagnostic])
            do { products = try Products.explore(extracted.products, configuration: configuration) } catch let failure as Failure {
                return .failure(failure)
            } catch {
                return .failure(Failure(message: "\(error)"))
            }
            for p in products.explored {
                for finding in configuration.filter(p.result.findings, machine: p.product.name) {
                    violations.append(Violation(machine: p.product.name, finding: finding,
                                                fingerprint: Baseline.fingerprint(finding, machine: p.result.machine)))
                }
            }
            var withProducts = extracted
            withProducts.diagnostics += notes + products.diagnostics
            return .success((withProducts, violations, sources.files.count))
        }
        let (extracted, analysed, readFiles) = try computed.get()

        let suppression = SuppressionFilter.apply(extracted.suppressions, to: analysed,
                                                  inactiveChecks: Set(configuration.disabledChecks))
        var violations = suppression.kept
        for finding in configuration.filter(suppression.unused, machine: nil) {
            violations.append(Violation(machine: nil, finding: finding))
        }
        // `lint` with no paths reads `.`: report `Sources/A.swift`, not `./Sources/A.swift`.
        for i in violations.indices { violations[i].finding.location.file = tidy(violations[i].finding.location.file) }
        violations = Violation.sorted(violations)

        var notes: [String] = []
        for name in configuration.unknownMachines(extracted.machines.map(\.name) + extracted.products.map(\.name)) {
            notes.append("\(configuration.file ?? Configuration.fileName): warning: no machine named '\(name)' was found in the checked files")
        }
        if let path = request.writeBaselinePath {
            do {
                try Output.atomicWrite(try Baseline(violations: violations).jsonData(), to: URL(fileURLWithPath: path))
            } catch {
                throw Failure(message: "\(path): error: cannot write the baseline: \(error.localizedDescription)")
            }
            notes.append("wrote \(violations.count) finding\(violations.count == 1 ? "" : "s") to the baseline \(path)")
        }
        if let baseline {
            let fresh = baseline.newViolations(in: violations)
            notes.append("baseline \(request.baselinePath!): \(violations.count - fresh.count) known finding\(violations.count - fresh.count == 1 ? "" : "s") left out, \(fresh.count) new")
            violations = fresh
        }
        let diagnostics = extracted.diagnostics.map { d -> Diagnostic in
            var d = d
            if let file = d.location?.file { d.location?.file = tidy(file) }
            return d
        }
        return Outcome(configuration: configuration, violations: violations, diagnostics: diagnostics,
                       notes: notes, readFiles: readFiles)
    }

    static func tidy(_ path: String) -> String {
        var p = path
        while p.hasPrefix("./") { p.removeFirst(2) }
        return p
    }
}
