import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
    /// unusable arguments) instead of 64, and a `CLIError` prints its one line and no usage.
    static func main() {
        ProcessTuning.growHeapsInLargeSteps()
        ProcessTuning.leaveMemoryToExit()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as CLIError {
            Output.stderr("error: \(error.message)")
            Foundation.exit(error.status)
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

/// Exit statuses, the same for every subcommand (docs/cli.md).
enum ExitStatus {
    /// Findings that fail the command, `docs --check` out of date, a render that failed.
    static let failed: Int32 = 1
    /// Bad usage (unknown option or value, unknown `--machine`), no usable input, bad configuration
    /// or baseline.
    static let usage: Int32 = 2
    /// An output file or folder could not be written.
    static let output: Int32 = 3
}

/// A failure the user can act on: one line on stderr (`error: …`), no usage text, and its status.
struct CLIError: Error {
    var message: String
    var status: Int32

    static func usage(_ message: String) -> CLIError { CLIError(message: message, status: ExitStatus.usage) }
    static func output(_ message: String) -> CLIError { CLIError(message: message, status: ExitStatus.output) }

    /// Nothing could be read: says which paths gave nothing (after the diagnostics that say why).
    static func noInput(_ paths: [String]) -> CLIError {
        let named = paths.isEmpty ? "." : paths.joined(separator: " ")
        return .usage("no Swift file to read in \(named) (give Swift files or folders that contain some)")
    }

    /// Some of the paths given do not exist while others do (a misspelt folder): nothing is read, rather
    /// than a run that checks less than asked and passes (or `docs` dropping the pages of what it missed).
    /// When none exists, the run goes on to say so (`noInput`), with `analyze`'s document.
    static func requireExisting(_ paths: [String]) throws {
        let missing = paths.filter { !FileManager.default.fileExists(atPath: $0) }
        guard !missing.isEmpty, missing.count < paths.count else { return }
        throw CLIError.usage("no such file or folder: \(missing.joined(separator: ", ")); nothing was read (fix or leave out \(missing.count == 1 ? "that path" : "those paths"))")
    }
}

/// Paths to read, shared by every subcommand.
struct InputOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Swift files or folders to read (folders are searched recursively for .swift files).",
                                 valueName: "path"))
    var paths: [String] = []

    @Option(name: .customLong("exclude"), help: ArgumentHelp("A path to leave out (repeatable).", valueName: "path"))
    var excluded: [String] = []

    @OptionGroup var performance: PerformanceOptions

    @Option(help: ArgumentHelp("Read the Swift source from standard input and report it under this path (for editors); no other path is read.",
                               valueName: "path"))
    var stdinPath: String?

    /// Set by the command plugin: the source files of the package's targets, read when no path is given.
    /// The tool, not the plugin, tells paths from option values (`--baseline FILE` is not a path to read).
    @Option(name: .customLong("default-path"), help: .private)
    var defaultPaths: [String] = []

    mutating func validate() throws {
        if paths.isEmpty && stdinPath == nil { paths = defaultPaths }
        if paths.isEmpty && stdinPath == nil { throw ValidationError("Give at least one Swift file or folder.") }
        if !paths.isEmpty && stdinPath != nil { throw ValidationError("--stdin-path reads standard input: give no other path.") }
    }

    /// The paths as given, or the --stdin-path name.
    var described: String { stdinPath ?? paths.joined(separator: " ") }
}

