import ArgumentParser
import Foundation
import GraphvizRendering
import MachineAnalysis
import MachineModel
import MachineRendering

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw machines as DOT, SVG, PNG, PDF, JSON, Mermaid, a Markdown transition table, or export them to Promela.",
        discussion: """
        With one machine (or --machine NAME) the diagram goes to stdout or to -o FILE. With several, \
        give --output-dir DIR and each machine is written to DIR/NAME.FORMAT. SVG, PNG and PDF are \
        rendered in-process by Graphviz (libgvc); output files are written whole or not at all.

        Examples:
          machine-viz render Door.swift --format svg -o door.svg
          machine-viz render Sources/ --format png --output-dir diagrams/
          machine-viz render Sources/ --machine lock --format dot
          machine-viz render Door.swift --format mermaid -o door.mmd
          machine-viz render Door.swift --format markdown
          machine-viz render Session.swift --format promela -o session.pml   # for SPIN (docs/promela.md)
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

    @Option(help: "Only the machine with this name (see `machine-viz list`).")
    var machine: String?

    @Option(help: "Output format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: Format = .svg

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write to this file (one machine).", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Write one file per machine into this folder.", valueName: "dir"))
    var outputDir: String?

    @Flag(help: "Also draw self-loops that change nothing.")
    var showNoops = false

    @Flag(help: "Leave the legend out.")
    var noLegend = false

    @Flag(name: [.short, .long], help: "No progress on stderr (progress is only ever shown on a terminal).")
    var quiet = false

    func validate() throws {
        if output != nil && outputDir != nil { throw ValidationError("Give either -o/--output or --output-dir, not both.") }
    }

    func run() throws {
        let result = TerminalProgress(quiet: quiet).during("scanning \(inputs.paths.joined(separator: " "))") { Pipeline.run(inputs, bounds: effects.bounds()) }
        for d in result.diagnostics { Output.stderr(Output.describe(d)) }
        if result.readFiles == 0 { throw ExitCode(2) }
        var machines = result.machines
        if let name = machine {
            machines = machines.filter { $0.name == name }
            if machines.isEmpty {
                let known = result.machines.map(\.name).joined(separator: ", ")
                throw ValidationError("No machine named '\(name)'. Found: \(known.isEmpty ? "none" : known)")
            }
        }
        guard !machines.isEmpty else {
            Output.stderr("error: no state machine found in the given paths")
            throw ExitCode(1)
        }
        if outputDir == nil && machines.count > 1 && format != .json {
            throw ValidationError("\(machines.count) machines found (\(machines.map(\.name).joined(separator: ", "))): choose one with --machine NAME or write them all with --output-dir DIR.")
        }
        let renderer = DOTRenderer(options: .init(showNoops: showNoops, legend: !noLegend))
        if format == .json, outputDir == nil {
            let document = AnalysisDocument(machines: machines, diagnostics: result.diagnostics)
            try Output.write(try document.jsonData(), to: output)
            return
        }
        // Render everything first, then write: a failure leaves no half-written set behind.
        var files: [(String, Data)] = []
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
                    data = try Graphviz.render(dot: renderer.render(m), format: format.graphviz!)
                } catch let error as Graphviz.RenderError {
                    Output.stderr("error: \(m.name): \(error.message)")
                    throw ExitCode(1)
                }
            }
            files.append((Self.fileName(m.name, format.fileExtension), data))
        }
        if let dir = outputDir {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for (name, data) in files { try Output.atomicWrite(data, to: URL(fileURLWithPath: dir).appendingPathComponent(name)) }
        } else {
            try Output.write(files[0].1, to: output)
        }
    }

    /// A file name from a machine name: letters, digits, `.`, `-` and `_` kept, the rest `_`.
    static func fileName(_ name: String, _ ext: String) -> String {
        let safe = String(name.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "_" })
        return (safe.isEmpty ? "machine" : safe) + "." + ext
    }
}
