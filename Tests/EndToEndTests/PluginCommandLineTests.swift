import Foundation
import XCTest

/// What the two SwiftPM plugins ask of the tool, run on the built binary without SwiftPM:
/// `plugin-lint` (the build-tool plugin) applies the configuration and the inline suppressions
/// exactly as `lint` does, and `--default-path` (the command plugin) is read only when no path is
/// given, so option values such as `--baseline FILE` are never taken for paths.
/// PackageAdoptionTests runs the real plugins through SwiftPM on examples/PluginSample.
final class PluginCommandLineTests: XCTestCase {
    static let binary = CLIEndToEndTests.binary
    var temp: URL!

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
            throw XCTSkip("build the binary first: \(Self.binary.path) is missing")
        }
        temp = FileManager.default.temporaryDirectory.appendingPathComponent("mv-plugin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { if let temp { try? FileManager.default.removeItem(at: temp) } }

    func tool(_ arguments: [String], in directory: URL? = nil) throws -> Subprocess {
        try Subprocess.run(Self.binary, arguments, in: directory ?? temp)
    }

    func write(_ text: String, to relative: String) throws -> String {
        let url = temp.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A package folder: a configuration that makes one dead end terminal and escalates another check,
    /// a file with an inline suppression, an unused suppression, and a file the configuration excludes.
    func makePackage() throws -> (config: String, files: [String]) {
        let config = try write("""
            excluded: [Sources/Pump/Generated]
            severity:
              dead_end_state: error
            machines:
              Pump.mode:
                terminal: [drained]
            """, to: "pkg/.machine-viz.yml")
        let pump = try write("""
            enum PumpMode {
                case idle
                case pumping
                case drained
                // machine-viz:disable:next dead_end_state - waits for a refill by hand
                case clogged
                case flooded
            }
            enum PumpInput { case start, stop, empty, block, overflow }
            struct Pump {
                var mode: PumpMode = .idle
                mutating func send(_ input: PumpInput) {
                    switch (mode, input) {
                    case (.idle, .start): mode = .pumping
                    case (.pumping, .stop): mode = .idle
                    case (.pumping, .empty): mode = .drained
                    case (.pumping, .block): mode = .clogged
                    case (.pumping, .overflow): mode = .flooded
                    default: break
                    }
                }
            }
            // machine-viz:disable:next unreachable_state - nothing here to suppress
            let unrelated = 1
            """, to: "pkg/Sources/Pump/Pump.swift")
        let generated = try write("""
            enum SiphonMode { case on, stuck }
            enum SiphonInput { case jam }
            struct Siphon {
                var mode: SiphonMode = .on
                mutating func send(_ input: SiphonInput) {
                    switch (mode, input) {
                    case (.on, .jam): mode = .stuck
                    default: break
                    }
                }
            }
            """, to: "pkg/Sources/Pump/Generated/Siphon.swift")
        return (config, [pump, generated])
    }

    func testPluginLintReportsWhatLintReportsWithTheSameConfigurationAndSuppressions() throws {
        let (config, files) = try makePackage()
        let stamp = temp.appendingPathComponent("work/MachineVizFindings.swift")
        // Run from elsewhere, with absolute paths, as SwiftPM runs the build command.
        let plugin = try tool(["plugin-lint", "--stamp", stamp.path, "--config", config] + files)
        XCTAssertEqual(plugin.status, 0, plugin.stderr)
        let lines = plugin.stdout.split(separator: "\n").map(String.init)
        // Reported: the dead end nobody allowed (an error by configuration, printed as a warning so the
        // build goes on) and the suppression that suppresses nothing.
        XCTAssertEqual(lines.count, 2, plugin.stdout)
        XCTAssertTrue(lines.contains { $0.contains("Pump.swift:7:") && $0.contains(": warning: Pump.mode: state 'flooded'") && $0.hasSuffix("[dead_end_state]") },
                      plugin.stdout)
        XCTAssertTrue(lines.contains { $0.contains("Pump.swift:23:") && $0.hasSuffix("[unused_suppression]") }, plugin.stdout)
        // Not reported: the terminal state of the configuration, the suppressed one, the excluded file.
        XCTAssertFalse(plugin.stdout.contains("'drained'"), plugin.stdout)
        XCTAssertFalse(plugin.stdout.contains("'clogged'"), plugin.stdout)
        XCTAssertFalse(plugin.stdout.contains("Siphon"), plugin.stdout)
        XCTAssertTrue(try String(contentsOf: stamp, encoding: .utf8).hasPrefix("// Generated by machine-viz plugin-lint"))

        // The same findings as `lint` with the same configuration, line for line (lint keeps the severity).
        let lint = try tool(["lint", "--config", config] + files)
        XCTAssertEqual(lint.status, 1, "dead_end_state is an error by configuration")
        XCTAssertEqual(lint.stdout.replacingOccurrences(of: ": error: ", with: ": warning: "), plugin.stdout)
    }

    /// What lint says about its input on stderr reaches the build log too, as warning lines on stdout
    /// (SwiftPM shows a build command's output; an invalid byte and a too-deep region are never silent).
    func testPluginLintPrintsTheInputDiagnosticsAsBuildWarnings() throws {
        let deep = String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
        var bytes = Data("// a stray byte: ".utf8) + Data([0xFF]) + Data("\nlet crate = \(deep)\n".utf8)
        bytes += Data("enum LatchState { case shut, ajar }\nenum LatchInput { case lift }\n".utf8)
        let file = temp.appendingPathComponent("Latch.swift")
        try bytes.write(to: file)
        let stamp = temp.appendingPathComponent("stamp.swift").path
        let plugin = try tool(["plugin-lint", "--stamp", stamp, file.path])
        XCTAssertEqual(plugin.status, 0, plugin.stderr)
        let lint = try tool(["lint", file.path])
        let diagnostics = lint.stderr.split(separator: "\n").filter { $0.hasPrefix(file.path + ":") }
        XCTAssertGreaterThanOrEqual(diagnostics.count, 2, "invalid UTF-8 and the deep region\n\(lint.stderr)")
        for line in diagnostics {
            XCTAssertTrue(plugin.stdout.contains(line.replacingOccurrences(of: ": error: ", with: ": warning: ")), "\(line)\nnot in\n\(plugin.stdout)")
        }
    }

    func testPluginLintReadsNoConfigurationItWasNotGiven() throws {
        // The build's working directory says nothing about the package: a .machine-viz.yml there is not read.
        let (_, files) = try makePackage()
        let plugin = try tool(["plugin-lint", "--stamp", temp.appendingPathComponent("stamp.swift").path] + files,
                              in: temp.appendingPathComponent("pkg"))
        XCTAssertEqual(plugin.status, 0, plugin.stderr)
        XCTAssertTrue(plugin.stdout.contains("'drained'"), "no configuration: drained is a dead end\n\(plugin.stdout)")
        XCTAssertTrue(plugin.stdout.contains("Siphon"), "no configuration: nothing is excluded\n\(plugin.stdout)")
        XCTAssertFalse(plugin.stdout.contains("'clogged'"), "inline suppressions apply without a configuration too")
    }

    func testPluginLintWithABrokenConfigurationFailsTheBuildStepWithTheMessage() throws {
        let (_, files) = try makePackage()
        let bad = try write("severity:\n  dead_end_state: loud\n", to: "bad.yml")
        let plugin = try tool(["plugin-lint", "--stamp", temp.appendingPathComponent("stamp.swift").path, "--config", bad] + files)
        XCTAssertEqual(plugin.status, 1)
        XCTAssertTrue(plugin.stderr.contains("bad.yml:2:") && plugin.stderr.contains("loud"), plugin.stderr)
    }

    func testDefaultPathsAreReadOnlyWhenNoPathIsGiven() throws {
        let (config, files) = try makePackage()
        try FileManager.default.removeItem(atPath: config)
        let pkg = temp.appendingPathComponent("pkg")
        let pump = "Sources/Pump/Pump.swift", siphon = "Sources/Pump/Generated/Siphon.swift"
        XCTAssertEqual(files.count, 2)

        // No path: the default paths are read (list, and every other InputOptions subcommand).
        let list = try tool(["list", "--default-path", pump], in: pkg)
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.hasPrefix("Pump.mode"), list.stdout)
        // A path given: only it.
        let given = try tool(["list", "--default-path", pump, siphon], in: pkg)
        XCTAssertTrue(given.stdout.hasPrefix("Siphon.mode"), given.stdout)
        XCTAssertFalse(given.stdout.contains("Pump.mode"), given.stdout)
        // Neither: the usual usage error.
        XCTAssertEqual(try tool(["list"], in: pkg).status, 2)

        // lint: the value of --write-baseline / --baseline is a file to write or read, not a path to lint.
        let write = try tool(["lint", "--default-path", pump, "--default-path", siphon, "--write-baseline", "base.json"], in: pkg)
        XCTAssertTrue(write.stderr.contains("wrote 4 findings to the baseline base.json"), write.stderr)
        let known = try tool(["lint", "--baseline", "base.json", "--default-path", pump, "--default-path", siphon, "--strict"], in: pkg)
        XCTAssertEqual(known.status, 0, known.stdout + known.stderr)
        XCTAssertTrue(known.stderr.contains("4 known findings left out, 0 new"), known.stderr)
        // A path given to lint wins over the default paths.
        let only = try tool(["lint", siphon, "--default-path", pump, "--baseline", "base.json"], in: pkg)
        XCTAssertTrue(only.stderr.contains("1 known finding left out, 0 new"), only.stderr)
    }
}
