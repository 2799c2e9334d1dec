import Foundation
import MachineModel
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// One parsed Swift file.
public final class ParsedFile: @unchecked Sendable {
    public let path: String
    public let tree: SourceFileSyntax
    let converter: SourceLocationConverter
    /// Modules the file imports (`import Actomaton` tells Actomaton's reducer from TCA's).
    public let imports: Set<String>
    /// Whether the text mentions `machine-viz` anywhere: files that do not hold no comment command,
    /// and their tokens need not be walked for one.
    let mentionsTool: Bool
    /// The module the file belongs to (see ModuleMap); types of other modules are visible only when imported.
    public internal(set) var module = ""

    init(path: String, text: String) {
        self.path = path
        self.tree = Parser.parse(source: text)
        self.converter = SourceLocationConverter(fileName: path, tree: tree)
        self.imports = Set(tree.statements.compactMap { $0.item.as(ImportDeclSyntax.self)?.path.first?.name.text })
        self.mentionsTool = text.contains("machine-viz")
    }

    func location(of node: some SyntaxProtocol) -> SourceLocation {
        let l = node.startLocation(converter: converter, afterLeadingTrivia: true)
        return SourceLocation(file: path, line: l.line, column: l.column)
    }

    func location(at position: AbsolutePosition) -> SourceLocation {
        let l = converter.location(for: position)
        return SourceLocation(file: path, line: l.line, column: l.column)
    }
}

/// The Swift files named on the command line (folders are searched recursively), read and parsed.
public struct SourceSet: Sendable {
    public private(set) var files: [ParsedFile] = []
    public private(set) var diagnostics: [Diagnostic] = []
    /// Largest file the tool reads; bigger ones are reported and skipped.
    public static let maximumFileSize = 8 << 20

    public init() {}

    /// Reads every path; unreadable paths and non-Swift files become diagnostics, never crashes.
    /// Files are read and parsed on `jobs` threads (default: the machine's cores); the result does not
    /// depend on the job count nor on the order the paths are given in (files are taken in path order).
    public static func load(paths: [String], excluding excluded: [String] = [], jobs: Int? = nil) -> SourceSet {
        var set = SourceSet()
        let found = listed(paths: paths, excluding: excluded, diagnostics: &set.diagnostics)
        let loaded = Parallel.map(found.map(\.path), jobs: jobs ?? Parallel.defaultJobs) { path in read(path) }
        var modules = ModuleMap()
        for ((file, diagnostics), entry) in zip(loaded, found) {
            if let file {
                file.module = modules.module(of: entry.path, root: entry.root)
                set.files.append(file)
            }
            set.diagnostics += diagnostics
        }
        return set
    }

    /// The Swift files under `paths` (folders searched recursively), without excluded ones, each once,
    /// sorted by path.
    public static func list(paths: [String], excluding excluded: [String] = [], diagnostics: inout [Diagnostic]) -> [String] {
        listed(paths: paths, excluding: excluded, diagnostics: &diagnostics).map(\.path)
    }

