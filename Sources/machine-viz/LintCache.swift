import Foundation
import MachineExtraction
import MachineModel

/// Whole-run result cache of `lint`: what extraction and analysis produced for a set of inputs, keyed
/// by the content of every Swift file read, their paths, the configuration file, the options that
/// change the result and the tool itself (version, and the executable's size and modification time, so
/// a rebuilt tool never reuses a result). A second `lint` of an unchanged tree reads and hashes the
/// files instead of parsing them; any change (one byte of one file) computes everything again.
struct LintCache {
    /// What `LintPipeline` computes from the files before suppressions, baselines and reporting.
    struct Entry: Codable {
        var violations: [Violation]
        var suppressions: [Suppression]
        var diagnostics: [Diagnostic]
        var machineNames: [String]
        var readFiles: Int
        var machines: Int
    }

    static let formatVersion = 2
    /// Entries kept in the folder; older ones are removed when a new one is written.
    static let keptEntries = 16

    let directory: URL

    /// `--cache-path`, else `.build/machine-viz-cache` when the current folder has a `.build` (a SwiftPM
    /// package), else no cache.
    static func resolve(path: String?, disabled: Bool) -> LintCache? {
        if disabled { return nil }
        if let path { return LintCache(directory: URL(fileURLWithPath: path)) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: ".build", isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return LintCache(directory: URL(fileURLWithPath: ".build/machine-viz-cache"))
    }

    /// The key of a run: 128 bits (two independent 64-bit FNV-1a hashes) over every input.
    static func key(files: [String], configurationFile: String?, options: [String]) -> String {
        var hasher = Hasher128()
        hasher.add("machine-viz-lint-cache \(formatVersion) \(MachineViz.configuration.version)")
        if let exe = Bundle.main.executablePath, let attributes = try? FileManager.default.attributesOfItem(atPath: exe) {
            hasher.add("\(exe) \(attributes[.size] ?? 0) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)")
        }
        hasher.add(FileManager.default.currentDirectoryPath)
        for option in options { hasher.add(option) }
        if let configurationFile {
            hasher.add(configurationFile)
            hasher.add(FileManager.default.contents(atPath: configurationFile) ?? Data("(unreadable)".utf8))
        }
        for file in files {
            hasher.add(file)
            hasher.add(FileManager.default.contents(atPath: file) ?? Data("(unreadable)".utf8))
        }
        return hasher.hex
    }

    func load(_ key: String) -> Entry? {
        guard let data = FileManager.default.contents(atPath: url(key).path) else { return nil }
        return try? JSONDecoder().decode(Entry.self, from: data)
    }

    /// Best effort: a cache that cannot be written is no cache, never an error.
    func store(_ entry: Entry, key: String) {
        let manager = FileManager.default
        guard (try? manager.createDirectory(at: directory, withIntermediateDirectories: true)) != nil,
              let data = try? JSONEncoder().encode(entry) else { return }
        try? data.write(to: url(key), options: .atomic)
        let entries = (try? manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.contentModificationDateKey]))?
            .filter { $0.lastPathComponent.hasPrefix("lint-") && $0.pathExtension == "json" } ?? []
        guard entries.count > Self.keptEntries else { return }
        let dated = entries.map { ($0, (try? $0.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast) }
        for (old, _) in dated.sorted(by: { $0.1 > $1.1 }).dropFirst(Self.keptEntries) { try? manager.removeItem(at: old) }
    }

    func url(_ key: String) -> URL { directory.appendingPathComponent("lint-\(key).json") }
}

/// A 128-bit key (not cryptographic): two 64-bit lanes over the bytes eight at a time, each a
/// multiply and a shift per word with its own constants; each added value is length-prefixed. (It was
/// FNV-1a byte by byte, a tenth of a warm `lint` of the TCA repository.)
struct Hasher128 {
    var a: UInt64 = 0xcbf2_9ce4_8422_2325
    var b: UInt64 = 0x6c62_272e_07bb_0142

    mutating func add(_ data: Data) {
        var a = self.a, b = self.b
        func mix(_ word: UInt64) {
            a = (a ^ word) &* 0x9e37_79b9_7f4a_7c15
            a ^= a >> 29
            b = (b &+ word) &* 0xc2b2_ae3d_27d4_eb4f
            b = (b << 31 | b >> 33) ^ word
        }
        mix(UInt64(data.count))
        data.withUnsafeBytes { raw in
            let count = raw.count
            var i = 0
            while i + 8 <= count {
                mix(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
                i += 8
            }
            if i < count {
                var tail: UInt64 = 0
                for k in i..<count { tail |= UInt64(raw[k]) << UInt64(8 * (k - i)) }
                mix(tail)
            }
        }
        // a last mix of each lane, so the final words reach every bit
        a = (a ^ a >> 33) &* 0xff51_afd7_ed55_8ccd
        a ^= a >> 33
        b = (b ^ b >> 33) &* 0xc4ce_b9fe_1a85_ec53
        b ^= b >> 33
        self.a = a
        self.b = b
    }

    mutating func add(_ text: String) { add(Data(text.utf8)) }

    var hex: String { String(format: "%016llx%016llx", a, b) }
}
