import Foundation
import SwiftParser
import SwiftSyntax

/// Which module each input file belongs to, decided as the build system would:
/// - inside a SwiftPM package (the nearest `Package.swift` above the file), the target whose folder
///   holds the file (`.target(name:path:)`, by default `Sources/<name>`, `Tests/<name>` for test targets);
/// - in a folder with an `.xcodeproj`/`.xcworkspace`, the top folder under it (an app target's sources);
/// - otherwise the top folder under the path given on the command line (under the package, for
///   files of a package outside its targets when the path given is above it), or, in a package's layout
///   without its manifest, the folder under `Sources/` or `Tests/`; files directly in a folder given
///   by name belong to that name (as given from above it), and files directly in `.`, and files given
///   one by one, form the unnamed module `""`. Modules guessed so from folders alone (no
///   manifest nor project above them) see each other when none of their files imports another of them:
///   they are then the folders of one app (`Models/`, `ViewModels/`), not modules;
/// - a file inside a documentation catalog (`X.docc/…`) is compiled by no target: each such file (a
///   tutorial's code listing, shown on its own) is a module of its own, `X.docc:<file name>`, so the
///   listings of successive tutorial steps, which declare the same types, do not see each other.
/// Module names decide which declarations see each other and are the first part of machine ids.
struct ModuleMap {
    private var packageTargets: [String: [(name: String, dir: String)]?] = [:]   // package root → targets
    private var markerCache: [String: String?] = [:]                            // dir → nearest project root
    /// Test targets' modules: those a manifest declares with `.testTarget`, and folders under `Tests/`
    /// in a package's layout without its manifest.
    private(set) var testModules: Set<String> = []

    /// The module of `file`, found from the argument path `root` it was listed under, and whether it was
    /// guessed from folders alone (no manifest nor project says it).
    mutating func module(of file: String, root: String) -> (name: String, guessed: Bool) {
        // the module is the folder's (the same for every file in it), or, in a documentation catalog,
        // the catalog's with the file's name: found once per folder and argument path (a code base has
        // thousands of files in hundreds of folders, and finding it asks the file system); byte
        // operations, as Foundation's path methods cost more than the rest of this together
        let slash = file.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { String(file[...$0]) } ?? ""
        let name = slash.map { String(file[file.index(after: $0)...]) } ?? file
        let key = folder + "\u{0}" + root
        let found: FolderModule
        if let known = folderModules[key] { found = known } else { found = find(file, root: root); folderModules[key] = found }
        switch found {
        case .module(let module): return (module, false)
        case .guessed(let module): return (module, true)
        case .catalog(let catalog): return ("\(catalog):\(Self.deletingExtension(name))", false)
        }
    }

    enum FolderModule { case module(String), guessed(String), catalog(String) }
    private var folderModules: [String: FolderModule] = [:]