/// How many threads read, parse and index files, build reducers and analyse machines. The output is the
/// same whatever the value.
struct PerformanceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Read, parse and index files, build reducers and switch methods, find candidates and analyse machines on this many threads (default: the machine's cores). The output does not depend on it.",
                               valueName: "n"))
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
    }

    var resolvedJobs: Int { jobs ?? Parallel.defaultJobs }
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
        var candidates: [Candidate] = []
        /// Struct states whose machine fields can be explored together (`render --product`).
        var products: [ProductMachine] = []

        /// Throws the "no input" error when nothing could be read, after the diagnostics said why.
        func requireInput(_ inputs: InputOptions) throws {
            if readFiles == 0 { throw CLIError.noInput(inputs.stdinPath.map { [$0] } ?? inputs.paths) }
        }
    }

    /// With `progress`, the status line counts the files read, then says how many are analysed.
    static func run(_ inputs: InputOptions, progress: TerminalProgress? = nil, bounds: EffectBounds = EffectBounds()) -> Result {
        onLargeStack {
            let sources = SourceSet.load(paths: inputs.paths, excluding: inputs.excluded, jobs: inputs.performance.resolvedJobs,
                                         stdinPath: inputs.stdinPath, progress: progress?.fileCounter)
            progress?.update("extracting machines from \(Output.count(sources.files.count, "file"))")
            let extracted = Extractor.extract(sources, jobs: inputs.performance.resolvedJobs)
            let analyzer = Analyzer(bounds: bounds)
            var machines: [Machine] = []
            var diagnostics = extracted.diagnostics
            let products = extracted.products.map { ProductExplorer().explore($0, invariants: []) }
            for m in extracted.machines {
                let (machine, notes) = analyzer.analyzeReporting(m, product: ProductView.find(for: m, in: products))
                machines.append(machine)
                diagnostics += notes
            }
            diagnostics = Analyzer.mergingRepeats(diagnostics, machines: machines.map(\.name))
            return Result(machines: machines, diagnostics: diagnostics,
                          readFiles: sources.files.count, candidates: extracted.candidates, products: extracted.products)
        }
    }

    /// `run` with progress on a terminal and diagnostics on stderr; exit 2 when no file could be read.
    static func scan(_ inputs: InputOptions, quiet: Bool, bounds: EffectBounds = EffectBounds()) throws -> Result {
        try CLIError.requireExisting(inputs.paths)
        let progress = TerminalProgress(quiet: quiet)
        let result = progress.during("scanning \(inputs.described)") { run(inputs, progress: progress, bounds: bounds) }
        Output.stderr(lines: result.diagnostics.map(Output.describe))
        try result.requireInput(inputs)
        return result
    }

    /// The machines `--machine NAME` selects (all without it); an unknown name is a usage error that
    /// suggests the closest name (exit 2), no machine at all exits 1.
    static func select(_ machines: [Machine], named name: String?) throws -> [Machine] {
        var selected = machines
        if let name {
            selected = machines.filter { $0.name == name || $0.id == name }
            if selected.isEmpty {
                throw CLIError.usage(Render.unknownMachine(name, known: machines.map(\.name)))
            }
        }
        guard !selected.isEmpty else {
            Output.stderr("error: no state machine found in the given paths")
            throw ExitCode(ExitStatus.failed)
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

    /// Writes a file completely or not at all. On Linux the bytes go to an unnamed file in the target's
    /// folder (`O_TMPFILE`), which is given a name and renamed over the target only once complete, so
    /// a run killed while writing leaves the old file and no temporary file; elsewhere (or where the
    /// file system has no `O_TMPFILE`) a hidden temporary file beside the target, then a rename.
    /// Failures are `CLIError.output` with a readable reason.
    static func atomicWrite(_ data: Data, to url: URL) throws {
        let path = url.path
        let folder = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CLIError.output("cannot write \(path): it is a folder (give a file name)")
        }
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            throw CLIError.output("cannot write \(path): the folder \(folder) does not exist")
        }
        guard isDirectory.boolValue else { throw CLIError.output("cannot write \(path): \(folder) is not a folder") }
        let temporary = folder + "/." + url.lastPathComponent + ".machine-viz-\(getpid()).tmp"
        var fd: Int32 = -1
        var named = false
        #if os(Linux)
        fd = open(folder, O_WRONLY | Self.oTmpFile, 0o666)
        #endif
        if fd < 0 {
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o666)
            named = true
        }
        guard fd >= 0 else { throw CLIError.output("cannot write \(path): \(reason(errno))") }
        func fail(_ code: Int32) -> CLIError {
            close(fd)
            if named { unlink(temporary) }
            return CLIError.output("cannot write \(path): \(reason(code))")
        }
        let pauseAfterHalf = ProcessInfo.processInfo.environment["MACHINE_VIZ_TEST_PAUSE_WHILE_WRITING"].flatMap(Double.init)
        var offset = 0
        let ok = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            while offset < buffer.count {
                var chunk = min(1 << 16, buffer.count - offset)
                if pauseAfterHalf != nil, offset < buffer.count / 2 { chunk = min(chunk, buffer.count / 2 - offset) }
                let n = systemWrite(fd, buffer.baseAddress! + offset, chunk)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
                // test hook (Tests/EndToEndTests): stop half-way so a test can kill the run mid-write
                if let pause = pauseAfterHalf, offset == buffer.count / 2 {
                    FileHandle.standardError.write(Data("machine-viz: paused while writing \(path)\n".utf8))
                    Thread.sleep(forTimeInterval: pause)
                }
            }
            return true
        }
        guard ok, fsync(fd) == 0 else { throw fail(errno) }
        #if os(Linux)
        if !named {
            // give the finished unnamed file a name beside the target, then move it over the target
            guard linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) == 0 else { throw fail(errno) }
            named = true
        }
        #endif
        close(fd)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw CLIError.output("cannot write \(path): \(reason(code))")
        }
    }

    static func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, bytes, count)
        #else
        Darwin.write(fd, bytes, count)
        #endif
    }

    #if os(Linux)
    /// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), which Swift does not import from the C macro.
    static let oTmpFile: Int32 = 0o20000000 | O_DIRECTORY
    #endif

    /// The reason for an errno, in words.
    static func reason(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: return "permission denied"
        case ENOSPC: return "no space left on the device"
        case EROFS: return "read-only file system"
        case EISDIR: return "it is a folder"
        case ENOENT: return "no such file or folder"
        default: return String(cString: strerror(code))
        }
    }

    /// Creates a folder (and its parents) for output, or a readable `CLIError.output`.
    static func createFolder(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return }
            throw CLIError.output("cannot create the folder \(path): a file has that name")
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map { Int32($0.code) } ?? EACCES
            throw CLIError.output("cannot create the folder \(path): \(reason(code))")
        }
    }

    static func stderr(_ text: String) {
        stderr(lines: [text])
    }

    /// Lines to standard error in one write (a code base gives thousands of diagnostics).
    static func stderr(lines: [String]) {
        guard !lines.isEmpty else { return }
        var text = ""
        for line in lines {
            text += line
            if line.utf8.last != UInt8(ascii: "\n") { text += "\n" }
        }
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func describe(_ d: Diagnostic) -> String {
        let place = d.location.map { "\($0.file):\($0.line):\($0.column): " } ?? ""
        return "\(place)\(d.severity.rawValue): \(d.message)"
    }

    static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String { counted(n, singular, plural) }
}
