import Foundation
import PackagePlugin

/// Checks the state machines of a target on every build and reports findings as build warnings
/// (`file:line:column: warning: … [check_id]`), without failing the build.
///
/// Add it to a target:
///   .target(name: "Turnstile", plugins: [.plugin(name: "MachineVizBuildToolPlugin", package: "machine-viz")])
///
/// It runs `machine-viz plugin-lint`, which is `lint`'s pipeline: the package's `.machine-viz.yml`
/// (in the package's root folder) and the inline `// machine-viz:disable…` comments apply as they do
/// for `machine-viz lint` run in that folder.
///
/// The command's output is a generated Swift file holding only a comment (a summary of the findings),
/// so the build system reruns the check exactly when one of the target's Swift files or the
/// configuration changes.
@main
struct MachineVizBuildToolPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = target.sourceFiles(withSuffix: "swift").map(\.url).sorted { $0.path < $1.path }
        guard !inputs.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("MachineVizFindings.swift")
        let configuration = context.package.directoryURL.appendingPathComponent(".machine-viz.yml")
        let configured = FileManager.default.fileExists(atPath: configuration.path)
        return [
            .buildCommand(
                displayName: "machine-viz: checking the state machines of \(target.name)",
                executable: try context.tool(named: "machine-viz").url,
                arguments: ["plugin-lint", "--stamp", output.path]
                    + (configured ? ["--config", configuration.path] : [])
                    + inputs.map(\.path),
                inputFiles: inputs + (configured ? [configuration] : []),
                outputFiles: [output]),
        ]
    }
}
