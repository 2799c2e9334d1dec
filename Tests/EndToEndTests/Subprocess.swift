import Foundation

/// A finished child process: exit status and what it printed.
struct Subprocess {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Runs `executable` to the end. stdout and stderr are drained on their own threads, so a child
    /// that fills one pipe while the test reads the other cannot deadlock.
    static func run(_ executable: URL, _ arguments: [String], in directory: URL,
                    environment: [String: String]? = nil) throws -> Subprocess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let group = DispatchGroup()
        final class Buffer: @unchecked Sendable { var data = Data() }
        let outBuffer = Buffer(), errBuffer = Buffer()
        for (pipe, buffer) in [(out, outBuffer), (err, errBuffer)] {
            DispatchQueue.global().async(group: group) { buffer.data = pipe.fileHandleForReading.readDataToEndOfFile() }
        }
        group.wait()
        process.waitUntilExit()
        return Subprocess(status: process.terminationStatus, stdout: String(decoding: outBuffer.data, as: UTF8.self),
                          stderr: String(decoding: errBuffer.data, as: UTF8.self))
    }
}
