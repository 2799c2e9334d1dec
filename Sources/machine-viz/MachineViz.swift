import ArgumentParser
import Foundation
import GraphvizRendering
import MachineAnalysis
import MachineExtraction
import MachineModel
import MachineRendering

@main
struct MachineViz: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "machine-viz",
        abstract: "Reads the state machines written in Swift, checks them and draws them.",
        discussion: """
        machine-viz parses Swift files with swift-syntax (it never builds or runs them), finds the state \
        machines in them (operator tables, mapping functions, switch reducers, …), checks each one for \
        unreachable states, dead ends, overlapping and shadowed rules, and renders diagrams.

        Examples:
          machine-viz list Sources/
          machine-viz analyze Sources/ --format json
          machine-viz render Sources/Door.swift --format svg -o door.svg
          machine-viz render Sources/Door.swift --machine door --finding 1 --format svg -o trace.svg
          machine-viz paths Sources/ --machine door --format xctest -o Tests/DoorPathTests.swift
          machine-viz lint Sources/ --strict
          machine-viz docs Sources/ --output-dir docs/machines
        """,
        version: "0.1.0",
        subcommands: [Analyze.self, Render.self, Lint.self, List.self, Paths.self, Docs.self, PluginLint.self],
        defaultSubcommand: nil
    )

    /// Like ArgumentParser's `main()`, but bad usage exits with 2 (the documented status for
    /// unusable arguments) instead of 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// Paths to read, shared by every subcommand.
struct InputOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Swift files or folders to read (folders are searched recursively for .swift files).",
                                 valueName: "path"))
    var paths: [String]

    @Option(name: .customLong("exclude"), help: ArgumentHelp("A path to leave out (repeatable).", valueName: "path"))
    var excluded: [String] = []

    func validate() throws {
        if paths.isEmpty { throw ValidationError("Give at least one Swift file or folder.") }
    }
}

/// Bounds of the effect-aware checks, shared by analyze, lint and render.
struct EffectOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Effect-aware checks explore at most this many instances of one effect in flight at once (default \(EffectBounds.defaultMaxInstances); lint: `effects.max_instances` in the configuration).",
                               valueName: "n"))
    var maxEffectInstances: Int?

    @Option(help: ArgumentHelp("Effect-aware checks explore at most this many configurations (state + effects in flight) per machine (default \(EffectBounds.defaultBudget); lint: `effects.budget`).",
                               valueName: "n"))
    var effectBudget: Int?

    func validate() throws {
        if let n = maxEffectInstances, !(1...100).contains(n) { throw ValidationError("--max-effect-instances must be from 1 to 100.") }
        if let n = effectBudget, n < 1 { throw ValidationError("--effect-budget must be at least 1.") }
    }

    /// The bounds: the options, else the defaults.
    func bounds() -> EffectBounds {
        EffectBounds(maxInstances: maxEffectInstances ?? EffectBounds.defaultMaxInstances,
                     budget: effectBudget ?? EffectBounds.defaultBudget)
    }
}

/// Extraction and analysis, run on a thread with a large stack: swift-syntax visitors recurse as deep
/// as the source nests.
enum Pipeline {
    struct Result {
        var machines: [Machine]
        var diagnostics: [Diagnostic]
        var readFiles: Int
        /// Struct states whose machine fields can be explored together (`render --product`).
        var products: [ProductMachine] = []
    }

    static func run(_ inputs: InputOptions, bounds: EffectBounds = EffectBounds()) -> Result {
        onLargeStack {
            let sources = SourceSet.load(paths: inputs.paths, excluding: inputs.excluded)
            let extracted = Extractor.extract(sources)
            let analyzer = Analyzer(bounds: bounds)
            var machines: [Machine] = []
            var diagnostics = extracted.diagnostics
            for m in extracted.machines {
                let (machine, notes) = analyzer.analyzeReporting(m)
                machines.append(machine)
                diagnostics += notes
            }
            return Result(machines: machines, diagnostics: diagnostics, readFiles: sources.files.count, products: extracted.products)
        }
    }

    /// `run` with progress on a terminal and diagnostics on stderr; exit 2 when no file could be read.
    static func scan(_ inputs: InputOptions, quiet: Bool, bounds: EffectBounds = EffectBounds()) throws -> Result {
        let result = TerminalProgress(quiet: quiet).during("scanning \(inputs.paths.joined(separator: " "))") { run(inputs, bounds: bounds) }
        for d in result.diagnostics { Output.stderr(Output.describe(d)) }
        if result.readFiles == 0 { throw ExitCode(2) }
        return result
    }

    /// The machines `--machine NAME` selects (all without it); an error listing the names when none
    /// matches, exit 1 when there is no machine at all.
    static func select(_ machines: [Machine], named name: String?) throws -> [Machine] {
        var selected = machines
        if let name {
            selected = machines.filter { $0.name == name }
            if selected.isEmpty {
                let known = machines.map(\.name).joined(separator: ", ")
                throw ValidationError("No machine named '\(name)'. Found: \(known.isEmpty ? "none" : known)")
            }
        }
        guard !selected.isEmpty else {
            Output.stderr("error: no state machine found in the given paths")
            throw ExitCode(1)
        }
        return selected
    }

    final class Box<T>: @unchecked Sendable {
        var value: T?
        let body: () -> T
        init(_ b: @escaping () -> T) { body = b }
    }

    static func onLargeStack<T>(_ body: @escaping () -> T) -> T {
        let box = Box(body)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.value = box.body()
            done.signal()
        }
        thread.stackSize = 1 << 29
        thread.start()
        done.wait()
        return box.value!
    }
}

enum Output {
    static func write(_ data: Data, to path: String?) throws {
        guard let path, path != "-" else {
            FileHandle.standardOutput.write(data)
            return
        }
        try atomicWrite(data, to: URL(fileURLWithPath: path))
    }

    /// Writes a file completely or not at all: a temporary file beside it, then a rename.
    static func atomicWrite(_ data: Data, to url: URL) throws {
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw ValidationError("cannot write \(url.path): \(error.localizedDescription)")
        }
    }

    static func stderr(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func describe(_ d: Diagnostic) -> String {
        let place = d.location.map { "\($0.file):\($0.line):\($0.column): " } ?? ""
        return "\(place)\(d.severity.rawValue): \(d.message)"
    }
}
