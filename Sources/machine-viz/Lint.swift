import ArgumentParser
import Foundation
import MachineAnalysis
import MachineConfiguration
import MachineModel
import MachineRendering

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check machines and report findings for editors and CI (xcode, json, sarif, github-actions, checkstyle, markdown, junit, gitlab).",
        discussion: """
        Settings come from .machine-viz.yml in the working directory or the nearest parent folder \
        (or --config FILE): included/excluded paths, disabled checks, severity per check, per \
        machine the initial state, terminal states and ignored states, and invariants of struct states \
        (checked on the product of their machine fields; product_budget bounds it). See docs/configuration.md.

        Comments in Swift code suppress findings: `// machine-viz:disable:next CHECK - reason` (the \
        next line of code), `// machine-viz:disable:this CHECK`, `// machine-viz:disable:previous CHECK`, \
        `// machine-viz:disable CHECK` (the whole file). A suppression that suppresses nothing is \
        reported as unused_suppression. `// machine-viz: terminal` and `// machine-viz: initial` on an \
        enum case mark a terminal or the initial state; `// machine-viz: invariant EXPR` in a struct \
        state states an invariant of its fields.

        Exit status: 0 when clean; 1 when a finding has severity error (with --strict, also warning); \
        2 when the input, the configuration or the baseline cannot be used; 3 when the report or the \
        baseline cannot be written. A baseline entry that no longer matches any finding is reported \
        as a warning on stderr (write the baseline again to drop it).

        Examples:
          machine-viz lint
          machine-viz lint Sources/ --strict
          machine-viz lint --reporter github-actions
          machine-viz lint --reporter sarif --output machine-viz.sarif
          machine-viz lint --write-baseline .machine-viz-baseline.json
          machine-viz lint --baseline .machine-viz-baseline.json --strict
          machine-viz lint --only-check dead_end_state --only-check unreachable_state
          machine-viz lint --stdin-path Sources/Door.swift < Sources/Door.swift
          machine-viz lint --reporter junit -o machine-viz-junit.xml
          machine-viz lint --reporter gitlab -o gl-code-quality-report.json
        """)

    @Argument(help: ArgumentHelp("Swift files or folders to check (default: `included` from the configuration, else the current folder).",
                                 valueName: "path"))
    var paths: [String] = []

    @Option(name: .customLong("exclude"), help: ArgumentHelp("A path to leave out, added to the configuration's `excluded` (repeatable).", valueName: "path"))
    var excluded: [String] = []

    /// Set by the command plugin (see `InputOptions.defaultPaths`): read when no path is given.
    @Option(name: .customLong("default-path"), help: .private)
    var defaultPaths: [String] = []

    @Option(help: ArgumentHelp(
        "Output format: \(ReporterKind.allCases.map(\.rawValue).joined(separator: ", ")) (default: `reporter` from the configuration, else xcode).",
        discussion: ReporterKind.allCases.map { "\($0.rawValue): \($0.summary)" }.joined(separator: "\n"),
        valueName: "name"))
    var reporter: String?

    @Option(help: ArgumentHelp("Read settings from this YAML file instead of looking for .machine-viz.yml in the current folder and its parents.",
                               valueName: "file"))
    var config: String?

    @Flag(help: "Fail (exit 1) on warnings too, not only on errors. Also set by `strict: true` in the configuration.")
    var strict = false

    @Option(help: ArgumentHelp("Report only findings that are not in this baseline file (written by --write-baseline). Findings are matched by machine, check and subject, not by line.",
                               valueName: "file"))
    var baseline: String?

    @Option(help: ArgumentHelp("Write every current finding to this baseline file (JSON), then report as usual. Commit it and pass it to --baseline to fail only on new findings.",
                               valueName: "file"))
    var writeBaseline: String?

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the report to this file instead of stdout.", valueName: "file"))
    var output: String?

    @Option(name: .customLong("only-check"), help: ArgumentHelp("Report only this check (repeatable), e.g. --only-check dead_end_state.",
                                                                valueName: "id"))
    var onlyChecks: [String] = []

    @Option(help: ArgumentHelp("Read the Swift source from standard input and report it under this path (for editors); no other path is read.",
                               valueName: "path"))
    var stdinPath: String?

    @Flag(name: [.short, .long], help: "No progress on stderr (it is only ever shown on a terminal).")
    var quiet = false

    @OptionGroup var performance: PerformanceOptions

    @OptionGroup var effects: EffectOptions

    @Option(help: ArgumentHelp("Keep results in this folder: a second lint of unchanged files, configuration and tool reads them instead of parsing (default: .build/machine-viz-cache when the current folder has a .build folder).",
                               valueName: "folder"))
    var cachePath: String?

    @Flag(help: "Do not read or write the result cache.")
    var noCache = false

    func validate() throws {
        if !paths.isEmpty && stdinPath != nil { throw ValidationError("--stdin-path reads standard input: give no other path.") }
    }

    func run() throws {
        try CLIError.requireExisting(paths)
        // Checked here rather than by ArgumentParser so that a bad value exits 2, like a bad configuration.
        if let reporter, ReporterKind(rawValue: reporter) == nil {
            Output.stderr("error: unknown reporter '\(reporter)'; expected one of: \(ReporterKind.allCases.map(\.rawValue).joined(separator: ", "))")
            throw ExitCode(ExitStatus.usage)
        }
        let outcome: LintPipeline.Outcome
        let progress = TerminalProgress(quiet: quiet)
        do {
            outcome = try progress.during("checking \(stdinPath ?? (paths.isEmpty ? "." : paths.joined(separator: " ")))") {
                try LintPipeline.run(LintPipeline.Request(
                    paths: paths.isEmpty ? defaultPaths : paths, excluded: excluded, configPath: config, baselinePath: baseline, writeBaselinePath: writeBaseline,
                    jobs: performance.resolvedJobs, cache: LintCache.resolve(path: cachePath, disabled: noCache),
                    onlyChecks: onlyChecks, stdinPath: stdinPath, progress: progress,
                    maxEffectInstances: effects.maxEffectInstances, effectBudget: effects.effectBudget))
            }
        } catch let error as LintPipeline.Failure {
            Output.stderr(error.message)
            throw ExitCode(ExitStatus.usage)
        }
        Output.stderr(lines: outcome.notes + outcome.diagnostics.map(Output.describe))
        let kind = reporter.flatMap(ReporterKind.init) ?? outcome.configuration.reporter.flatMap(ReporterKind.init) ?? .xcode
        let report = LintReport(violations: outcome.violations, toolVersion: MachineViz.configuration.version)
        try Output.write(Data(kind.generate(report).utf8), to: output)
        if outcome.readFiles == 0, !outcome.excludedOnly { throw CLIError.noInput(stdinPath.map { [$0] } ?? paths) }
        if !quiet && TerminalProgress.stderrIsTerminal {
            Output.stderr("checked \(counted(outcome.readFiles, "file")), \(counted(outcome.machines, "machine")): \(counted(outcome.violations.count, "finding"))")
        }
        let worst = outcome.violations.map(\.finding.severity).max()
        let strict = self.strict || outcome.configuration.strict == true
        if worst == .error || (strict && worst == .warning) { throw ExitCode(ExitStatus.failed) }
    }
}
