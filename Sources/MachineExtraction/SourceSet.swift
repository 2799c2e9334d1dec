import Foundation
import MachineModel
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// One parsed Swift file.
public final class ParsedFile: @unchecked Sendable {
    public let path: String
    public let tree: SourceFileSyntax
    /// Where each line starts (UTF-8 offsets), from the text the tree was parsed from: a scan of its
    /// bytes (swift-syntax's `SourceLocationConverter` walks the whole tree to the same table).
    private let lineStarts: [Int32]
    /// Modules the file imports (`import Actomaton` tells Actomaton's reducer from TCA's).
    public let imports: Set<String>
    /// Whether the text mentions `machine-viz` anywhere: files that do not hold no comment command,
    /// and their tokens need not be walked for one.
    let mentionsTool: Bool
    /// The module the file belongs to (see ModuleMap); types of other modules are visible only when imported.
    public internal(set) var module = ""
    /// Modules the file sees without importing them: the other folders of one app, whose modules were
    /// only guessed from folders (see ModuleMap).
    var implicitImports: Set<String> = []
    /// Whether the file is in a test target (ModuleMap's `testModules`): test code, whatever it imports.
    var inTestTarget = false
    /// The one walk of the tree, made where it is parsed; the extractor's finders replay it (SyntaxEvents).
    let events: SyntaxEvents

    init(path: String, text: String) {
        self.path = path
        self.tree = Parser.parse(source: text)
        self.imports = Set(tree.statements.compactMap { $0.item.as(ImportDeclSyntax.self)?.path.first?.name.text })
        self.mentionsTool = text.containsBytes("machine-viz")
        self.events = SyntaxEvents(tree)
        self.lineStarts = Self.lineStarts(text)
    }

    /// Line breaks as Swift counts them (and `SourceLocationConverter`): `\n`, `\r`, `\r\n`.
    static func lineStarts(_ text: String) -> [Int32] {
        var text = text
        text.makeContiguousUTF8()   // (already so for a text read from a file)
        var starts: [Int32] = [0]
        _ = text.utf8.withContiguousStorageIfAvailable { bytes in
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                if b == 13, i < bytes.count, bytes[i] == 10 { i += 1 }
                if b == 10 || b == 13 { starts.append(Int32(i)) }
            }
        }
        return starts
    }

    func location(of node: some SyntaxProtocol) -> SourceLocation {
        location(at: node.positionAfterSkippingLeadingTrivia)
    }

    /// Line and column (in UTF-8 bytes, from 1) of a position, as `SourceLocationConverter` gives them.
    func location(at position: AbsolutePosition) -> SourceLocation {
        let offset = position.utf8Offset
        // the last line starting at or before the offset
        var low = 0, high = lineStarts.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if Int(lineStarts[mid]) <= offset { low = mid } else { high = mid }
        }
        return SourceLocation(file: path, line: low + 1, column: offset - Int(lineStarts[low]) + 1)
    }
}

/// The Swift files named on the command line (folders are searched recursively), read and parsed.
public struct SourceSet: Sendable {
    public private(set) var files: [ParsedFile] = []
    public private(set) var diagnostics: [Diagnostic] = []
    /// Largest file the tool reads; bigger ones are reported and skipped.
    public static let maximumFileSize = 8 << 20

    public init() {}

