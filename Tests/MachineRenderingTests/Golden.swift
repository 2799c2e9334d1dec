import Foundation
import XCTest

/// Exact-text golden files in `Golden/` (a bundle resource). A mismatch fails with a line diff.
/// `MACHINE_VIZ_RECORD=1 swift test --filter MachineRenderingTests` rewrites the files in the source
/// tree (and fails once, so a recording run is never mistaken for a passing one).
enum Golden {
    static var recording: Bool { ProcessInfo.processInfo.environment["MACHINE_VIZ_RECORD"] == "1" }

    static var sourceFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    }

    static func assert(_ actual: String, named name: String, file: StaticString = #filePath, line: UInt = #line) {
        let bundled = Bundle.module.url(forResource: "Golden", withExtension: nil)?.appendingPathComponent(name)
        let expected = bundled.flatMap { try? String(contentsOf: $0, encoding: .utf8) }
        if recording {
            let onDisk = try? String(contentsOf: sourceFolder.appendingPathComponent(name), encoding: .utf8)
            guard onDisk != actual else { return }
            do {
                try actual.write(to: sourceFolder.appendingPathComponent(name), atomically: true, encoding: .utf8)
                XCTFail("re-recorded Golden/\(name); run the tests again without MACHINE_VIZ_RECORD", file: file, line: line)
            } catch {
                XCTFail("cannot record Golden/\(name): \(error)", file: file, line: line)
            }
            return
        }
        guard let expected else {
            XCTFail("no golden file Golden/\(name); record it with MACHINE_VIZ_RECORD=1", file: file, line: line)
            return
        }
        if expected != actual {
            XCTFail("Golden/\(name) differs (re-record with MACHINE_VIZ_RECORD=1 if the change is intended):\n"
                    + diff(expected, actual), file: file, line: line)
        }
    }

    /// A minimal line diff: `-` expected, `+` actual, with the line number; common lines omitted.
    static func diff(_ expected: String, _ actual: String) -> String {
        let a = expected.components(separatedBy: "\n"), b = actual.components(separatedBy: "\n")
        // Longest common subsequence table; golden files are small.
        var lcs = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var out: [String] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] { i += 1; j += 1 }
            else if j < b.count, i == a.count || lcs[i][j + 1] >= lcs[i + 1][j] { out.append("+\(j + 1): \(b[j])"); j += 1 }
            else { out.append("-\(i + 1): \(a[i])"); i += 1 }
        }
        return out.joined(separator: "\n")
    }
}
