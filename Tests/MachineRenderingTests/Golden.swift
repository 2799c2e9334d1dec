import Foundation
import XCTest

/// Exact-text golden files in `Tests/MachineRenderingTests/Golden/`. A mismatch fails with a line
/// diff; `MACHINE_VIZ_RECORD=1 swift test …` re-records the files instead (never silently).
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func assertMatches(_ actual: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let url = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["MACHINE_VIZ_RECORD"] == "1" {
            try! Data(actual.utf8).write(to: url)
            print("recorded \(url.path)")
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            XCTFail("no golden file \(name); run with MACHINE_VIZ_RECORD=1 to record it", file: file, line: line)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        if expected != actual {
            XCTFail("\(name) differs from the golden file (re-record with MACHINE_VIZ_RECORD=1):\n" + diff(expected, actual),
                    file: file, line: line)
        }
    }

    /// The same check, in the spelling the Mermaid and Markdown tests use.
    static func assert(_ actual: String, named name: String, file: StaticString = #filePath, line: UInt = #line) {
        assertMatches(actual, name, file: file, line: line)
    }

    /// A plain line diff: `-` golden, `+` actual, for the lines that differ.
    static func diff(_ expected: String, _ actual: String) -> String {
        let a = expected.components(separatedBy: "\n"), b = actual.components(separatedBy: "\n")
        var out: [String] = []
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? a[i] : nil, y = i < b.count ? b[i] : nil
            if x != y {
                if let x { out.append("\(i + 1) - \(x)") }
                if let y { out.append("\(i + 1) + \(y)") }
            }
        }
        return out.joined(separator: "\n")
    }
}