    /// `Step-1.swift` → `Step-1` (a name that starts with its only dot has no extension).
    static func deletingExtension(_ name: String) -> String {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    private mutating func find(_ file: String, root: String) -> FolderModule {
        let absolute = URL(fileURLWithPath: file).standardizedFileURL.path
        let folders = absolute.utf8.split(separator: UInt8(ascii: "/")).dropLast()
        if let catalog = folders.last(where: { $0.count >= 5 && $0.suffix(5).elementsEqual(".docc".utf8) }) {
            return .catalog(String(decoding: catalog, as: UTF8.self))
        }
        let dir = (absolute as NSString).deletingLastPathComponent
        let project = projectRoot(above: dir)
        if let project, FileManager.default.fileExists(atPath: project + "/Package.swift"),
           let target = targets(ofPackage: project).filter({ absolute.hasPrefix($0.dir + "/") }).max(by: { $0.dir.count < $1.dir.count }) {
            return .module(target.name)
        }
        // an Xcode project's folder: its top folders are its targets; outside every package target:
        // the top folder under the given path (or under the package, when the path given is above it)
        var base = URL(fileURLWithPath: root).standardizedFileURL.path
        if let project {
            let isPackage = FileManager.default.fileExists(atPath: project + "/Package.swift")
            if !isPackage || !(base + "/").hasPrefix(project + "/") { base = project }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: base, isDirectory: &isDirectory), isDirectory.boolValue else { return .module("") }
        let top = topFolder(of: absolute, under: base)
        // a package's layout without its manifest (`Sources/Oven/…`, `Tests/OvenTests/…`): SwiftPM's default
        // target folders
        if project == nil, top == "Sources" || top == "Tests" {
            let target = topFolder(of: absolute, under: base + "/" + top)
            if !target.isEmpty {
                if top == "Tests" { testModules.insert(target) }
                return .guessed(target)
            }
        }
        // (files directly in a folder given by name: its own name, as `lint .` above it names them; not `.`
        // or `..`, whose name is where the user happens to stand)
        if project == nil, top.isEmpty, ![".", "..", ""].contains((root as NSString).lastPathComponent), base != "/" {
            return .guessed((base as NSString).lastPathComponent)
        }
        return project == nil ? .guessed(top) : .module(top)
    }

    /// `root/A/B/x.swift` → `A`; `root/x.swift` → `` (the unnamed module of the loose files given).
    private func topFolder(of file: String, under root: String) -> String {
        guard file.hasPrefix(root + "/") else { return "" }
        let rest = file.dropFirst(root.count + 1).split(separator: "/")
        return rest.count > 1 ? String(rest[0]) : ""
    }

    /// The nearest folder at or above `dir` that holds a `Package.swift`, an `.xcodeproj` or an `.xcworkspace`.
    private mutating func projectRoot(above dir: String) -> String? {
        if let cached = markerCache[dir] { return cached }
        var found: String?
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        if entries.contains(where: { $0 == "Package.swift" || $0.hasSuffix(".xcodeproj") || $0.hasSuffix(".xcworkspace") }) {
            found = dir
        } else if dir != "/" && !dir.isEmpty {
            found = projectRoot(above: (dir as NSString).deletingLastPathComponent)
        }
        markerCache[dir] = found
        return found
    }

    /// The targets a `Package.swift` declares, read with swift-syntax (the manifest is never run).
    private mutating func targets(ofPackage root: String) -> [(name: String, dir: String)] {
        if let cached = packageTargets[root] { return cached ?? [] }
        var result: [(name: String, dir: String)] = []
        if let data = FileManager.default.contents(atPath: root + "/Package.swift"), let text = String(data: data, encoding: .utf8) {
            let finder = TargetFinder()
            finder.walk(Parser.parse(source: text))
            for t in finder.targets {
                let relative = t.path ?? ((t.isTest ? "Tests/" : "Sources/") + t.name)
                if t.isTest { testModules.insert(t.name) }
                let dir = URL(fileURLWithPath: root + "/" + relative).standardizedFileURL.path
                result.append((t.name, dir.hasSuffix("/") ? String(dir.dropLast()) : dir))
            }
        }
        packageTargets[root] = result
        return result
    }

    final class TargetFinder: SyntaxVisitor {
        var targets: [(name: String, path: String?, isTest: Bool)] = []
        static let kinds: Set<String> = ["target", "executableTarget", "testTarget", "macro", "plugin", "systemLibrary", "binaryTarget"]
        init() { super.init(viewMode: .sourceAccurate) }
        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            guard let member = node.calledExpression.as(MemberAccessExprSyntax.self),
                  Self.kinds.contains(member.declName.baseName.text),
                  let name = Self.string(node, "name") else { return .visitChildren }
            targets.append((name, Self.string(node, "path"), member.declName.baseName.text == "testTarget"))
            return .visitChildren
        }
        static func string(_ call: FunctionCallExprSyntax, _ label: String) -> String? {
            guard let e = call.arguments.first(where: { $0.label?.text == label })?.expression.as(StringLiteralExprSyntax.self),
                  e.segments.count == 1, let s = e.segments.first?.as(StringSegmentSyntax.self) else { return nil }
            return s.content.text
        }
    }
}
