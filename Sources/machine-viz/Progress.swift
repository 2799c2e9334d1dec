import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Progress on stderr, for people watching a terminal. It is written only when stderr is a terminal
/// (`isatty`) and `TERM` is not `dumb`, and never with `--quiet`: output that goes to a pipe or a file
/// never contains progress lines, carriage returns or escape codes.
///
/// A status line is redrawn in place (`\r` and "erase to end of line"); it appears only after the
/// work has taken half a second, so quick runs print nothing.
final class TerminalProgress: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var message = ""
    private var started = Date()
    private var shown = false
    private var running = false
    private var generation = 0

    /// Whether stderr is an interactive terminal that understands `\r` and `ESC[K`.
    static var stderrIsTerminal: Bool {
        isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    init(quiet: Bool) {
        enabled = !quiet && Self.stderrIsTerminal
    }

    /// Runs `body` while a status line with `message` and the elapsed time is shown.
    func during<T>(_ message: String, _ body: () throws -> T) rethrows -> T {
        start(message)
        defer { finish() }
        return try body()
    }

    /// Shows `message` (e.g. "scanning Sources/…") until `update` or `finish`.
    func start(_ message: String) {
        guard enabled else { return }
        lock.lock()
        self.message = message
        started = Date()
        let needsTicker = !running
        running = true
        if needsTicker { generation += 1 }
        let current = generation
        lock.unlock()
        if needsTicker {
            Thread { [weak self] in
                while let self, self.tick(current) { Thread.sleep(forTimeInterval: 0.1) }
            }.start()
        }
    }

    /// Replaces the message (e.g. "rendering 3/12 lockMappings").
    func update(_ message: String) {
        guard enabled else { return }
        lock.lock()
        self.message = message
        lock.unlock()
    }

    /// For `SourceSet.load`: "reading 120/400 files".
    var fileCounter: (Int, Int) -> Void {
        { [self] done, total in update("reading \(done + 1)/\(total) file\(total == 1 ? "" : "s")") }
    }

    /// Erases the status line.
    func finish() {
        guard enabled else { return }
        lock.lock()
        running = false
        if shown { Self.write("\r\u{1B}[K") }
        shown = false
        lock.unlock()
    }

    /// Redraws the line; false once finished.
    private func tick(_ current: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard running, current == generation else { return false }
        let elapsed = Date().timeIntervalSince(started)
        guard elapsed >= 0.5 else { return true }
        let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
        let frame = frames[Int(elapsed * 10) % frames.count]
        let line = "\(frame) \(message) \(String(format: "%.1f", elapsed))s"
        Self.write("\r\u{1B}[K" + String(line.prefix(Self.width - 1)))
        shown = true
        return true
    }

    private static var width: Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 10 { return Int(size.ws_col) }
        return 80
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
