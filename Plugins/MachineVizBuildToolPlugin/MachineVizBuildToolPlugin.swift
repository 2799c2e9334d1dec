import Foundation
import PackagePlugin

/// Checks the state machines of a target on every build and reports findings as build warnings
/// (`file:line:column: warning: … [check_id]`), without failing the build.
///
/// Add it to a target:
///   .target(name: "Turnstile", plugins: [.plugin(name: "MachineVizBuildToolPlugin", package: "machine-viz")])
///
/// The command's output is a generated Swift file holding only a comment (a summary of the machines),
/// so the build system reruns the check exactly when one of the target's Swift files changes.
@main
struct MachineVizBuildToolPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = target.sourceFiles(withSuffix: "swift").map(\.url).sorted { $0.path < $1.path }
        guard !inputs.isEmpty else { return [] }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("MachineVizFindings.swift")
        return [
            .buildCommand(
                displayName: "machine-viz: checking the state machines of \(target.name)",
                executable: try context.tool(named: "machine-viz").url,
                arguments: ["plugin-lint", "--stamp", output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]),
        ]
    }
}
