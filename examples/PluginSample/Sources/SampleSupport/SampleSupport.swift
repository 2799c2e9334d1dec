import SwiftParser
import SwiftSyntax
import Yams

/// Stands for what an app does with its own swift-syntax and Yams (macros, settings files): the
/// versions it resolves are the ones machine-viz has to build against.
public enum SampleSupport {
    /// The names of the top-level types declared in `source`.
    public static func typeNames(in source: String) -> [String] {
        Parser.parse(source: source).statements.compactMap { item in
            item.item.as(StructDeclSyntax.self)?.name.text ?? item.item.as(EnumDeclSyntax.self)?.name.text
        }
    }

    /// The top-level keys of a YAML mapping.
    public static func keys(ofYAML text: String) throws -> [String] {
        ((try Yams.load(yaml: text)) as? [String: Any]).map { $0.keys.sorted() } ?? []
    }
}
