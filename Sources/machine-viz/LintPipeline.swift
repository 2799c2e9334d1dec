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
        /// Without `configPath`: look for .machine-viz.yml in the working directory and its parents.
        var findConfiguration = true
        var baselinePath: String?
        var writeBaselinePath: String?
        var jobs: Int = Parallel.defaultJobs
        /// Where results of earlier runs are kept (see LintCache); nil: no cache.
        var cache: LintCache?
        /// `--only-check`: report only these checks (empty: all).
        var onlyChecks: [String] = []
        /// `--stdin-path`: read the source from standard input under this name.
        var stdinPath: String?
        var progress: TerminalProgress?
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
        var machines: Int
        /// Every path given (or the editor's `--stdin-path`) is excluded: nothing to lint, and no error.
        var excludedOnly = false
    }

    /// Unusable input: a bad configuration or baseline. Exit status 2.
    struct Failure: Error {
        var message: String
    }

    static func loadConfiguration(_ path: String?, find: Bool = true) throws -> Configuration {
        guard let path = path ?? (find ? Configuration.find() : nil) else { return Configuration() }
        do {
            return try Configuration.load(path, knownChecks: Check.allCases.map(\.rawValue),
                                          knownReporters: ReporterKind.allCases.map(\.rawValue))
        } catch let error as ConfigurationError {
            throw Failure(message: error.description)
        }
    }

    static func run(_ request: Request) throws -> Outcome {
        let configuration = try loadConfiguration(request.configPath, find: request.findConfiguration)
        let known = Check.allCases.map(\.rawValue)
        for id in request.onlyChecks where !known.contains(id) {
            throw Failure(message: "error: unknown check '\(id)' for --only-check; the checks are: \(known.joined(separator: ", "))")
        }
        // checks --only-check leaves out count as disabled: their suppressions are not "unused"
        let skipped = request.onlyChecks.isEmpty ? [] : known.filter { !request.onlyChecks.contains($0) }
        var baseline: Baseline?
        if let path = request.baselinePath {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Failure(message: "\(path): error: cannot read the baseline file")
            }
            do { baseline = try Baseline.decode(data) } catch {
                throw Failure(message: "\(path): error: not a machine-viz baseline (JSON with `version` and `findings`): \(Self.reason(error))")
            }
        }
        let paths = !request.paths.isEmpty ? request.paths
            : !configuration.included.isEmpty ? configuration.included.map { configuration.resolve($0) } : ["."]
        let excluded = request.excluded + configuration.excluded.flatMap { [$0, configuration.resolve($0)] }.uniqued()
        // files named that are all excluded (a pre-commit hook given generated files, an editor's buffer of
        // one): "never lint these, even when named"
        let named = request.stdinPath.map { [$0] } ?? request.paths
        if !named.isEmpty, named.allSatisfy({ path in excluded.contains { SourceSet.matches(path, $0) } }) {
            return Outcome(configuration: configuration, violations: [], diagnostics: [],
                           notes: ["note: \(named.joined(separator: ", ")) \(named.count == 1 ? "is" : "are") excluded (`excluded` in the configuration, or --exclude); nothing linted"],
                           readFiles: 0, machines: 0, excludedOnly: true)
        }

        var cacheKey: String?
        var cached: LintCache.Entry?
        // the cache is keyed by the files on disk: source from standard input is never cached
        if let cache = request.cache, request.stdinPath == nil {
            var ignored: [Diagnostic] = []
            let files = SourceSet.list(paths: paths, excluding: excluded, diagnostics: &ignored)
            let key = LintCache.key(files: files, configurationFile: configuration.file,
                                                    options: ["paths"] + paths + ["excluded"] + excluded
                                        + ["effects", "\(request.maxEffectInstances ?? -1)", "\(request.effectBudget ?? -1)"])
            cacheKey = key
            cached = cache.load(key)
        }
        let entry: LintCache.Entry
        if let cached {
            entry = cached
        } else {
            let computed: Result<LintCache.Entry, Failure> = Pipeline.onLargeStack {
                var timer = StageTimer()
                let sources = SourceSet.load(paths: paths, excluding: excluded, jobs: request.jobs, stdinPath: request.stdinPath,
                                             progress: request.progress?.fileCounter)
                timer.stage("read+parse+walk")
                request.progress?.update("checking machines in \(counted(sources.files.count, "file"))")
                let extracted = Extractor.extract(sources, jobs: request.jobs)
                timer = StageTimer()
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
                // struct states as the product of their machine fields: invariant violations, and the
                // field machines' races that depend on another field
                let products: (explored: [Products.Explored], diagnostics: [Diagnostic])
                do { products = try Products.explore(extracted.products, configuration: configuration, jobs: request.jobs) } catch let failure as Failure {
                    return .failure(failure)
                } catch {
                    return .failure(Failure(message: "\(error)"))
                }
                timer.stage("products")
                let productResults = products.explored.map(\.result)
                // each machine on its own (on `jobs` threads), results in machine order
                let analysedMachines = Parallel.map(extracted.machines, jobs: request.jobs) { extractedMachine in
                    Result<(machine: Machine, diagnostics: [Diagnostic]), Error> {
                        let configured = try configuration.apply(to: extractedMachine)
                        return analyzer.analyzeReporting(configured, product: ProductView.find(for: configured, in: productResults))
                    }
                }
                for analysedMachine in analysedMachines {
                    let machine: Machine
                    do {
                        let analysed = try analysedMachine.get()
                        machine = analysed.machine
                        notes += analysed.diagnostics
                    } catch let error as ConfigurationError {
                        return .failure(Failure(message: error.description))
                    } catch {
                        return .failure(Failure(message: "\(error)"))
                    }
                    for finding in configuration.filter(machine.findings, for: machine) {
                        violations.append(Violation(machine: machine.name, finding: finding,
                                                    fingerprint: Baseline.fingerprint(finding, machine: machine)))
                    }
                }
                for p in products.explored {
                    for finding in configuration.filter(p.result.findings, machine: p.product.name) {
                        violations.append(Violation(machine: p.product.name, finding: finding,
                                                    fingerprint: Baseline.fingerprint(finding, machine: p.result.machine)))
                    }
                }
                timer.stage("analysis")
                return .success(LintCache.Entry(violations: violations, suppressions: extracted.suppressions,
                                                diagnostics: extracted.diagnostics
                                                    + Analyzer.mergingRepeats(notes, machines: extracted.machines.map(\.name))
                                                    + products.diagnostics,
                                                machineNames: extracted.machines.flatMap { [$0.id, $0.name] } + extracted.products.map(\.name),
                                                readFiles: sources.files.count, machines: extracted.machines.count))
            }
            entry = try computed.get()
            if let cache = request.cache, let cacheKey { cache.store(entry, key: cacheKey) }
        }
        // the cached result holds every check; --only-check picks from it
        let analysed = entry.violations.filter { !skipped.contains($0.finding.check) }
        let readFiles = entry.readFiles

        let suppression = SuppressionFilter.apply(entry.suppressions, to: analysed,
                                                  inactiveChecks: Set(configuration.disabledChecks + skipped))
        var violations = suppression.kept
        for finding in configuration.filter(suppression.unused, machine: nil) where !skipped.contains(finding.check) {
            violations.append(Violation(machine: nil, finding: finding))
        }
        // `lint` with no paths reads `.`: report `Sources/A.swift`, not `./Sources/A.swift`.
        for i in violations.indices { violations[i].finding.location.file = tidy(violations[i].finding.location.file) }
        violations = Violation.sorted(violations)

        var notes: [String] = []
        for name in configuration.unknownMachines(entry.machineNames) {
            let closest = Render.closest(to: name, in: entry.machineNames).map { "; did you mean '\($0)'?" } ?? ""
            notes.append("\(configuration.file ?? Configuration.fileName): warning: no machine named '\(name)' was found in the checked files\(closest)")
        }
        if let path = request.writeBaselinePath {
            // an unwritable path is an output failure (CLIError.output, exit status 3), said in one line
            try Output.atomicWrite(try Baseline(violations: violations).jsonData(), to: URL(fileURLWithPath: path))
            notes.append("wrote \(counted(violations.count, "finding")) to the baseline \(path)")
        }
        if let baseline {
            let fresh = baseline.newViolations(in: violations)
            notes.append("baseline \(request.baselinePath!): \(counted(violations.count - fresh.count, "known finding")) left out, \(fresh.count) new")
            // entries of checks this run does not report cannot match: only the others can be stale
            let stale = baseline.staleEntries(in: violations).filter { !skipped.contains($0.check) && !configuration.disabledChecks.contains($0.check) }
            if !stale.isEmpty {
                let listed = stale.prefix(5).map { "\($0.machine.isEmpty ? "" : $0.machine + " ")\($0.check) \($0.subject)" }.joined(separator: "; ")
                notes.append("\(request.baselinePath!): warning: \(counted(stale.count, "baseline entry", "baseline entries")) no longer \(stale.count == 1 ? "matches" : "match") any finding (fixed or renamed): \(listed)\(stale.count > 5 ? "; …" : ""); write the baseline again (--write-baseline) to drop \(stale.count == 1 ? "it" : "them")")
            }
            violations = fresh
        }
        let diagnostics = entry.diagnostics.map { d -> Diagnostic in
            var d = d
            if let file = d.location?.file { d.location?.file = tidy(file) }
            return d
        }
        return Outcome(configuration: configuration, violations: violations, diagnostics: diagnostics,
                       notes: notes, readFiles: readFiles, machines: entry.machines)
    }

    /// Why a JSON file could not be decoded, in words (not Foundation's description of the error value).
    static func reason(_ error: Error) -> String {
        func at(_ path: [CodingKey]) -> String {
            path.isEmpty ? "" : " at `" + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + "`"
        }
        switch error as? DecodingError {
        case .dataCorrupted(let c)?: return c.codingPath.isEmpty ? "it is not valid JSON" : "a value\(at(c.codingPath)) cannot be read"
        case .keyNotFound(let key, let c)?: return "`\(key.stringValue)` is missing\(at(c.codingPath))"
        case .typeMismatch(let type, let c)?: return "expected \(type)\(at(c.codingPath))"
        case .valueNotFound(let type, let c)?: return "expected \(type)\(at(c.codingPath)), found null"
        default: return "\(error)"
        }
    }

    static func tidy(_ path: String) -> String {
        var p = path
        while p.hasPrefix("./") { p.removeFirst(2) }
        return p
    }
}
