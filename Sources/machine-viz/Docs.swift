import ArgumentParser
import Foundation
import GraphvizRendering
import MachineModel
import MachineRendering

struct Docs: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a documentation folder: per machine an SVG, a Mermaid file and a Markdown page, plus index.html.",
        discussion: """
        For every machine found, DIR gets NAME.svg (Graphviz, with legend), NAME.mmd (Mermaid \
        stateDiagram-v2), NAME.md (diagram, transition table, findings with witnesses) and one \
        index.html that shows every machine with its diagram and findings. The page uses relative \
        SVGs and no scripts or external resources, so it works offline. Files that did not change are \
        not rewritten; files machine-viz generated earlier for machines that no longer exist are removed.

        With --check nothing is written: the command compares what it would write with DIR and exits 1 \
        listing every changed, missing or obsolete file, so CI can keep diagrams in sync with the code. \
        Mermaid, Markdown and HTML are compared byte for byte. SVG bytes depend on the Graphviz version \
        and the fonts of the machine that drew them, so each SVG carries a fingerprint of the DOT text \
        it was drawn from (`<!-- machine-viz-dot: fnv1a64 … -->`) and only that fingerprint is compared.

        Exit status: 0 written (or, with --check, up to date); 1 out of date (--check) or a render \
        failed; 2 no readable input; 3 a file or the folder could not be written.

        Examples:
          machine-viz docs Sources/ --output-dir docs/machines
          machine-viz docs Sources/ --output-dir docs/machines --check
        """)

    @OptionGroup var inputs: InputOptions

    @Option(help: ArgumentHelp("The documentation folder to write (or check).", valueName: "dir"))
    var outputDir: String

    @Flag(help: "Write nothing; exit 1 and list the files that are out of date.")
    var check = false

    @Option(help: "Title of index.html.")
    var title = "State machines"

    @Option(help: "Diagram in the Markdown pages: svg (an image of NAME.svg) or mermaid (an embedded mermaid block).")
    var markdownDiagram: MarkdownDiagram = .svg

    @Flag(help: "Also draw self-loops that change nothing.")
    var showNoops = false

    @Flag(help: "Also draw each finding's witness trace over its machine (NAME.CHECK.SUBJECT.svg, shown on the machine's page).")
    var traces = false

    @Flag(help: "Redraw every SVG even when its DOT fingerprint has not changed.")
    var force = false

    @Flag(name: [.short, .long], help: "No progress on stderr (progress is only ever shown on a terminal).")
    var quiet = false

    enum MarkdownDiagram: String, ExpressibleByArgument, CaseIterable {
        case svg, mermaid
    }

    func validate() throws {
        if check && force { throw ValidationError("--check writes nothing; --force has no effect with it.") }
    }

    func run() throws {
        try CLIError.requireExisting(inputs.paths)
        let progress = TerminalProgress(quiet: quiet)
        let result = progress.during("scanning \(inputs.described)") { Pipeline.run(inputs, progress: progress) }
        Output.stderr(lines: result.diagnostics.map(Output.describe))
        try result.requireInput(inputs)

        let plan = DocsPlan(machines: result.machines, diagnostics: result.diagnostics, title: title,
                            showNoops: showNoops, mermaidInMarkdown: markdownDiagram == .mermaid, traces: traces)
        let dir = URL(fileURLWithPath: outputDir)
        if check {
            let problems = plan.check(against: dir)
            if problems.isEmpty {
                if !quiet { Output.stderr("\(outputDir): \(Output.count(plan.files.count, "file")) up to date") }
                return
            }
            print("\(outputDir) is out of date with the code (\(problems.count) file\(problems.count == 1 ? "" : "s")):")
            for p in problems { print("  \(p.kind.rawValue): \(p.file)\(p.detail.map { " (\($0))" } ?? "")") }
            print("Run `machine-viz docs` without --check to update it.")
            throw ExitCode(ExitStatus.failed)
        }

        for entry in plan.entries {
            if let warning = MermaidRenderer.sizeWarning(for: plan.mermaid[entry.stem] ?? "") {
                Output.stderr("warning: \(entry.machine.name): \(entry.mermaidFile): \(warning)")
            }
        }
        // Render every SVG first, then write: a Graphviz failure leaves the folder as it was.
        var contents: [String: Data] = [:]
        let svgs = plan.files.filter { if case .svg = $0.content { true } else { false } }
        progress.start("rendering")
        var done = 0
        for file in plan.files {
            switch file.content {
            case .text(let text):
                contents[file.name] = Data(text.utf8)
            case .svg(let dot):
                done += 1
                progress.update("rendering \(done)/\(svgs.count) \(file.name)")
                let url = dir.appendingPathComponent(file.name)
                if !force, let existing = try? Data(contentsOf: url), DocsPlan.fingerprint(inSVG: existing) == DocsPlan.fingerprint(dot: dot) {
                    continue
                }
                do {
                    let rendering = try Graphviz.layout(dot: dot, format: .svg, budget: Render.defaultLayoutBudget)
                    if let note = rendering.fallbackNote { Output.stderr("note: \(file.name): \(note)") }
                    contents[file.name] = DocsPlan.stamp(rendering.data, dot: dot)
                } catch let error as Graphviz.RenderError {
                    progress.finish()
                    Output.stderr("error: \(file.name): \(error.message)")
                    throw ExitCode(ExitStatus.failed)
                }
            }
        }
        progress.finish()
        try Output.createFolder(outputDir)
        var written = 0
        for file in plan.files {
            guard let data = contents[file.name] else { continue }
            let url = dir.appendingPathComponent(file.name)
            if (try? Data(contentsOf: url)) == data { continue }
            try Output.atomicWrite(data, to: url)
            written += 1
        }
        var removed: [String] = []
        for name in plan.obsoleteFiles(in: dir) {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent(name))
            removed.append(name)
        }
        if !quiet {
            var summary = "\(outputDir): \(plan.entries.count) machine\(plan.entries.count == 1 ? "" : "s"), \(written) file\(written == 1 ? "" : "s") written, \(plan.files.count - written) unchanged"
            if !removed.isEmpty { summary += ", removed \(removed.joined(separator: ", "))" }
            Output.stderr(summary)
        }
    }
}

