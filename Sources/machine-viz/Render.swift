import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GraphvizRendering
import MachineAnalysis
import MachineModel
import MachineRendering

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw machines as DOT, SVG, PNG, PDF, JSON, Mermaid, a Markdown transition table, or export them to Promela.",
        discussion: """
        With one machine (or --machine NAME) the diagram goes to stdout or to -o FILE. With several, \
        give --output-dir DIR and each machine is written to DIR/NAME.EXT (.mmd for mermaid, .md for markdown, .pml for promela, else the format). SVG, PNG and PDF are \
        rendered in-process by Graphviz (libgvc); output files are written whole or not at all. PNG and \
        PDF are not written to a terminal: give -o FILE.

        Exit status: 0 written; 1 no machine found or Graphviz failed; 2 bad usage, unknown --machine \
        or no readable input; 3 an output file or folder could not be written.

        Examples:
          machine-viz render Door.swift --format svg -o door.svg
          machine-viz render Sources/ --format png --output-dir diagrams/
          machine-viz render Sources/ --machine lock --format dot
          machine-viz render Door.swift --format mermaid -o door.mmd
          machine-viz render Door.swift --format markdown
          machine-viz render Door.swift --machine lock --trace dead_end_state:jammed --format svg -o trace.svg
          machine-viz render Door.swift --machine lock --finding 2 --format dot
          machine-viz render Session.swift --format promela -o session.pml   # for SPIN (docs/promela.md)

        --trace CHECK:SUBJECT (or --finding N, the N-th finding of the machine as numbered by \
        `machine-viz analyze --format text`) draws the finding's witness trace over the machine: its \
        edges bold and numbered 1., 2., … in order, steps delivered by an effect dashed blue, the state \
        it ends in with a red border. It needs one machine and a DOT-based format (dot, svg, png, pdf).

        --product FEATURE draws the reachable combinations of a struct state's machine fields (enum, \
        Bool, Optional) as one machine, states named `phase=loading, isLoading=true`; combinations that \
        break an invariant (`// machine-viz: invariant …` in the state type, `invariants:` in \
        .machine-viz.yml) are filled red, and `--trace invariant_violation:INVARIANT` draws the way there.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case dot, svg, png, pdf, json, mermaid, markdown, promela

        /// File extension with --output-dir.
        var fileExtension: String {
            switch self {
            case .mermaid: "mmd"
            case .markdown: "md"
            case .promela: "pml"
            default: rawValue
            }
        }

        var graphviz: Graphviz.Format? {
            switch self {
            case .svg: .svg
            case .png: .png
            case .pdf: .pdf
            default: nil
            }
        }
    }

    @OptionGroup var inputs: InputOptions
    @OptionGroup var effects: EffectOptions

    @Option(help: "Only the machine with this name or id (see `machine-viz list` and the JSON `id`).")
    var machine: String?

    @Option(help: ArgumentHelp("Draw the reachable product of this struct state's machine fields (the feature's name, `Type` of `Type.field`).",
                               valueName: "feature"))
    var product: String?

    @Option(help: "Output format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: Format = .svg

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write to this file (one machine).", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Write one file per machine into this folder.", valueName: "dir"))
    var outputDir: String?

    @Option(help: ArgumentHelp("Highlight the witness trace of this finding (`check:subject`, as in the JSON `check` and `subject`).",
                               valueName: "check:subject"))
    var trace: String?

    @Option(help: ArgumentHelp("Highlight the witness trace of the machine's N-th finding (numbered by `analyze --format text`).",
                               valueName: "n"))
    var finding: Int?

    @Flag(help: "Also draw self-loops that change nothing.")
    var showNoops = false

    @Flag(help: "Leave the legend out.")
    var noLegend = false

    @Flag(name: [.short, .long], help: "No progress on stderr (progress is only ever shown on a terminal).")
    var quiet = false

    @Option(help: ArgumentHelp("Seconds Graphviz's dot may take to lay out one SVG/PNG/PDF diagram; past them the layout is stopped and sfdp lays it out instead (said on stderr and in the output). 0: no limit, always dot.",
                               valueName: "seconds"))
    var layoutBudget: Double = Render.defaultLayoutBudget

    /// The default of `--layout-budget`, also used by `docs`.
    static let defaultLayoutBudget = 1.5

    func validate() throws {
        if output != nil && outputDir != nil { throw ValidationError("Give either -o/--output or --output-dir, not both.") }
        if layoutBudget < 0 { throw ValidationError("--layout-budget must be 0 or more seconds.") }
        if trace != nil && finding != nil { throw ValidationError("Give either --trace or --finding, not both.") }
        if product != nil && machine != nil { throw ValidationError("Give either --machine or --product, not both.") }
        if trace != nil || finding != nil {
            if outputDir != nil { throw ValidationError("--trace and --finding draw one machine: give --machine NAME and -o FILE, not --output-dir.") }
            if format.graphviz == nil && format != .dot {
                throw ValidationError("--trace and --finding draw in dot, svg, png or pdf, not \(format.rawValue).")
            }
        }
    }

    func run() throws {
        // PNG and PDF are binary: on a terminal they would scramble it.
        if format == .png || format == .pdf, output == nil || output == "-", outputDir == nil, isatty(STDOUT_FILENO) == 1 {
            throw CLIError.usage("\(format.rawValue.uppercased()) is binary and standard output is a terminal: give -o FILE (or redirect the output)")
        }
        let result = try Pipeline.scan(inputs, quiet: quiet, bounds: effects.bounds())
        var machines = result.machines
        if let name = product {
            guard let p = result.products.first(where: { $0.name == name }) else {
                let known = result.products.map(\.name).joined(separator: ", ")
                throw CLIError.usage("No struct state '\(name)' with two or more machine fields that can be explored together. Found: \(known.isEmpty ? "none" : known)")
            }
            let explored: (explored: [Products.Explored], diagnostics: [Diagnostic])
            do {
                explored = try Products.explore([p], configuration: try LintPipeline.loadConfiguration(nil))
            } catch let failure as LintPipeline.Failure {
                Output.stderr(failure.message)
                throw ExitCode(2)
            }
            for d in explored.diagnostics { Output.stderr(Output.describe(d)) }
            if let why = explored.explored[0].result.unexplored {
                Output.stderr("error: \(name): the product cannot be explored: \(why)")
                throw ExitCode(1)
            }
            machines = [explored.explored[0].result.machine]
        } else {
            machines = try Pipeline.select(result.machines, named: machine)
        }
        if outputDir == nil && machines.count > 1 && format != .json {
            throw CLIError.usage("\(machines.count) machines found (\(machines.map(\.name).joined(separator: ", "))): choose one with --machine NAME or write them all with --output-dir DIR")
        }
        var highlight: DOTRenderer.Highlight?
        if trace != nil || finding != nil {
            guard machines.count == 1 else {
                throw CLIError.usage("--trace and --finding need one machine; \(machines.count) found (\(machines.map(\.name).joined(separator: ", "))): choose one with --machine NAME.")
            }
            highlight = try Self.highlight(in: machines[0], trace: trace, finding: finding)
        }
        let renderer = DOTRenderer(options: .init(showNoops: showNoops, legend: !noLegend, trace: highlight))
        if format == .json, outputDir == nil {
            let document = AnalysisDocument(machines: machines, diagnostics: result.diagnostics)
            try Output.write(try document.jsonData(), to: output)
            return
        }
        // Render everything first, then write: a failure leaves no half-written set behind.
        var files: [(String, Data)] = []
        // (file names as `docs` makes them: unique on case-insensitive file systems too)
        var usedNames = Set<String>()
        for m in machines {
            for note in renderer.tradeOffs(for: m) { Output.stderr("note: \(m.name): \(note)") }
            let data: Data
            switch format {
            case .json:
                data = try AnalysisDocument(machines: [m], diagnostics: []).jsonData()
            case .dot:
                data = Data(renderer.render(m).utf8)
            case .mermaid:
                let text = MermaidRenderer(options: .init(showNoops: showNoops)).render(m)
                if let warning = MermaidRenderer.sizeWarning(for: text) { Output.stderr("warning: \(m.name): \(warning)") }
                data = Data(text.utf8)
            case .markdown:
                data = Data(MarkdownRenderer().render(m).utf8)
            case .promela:
                data = Data(PromelaRenderer(machine: m, bounds: effects.bounds()).render().utf8)
            default:
                do {
                    let rendering = try Graphviz.layout(dot: renderer.render(m), format: format.graphviz!,
                                                        budget: layoutBudget > 0 ? layoutBudget : nil)
                    if let note = rendering.fallbackNote { Output.stderr("note: \(m.name): \(note)") }
                    data = rendering.data
                } catch let error as Graphviz.RenderError {
                    Output.stderr("error: \(m.name): \(error.message)")
                    throw ExitCode(ExitStatus.failed)
                }
            }
            files.append((DocsPlan.stem(m.name, avoiding: &usedNames) + "." + format.fileExtension, data))
        }
        if let dir = outputDir {
            try Output.createFolder(dir)
            for (name, data) in files { try Output.atomicWrite(data, to: URL(fileURLWithPath: dir).appendingPathComponent(name)) }
        } else {
            try Output.write(files[0].1, to: output)
        }
    }

    /// "no machine named 'x'; did you mean 'y'?", with the names there are when there are few.
    static func unknownMachine(_ name: String, known: [String]) -> String {
        var message = "no machine named '\(name)'"
        if known.isEmpty { return message + "; no machine was found in the given paths" }
        if let closest = closest(to: name, in: known) { message += "; did you mean '\(closest)'?" }
        if known.count <= 12 { message += " (machines: \(known.joined(separator: ", ")))" }
        else { message += " (`machine-viz list` prints all \(known.count))" }
        return message
    }

    /// The name nearest to `name`: one that ends in `.name` or equals it ignoring case, else the
    /// smallest edit distance (ignoring case) when it is at most a third of the name's length.
    static func closest(to name: String, in names: [String]) -> String? {
        let lower = name.lowercased()
        if let exact = names.first(where: { $0.lowercased() == lower || $0.lowercased().hasSuffix("." + lower) }) { return exact }
        let scored = names.map { candidate -> (String, Int) in
            let c = candidate.lowercased()
            let field = c.split(separator: ".").last.map(String.init) ?? c
            return (candidate, min(editDistance(lower, c), editDistance(lower, field)))
        }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }),
              best.1 <= max(2, name.count / 3) else { return nil }
        return best.0
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        var previous = Array(0...y.count)
        for i in 1...max(x.count, 1) where !x.isEmpty {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in stride(from: 1, through: y.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return x.isEmpty ? y.count : previous[y.count]
    }

    /// The finding `--trace check:subject` or `--finding N` names, with its trace; an error listing the
    /// findings that have one when it names none.
    static func highlight(in machine: Machine, trace: String?, finding: Int?) throws -> DOTRenderer.Highlight {
        let numbered = Array(machine.findings.enumerated())
        var chosen: Finding?
        if let trace {
            let parts = trace.split(separator: ":", maxSplits: 1).map(String.init)
            chosen = machine.findings.first { parts.count == 2 && $0.check == parts[0] && $0.subject == parts[1] }
        } else if let n = finding, n >= 1, n <= machine.findings.count {
            chosen = machine.findings[n - 1]
        }
        if let chosen, let highlight = DOTRenderer.Highlight(finding: chosen, in: machine) { return highlight }
        let available = numbered.filter { $0.element.trace != nil }
            .map { "  \($0.offset + 1). \($0.element.check):\($0.element.subject)" }
        let asked = trace ?? "finding \(finding!)"
        let why = chosen == nil ? "machine '\(machine.name)' has no finding \(trace == nil ? "number \(finding!)" : "'\(asked)'")"
            : "the finding '\(chosen!.check):\(chosen!.subject)' of machine '\(machine.name)' has no trace"
        throw CLIError.usage(available.isEmpty ? "\(why); it has no finding with a trace."
            : "\(why). Findings with a trace:\n" + available.joined(separator: "\n"))
    }

    /// A file name from a machine name: letters, digits, `.`, `-` and `_` kept, the rest `_`.
    static func fileName(_ name: String, _ ext: String) -> String {
        var used = Set<String>()
        return DocsPlan.stem(name, avoiding: &used) + "." + ext
    }
}