    /// Reads every path; unreadable paths, folders without Swift files and files named explicitly
    /// that are not `.swift` files become diagnostics, never crashes.
    /// With `stdinPath`, the source is read from standard input instead and reported under that path.
    /// Files are read and parsed on `jobs` threads (default: the machine's cores), in path order
    /// whatever the order of `paths`: the result depends neither on the job count nor on that order.
    /// `progress` is called with (files read, files to read) as files are read.
    public static func load(paths: [String], excluding excluded: [String] = [], jobs: Int? = nil, stdinPath: String? = nil,
                            progress: ((Int, Int) -> Void)? = nil) -> SourceSet {
        var set = SourceSet()
        if let stdinPath {
            set.add(path: stdinPath, data: FileHandle.standardInput.readDataToEndOfFile())
            return set
        }
        let found = listed(paths: paths, excluding: excluded, diagnostics: &set.diagnostics)
        var modules = ModuleMap()
        let entries = found.map { (path: $0.path, root: $0.root, module: modules.module(of: $0.path, root: $0.root)) }
        let counter = Counter()
        let loaded = Parallel.map(entries, jobs: jobs ?? Parallel.defaultJobs) { entry -> (ParsedFile?, [Diagnostic], FileReading?) in
            if let progress { progress(counter.next(), found.count) }
            let (file, diagnostics) = read(entry.path)
            guard let file else { return (nil, diagnostics, nil) }
            file.module = entry.module.name
            // what the file says (declarations, calls, each recogniser's finds), while its nodes are in the cache
            return (file, diagnostics, FileReading(file))
        }
        var guessed: [String: [ParsedFile]] = [:]   // argument path → files in modules guessed from folders
        for ((file, diagnostics, reading), entry) in zip(loaded, entries) {
            if let file {
                file.inTestTarget = modules.testModules.contains(file.module)
                set.files.append(file)
                set.readings.byFile[ObjectIdentifier(file)] = reading
                if entry.module.guessed { guessed[entry.root, default: []].append(file) }
            }
            set.diagnostics += diagnostics
        }
        // folders guessed to be modules, none of which imports another: the folders of one app, which see
        // each other (and the files directly in the folder given, the module "", guessed so too)
        for files in guessed.values {
            let names = Set(files.map(\.module))
            guard names.count > 1, !files.contains(where: { !$0.imports.isDisjoint(with: names) }) else { continue }
            for file in files { file.implicitImports = names.subtracting([file.module]) }
        }
        ProcessTuning.keepUntilExit(set.files)
        return set
    }

    /// What each file says (FileReading), read as it is loaded; the extractor reads a file itself
    /// when it has none (a file added from standard input).
    let readings = Readings()

    final class Readings: @unchecked Sendable {
        /// Written only while the set is loaded, before it is shared.
        var byFile: [ObjectIdentifier: FileReading] = [:]
    }

