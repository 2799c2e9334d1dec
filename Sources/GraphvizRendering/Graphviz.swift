import CGraphviz
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Renders DOT text to SVG, PNG or PDF with Graphviz's libgvc, in-process. This is the only file
/// that calls Graphviz; DOT text is the seam between Swift and C.
public enum Graphviz {
    public enum Format: String, CaseIterable, Sendable {
        case svg, png, pdf

        /// The libgvc device: PNG and PDF go through cairo for anti-aliased text.
        var device: String {
            switch self {
            case .svg: "svg"
            case .png: "png:cairo"
            case .pdf: "pdf:cairo"
            }
        }
    }

    public enum Layout: String, Sendable {
        case dot, neato, sfdp, circo, twopi, fdp
    }

    public struct RenderError: Error, LocalizedError, Equatable {
        public var message: String
        public var errorDescription: String? { message }
    }

    /// libgvc keeps global state (error buffers, plugin tables): one render at a time.
    private static let lock = NSLock()

    /// The one libgvc context of the process, made on the first render and used under `lock` (as the
    /// `dot` command lays out every graph of its input with one). A context per render leaked: libgvc
    /// 2.42's `gvFreeContext` does not free the plugin configuration text `gvContext` reads (3.6 KB),
    /// so a long-lived process (the fuzz target, a library user) grew by that much per diagram.
    nonisolated(unsafe) private static var sharedContext: OpaquePointer?
    /// How many libgvc contexts this process made (tests: one).
    nonisolated(unsafe) private(set) static var contextsMade = 0

    /// Lays out and renders `dot`. Graphviz's own error text comes back as `RenderError`.
    public static func render(dot: String, format: Format, layout: Layout = .dot) throws -> Data {
        try self.layout(dot: dot, format: format, layout: layout).data
    }

    /// A rendered diagram and the engine that laid it out.
    public struct Rendering: Sendable {
        public var data: Data
        /// The libgvc engine used (`dot`, `sfdp`, …).
        public var engine: String
        /// Set when `dot` went over its time budget and `engine` replaced it: what to tell the user.
        public var fallbackNote: String?
    }

    /// Lays out and renders `dot`. With a `budget` (seconds), a `dot` layout runs in a child process
    /// and, when it has not finished within the budget, is stopped and `fallback` lays the graph out
    /// instead; the engine used is written into the output (a `comment`, which SVG keeps as
    /// `<!-- layout: … -->`). Without a budget (or with another engine) the layout runs in-process.
    public static func layout(dot: String, format: Format, layout: Layout = .dot, budget: Double? = nil,
                              fallback: Layout = .sfdp) throws -> Rendering {
        lock.lock()
        defer { lock.unlock() }
        errorBuffer = ""
        agseterrf { text in
            if let text { Graphviz.errorBuffer += String(cString: text) }
            return 0
        }
        let previousLevel = agseterr(AGWARN)
        defer { _ = agseterr(previousLevel) }
        if sharedContext == nil {
            sharedContext = gvContext()
            contextsMade += 1
        }
        guard let context = sharedContext else { throw RenderError(message: "Graphviz: cannot create a context") }

        guard let graph = dot.withCString({ agmemread($0) }) else {
            throw RenderError(message: "Graphviz could not read the DOT text: \(trimmedError(or: "syntax error"))")
        }
        defer { agclose(graph) }
        // The DOT text may choose its engine (`layout="sfdp"` for huge machines).
        var engine = layout.rawValue
        if let chosen = attribute(graph, "layout"), Layout(rawValue: chosen) != nil { engine = chosen }
        var note: String?
        if let budget, engine == Layout.dot.rawValue {
            setAttribute(graph, "comment", "layout: dot")
            if let data = try renderInChild(context: context, graph: graph, format: format, budget: budget) {
                return Rendering(data: data, engine: engine, fallbackNote: nil)
            }
            engine = fallback.rawValue
            note = "dot did not finish within \(String(format: "%.1f", budget)) s: laid out with \(engine) instead"
            setAttribute(graph, "comment", "layout: \(engine) (\(note!))")
            setAttribute(graph, "overlap", "prism")
        }
        return Rendering(data: try renderHere(context: context, graph: graph, engine: engine, format: format),
                         engine: engine, fallbackNote: note)
    }