/// Everything `docs` writes, computed from the machines alone (no Graphviz, no clock, no file
/// system), so `--check` can compare it with a folder.
struct DocsPlan {
    enum Content {
        case text(String)
        /// An SVG drawn from this DOT text.
        case svg(dot: String)
    }

    struct File {
        var name: String
        var content: Content
    }

    struct Problem: Equatable {
        enum Kind: String { case changed, missing, obsolete }
        var kind: Kind
        var file: String
        var detail: String?
    }

    var entries: [HTMLIndexRenderer.Entry] = []
    var files: [File] = []
    var mermaid: [String: String] = [:]

    init(machines: [Machine], diagnostics: [Diagnostic], title: String, showNoops: Bool, mermaidInMarkdown: Bool, traces: Bool = false) {
        let dot = DOTRenderer(options: .init(showNoops: showNoops))
        let mermaidRenderer = MermaidRenderer(options: .init(showNoops: showNoops))
        let markdown = MarkdownRenderer()
        var usedStems = Set<String>()
        for machine in machines {
            let stem = Self.stem(machine.name, avoiding: &usedStems)
            let entry = HTMLIndexRenderer.Entry(machine: machine, stem: stem, svgFile: stem + ".svg",
                                                markdownFile: stem + ".md", mermaidFile: stem + ".mmd")
            entries.append(entry)
            let mermaidText = mermaidRenderer.render(machine)
            mermaid[stem] = mermaidText
            files.append(File(name: entry.svgFile, content: .svg(dot: dot.render(machine))))
            files.append(File(name: entry.mermaidFile, content: .text(mermaidText)))
            var drawn: [(finding: Int, image: String)] = []
            if traces {
                for (i, finding) in machine.findings.enumerated() {
                    guard let highlight = DOTRenderer.Highlight(finding: finding, in: machine) else { continue }
                    let file = Self.stem("\(stem).\(finding.check).\(finding.subject)", avoiding: &usedStems) + ".svg"
                    let traced = DOTRenderer(options: .init(showNoops: showNoops, trace: highlight))
                    files.append(File(name: file, content: .svg(dot: traced.render(machine))))
                    drawn.append((i, file))
                }
            }
            let page = MarkdownRenderer.Page(image: mermaidInMarkdown ? nil : entry.svgFile, mermaidFile: entry.mermaidFile,
                                             mermaid: mermaidInMarkdown ? mermaidText : nil, traces: drawn)
            files.append(File(name: entry.markdownFile, content: .text(markdown.page(machine, page))))
        }
        files.append(File(name: "index.html", content: .text(HTMLIndexRenderer(title: title).render(entries, diagnostics: diagnostics))))
    }

