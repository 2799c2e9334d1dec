import CGraphviz
import Foundation

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

    /// Lays out and renders `dot`. Graphviz's own error text comes back as `RenderError`.
    public static func render(dot: String, format: Format, layout: Layout = .dot) throws -> Data {
        lock.lock()
        defer { lock.unlock() }
        errorBuffer = ""
        agseterrf { text in
            if let text { Graphviz.errorBuffer += String(cString: text) }
            return 0
        }
        let previousLevel = agseterr(AGWARN)
        defer { _ = agseterr(previousLevel) }
        guard let context = gvContext() else { throw RenderError(message: "Graphviz: cannot create a context") }
        defer { gvFreeContext(context) }

        guard let graph = dot.withCString({ agmemread($0) }) else {
            throw RenderError(message: "Graphviz could not read the DOT text: \(trimmedError(or: "syntax error"))")
        }
        defer { agclose(graph) }
        // The DOT text may choose its engine (`layout="sfdp"` for huge machines).
        var engine = layout.rawValue
        let chosen = "layout".withCString { name in agget(graph, UnsafeMutablePointer(mutating: name)).map { String(cString: $0) } }
        if let chosen, Layout(rawValue: chosen) != nil { engine = chosen }
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
