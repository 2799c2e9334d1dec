import Foundation

/// Runs SPIN on a Promela export (`PromelaRenderer`): `spin -a`, a C compiler, then the verifier
/// breadth-first without partial-order reduction (`-DBFS -DNOREDUCE`, `pan -E`), so that its count of
/// states stored is comparable with the effect explorer's count of configurations. Used by the
/// benchmark and the SPIN cross-check tests; the tool itself never runs SPIN.
public enum Spin {
    /// The first executable called `name` on the `PATH`.
    public static func executable(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public static let spin = executable("spin")
    public static let cc = executable("gcc") ?? executable("cc") ?? executable("clang")

    /// Runs `tool` in `directory` and returns what it wrote to stdout and stderr.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String], in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The verifier's "N states, stored" figure.
    public static func statesStored(in output: String) -> Int? {
        output.split(separator: "\n").first { $0.contains("states, stored") }.flatMap { Int($0.split(separator: " ").first ?? "") }
    }
}
