import Foundation
import PackagePlugin

/// `swift package machine-viz docs|lint|analyze|list|render [ARGS…]`
///
/// Runs the `machine-viz` executable of this package from the package's root folder, so paths in
/// the output are relative and the same on every machine. When no path is given, the Swift source
/// folders of the package's targets (or of the `--target NAME` ones) are used. `docs` writes to
/// `docs/machines` unless `--output-dir` is given, which needs `--allow-writing-to-package-directory`.
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
        let targets = targetNames.isEmpty
            ? context.package.targets
            : try context.package.targets(named: targetNames)
        // Paths given on the command line win; otherwise every Swift source folder, relative to the root.
        let optionsWithValues: Set<String> = ["--output-dir", "--output", "-o", "--format", "--exclude", "--machine", "--title",
                                              "--markdown-diagram", "--config", "--reporter"]
        var givenPath = false
        var skipNext = false
        for arg in rest {
            if skipNext { skipNext = false; continue }
            if optionsWithValues.contains(arg) { skipNext = true; continue }
            if !arg.hasPrefix("-") { givenPath = true }
        }
        var arguments = [subcommand] + rest
        if !givenPath {
            // Each target's folder: the deepest folder holding all of its Swift files.
            let folders = targets.compactMap { $0 as? SourceModuleTarget }.compactMap { target -> String? in
                let files = target.sourceFiles(withSuffix: "swift").map { $0.url.deletingLastPathComponent().standardizedFileURL.pathComponents }
                guard var common = files.first else { return nil }
                for components in files.dropFirst() {
                    common = Array(zip(common, components).prefix { $0 == $1 }.map(\.0))
                }
                return relative(URL(fileURLWithPath: common.joined(separator: "/").replacingOccurrences(of: "//", with: "/")), to: root)
            }
            guard !folders.isEmpty else {
                Diagnostics.error("no Swift targets to read")
                throw PluginError.usage
            }
            arguments += folders.sorted()
        }
        if subcommand == "docs", !rest.contains("--output-dir") {
            arguments += ["--output-dir", "docs/machines"]
        }

        let tool = try context.tool(named: "machine-viz")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = root
        try process.run()
        process.waitUntilExit()
        if process.terminationReason != .exit || process.terminationStatus != 0 {
            throw PluginError.failed(subcommand, process.terminationStatus)
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
