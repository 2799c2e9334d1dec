import Foundation
import PackagePlugin

/// `swift package machine-viz docs|lint|analyze|list|render [ARGS…]`
///
/// Runs the `machine-viz` executable of this package from the package's root folder, so paths in
/// the output are relative and the same on every machine. When no path is given, the tool reads the
/// Swift source files of the package's targets (or of the `--target NAME` ones): exactly the files
/// SwiftPM compiles, so a target's `exclude:` list is honoured, and test targets are left out unless
/// named with `--target`. `docs` writes to `docs/machines` unless `--output-dir` is given, which needs
/// `--allow-writing-to-package-directory`.
///
/// The plugin does not interpret the other arguments: it passes the target files as
/// `--default-path FILE` (a hidden option every subcommand has), and the tool uses them only when its
/// own parser found no path among the arguments, so `--baseline FILE` and the like are never
/// mistaken for paths.
///
/// Examples:
///   swift package --allow-writing-to-package-directory machine-viz docs
///   swift package --allow-writing-to-package-directory machine-viz docs --check
///   swift package --allow-writing-to-package-directory machine-viz lint --target Turnstile --strict
///
/// The plugin declares the write permission `docs` needs; SwiftPM asks for it on every run (on a
/// terminal it prompts, elsewhere the flag is required), also for subcommands that only read.
@main
struct MachineVizCommandPlugin: CommandPlugin {
    static let subcommands: Set<String> = ["docs", "lint", "analyze", "list", "render"]

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        var rest = extractor.remainingArguments
        guard let subcommand = rest.first, Self.subcommands.contains(subcommand) else {
            Diagnostics.error("usage: swift package machine-viz <docs|lint|analyze|list|render> [--target NAME] [machine-viz options] [path...]")
            throw PluginError.usage
        }
        rest.removeFirst()

        let root = context.package.directoryURL
        // Named targets as asked; otherwise every target but the tests.
        let targets = targetNames.isEmpty
            ? context.package.targets.filter { ($0 as? SourceModuleTarget)?.kind != .test }
            : try context.package.targets(named: targetNames)
        let files = targets.compactMap { $0 as? SourceModuleTarget }
            .flatMap { $0.sourceFiles(withSuffix: "swift").map { relative($0.url, to: root) } }
        let defaultPaths = Array(Set(files)).sorted()
        guard !defaultPaths.isEmpty else {
            Diagnostics.error("no Swift source files in \(targetNames.isEmpty ? "the package's targets" : "the targets \(targetNames.joined(separator: ", "))")")
            throw PluginError.usage
        }
        // Before the user's arguments, which may end with `--` (after which everything is a path).
        var arguments = [subcommand] + defaultPaths.flatMap { ["--default-path", $0] } + rest
        if subcommand == "docs", !rest.contains(where: { $0 == "--output-dir" || $0.hasPrefix("--output-dir=") }) {
            arguments.insert(contentsOf: ["--output-dir", "docs/machines"], at: 1)
        }

        let tool = try context.tool(named: "machine-viz")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = root
        // SwiftPM (6.3) writes a command plugin's standard error to its own standard output, mixed
        // with the tool's output (`analyze > doc.json` would not be JSON). The tool's stderr is read
        // here and passed on as plugin diagnostics, which SwiftPM prints on its standard error.
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let failed = process.terminationReason != .exit || process.terminationStatus != 0
        for line in text.split(separator: "\n") { Self.relay(String(line), failed: failed) }
        if failed { throw PluginError.failed(subcommand, process.terminationStatus) }
    }

    /// One line of the tool's stderr as a plugin diagnostic: `[place: ]error|warning|note: message`
    /// keeps its severity (an error as a warning when the tool succeeded, since an error diagnostic
    /// fails the plugin), with the place kept in the text (SwiftPM does not print a diagnostic's file
    /// and line). Notes and summaries (`checked 3 files…`, `wrote 1 finding to the baseline…`) are
    /// remarks: SwiftPM shows them with `--verbose`, as `info:` lines.
    static func relay(_ line: String, failed: Bool) {
        // the first `severity: ` at the start of the line or after the place's `: `
        let found = ["error", "warning", "note"].compactMap { severity -> (String, Range<String.Index>)? in
            let marker = severity + ": "
            if line.hasPrefix(marker) { return (severity, line.range(of: marker)!) }
            guard let r = line.range(of: ": " + marker) else { return nil }
            return (severity, r.lowerBound..<r.upperBound)
        }.min { $0.1.lowerBound < $1.1.lowerBound }
        guard let found else { return Diagnostics.remark(line) }
        let (severity, range) = found
        let place = String(line[..<range.lowerBound])
        let message = (place.isEmpty ? "" : place + ": ") + String(line[range.upperBound...])
        switch severity {
        case "error" where failed: Diagnostics.error(message)
        case "error", "warning": Diagnostics.warning(message)
        default: Diagnostics.remark(message)
        }
    }

    func relative(_ url: URL, to root: URL) -> String {
        let path = url.standardizedFileURL.path, base = root.standardizedFileURL.path
        guard path.hasPrefix(base + "/") else { return path }
        return String(path.dropFirst(base.count + 1))
    }
}

enum PluginError: Error, CustomStringConvertible {
    case usage
    case failed(String, Int32)

    var description: String {
        switch self {
        case .usage: "invalid arguments"
        case .failed(let subcommand, let status): "machine-viz \(subcommand) exited with status \(status)"
        }
    }
}
