import MachineModel
import SwiftSyntax

/// Reads `// machine-viz:…` commands from comments (swift-syntax trivia).
///
/// Recognised commands (the comment must start with `machine-viz:`):
/// - `machine-viz:disable CHECK[, CHECK…] [- reason]` for the whole file,
/// - `machine-viz:disable:next CHECK…` for the next line that holds code,
/// - `machine-viz:disable:this CHECK…` for the comment's own line,
/// - `machine-viz:disable:previous CHECK…` for the last line of code before the comment,
/// - `machine-viz: terminal` and `machine-viz: initial`, markers on enum cases (applied by the extractor),
/// - `machine-viz: invariant EXPR` in a struct state's declaration (read with the product of its fields).
/// Anything else after `machine-viz:` is reported as a diagnostic.
public enum CommentCommands {
    public struct Result: Sendable {
        public var suppressions: [Suppression] = []
        /// Lines holding a `terminal` / `initial` marker, by file.
        public var markers: [Marker] = []
        public var diagnostics: [Diagnostic] = []
    }

    public struct Marker: Hashable, Sendable {
        public var word: String
        public var location: MachineModel.SourceLocation
    }

    public static func scan(_ files: [ParsedFile]) -> Result {
        var result = Result()
        for file in files { scan(file, into: &result) }
        return result
    }

    static func scan(_ file: ParsedFile, into result: inout Result) {
        var comments: [(text: String, location: SourceLocation)] = []
        var codePositions: [AbsolutePosition] = []
        for token in file.tree.tokens(viewMode: .sourceAccurate) {
            var position = token.position
            for piece in token.leadingTrivia {
                collect(piece, at: position, file: file, into: &comments)
                position = position.advanced(by: piece.sourceLength.utf8Length)
            }
            if token.tokenKind != .endOfFile { codePositions.append(token.positionAfterSkippingLeadingTrivia) }
            position = token.endPositionBeforeTrailingTrivia
            for piece in token.trailingTrivia {
                collect(piece, at: position, file: file, into: &comments)
                position = position.advanced(by: piece.sourceLength.utf8Length)
            }
        }
        guard !comments.isEmpty else { return }
        // Lines that hold code, for `disable:next` / `disable:previous` (computed only when needed).
        let codeLines = Array(Set(codePositions.map { file.location(at: $0).line })).sorted()
        for (text, location) in comments {
            switch parse(text) {
            case .none:
                continue
            case .marker(let word):
                result.markers.append(Marker(word: word, location: location))
            case .suppression(let scope, let checks, let reason):
                let line: Int?
                switch scope {
                case .file: line = nil
                case .this: line = location.line
                case .next: line = codeLines.first { $0 > location.line } ?? location.line + 1
                case .previous: line = codeLines.last { $0 < location.line } ?? max(1, location.line - 1)
                }
                result.suppressions.append(Suppression(scope: scope, checks: checks, reason: reason, location: location, line: line))
            case .invalid(let message):
                result.diagnostics.append(Diagnostic(severity: .warning, message: message, location: location))
            }
        }
    }

    static func collect(_ piece: TriviaPiece, at position: AbsolutePosition, file: ParsedFile,
                        into comments: inout [(text: String, location: SourceLocation)]) {
        switch piece {
        case .lineComment(let text), .blockComment(let text):
            guard text.contains("machine-viz") else { return }
            comments.append((text, file.location(at: position)))
        default:
            return
        }
    }

    enum Command: Equatable {
        case marker(String)
        case suppression(Suppression.Scope, [String], String?)
        case invalid(String)
    }

    /// The expression of a `// machine-viz: invariant EXPR` comment.
    static func invariantText(_ comment: String) -> String? {
        var body = Substring(comment)
        guard body.hasPrefix("//") else { return nil }
        body = body.dropFirst(2).drop { $0 == " " || $0 == "\t" }
        guard body.hasPrefix("machine-viz:") else { return nil }
        body = body.dropFirst("machine-viz:".count).drop { $0 == " " || $0 == "\t" }
        guard body.hasPrefix("invariant ") || body.hasPrefix("invariant\t") else { return nil }
        let text = body.dropFirst("invariant".count).drop { $0 == " " || $0 == "\t" }.trimmingTrailingWhitespace()
        return text.isEmpty ? nil : String(text)
    }

    /// Parses one comment's text (with its `//` or `/* */`). Nil when it is not a command.
    static func parse(_ comment: String) -> Command? {
        var body = Substring(comment)
        if body.hasPrefix("//") {
            body = body.dropFirst(2)
        } else if body.hasPrefix("/*") {
            body = body.dropFirst(2)
            if body.hasSuffix("*/") { body = body.dropLast(2) }
        }
        body = body.drop { $0 == " " || $0 == "\t" }
        guard body.hasPrefix("machine-viz:") else { return nil }
        body = body.dropFirst("machine-viz:".count).drop { $0 == " " || $0 == "\t" }
        let text = body.trimmingTrailingWhitespace()
        let word = String(text.prefix { !$0.isWhitespace && $0 != "," })
        if word == "terminal" || word == "initial" { return .marker(word) }
        if word == "invariant" { return nil }
        guard let scope = Suppression.Scope(rawValue: word) else {
            let known = Suppression.Scope.allCases.map(\.rawValue) + ["terminal", "initial", "invariant"]
            return .invalid("unknown machine-viz command '\(word)'; expected one of: \(known.joined(separator: ", "))")
        }
        var rest = text.dropFirst(word.count)
        var reason: String?
        if let dash = rest.range(of: " - ") ?? rest.range(of: "\t- ") {
            let r = rest[dash.upperBound...].trimmingTrailingWhitespace().drop { $0 == " " }
            reason = r.isEmpty ? nil : String(r)
            rest = rest[..<dash.lowerBound]
        }
        let checks = rest.split { $0 == "," || $0.isWhitespace }.map(String.init)
        if checks.isEmpty {
            return .invalid("machine-viz:\(word) names no check; write e.g. `machine-viz:\(word) dead_end_state - reason` (or `all`)")
        }
        return .suppression(scope, checks, reason)
    }
}

extension Substring {
    func trimmingTrailingWhitespace() -> Substring {
        var s = self
        while let last = s.last, last.isWhitespace { s = s.dropLast() }
        return s
    }
}
