import CGraphviz
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GraphvizRendering
import MachineAnalysis
import MachineExtraction
import MachineModel
import MachineRendering

/// One libFuzzer input: bytes taken as the content of a Swift file, run through what `analyze`,
/// `render` and `docs` run, with the properties every output must have:
/// - no crash, no hang (libFuzzer's -timeout), whatever the bytes;
/// - every DOT text parses back with libcgraph (`agmemread`);
/// - every SVG libgvc draws from it is well-formed XML;
/// - the JSON document decodes and encodes again to the same bytes;
/// - Mermaid and Markdown render without trapping.
/// A violated property stops the run with `fatalError`, which libFuzzer reports as a crash and saves
/// the input as `crash-…`.
@_cdecl("LLVMFuzzerTestOneInput")
public func machineVizFuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    onLargeStack { FuzzCase.run(data) }
    return 0
}

enum FuzzCase {
    /// The input is written to a real file and read back by the real reader (size limit, UTF-8,
    /// bracket depth): the same path the command line takes. An empty `Fuzz.xcodeproj` beside it makes
    /// its folder the project root, so finding the file's module does not list every folder above it
    /// (the temporary folder can hold thousands of entries, and that listing was a fifth of an input's
    /// time); the module is the unnamed one either way, as for a file given on its own.
    static let file: URL = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("machine-viz-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: dir.appendingPathComponent("Fuzz.xcodeproj"), withIntermediateDirectories: true)
        return dir.appendingPathComponent("Input.swift")
    }()

    /// Machines with more edges than this are not laid out to SVG (layout time grows fast; the DOT
    /// text is still parsed back). Fuzzed inputs rarely get there.
    static let svgEdgeLimit = 60

    /// DOT texts already drawn to SVG by this process. libgvc draws the same text to the same bytes,
    /// and most mutated inputs give machines already seen (a changed comment, a renamed local), so a
    /// text is laid out once: the layout is most of an input's time, and this multiplies the inputs
    /// run per second without checking less. Bounded: emptied when it holds a million hashes.
    nonisolated(unsafe) static var drawn = Set<Int>()

    static func run(_ data: Data) {
        do { try data.write(to: file) } catch { fatalError("cannot write the fuzz input: \(error)") }
        let extracted = Extractor.extract(paths: [file.path])
        let analyzer = Analyzer()
        let machines = extracted.machines.map(analyzer.analyze)
        for machine in machines {
            check(machine)
        }
        let document = AnalysisDocument(machines: machines, diagnostics: extracted.diagnostics)
        do {
            let json = try document.jsonData()
            // Decodes, and encodes again to the same bytes (the document is a fixed point of the
            // stable encoding; some in-memory fields are not part of the JSON contract).
            let back = try JSONDecoder().decode(AnalysisDocument.self, from: json)
            if try back.jsonData() != json { fatalError("the JSON document does not read back to the same bytes") }
        } catch {
            fatalError("JSON round trip failed: \(error)")
        }
    }

    static func check(_ machine: Machine) {
        let dot = DOTRenderer().render(machine)
        guard let graph = dot.withCString({ agmemread($0) }) else {
            fatalError("libcgraph cannot read the DOT text of \(machine.name):\n\(dot)")
        }
        agclose(graph)
        if drawn.count >= 1_000_000 { drawn.removeAll() }
        if machine.edges.count <= svgEdgeLimit, drawn.insert(dot.hashValue).inserted {
            let svg: Data
            do { svg = try Graphviz.render(dot: dot, format: .svg) } catch {
                fatalError("libgvc cannot draw \(machine.name): \(error)\n\(dot)")
            }
            let parser = XMLParser(data: svg)
            if !parser.parse() {
                fatalError("the SVG of \(machine.name) is not well-formed XML: \(String(describing: parser.parserError))\n\(String(decoding: svg, as: UTF8.self))")
            }
        }
        _ = MermaidRenderer().render(machine)
        _ = MarkdownRenderer().render(machine)
    }
}

/// swift-syntax visitors recurse as deep as the source nests; the command line runs them on a thread
/// with a 512 MiB stack, and so does this.
func onLargeStack(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = 1 << 29
    thread.start()
    done.wait()
}