    /// Files read so far, counted across threads (for progress only).
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value - 1 }
    }

    /// The Swift files under `paths` (folders searched recursively), without excluded ones, each once,
    /// sorted by path.
    public static func list(paths: [String], excluding excluded: [String] = [], diagnostics: inout [Diagnostic]) -> [String] {
        listed(paths: paths, excluding: excluded, diagnostics: &diagnostics).map(\.path)
    }

    /// The files of `list`, each with the argument path it was found under (its module depends on it).
    /// Folders linked to (symbolic links) are searched too, each real folder once; a file reached by two
    /// spellings (`. Shop/Till.swift`) is read once, under the first of them in path order.
    static func listed(paths: [String], excluding excluded: [String], diagnostics: inout [Diagnostic]) -> [(path: String, root: String)] {
        let manager = FileManager.default
        var found: [String: (path: String, root: String, linked: Bool)] = [:]
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                diagnostics.append(Diagnostic(severity: .error, message: "no such file or folder: \(path)", location: nil))
                continue
            }
            var files: [Found] = []
            if isDirectory.boolValue {
                var walked = Set<String>()
                walk(path, into: &files, walked: &walked, linked: false)
                if files.isEmpty {
                    diagnostics.append(Diagnostic(severity: .warning, message: "no Swift files in \(path)", location: nil))
                }
            } else if URL(fileURLWithPath: path).pathExtension != "swift" {
                diagnostics.append(Diagnostic(severity: .error,
                    message: "\(path) is not a Swift file (its name does not end in .swift); not read",
                    location: nil))
                continue
            } else {
                let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
                files = [Found(path: path, real: real, linked: real != URL(fileURLWithPath: path).standardizedFileURL.path)]
            }
            for file in files where !excluded.contains(where: { matches(file.path, $0) }) {
                // (the spelling without links first, then in path order)
                if let known = found[file.real], (known.linked ? 1 : 0, known.path, known.root) <= (file.linked ? 1 : 0, file.path, path) { continue }
                found[file.real] = (file.path, path, file.linked)
            }
        }
        return found.values.map { ($0.path, $0.root) }.sorted { ($0.path, $0.root) < ($1.path, $1.root) }
    }

    /// A Swift file found: as spelled from the path given, its real path, and whether a link led to it.
    struct Found {
        var path: String
        var real: String
        var linked: Bool
    }

    /// Folders never searched: build products, package checkouts, CocoaPods' and Carthage's vendored code.
    static func skipped(_ name: String) -> Bool {
        name.hasPrefix(".build") || ["checkouts", "deriveddata", "pods", "carthage"].contains(name.lowercased())
    }

    /// The Swift files under `folder` (spelled from it), hidden and `skipped` folders left out, into
    /// `files`; a linked folder is searched unless its real folder was (a link to an enclosing folder).
    static func walk(_ folder: String, into files: inout [Found], walked: inout Set<String>, linked: Bool) {
        let base = URL(fileURLWithPath: folder).resolvingSymlinksInPath()
        guard walked.insert(base.path).inserted,
              let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [], options: [.skipsHiddenFiles]) else { return }
        var links: [String] = []
        for case let url as URL in walker {
            if skipped(url.lastPathComponent) {
                walker.skipDescendants()
                continue
            }
            // (`lstat` itself: Foundation's resource values cost a hundred times more)
            let path = url.path
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { continue }
            let swift = url.pathExtension == "swift"
            var spelled: String { join(folder, path.dropFirst(base.path.count)) }
            if info.st_mode & S_IFMT == S_IFLNK {
                // a link to a folder is searched after this one (unless its real folder was); one to a Swift file is read
                var target = stat()
                guard stat(path, &target) == 0 else { continue }
                if target.st_mode & S_IFMT == S_IFDIR {
                    links.append(spelled)
                } else if swift {
                    files.append(Found(path: spelled, real: url.resolvingSymlinksInPath().path, linked: true))
                }
            } else if swift {
                // (a folder named `Legacy.swift` is searched, not read)
                files.append(Found(path: spelled, real: path, linked: linked))
            }
        }
        for link in links.sorted() { walk(link, into: &files, walked: &walked, linked: true) }
    }

    static func join(_ base: String, _ rest: Substring) -> String {
        let tail = rest.hasPrefix("/") ? rest.dropFirst() : rest
        return base.hasSuffix("/") ? base + tail : base + "/" + tail
    }

    /// Whether a file's path is the excluded path or under it.
    public static func matches(_ file: String, _ pattern: String) -> Bool {
        let p = pattern.hasSuffix("/") ? String(pattern.dropLast()) : pattern
        let f = file.hasPrefix("./") ? String(file.dropFirst(2)) : file
        let q = p.hasPrefix("./") ? String(p.dropFirst(2)) : p
        return f == q || f.hasPrefix(q + "/") || f.contains("/" + q + "/")
    }

    /// Deepest `[` nesting the parser is given; brackets inside a deeper one are blanked. swift-syntax
    /// 603's lookahead for `[` (an array type or an array literal?) doubles its work with each level
    /// (docs/benchmark.md#bracket-depth, `machine-viz-bench depth`): at 12 the worst shape costs 3.4 ms
    /// per occurrence in a release build, 0.15 s in debug, ×4 per two more levels. The deepest nesting in
    /// the real code measured is 5.
    public static let maximumBracketDepth = 12

    /// A part of a file that is blanked before parsing: bytes `start..<end`, and the deepest nesting in it.
    struct BlankedRegion: Equatable {
        var start: Int
        var end: Int
        var depth: Int
    }

    /// The `[` … `]` pairs that open deeper than `limit` (outside string literals and comments, but
    /// inside their interpolations, which are code): for
    /// each outermost one, its bytes from the bracket to its match, both included, so that blanking
    /// them leaves the nesting at `limit` at most. An unclosed one runs to the end of the file.
    ///
    /// The parser's lookahead re-reads what is inside the brackets around a blanked region once per
    /// level (2^depth times), blanks included: a long region is widened to an enclosing bracket
    /// until 2^depth × its length is within `budget`, so blanking never makes parsing slow.
    static func tooDeepRegions(_ data: Data, limit: Int, budget: Int = 1 << 20) -> [BlankedRegion] {
        struct Open { var position: Int; var depth: Int; var parent: Int?; var close: Int? }
        var opens: [Open] = []
        var stack: [Int] = []
        var i = data.startIndex
        let end = data.endIndex
        // indexing an array is much cheaper than indexing `Data` byte by byte
        let base = data.startIndex
        let bytes = [UInt8](data)
        func at(_ k: Int) -> UInt8 { k < end ? bytes[k - base] : 0 }
        // what the scanner is inside: a string literal, or the code of an interpolation `\( … )` in one
        // (its brackets count: the parser reads them as code), with the parentheses open in it and the
        // brackets open before it (the parser ends the interpolation at its `)`, and with it any bracket
        // left open inside)
        // (a raw string, `#"say "hi""#`, ends at a quote followed by its number of `#`, and only `\#(` opens
        // an interpolation in it)
        enum Frame { case string(triple: Bool, hashes: Int), interpolation(parens: Int, brackets: Int) }
        var frames: [Frame] = []
        func hashes(from k: Int) -> Int {
            var j = k
            while at(j) == UInt8(ascii: "#") { j += 1 }
            return j - k
        }
        while i < end {
            let c = bytes[i - base]
            if case .string(let triple, let raw)? = frames.last {
                if c == UInt8(ascii: "\\") {
                    // `\(` (raw: `\#(`): code until the matching `)`; any other escape: two bytes (raw: a
                    // backslash without its `#` is itself)
                    let n = hashes(from: i + 1)
                    if raw > 0 && n != raw {
                        i += 1
                    } else if at(i + 1 + n) == UInt8(ascii: "(") {
                        frames.append(.interpolation(parens: 0, brackets: stack.count))
                        i += n + 2
                    } else {
                        i += n + 2
                    }
                    continue
                }
                if c == UInt8(ascii: "\"") {
                    let quotes = triple ? 3 : 1
                    if (1..<quotes).allSatisfy({ at(i + $0) == UInt8(ascii: "\"") }), hashes(from: i + quotes) >= raw {
                        frames.removeLast()
                        i += quotes + raw
                        continue
                    }
                }
                if !triple && c == UInt8(ascii: "\n") { frames.removeLast() }
                i += 1
                continue
            }
            if c == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "/") {
                while i < end, bytes[i - base] != UInt8(ascii: "\n") { i += 1 }
                continue
            }
            // (block comments nest in Swift: `/* a /* b */ still a comment */`)
            if c == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "*") {
                var depth = 1
                i += 2
                while i < end, depth > 0 {
                    if bytes[i - base] == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "*") { depth += 1; i += 2; continue }
                    if bytes[i - base] == UInt8(ascii: "*"), at(i + 1) == UInt8(ascii: "/") { depth -= 1; i += 2; continue }
                    i += 1
                }
                continue
            }
            let raw = c == UInt8(ascii: "#") ? hashes(from: i) : 0
            if c == UInt8(ascii: "\"") || raw > 0 && at(i + raw) == UInt8(ascii: "\"") {
                let q = i + raw
                let triple = at(q + 1) == UInt8(ascii: "\"") && at(q + 2) == UInt8(ascii: "\"")
                frames.append(.string(triple: triple, hashes: raw))
                i = q + (triple ? 3 : 1)
                continue
            }
            if case .interpolation(let parens, let brackets)? = frames.last {
                if c == UInt8(ascii: "(") {
                    frames[frames.count - 1] = .interpolation(parens: parens + 1, brackets: brackets)
                } else if c == UInt8(ascii: ")") {
                    if parens > 0 {
                        frames[frames.count - 1] = .interpolation(parens: parens - 1, brackets: brackets)
                    } else {
                        frames.removeLast()
                        while stack.count > brackets, let top = stack.popLast() { opens[top].close = i - 1 }
                    }
                }
            }
            if c == UInt8(ascii: "[") {
                opens.append(Open(position: i, depth: stack.count + 1, parent: stack.last, close: nil))
                stack.append(opens.count - 1)
            } else if c == UInt8(ascii: "]"), let top = stack.popLast() {
                opens[top].close = i
            }
            i += 1
        }
        func span(_ k: Int) -> (Int, Int) { (opens[k].position, (opens[k].close ?? end - 1) + 1) }
        var regions: [BlankedRegion] = []
        var k = 0
        while k < opens.count {
            guard opens[k].depth == limit + 1 else { k += 1; continue }
            var chosen = k
            var (from, to) = span(k)
            while opens[chosen].depth > 1, (1 << min(opens[chosen].depth - 1, 40)) * (to - from) > budget, let parent = opens[chosen].parent {
                chosen = parent
                (from, to) = span(parent)
            }
            var deepest = opens[k].depth
            while let last = regions.last, last.start >= from {
                deepest = max(deepest, last.depth)
                regions.removeLast()
            }
            while k < opens.count, opens[k].position < to {
                deepest = max(deepest, opens[k].depth)
                k += 1
            }
            regions.append(BlankedRegion(start: from, end: to, depth: deepest))
        }
        return regions
    }

    /// The data with every byte of the regions replaced by a space, line breaks kept: byte offsets,
    /// lines and columns outside the regions stay what they were.
    static func blank(_ data: Data, _ regions: [BlankedRegion]) -> Data {
        var bytes = [UInt8](data)
        let base = data.startIndex
        for r in regions {
            for k in r.start..<r.end where bytes[k - base] != UInt8(ascii: "\n") && bytes[k - base] != UInt8(ascii: "\r") {
                bytes[k - base] = UInt8(ascii: " ")
            }
        }
        return Data(bytes)
    }

    /// 1-based line of a byte offset.
    static func line(of offset: Int, in data: Data) -> Int {
        data[data.startIndex..<min(offset, data.endIndex)].reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    /// The text of possibly invalid UTF-8: invalid sequences become U+FFFD (as the compiler reads
    /// them); with the byte offset of the first one and how many there were.
    static func decode(_ data: Data) -> (text: String, firstInvalid: Int?, invalidCount: Int) {
        if let text = String(data: data, encoding: .utf8) { return (text, nil, 0) }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = data.makeIterator()
        var offset = data.startIndex
        var first: Int?
        var count = 0
        loop: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error(let length):
                if first == nil { first = offset }
                count += 1
                offset += length
            case .emptyInput: break loop
            }
        }
        return (String(decoding: data, as: UTF8.self), first, count)
    }

    /// Reads Swift source given as bytes (`--stdin-path`): `path` is the name used in locations.
    public mutating func add(path: String, data: Data) {
        let (file, diagnostics) = Self.parse(path, data: data)
        if let file { files.append(file) }
        self.diagnostics += diagnostics
    }

    /// One file read and parsed, with what went wrong; nil when it is skipped.
    static func read(_ path: String) -> (ParsedFile?, [Diagnostic]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            return (nil, [Diagnostic(severity: .error, message: "cannot read \(path)", location: nil)])
        }
        return parse(path, data: data)
    }

    static func parse(_ path: String, data original: Data) -> (ParsedFile?, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var data = original
        if data.count > Self.maximumFileSize {
            diagnostics.append(Diagnostic(severity: .warning,
                message: "skipped \(path): \(data.count) bytes is more than the \(Self.maximumFileSize)-byte limit",
                location: SourceLocation(file: path, line: 1, column: 1)))
            return (nil, diagnostics)
        }
        // a byte search on the buffer (`Data`'s own `contains` goes through its iterator, byte by byte)
        if data.withUnsafeBytes({ $0.count > 0 && memchr($0.baseAddress!, 0, $0.count) != nil }) {
            diagnostics.append(Diagnostic(severity: .warning, message: "skipped \(path): binary file (contains NUL bytes), not Swift source",
                                          location: SourceLocation(file: path, line: 1, column: 1)))
            return (nil, diagnostics)
        }
        let regions = Self.tooDeepRegions(data, limit: Self.maximumBracketDepth)
        for region in regions.prefix(3) {
            let first = Self.line(of: region.start, in: data), last = Self.line(of: region.end, in: data)
            diagnostics.append(Diagnostic(severity: .warning,
                message: "skipped \(first == last ? "part of line \(first)" : "lines \(first)-\(last)") of \(path): square brackets nest \(region.depth) deep there (more than \(Self.maximumBracketDepth)); the Swift parser's lookahead is exponential in that depth, so what is inside is read as empty; the rest of the file is read",
                location: SourceLocation(file: path, line: first, column: 1)))
        }
        if regions.count > 3 {
            diagnostics.append(Diagnostic(severity: .note, message: "\(regions.count - 3) more too-deep regions blanked in \(path)", location: nil))
        }
        if !regions.isEmpty { data = Self.blank(data, regions) }
        let (text, firstInvalid, invalidCount) = Self.decode(data)
        if let firstInvalid {
            let line = Self.line(of: firstInvalid, in: data)
            diagnostics.append(Diagnostic(severity: .warning,
                message: "\(path) is not valid UTF-8 (\(invalidCount) invalid byte sequence\(invalidCount == 1 ? "" : "s"), the first on line \(line)); read with U+FFFD in their place, as the compiler does",
                location: SourceLocation(file: path, line: line, column: 1)))
        }
        let file = ParsedFile(path: path, text: text)
        if file.tree.hasError {
            let errors: [(message: String, position: AbsolutePosition)] = Self.diagnosticsGeneratorWouldTrap(file.tree)
                ? PlainSyntaxErrors.find(in: file.tree)
                : ParseDiagnosticsGenerator.diagnostics(for: file.tree).map { ($0.message, $0.position) }
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

extension SourceSet {
    /// swift-syntax's diagnostics generator traps (a precondition in `FixIt.init`, swift-syntax 600–603)
    /// on an `=` the lexer finds spaced unevenly while the trivia on both sides holds a space: junk
    /// between a space and the `=` (`state \u{1}= .on`, or U+FFFD from an invalid byte) gives a Fix-It
    /// that changes nothing (found by the fuzz target; the whole tool crashed on such a file). Such a
    /// file gets its syntax errors from `PlainSyntaxErrors` instead.
    static func diagnosticsGeneratorWouldTrap(_ tree: SourceFileSyntax) -> Bool {
        tree.tokens(viewMode: .all).contains { $0.tokenDiagnostic?.kind == .equalMustHaveConsistentWhitespaceOnBothSides }
    }
}

/// Syntax errors read from the tree alone, in source order: missing tokens, unexpected code, and
/// tokens the lexer flagged. Plainer than swift-syntax's messages; used only where its generator
/// would trap.
final class PlainSyntaxErrors: SyntaxVisitor {
    private var errors: [(message: String, position: AbsolutePosition)] = []

    static func find(in tree: SourceFileSyntax) -> [(message: String, position: AbsolutePosition)] {
        let visitor = PlainSyntaxErrors(viewMode: .all)
        visitor.walk(tree)
        return visitor.errors
    }

    override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
        errors.append(("unexpected code '\(node.trimmedDescription.prefix(40))'", node.positionAfterSkippingLeadingTrivia))
        return .skipChildren
    }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        if token.presence == .missing {
            errors.append(("expected '\(token.text)'", token.positionAfterSkippingLeadingTrivia))
        } else if let flagged = token.tokenDiagnostic, flagged.severity == .error {
            errors.append(("unexpected text at '\(token.trimmedDescription.prefix(40))'", token.positionAfterSkippingLeadingTrivia))
        }
        return .skipChildren
    }
}