    /// The files of `list`, each with the argument path it was found under (its module depends on it).
    static func listed(paths: [String], excluding excluded: [String], diagnostics: inout [Diagnostic]) -> [(path: String, root: String)] {
        let manager = FileManager.default
        var seen = Set<String>()
        var result: [(path: String, root: String)] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                diagnostics.append(Diagnostic(severity: .error, message: "no such file or folder: \(path)", location: nil))
                continue
            }
            var found: [String] = []
            if isDirectory.boolValue {
                let base = URL(fileURLWithPath: path)
                guard let walker = manager.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey],
                                                      options: [.skipsHiddenFiles]) else { continue }
                for case let url as URL in walker {
                    let name = url.lastPathComponent
                    if name == ".build" || name.hasPrefix(".build") || name == "checkouts" || name == "DerivedData" {
                        walker.skipDescendants()
                        continue
                    }
                    if url.pathExtension == "swift" { found.append(join(path, url.path.dropFirst(base.path.count))) }
                }
            } else {
                found = [path]
            }
            for file in found where !seen.contains(file) && !excluded.contains(where: { matches(file, $0) }) {
                seen.insert(file)
                result.append((file, path))
            }
        }
        return result.sorted { $0.path < $1.path }
    }

    static func join(_ base: String, _ rest: Substring) -> String {
        let tail = rest.hasPrefix("/") ? rest.dropFirst() : rest
        return base.hasSuffix("/") ? base + tail : base + "/" + tail
    }

    static func matches(_ file: String, _ pattern: String) -> Bool {
        let p = pattern.hasSuffix("/") ? String(pattern.dropLast()) : pattern
        let f = file.hasPrefix("./") ? String(file.dropFirst(2)) : file
        let q = p.hasPrefix("./") ? String(p.dropFirst(2)) : p
        return f == q || f.hasPrefix(q + "/") || f.contains("/" + q + "/")
    }

    /// Deepest `[` nesting the parser is given. swift-syntax 603's type lookahead (`[T]`, `[N of T]`)
    /// doubles its work with each level: 18 levels take seconds in a debug build, 22 take a minute.
    public static let maximumBracketDepth = 12

    /// The deepest nesting of `[` outside string literals and comments.
    static func squareBracketDepth(_ data: Data) -> Int {
        var depth = 0, deepest = 0
        var i = data.startIndex
        let end = data.endIndex
        func at(_ k: Int) -> UInt8 { k < end ? data[k] : 0 }
        while i < end {
            let c = data[i]
            if c == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "/") {
                while i < end, data[i] != UInt8(ascii: "\n") { i += 1 }
                continue
            }
            if c == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "*") {
                i += 2
                while i < end, !(data[i] == UInt8(ascii: "*") && at(i + 1) == UInt8(ascii: "/")) { i += 1 }
                i += 2
                continue
            }
            if c == UInt8(ascii: "\"") {
                let triple = at(i + 1) == UInt8(ascii: "\"") && at(i + 2) == UInt8(ascii: "\"")
                i += triple ? 3 : 1
                while i < end {
                    if data[i] == UInt8(ascii: "\\") { i += 2; continue }
                    if data[i] == UInt8(ascii: "\"") {
                        if !triple { break }
                        if at(i + 1) == UInt8(ascii: "\"") && at(i + 2) == UInt8(ascii: "\"") { i += 2; break }
                    }
                    if !triple && data[i] == UInt8(ascii: "\n") { break }
                    i += 1
                }
                i += 1
                continue
            }
            if c == UInt8(ascii: "[") { depth += 1; deepest = max(deepest, depth) }
            else if c == UInt8(ascii: "]") { depth = max(0, depth - 1) }
            i += 1
        }
        return deepest
    }

    /// One file read and parsed, with what went wrong; nil when it is skipped.
    static func read(_ path: String) -> (ParsedFile?, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        guard let data = FileManager.default.contents(atPath: path) else {
            diagnostics.append(Diagnostic(severity: .error, message: "cannot read \(path)", location: nil))
            return (nil, diagnostics)
        }
        if data.count > Self.maximumFileSize {
            diagnostics.append(Diagnostic(severity: .warning,
                message: "skipped \(path): \(data.count) bytes is more than the \(Self.maximumFileSize)-byte limit",
                location: SourceLocation(file: path, line: 1, column: 1)))
            return (nil, diagnostics)
        }
        if data.contains(0) {
            diagnostics.append(Diagnostic(severity: .warning, message: "skipped \(path): binary file (contains NUL bytes), not Swift source",
                                          location: SourceLocation(file: path, line: 1, column: 1)))
            return (nil, diagnostics)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            diagnostics.append(Diagnostic(severity: .warning, message: "skipped \(path): not valid UTF-8, not Swift source",
                                          location: SourceLocation(file: path, line: 1, column: 1)))
            return (nil, diagnostics)
        }
        let depth = Self.squareBracketDepth(data)
        if depth > Self.maximumBracketDepth {
            diagnostics.append(Diagnostic(severity: .warning,
                message: "skipped \(path): square brackets nest \(depth) deep (more than \(Self.maximumBracketDepth)); the Swift parser's lookahead is exponential in that depth",
                location: SourceLocation(file: path, line: 1, column: 1)))
            return (nil, diagnostics)
        }
        let file = ParsedFile(path: path, text: text)
        if file.tree.hasError {
            let errors = ParseDiagnosticsGenerator.diagnostics(for: file.tree)
            for error in errors.prefix(3) {
                diagnostics.append(Diagnostic(severity: .warning,
                    message: "syntax error: \(error.message); machines around it may be incomplete",
                    location: file.location(at: error.position)))
            }
            if errors.count > 3 {
                diagnostics.append(Diagnostic(severity: .note, message: "\(errors.count - 3) more syntax errors in \(path)", location: nil))
            }
        }
        return (file, diagnostics)
    }
}
