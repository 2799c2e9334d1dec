@testable import MachineExtraction
import SwiftSyntax
import XCTest

/// A file's locations come from its own line table: the same lines and columns as swift-syntax's
/// `SourceLocationConverter` gives, at every token, whatever the line breaks.
final class LineTableTests: XCTestCase {
    func testEveryTokenIsWhereTheConverterPutsIt() {
        let text = "enum Mode { case idle, busy }\r\n// é 日本 — a comment of several bytes per character\r"
            + "struct S {\n\tvar mode: Mode = .idle\r\n\r\n  func f() { mode = .busy }\n}\r\n\"\"\"\r\nnot closed"
        let file = ParsedFile(path: "T.swift", text: text)
        let converter = SourceLocationConverter(fileName: "T.swift", tree: file.tree)
        var checked = 0
        for token in file.tree.tokens(viewMode: .sourceAccurate) {
            for position in [token.position, token.positionAfterSkippingLeadingTrivia, token.endPosition] {
                let expected = converter.location(for: position)
                let got = file.location(at: position)
                XCTAssertEqual([got.line, got.column], [expected.line, expected.column], "at offset \(position.utf8Offset)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 60)
        XCTAssertEqual(file.location(of: Array(file.tree.statements)[1]).line, 3)   // after the comment: leading trivia
    }
}