    private static func renderHere(context: OpaquePointer, graph: UnsafeMutablePointer<Agraph_t>, engine: String,
                                   format: Format) throws -> Data {
        guard gvLayout(context, graph, engine) == 0 else {
            throw RenderError(message: "Graphviz layout '\(engine)' failed: \(trimmedError(or: "unknown error"))")
        }
        defer { gvFreeLayout(context, graph) }
        var buffer: UnsafeMutablePointer<CChar>?
        var length: UInt32 = 0
        guard gvRenderData(context, graph, format.device, &buffer, &length) == 0, let buffer else {
            throw RenderError(message: "Graphviz cannot render \(format.rawValue): \(trimmedError(or: "the renderer plugin is missing"))")
        }
        defer { gvFreeRenderData(buffer) }
        return Data(bytes: buffer, count: Int(length))
    }

    /// `dot` in a forked child that writes the rendering to a pipe. Nil when it runs over `budget` (the
    /// child is killed); a failed layout is redone here to get Graphviz's error text.
    private static func renderInChild(context: OpaquePointer, graph: UnsafeMutablePointer<Agraph_t>, format: Format,
                                      budget: Double) throws -> Data? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return try renderHere(context: context, graph: graph, engine: "dot", format: format) }
        let device = format.device
        let pid = machine_viz_fork()
        if pid == 0 {
            close(fds[0])
            var status: Int32 = 3
            if gvLayout(context, graph, "dot") == 0 {
                var buffer: UnsafeMutablePointer<CChar>?
                var length: UInt32 = 0
                if gvRenderData(context, graph, device, &buffer, &length) == 0, let buffer {
                    var written = 0
                    status = 0
                    while written < Int(length) {
                        let n = write(fds[1], buffer + written, Int(length) - written)
                        if n <= 0 { status = 4; break }
                        written += n
                    }
                }
            }
            machine_viz_exit(status)
        }
        close(fds[1])
        defer { close(fds[0]) }
        guard pid > 0 else { return try renderHere(context: context, graph: graph, engine: "dot", format: format) }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(budget * 1e9)
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var finished = false
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            if now >= deadline { break }
            var descriptor = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(1000, max(1, (deadline - now) / 1_000_000))))
            if ready < 0 && errno != EINTR { break }
            guard ready > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if n > 0 { data.append(contentsOf: chunk[0..<n]); continue }
            if n == 0 { finished = true; break }
            if errno != EINTR { break }
        }
        if !finished { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard finished else { return nil }
        if status == 0 { return data }
        return try renderHere(context: context, graph: graph, engine: "dot", format: format)
    }

    private static func attribute(_ graph: UnsafeMutablePointer<Agraph_t>, _ name: String) -> String? {
        name.withCString { agget(graph, UnsafeMutablePointer(mutating: $0)).map { String(cString: $0) } }
    }

    private static func setAttribute(_ graph: UnsafeMutablePointer<Agraph_t>, _ name: String, _ value: String) {
        name.withCString { n in
            value.withCString { v in
                "".withCString { d in
                    _ = agsafeset(graph, UnsafeMutablePointer(mutating: n), UnsafeMutablePointer(mutating: v), UnsafeMutablePointer(mutating: d))
                }
            }
        }
    }

    /// Whether this libgvc has a renderer for the format (PNG/PDF need the cairo plugin).
    public static func supports(_ format: Format) -> Bool {
        (try? render(dot: "digraph { a }", format: format)) != nil
    }

    nonisolated(unsafe) private static var errorBuffer = ""

    private static func trimmedError(or fallback: String) -> String {
        let text = errorBuffer.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? fallback : text
    }
}