    /// A file stem from a machine name: letters, digits, `.`, `-` and `_` kept, the rest `_`; unique
    /// even on case-insensitive file systems (`-2`, `-3`, … in machine order).
    static func stem(_ name: String, avoiding used: inout Set<String>) -> String {
        var safe = String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "_" })
        if safe.isEmpty || safe.allSatisfy({ $0 == "_" || $0 == "." }) { safe = "machine" + safe }
        if safe.hasPrefix(".") { safe = "_" + safe }
        if safe.lowercased() == "index" { safe += "_" }
        var candidate = safe
        var n = 2
        while used.contains(candidate.lowercased()) {
            candidate = "\(safe)-\(n)"
            n += 1
        }
        used.insert(candidate.lowercased())
        return candidate
    }

    /// What in `dir` differs from the plan.
    func check(against dir: URL) -> [Problem] {
        var problems: [Problem] = []
        for file in files {
            let url = dir.appendingPathComponent(file.name)
            guard let existing = try? Data(contentsOf: url) else {
                problems.append(Problem(kind: .missing, file: file.name))
                continue
            }
            switch file.content {
            case .text(let text):
                let expected = Data(text.utf8)
                if existing != expected {
                    problems.append(Problem(kind: .changed, file: file.name, detail: Self.firstDifference(existing, expected)))
                }
            case .svg(let dot):
                if Self.fingerprint(inSVG: existing) != Self.fingerprint(dot: dot) {
                    problems.append(Problem(kind: .changed, file: file.name, detail: "drawn from different DOT text"))
                }
            }
        }
        problems += obsoleteFiles(in: dir).map { Problem(kind: .obsolete, file: $0, detail: "no machine generates it any more") }
        return problems
    }

    /// Files in `dir` that machine-viz generated (they carry its marker) and that the plan no longer has.
    func obsoleteFiles(in dir: URL) -> [String] {
        let expected = Set(files.map(\.name))
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return [] }
        return names.sorted().filter { name in
            guard !expected.contains(name), let data = try? Data(contentsOf: dir.appendingPathComponent(name)) else { return false }
            let head = String(decoding: data.prefix(4096), as: UTF8.self)
            if name.hasSuffix(".svg") { return head.contains(Self.svgMarker) }
            if name.hasSuffix(".mmd") { return head.hasPrefix("stateDiagram-v2\n%% ") && head.contains("generated by machine-viz") }
            if name.hasSuffix(".md") { return head.contains("<!-- Generated by machine-viz") }
            return false
        }
    }

    /// `line N` of the first difference between two texts.
    static func firstDifference(_ a: Data, _ b: Data) -> String {
        let x = String(decoding: a, as: UTF8.self).components(separatedBy: "\n")
        let y = String(decoding: b, as: UTF8.self).components(separatedBy: "\n")
        for i in 0..<max(x.count, y.count) where (i < x.count ? x[i] : nil) != (i < y.count ? y[i] : nil) {
            return "first difference at line \(i + 1)"
        }
        return "differs"
    }

    // MARK: SVG fingerprint

    static let svgMarker = "<!-- machine-viz-dot: fnv1a64 "

    /// FNV-1a (64-bit) of the DOT text: not a cryptographic hash, a change detector.
    static func fingerprint(dot: String) -> String { fnv1a64(dot) }

    /// The fingerprint an SVG written by `docs` carries, if any.
    static func fingerprint(inSVG data: Data) -> String? {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        guard let range = head.range(of: svgMarker) else { return nil }
        return String(head[range.upperBound...].prefix(16))
    }

    /// The SVG with the fingerprint comment after the XML declaration.
    static func stamp(_ svg: Data, dot: String) -> Data {
        let comment = "\(svgMarker)\(fingerprint(dot: dot)) -->\n"
        var text = String(decoding: svg, as: UTF8.self)
        if text.hasPrefix("<?xml"), let end = text.firstIndex(of: "\n") {
            text.insert(contentsOf: comment, at: text.index(after: end))
        } else {
            text = comment + text
        }
        return Data(text.utf8)
    }
}
